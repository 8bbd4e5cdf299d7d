//! Handles: unique (also under concurrent registration), case-insensitive, chosen or made from
//! the name; finding players; challenging by handle.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;

async fn register_with(app: &TestApp, body: Value) -> (StatusCode, Value) {
    let r = app.send(Method::POST, "/players", None, Some(body)).await;
    let status = r.status();
    (status, r.json().await.unwrap())
}

#[tokio::test]
async fn handles_stay_unique_under_concurrent_registration() {
    let app = TestApp::start().await;
    // Twenty people called "Ada" at once: each gets a handle of their own, made from the name.
    let derived = futures_util::future::join_all(
        (0..20).map(|_| register_with(&app, json!({ "name": "Ada" }))),
    )
    .await;
    let mut handles: Vec<String> = derived
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, StatusCode::CREATED, "{body}");
            assert_eq!(body["player"]["name"], "Ada");
            body["player"]["handle"].as_str().unwrap().to_owned()
        })
        .collect();
    handles.sort();
    handles.dedup();
    assert_eq!(handles.len(), 20, "{handles:?}");
    assert!(handles.contains(&"ada".to_owned()) && handles.contains(&"ada20".to_owned()));

    // Ten ask for the same handle at once, in different cases: exactly one gets it.
    let asked = futures_util::future::join_all((0..10).map(|i| {
        let handle = if i % 2 == 0 { "Bo" } else { "bo" };
        register_with(&app, json!({ "name": format!("bo {i}"), "handle": handle }))
    }))
    .await;
    let won: Vec<&Value> = asked
        .iter()
        .filter(|(s, _)| *s == StatusCode::CREATED)
        .map(|(_, b)| b)
        .collect();
    assert_eq!(won.len(), 1, "{asked:?}");
    assert_eq!(won[0]["player"]["handle"], "bo");
    for (status, body) in asked.iter().filter(|(s, _)| *s != StatusCode::CREATED) {
        assert_eq!(*status, StatusCode::CONFLICT, "{body}");
        assert_eq!(
            body["error"]["message"],
            "the handle \"bo\" is taken; choose another"
        );
    }
}

