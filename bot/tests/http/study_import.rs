//! Game import and annotations over HTTP: an `.otg` with a variation and comments, an archive
//! move list, an illegal record refused at its first bad move, and annotations that go out
//! with the game's `.otg` and come back in when it is imported.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, TestApp, checked};
use crate::web_tournaments::{get as web_get, post as web_post, session};

fn brandubh_rules() -> String {
    tafl_engine::variant("brandubh")
        .unwrap()
        .rules()
        .to_opentafl()
}

/// A Brandubh game with comments on both sides' moves and a variation off the defenders'
/// second move (inside it, another); the attackers resigned.
fn annotated_otg() -> String {
    format!(
        "[event:Brandub club evening]\n[attackers:Xerxes]\n[defenders:Animals]\n[resigned:attackers]\n[rules:{}]\n\n\
1. d2-e2 c4-c5\n\
[The attackers open to the east.|]\n\
2. f4-f5 c5-a5\n\
2b.1.1a. ..... c5-c6\n\
[|Quieter.]\n\
2b.1.2a. f5-f6 d5-b5\n\
2b.1.2a.1.1a. f5-e5\n\
3. d6-a6xa5 d5-a5xa6\n\
[|Trading back.]\n\
4. f5-d5\n",
        brandubh_rules()
    )
}

/// The same opening as an archive lists it, with a capture as a word of its own.
pub(crate) const ARCHIVE_MOVES: &str = "[Attackers \"Xerxes\"]\n[Defenders \"Animals\"]\n\n\
1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6 xa5 d5-a5xa6\n4. f5-d5 0-1\n";

/// Sends `text` as a text/plain record to the import route; the contract judges the answer.
pub(crate) async fn import(
    app: &TestApp,
    who: &Player,
    query: &str,
    text: &str,
) -> (StatusCode, Value) {
    let path = format!("/games/import{query}");
    let response = app
        .client
        .post(app.url(&path))
        .bearer_auth(&who.token)
        .header("content-type", "text/plain; charset=utf-8")
        .body(text.to_owned())
        .send()
        .await
        .unwrap();
    let response = checked(&Method::POST, &format!("/api/v1{path}"), response).await;
    let status = response.status();
    (status, response.json().await.unwrap())
}

async fn export(app: &TestApp, who: &Player, game: i64) -> String {
    let response = app
        .client
        .get(app.url(&format!("/games/{game}/export")))
        .bearer_auth(&who.token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}

#[tokio::test]
async fn an_otg_record_with_a_variation_and_comments_becomes_a_finished_public_game() {
    let app = TestApp::start().await;
    let ann = app.register("Ann").await;
    let (status, imported) = import(&app, &ann, "", &annotated_otg()).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["format"], "otg");
    assert_eq!(imported["variant"], "brandubh");
    assert_eq!(imported["plies"], 7);
    assert_eq!(imported["winner"], "defenders");
    assert_eq!(imported["reason"], "resignation");
    assert_eq!(imported["annotations"], 3, "two comments and a variation");
    let id = imported["game_id"].as_i64().unwrap();

    // Anyone sees it: finished, unrated, the players as names and not accounts.
    let game = app
        .call(
            Method::GET,
            &format!("/games/{id}"),
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(game["status"], "finished");
    assert_eq!(game["attackers"], json!({ "name": "Xerxes" }), "{game}");
    assert_eq!(game["defenders"], json!({ "name": "Animals" }), "{game}");
    assert_eq!(game["result"]["reason"], "resignation");

    let notes = app
        .call(
            Method::GET,
            &format!("/games/{id}/annotations"),
            None,
            None,
            StatusCode::OK,
        )
        .await;
    let notes = notes.as_array().unwrap();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert_eq!(notes[0]["ply"], 1);
    assert_eq!(notes[0]["comment"], "The attackers open to the east.");
    assert_eq!(notes[0]["role"], "record");
    assert_eq!(notes[1]["ply"], 4);
    let variation = &notes[1]["variation"];
    assert_eq!(variation[0]["move"], "c5-c6");
    assert_eq!(variation[0]["comment"], "Quieter.");
    assert_eq!(variation[1]["variations"][0][0]["move"], "f5-e5");
    assert_eq!(notes[2]["ply"], 6);

    // The export carries the record's tags, comments and variations.
    let text = export(&app, &ann, id).await;
    assert!(text.contains("[event:Brandub club evening]"), "{text}");
    assert!(text.contains("2b.1.1a. ..... c5-c6"), "{text}");
    assert!(text.contains("2b.1.2a.1.1a. f5-e5"), "{text}");
    assert!(text.contains("Trading back."), "{text}");
}

#[tokio::test]
async fn an_archive_move_list_is_imported_for_the_variant_named() {
    let app = TestApp::start().await;
    let ann = app.register("Ann").await;
    let (status, imported) =
        import(&app, &ann, "?format=moves&variant=brandubh", ARCHIVE_MOVES).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["format"], "moves");
    assert_eq!(imported["plies"], 7);
    assert_eq!(imported["attackers"], "Xerxes");
    assert_eq!(
        imported["winner"], "defenders",
        "0-1: the side that moved second won"
    );
    // It was not played here: the opening explorer, which says how games here went, does
    // not count it.
    let explorer = app.get("/explorer/brandubh?moves=d2-e2", &ann.token).await;
    assert_eq!(explorer["games"], 0, "{explorer}");
    assert_eq!(explorer["moves"], json!([]), "{explorer}");
    // Detected as a move list without ?format=, but its variant must be named.
    let (status, refused) = import(&app, &ann, "", ARCHIVE_MOVES).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("name its variant"),
        "{refused}"
    );
}

