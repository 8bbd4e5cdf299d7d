//! Conditional moves from the web's analysis board, without a browser (the browser suite
//! plays them by hand): the game's page links the plan for the player waiting; the plan's
//! board starts at the game's position now, with the engine off; "Queue the line shown" queues
//! the board's line through the service's checks (an odd line, a board that does not start at
//! the position now, refused in words); Delete drops one line; the opponent's move is answered.

use reqwest::StatusCode;
use reqwest::header::COOKIE;
use serde_json::json;

use crate::common::{Player, TestApp};
use crate::web_sessions::{browserless, signed_in};

struct Session {
    cookie: String,
    csrf: String,
}

async fn page(app: &TestApp, who: &Session, path: &str) -> String {
    let answer = browserless()
        .get(format!("{}{path}", app.base))
        .header(COOKIE, &who.cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK, "{path}");
    answer.text().await.unwrap()
}

/// Posts as the page's script does (the CSRF token in its header): status and text.
async fn post(
    app: &TestApp,
    who: &Session,
    path: &str,
    fields: &[(String, String)],
) -> (StatusCode, String) {
    let answer = browserless()
        .post(format!("{}{path}", app.base))
        .header(COOKIE, &who.cookie)
        .header("x-csrf-token", &who.csrf)
        .form(fields)
        .send()
        .await
        .unwrap();
    (answer.status(), answer.text().await.unwrap())
}

/// The board's address on the plan's page (`data-link` of its live part), as fields.
fn board_address(plan_page: &str) -> Vec<(String, String)> {
    let link = plan_page
        .split("data-link=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no board address in {plan_page}"))
        .replace("&amp;", "&");
    let query = link.trim_start_matches("/analysis?");
    serde_urlencoded::from_str(query).unwrap()
}

/// The address with `moves` played from its start and the last of them shown.
fn line_shown(address: &[(String, String)], moves: &str) -> Vec<(String, String)> {
    let mut fields = address.to_vec();
    fields.push(("moves".into(), moves.into()));
    fields.push(("at".into(), moves.split(' ').count().to_string()));
    fields.push(("ply".into(), "1".into()));
    fields
}

async fn session(app: &TestApp, player: &Player) -> Session {
    let (cookie, csrf) = signed_in(app, player).await;
    Session { cookie, csrf }
}

#[tokio::test]
async fn a_player_queues_lines_from_the_analysis_board_and_the_opponents_move_is_answered() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    app.play_line(game, &a, &b, &["d1-b1"]).await;
    let (sa, sb) = (session(&app, &a).await, session(&app, &b).await);
    let plan_link = format!("href=\"/analysis?plan={game}\"");
    assert!(
        page(&app, &sa, &format!("/games/{game}"))
            .await
            .contains(&plan_link)
    );
    assert!(
        !page(&app, &sb, &format!("/games/{game}"))
            .await
            .contains(&plan_link),
        "the player to move plays rather than plans"
    );
    let refused = page(&app, &sb, &format!("/analysis?plan={game}")).await;
    assert!(refused.contains("id=\"plan-refused\""), "{refused}");
    assert!(refused.contains("it is your move"), "{refused}");

    let plan = page(&app, &sa, &format!("/analysis?plan={game}")).await;
    assert!(plan.contains("id=\"conditional\""), "{plan}");
    assert!(plan.contains("No lines queued."), "{plan}");
    assert!(
        !plan.contains("id=\"engine-form\""),
        "the engine is off: {plan}"
    );
    let address = board_address(&plan);
    let add = format!("/analysis/plan/{game}/add");

    let (status, shown) = post(&app, &sa, &add, &line_shown(&address, "c4-c2 a4-a2")).await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert!(shown.contains("data-line=\"1\""), "{shown}");
    assert!(shown.contains("1… c4-c2 2. a4-a2"), "{shown}");
    let (_, shown) = post(&app, &sa, &add, &line_shown(&address, "e4-e2 g4-g2")).await;
    assert!(shown.contains("data-line=\"2\""), "{shown}");
    let (status, _) = post(
        &app,
        &sa,
        &format!("/analysis/plan/{game}/drop"),
        &[("line".into(), "2".into())],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let lines = app
        .get(&format!("/games/{game}/conditional-moves"), &a.token)
        .await;
    assert_eq!(lines["lines"], json!([["c4-c2", "a4-a2"]]));
    let theirs = app
        .get(&format!("/games/{game}/conditional-moves"), &b.token)
        .await;
    assert_eq!(theirs["lines"], json!([]), "hidden from the opponent");

    // Refusals, in words: a line without my answer; a board that starts elsewhere.
    let (status, odd) = post(&app, &sa, &add, &line_shown(&address, "c4-c2")).await;
    assert!(status.is_client_error(), "{status}");
    assert!(odd.contains("an even number of moves"), "{odd}");
    let elsewhere = vec![("variant".to_owned(), "brandubh".to_owned())];
    let (status, stale) = post(&app, &sa, &add, &line_shown(&elsewhere, "d1-c1 d3-e3")).await;
    assert!(status.is_client_error(), "{status}");
    assert!(stale.contains("does not start at game"), "{stale}");

    // B plays the line's move: A's answer follows in the same commit.
    let after = app
        .post(
            &format!("/games/{game}/moves"),
            &b.token,
            json!({ "move": "c4-c2", "ply": 1 }),
        )
        .await;
    assert_eq!(after["ply"], 2, "{after}");
    let now = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(now["ply"], 3, "A's answer is played at once: {now}");
}