#[tokio::test]
async fn a_handle_must_follow_the_rule_and_the_refusal_says_which() {
    let app = TestApp::start().await;
    for (handle, says) in [
        ("a", "2 to 24 characters"),
        ("1ada", "start with a letter"),
        ("ada lovelace", "may only hold letters"),
        ("Admin", "reserved"),
        ("everyone", "reserved"),
        // The AI levels' players on the leaderboards: nobody may pass for one.
        ("taflbot-ai-level-3", "the bot's own"),
    ] {
        let (status, body) = register_with(&app, json!({ "name": "x", "handle": handle })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{handle}: {body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{handle}: {message}");
    }
    // A name that makes no handle of its own still registers.
    let (status, body) = register_with(&app, json!({ "name": "@@@" })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["player"]["handle"], "player");
    // Nor does a name that reads as the bot's: no handle made from it does.
    let (status, body) = register_with(&app, json!({ "name": "taflbot AI level 3" })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["player"]["handle"], "player2");
}

#[tokio::test]
async fn players_are_found_by_handle_and_prefix_without_a_token() {
    let app = TestApp::start().await;
    let ada = app.register("Ada Lovelace").await;
    let found = app
        .call(
            Method::GET,
            "/players/ADA_lovelace",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(found["id"], ada.id);
    assert_eq!(found["handle"], "ada_lovelace");
    let missing = app
        .call(
            Method::GET,
            "/players/nobody",
            None,
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert_eq!(
        missing["error"]["message"],
        "no player has the handle \"nobody\""
    );

    for i in 0..52 {
        app.register(&format!("zed {i:02}")).await;
    }
    app.register("zara").await;
    let first = app
        .call(
            Method::GET,
            "/players?prefix=Zed",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(first["page_size"], 50);
    assert_eq!(first["items"].as_array().unwrap().len(), 50);
    assert_eq!(first["items"][0]["handle"], "zed_00");
    assert_eq!(first["next_page"], 2);
    let second = app
        .call(
            Method::GET,
            "/players?prefix=zed&page=2",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    let rest: Vec<&str> = second["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["handle"].as_str().unwrap())
        .collect();
    assert_eq!(rest, ["zed_50", "zed_51"]);
    assert!(second["next_page"].is_null());
    let bad = app
        .call(
            Method::GET,
            "/players?prefix=z%20e",
            None,
            None,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(
        bad["error"]["message"].as_str().unwrap().contains("prefix"),
        "{bad}"
    );
    app.call(
        Method::GET,
        "/players?page=0",
        None,
        None,
        StatusCode::BAD_REQUEST,
    )
    .await;
}

#[tokio::test]
async fn a_player_changes_their_handle_and_the_old_one_is_free_again() {
    let app = TestApp::start().await;
    let ada = app.register("ada").await;
    let bo = app.register("bo").await;
    let taken = app
        .call(
            Method::PATCH,
            "/me",
            Some(&ada.token),
            Some(json!({ "handle": "BO" })),
            StatusCode::CONFLICT,
        )
        .await;
    assert!(
        taken["error"]["message"]
            .as_str()
            .unwrap()
            .contains("taken")
    );
    let changed = app
        .call(
            Method::PATCH,
            "/me",
            Some(&ada.token),
            Some(json!({ "handle": "Countess" })),
            StatusCode::OK,
        )
        .await;
    assert_eq!(changed["handle"], "countess");
    assert_eq!(app.get("/me", &ada.token).await["handle"], "countess");
    app.call(
        Method::PATCH,
        "/me",
        Some(&bo.token),
        Some(json!({ "handle": "ada" })),
        StatusCode::OK,
    )
    .await;
    app.call(Method::GET, "/players/countess", None, None, StatusCode::OK)
        .await;
}

/// The board-flip preference Discord's `/board flip:` keeps is the player's over HTTP too:
/// shown in `GET /me`, changed by `PATCH /me` alone or with the handle, all or nothing.
#[tokio::test]
async fn a_player_reads_and_changes_their_board_flip_preference() {
    let app = TestApp::start().await;
    let ada = app.register("ada").await;
    app.register("bo").await;
    assert_eq!(app.get("/me", &ada.token).await["board_flipped"], false);
    let patch = |body: serde_json::Value, status: StatusCode| {
        app.call(Method::PATCH, "/me", Some(&ada.token), Some(body), status)
    };
    let flipped = patch(json!({ "board_flipped": true }), StatusCode::OK).await;
    assert_eq!(flipped["board_flipped"], true);
    assert_eq!(flipped["handle"], "ada");
    assert_eq!(app.get("/me", &ada.token).await["board_flipped"], true);
    // A refused handle changes nothing, the preference included.
    patch(
        json!({ "handle": "bo", "board_flipped": false }),
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(app.get("/me", &ada.token).await["board_flipped"], true);
    let both = patch(
        json!({ "handle": "Countess", "board_flipped": false }),
        StatusCode::OK,
    )
    .await;
    assert_eq!(
        (&both["handle"], &both["board_flipped"]),
        (&json!("countess"), &json!(false))
    );
    // The handle alone leaves the preference as it was.
    patch(json!({ "board_flipped": true }), StatusCode::OK).await;
    let renamed = patch(json!({ "handle": "ada" }), StatusCode::OK).await;
    assert_eq!(renamed["board_flipped"], true);
    let wrong = app
        .send(
            Method::PATCH,
            "/me",
            Some(&ada.token),
            Some(json!({ "board_flipped": "yes" })),
        )
        .await;
    assert!(wrong.status().is_client_error(), "{}", wrong.status());
    let wrong: serde_json::Value = wrong.json().await.unwrap();
    assert!(
        wrong["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("board_flipped")),
        "{wrong}"
    );
}

#[tokio::test]
async fn a_challenge_names_its_opponent_by_handle() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("Bea").await;
    let created = app
        .call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(json!({ "opponent": "@BEA", "variant": "brandubh" })),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(created["challenge"]["opponent"]["player_id"], b.id);
    assert_eq!(created["challenge"]["opponent"]["handle"], "bea");
    let both = app
        .call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(json!({ "opponent": "bea", "opponent_id": b.id })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert_eq!(
        both["error"]["message"],
        "give opponent (a handle) or opponent_id, not both"
    );
    let unknown = app
        .call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(json!({ "opponent": "nobody" })),
            StatusCode::NOT_FOUND,
        )
        .await;
    assert_eq!(
        unknown["error"]["message"],
        "no player has the handle \"nobody\""
    );
    let id = created["challenge"]["id"].as_i64().unwrap();
    let game = app
        .post(&format!("/challenges/{id}/accept"), &b.token, json!({}))
        .await;
    let handles = [&game["attackers"]["handle"], &game["defenders"]["handle"]];
    assert!(handles.contains(&&json!("a")) || handles.contains(&&json!("player")));
    assert!(handles.contains(&&json!("bea")), "{handles:?}");
}

#[tokio::test]
async fn a_player_who_lost_to_the_ai_or_drew_has_results_on_their_page() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    // Against the AI one side has no player: the counts must not turn NULL.
    let created = app
        .call(
            Method::POST,
            "/challenges",
            Some(&ada.token),
            Some(json!({ "ai_level": 1, "variant": "brandubh", "side": "attackers" })),
            StatusCode::CREATED,
        )
        .await;
    let game = created["game"]["id"].as_i64().unwrap();
    app.post(&format!("/games/{game}/resign"), &ada.token, json!({}))
        .await;
    let page = app.get(&format!("/players/{}", "ada"), &ada.token).await;
    assert_eq!(
        page["results"],
        json!([{ "variant": "brandubh", "played": 1, "wins": 0, "losses": 1, "draws": 0 }])
    );
}

/// Who someone is on Discord is theirs to tell: no answer to anyone else carries it (the list,
/// the profile, a game, a challenge, the events), while `/me` shows it to its owner.
#[tokio::test]
async fn a_players_discord_account_is_shown_to_them_alone() {
    const DISCORD_ID: u64 = 987_654_321_012_345_678;
    let app = TestApp::start().await;
    let service = app.service();
    let dee = service
        .accounts()
        .player_for_discord_user(DISCORD_ID, "dee", "Dee")
        .await
        .unwrap();
    let dee_token = service
        .accounts()
        .issue_api_token(dee.id, "discord /token")
        .await
        .unwrap()
        .token;
    let bo = app.register("Bo").await;
    let challenge = app
        .call(
            Method::POST,
            "/challenges",
            Some(&bo.token),
            Some(json!({ "opponent_id": dee.id.get(), "variant": "brandubh" })),
            StatusCode::CREATED,
        )
        .await;
    let id = challenge["challenge"]["id"].as_i64().unwrap();
    let game = app
        .post(&format!("/challenges/{id}/accept"), &dee_token, json!({}))
        .await;
    let game_id = game["id"].as_i64().unwrap();
    let stream = app
        .send(
            Method::GET,
            "/stream/events?since=0",
            Some(&dee_token),
            None,
        )
        .await;
    let events = crate::events::EventLines::new(stream).events(2).await;

    let answers = [
        ("the challenge", challenge),
        ("the accepted game", game),
        (
            "the players",
            app.get("/players?prefix=dee", &bo.token).await,
        ),
        ("the profile", app.get("/players/dee", &bo.token).await),
        (
            "the game",
            app.get(&format!("/games/{game_id}"), &bo.token).await,
        ),
        ("the events", Value::Array(events)),
    ];
    for (what, answer) in answers {
        let text = answer.to_string();
        assert!(
            !text.contains("discord_user_id") && !text.contains(&DISCORD_ID.to_string()),
            "{what} shows dee's Discord account: {text}"
        );
        assert!(text.contains("\"dee\""), "{what} does not name dee: {text}");
    }
    let me = app.get("/me", &dee_token).await;
    assert_eq!(me["discord_user_id"], DISCORD_ID);
    assert_eq!(me["handle"], "dee");
}