#[tokio::test]
async fn an_illegal_record_is_refused_at_its_first_bad_move_with_the_reason() {
    let app = TestApp::start().await;
    let ann = app.register("Ann").await;
    let illegal = ARCHIVE_MOVES.replace("4. f5-d5", "4. d4-d5");
    let (status, refused) = import(&app, &ann, "?variant=brandubh", &illegal).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert_eq!(refused["error"]["code"], "illegal_move");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("move 7 (d4-d5)") && message.contains("not yours"),
        "{message}"
    );
    let (status, refused) =
        import(&app, &ann, "", &annotated_otg().replace("f5-e5", "d4-d3")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("move 5 (d4-d3)"),
        "a variation's illegal move is named too: {refused}"
    );
    // Nothing was stored.
    let (status, _) = import(&app, &ann, "?variant=nosuch", ARCHIVE_MOVES).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_import_refuses_unplayable_rules_in_the_words_a_challenge_gets() {
    let app = TestApp::start().await;
    let ann = app.register("Ann").await;
    let bo = app.register("Bo").await;
    let start = "start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
    // (the rules, words the refusal must hold)
    let unplayable = [
        (
            "dim:7 start:/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/".to_owned(),
            "no king",
        ),
        (
            format!("dim:7 esc:c ks:w esc:c {start}"),
            "\"esc\" is given twice",
        ),
        (format!("dim:7 cor:d4, {start}"), "a winning square"),
    ];
    for (rules, words) in unplayable {
        let challenge = app
            .send(
                Method::POST,
                "/challenges",
                Some(&ann.token),
                Some(json!({ "opponent_id": bo.id, "rules": rules, "side": "attackers" })),
            )
            .await;
        let challenge_status = challenge.status();
        let challenge: Value = challenge.json().await.unwrap();
        assert_eq!(
            challenge_status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{rules}: {challenge}"
        );
        let message = challenge["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{rules}: {message}");
        let record = format!("[resigned:attackers]\n[rules:{rules}]\n\n1. d2-e2\n");
        let (status, imported) = import(&app, &ann, "", &record).await;
        assert_eq!(
            (status, &imported["error"]),
            (challenge_status, &challenge["error"]),
            "{rules}: the import is refused as the challenge is"
        );
    }
    // Nothing was stored: the first import that is taken is game 1.
    let (status, imported) = import(&app, &ann, "", &annotated_otg()).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["game_id"], 1, "{imported}");
}

#[tokio::test]
async fn annotations_of_a_played_game_round_trip_through_its_otg() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("tablut").await;
    let line = ["d1-a1", "d5-d1", "a1-b1", "e5-d5", "b1-c1", "d5-d1"];
    let path = format!("/games/{game}/annotations");
    // Not while it is being played.
    app.play_line(game, &a, &b, &line[..2]).await;
    app.call(
        Method::POST,
        &path,
        Some(&a.token),
        Some(json!({ "ply": 1, "comment": "too early" })),
        StatusCode::CONFLICT,
    )
    .await;
    app.play_line(game, &a, &b, &line[2..]).await;

    let comment = app
        .call(
            Method::POST,
            &path,
            Some(&a.token),
            Some(json!({ "ply": 2, "comment": "The king's men [block] the file | for now." })),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(comment["role"], "player");
    assert_eq!(comment["author"], "A");
    // A variation instead of move 3, checked by the referee.
    let before = tafl_engine::Game::replay(
        tafl_engine::variant("tablut").unwrap().rules(),
        tafl_engine::variant("tablut")
            .unwrap()
            .rules()
            .start_position(),
        &[
            tafl_engine::Move::parse("d1-a1", 9).unwrap(),
            tafl_engine::Move::parse("d5-d1", 9).unwrap(),
        ],
    )
    .unwrap();
    let other = before
        .legal_moves()
        .into_iter()
        .find(|m| m.to_string() != "a1-b1")
        .unwrap()
        .to_string();
    app.call(
        Method::POST,
        &path,
        Some(&b.token),
        Some(json!({ "ply": 3, "variation": [other], "comment": "Better?" })),
        StatusCode::CREATED,
    )
    .await;
    let refused = app
        .call(
            Method::POST,
            &path,
            Some(&b.token),
            Some(json!({ "ply": 3, "variation": ["e5-e1"] })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert_eq!(refused["error"]["code"], "illegal_move", "{refused}");
    let outsider = app.register("Cy").await;
    app.call(
        Method::POST,
        &path,
        Some(&outsider.token),
        Some(json!({ "ply": 3, "comment": "hm" })),
        StatusCode::FORBIDDEN,
    )
    .await;

    // Out with the .otg, and back in as an imported game with the same annotations.
    let text = export(&app, &a, game).await;
    let (status, imported) = import(&app, &outsider, "", &text).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}\n{text}");
    assert_eq!(imported["annotations"], 2);
    let again = app
        .get(
            &format!("/games/{}/annotations", imported["game_id"]),
            &outsider.token,
        )
        .await;
    assert_eq!(
        again[0]["comment"], "The king's men (block) the file / for now.",
        "{again}"
    );
    assert_eq!(again[1]["ply"], 3);
    // Stored with its captures, as the referee writes it.
    let first = again[1]["variation"][0]["move"].as_str().unwrap();
    assert!(first.starts_with(&other), "{first} is {other}");
    assert_eq!(again[1]["variation"][0]["comment"], "Better?");
    assert_eq!(imported["attackers"], "A");
    assert_eq!(imported["defenders"], "B");
}

#[tokio::test]
async fn the_web_import_form_refuses_in_place_and_the_game_page_shows_and_takes_notes() {
    let app = TestApp::start().await;
    let ann = app.register("Ann").await;
    let web = session(&app, &ann).await;
    let (status, page) = web_get(&app, Some(&web), "/games/import").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Import a game"), "{page}");

    let illegal = ARCHIVE_MOVES.replace("4. f5-d5", "4. d4-d5");
    let (status, _, page) = web_post(
        &app,
        &web,
        "/games/import",
        &[("record", illegal.as_str()), ("variant", "brandubh")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("move 7 (d4-d5)"),
        "the refusal in place: {page}"
    );
    assert!(page.contains("4. d4-d5 0-1"), "the record kept: {page}");

    let (status, to, _) = web_post(
        &app,
        &web,
        "/games/import",
        &[("record", ARCHIVE_MOVES), ("variant", "brandubh")],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let game = to.unwrap();
    let (_, page) = web_get(&app, Some(&web), &game).await;
    assert!(page.contains("Imported from a move list"), "{page}");
    assert!(
        page.contains("annotate-form"),
        "the importer may annotate: {page}"
    );

    let (status, to, _) = web_post(
        &app,
        &web,
        &format!("{game}/annotate"),
        &[
            ("ply", "2"),
            ("comment", "A sharp reply."),
            ("variation", ""),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER, "{to:?}");
    let (_, page) = web_get(&app, None, &game).await;
    assert!(
        page.contains("A sharp reply."),
        "anyone reads the notes: {page}"
    );
    assert!(!page.contains("annotate-form"), "but only some write them");
}

/// The value of `data-NAME="..."` in `html` (the first one), its `&amp;` read back.
fn data_of(html: &str, name: &str) -> String {
    let key = format!("data-{name}=\"");
    let start = html
        .find(&key)
        .unwrap_or_else(|| panic!("no data-{name} in {html}"))
        + key.len();
    html[start..start + html[start..].find('"').unwrap()].replace("&amp;", "&")
}

/// The `href` of the first link of class `class`.
fn link_of_class(html: &str, class: &str) -> String {
    let key = format!("class=\"{class}\" href=\"");
    let start = html
        .find(&key)
        .unwrap_or_else(|| panic!("no {class} link in {html}"))
        + key.len();
    html[start..start + html[start..].find('"').unwrap()].replace("&amp;", "&")
}

#[tokio::test]
async fn a_games_notes_follow_the_analysis_board_move_by_move_and_open_its_variations() {
    let app = TestApp::start().await;
    let ann = app.register("Ann").await;
    let (status, imported) = import(&app, &ann, "", &annotated_otg()).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    let id = &imported["game_id"];

    // Opened from the game at its first move: the comment on that move, and where the others are.
    let (status, page) = web_get(&app, None, &format!("/analysis?game={id}&ply=1")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(data_of(&page, "ply"), "1", "{page}");
    assert!(page.contains("The attackers open to the east."), "{page}");
    assert!(page.contains("Notes on moves: "), "{page}");
    let link = data_of(&page, "link");
    assert!(link.ends_with(&format!("&at=1&notes={id}")), "{link}");

    // Each step keeps the game: the board part at move 4 lists the variation instead of it.
    let at = |n: usize| {
        format!(
            "/analysis/board?{}",
            link.trim_start_matches("/analysis?")
                .replace("&at=1&", &format!("&at={n}&"))
        )
    };
    let (status, fourth) = web_get(&app, None, &at(4)).await;
    assert_eq!(status, StatusCode::OK, "{fourth}");
    assert_eq!(data_of(&fourth, "ply"), "4");
    assert!(fourth.contains("instead: "), "{fourth}");
    assert!(fourth.contains("c5-c6"), "{fourth}");
    assert!(!fourth.contains("The attackers open"), "{fourth}");
    let (_, fifth) = web_get(&app, None, &at(5)).await;
    assert!(fifth.contains("No notes on move 5."), "{fifth}");
    let (_, sixth) = web_get(&app, None, &at(6)).await;
    assert!(sixth.contains("Trading back."), "{sixth}");

    // The variation opens on the board: a branch before move 4, shown at its end, which is
    // not one of the game's positions; the notes stay with the board.
    let open = link_of_class(&fourth, "open-variation");
    let (status, line) = web_get(
        &app,
        None,
        &format!("/analysis/board?{}", open.trim_start_matches("/analysis?")),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{line}");
    assert!(
        line.contains("role=\"group\" aria-label=\"Variation\""),
        "{line}"
    );
    assert!(
        line.contains("The position shown is not one of the game's."),
        "{line}"
    );
    assert!(data_of(&line, "link").ends_with(&format!("&notes={id}")));

    // A board that does not name the game shows no notes.
    let (_, plain) = web_get(&app, None, &at(1).replace(&format!("&notes={id}"), "")).await;
    assert!(!plain.contains("board-notes"), "{plain}");
}
