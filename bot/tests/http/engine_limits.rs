//! Engine work is shared fairly: one player's many analyses do not put another's behind
//! them, and cooldowns and per-player caps refuse with 429 and, where known, `Retry-After`.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use super::analysis::scripted_game;
use super::common::{Player, TestApp};

async fn ask_analysis(app: &TestApp, game: i64, who: &Player) -> reqwest::Response {
    app.send(
        Method::POST,
        &format!("/games/{game}/analysis"),
        Some(&who.token),
        None,
    )
    .await
}

async fn body_of(response: reqwest::Response) -> Value {
    serde_json::from_str(&response.text().await.unwrap()).unwrap()
}

async fn challenge_the_ai(app: &TestApp, who: &Player) -> reqwest::Response {
    app.send(
        Method::POST,
        "/challenges",
        Some(&who.token),
        Some(json!({ "ai_level": 1, "variant": "brandubh", "side": "defenders" })),
    )
    .await
}

#[tokio::test]
async fn one_players_many_analyses_do_not_put_anothers_behind_them() {
    let app = TestApp::start_with(|c| {
        // Slow enough that the queue is still there when it is read.
        c.games.analysis_ms_per_ply = 2_000;
        c.games.analysis_threads = 1;
        c.games.analysis_max_queued_per_player = 3;
    })
    .await;
    let mut games = Vec::new();
    for _ in 0..4 {
        games.push(scripted_game(&app, false).await.2);
    }
    let many = app.register("Many").await;
    let one = app.register("One").await;
    let mut positions = Vec::new();
    for game in &games[..3] {
        let r = ask_analysis(&app, *game, &many).await;
        assert_eq!(r.status(), StatusCode::ACCEPTED);
        positions.push(body_of(r).await["queue_position"].as_u64());
    }
    let refused = ask_analysis(&app, games[3], &many).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let refused = body_of(refused).await;
    assert_eq!(refused["error"]["code"], "rate_limited", "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already have 3 analyses waiting"),
        "{refused}"
    );

    let theirs = ask_analysis(&app, games[3], &one).await;
    assert_eq!(theirs.status(), StatusCode::ACCEPTED);
    let theirs = body_of(theirs).await["queue_position"].as_u64().unwrap();
    let last_of_many = app
        .get(&format!("/games/{}/analysis", games[2]), &many.token)
        .await["queue_position"]
        .as_u64()
        .unwrap();
    assert!(
        theirs < last_of_many,
        "the other player's analysis ({theirs}) comes before the third of the first \
         player's ({last_of_many}); the first player's were at {positions:?}"
    );
    assert!(
        theirs <= 3,
        "at most one of the first player's waits ahead: {theirs}"
    );
}

#[tokio::test]
async fn a_new_analysis_within_the_cooldown_is_refused_with_when_to_ask_again() {
    let app = TestApp::start_with(|c| {
        c.games.analysis_ms_per_ply = 2_000;
        c.games.analysis_threads = 1;
        c.games.analysis_cooldown_secs = 60;
    })
    .await;
    let (_, _, first) = scripted_game(&app, false).await;
    let (_, _, second) = scripted_game(&app, false).await;
    let asker = app.register("Asker").await;
    assert_eq!(
        ask_analysis(&app, first, &asker).await.status(),
        StatusCode::ACCEPTED
    );
    // Asking again for the same analysis is reading it, not new work.
    assert_eq!(
        ask_analysis(&app, first, &asker).await.status(),
        StatusCode::ACCEPTED
    );
    let refused = ask_analysis(&app, second, &asker).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(retry_after, 60);
    let refused = body_of(refused).await;
    assert_eq!(
        refused["error"]["message"], "you can ask for another analysis in 60 s",
        "{refused}"
    );
    app.clock.advance_ms(60_000);
    assert_eq!(
        ask_analysis(&app, second, &asker).await.status(),
        StatusCode::ACCEPTED,
        "once the cooldown is over"
    );
}

#[tokio::test]
async fn games_against_the_ai_are_capped_per_player_and_spaced_by_a_cooldown() {
    let app = TestApp::start_with(|c| {
        c.games.max_ai_games_per_player = 2;
        c.games.ai_game_cooldown_secs = 30;
    })
    .await;
    let player = app.register("Player").await;
    assert_eq!(
        challenge_the_ai(&app, &player).await.status(),
        StatusCode::CREATED
    );
    let soon = challenge_the_ai(&app, &player).await;
    assert_eq!(soon.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(soon.headers()["retry-after"], "30");
    app.clock.advance_ms(30_000);
    assert_eq!(
        challenge_the_ai(&app, &player).await.status(),
        StatusCode::CREATED
    );
    app.clock.advance_ms(30_000);
    let third = challenge_the_ai(&app, &player).await;
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    let third = body_of(third).await;
    assert!(
        third["error"]["message"]
            .as_str()
            .unwrap()
            .contains("already have 2 games against the AI going"),
        "{third}"
    );
    let other = app.register("Other").await;
    assert_eq!(
        challenge_the_ai(&app, &other).await.status(),
        StatusCode::CREATED,
        "another player is not held back"
    );
}

/// Asks for `game`'s analysis as `who`, from `address` (the client a trusted proxy reports).
async fn ask_analysis_from(
    app: &TestApp,
    game: i64,
    who: &Player,
    address: &str,
) -> reqwest::Response {
    let path = format!("/games/{game}/analysis");
    let response = app
        .client
        .post(app.url(&path))
        .bearer_auth(&who.token)
        .header("x-forwarded-for", address)
        .send()
        .await
        .unwrap();
    super::common::checked(&Method::POST, &format!("/api/v1{path}"), response).await
}

/// A refusal's status, `Retry-After` and message.
async fn refusal_of(response: reqwest::Response) -> (StatusCode, Option<String>, String) {
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = body_of(response).await;
    (status, retry_after, body["error"]["message"].to_string())
}

#[tokio::test]
async fn fresh_accounts_from_one_address_hold_a_small_share_and_others_are_still_served() {
    let app = TestApp::start_with(|c| {
        // Slow enough that every analysis asked for still waits (or runs) when counted.
        c.games.analysis_ms_per_ply = 5_000;
        c.games.analysis_threads = 1;
        c.games.analysis_max_queued_per_player = 3;
        c.games.analysis_max_queued_new_account = 1;
        c.games.analysis_new_account_hours = 24;
        c.games.analysis_max_queued_per_address = 3;
        // The tests' requests come from 127.0.0.1: as a proxy, it tells each client's address.
        c.http.trusted_proxies = vec!["127.0.0.1".into()];
    })
    .await;
    let mut games = Vec::new();
    let mut established = Vec::new();
    for _ in 0..6 {
        let (a, _, game) = scripted_game(&app, false).await;
        games.push(game);
        established.push(a);
    }
    // The players of those games are a day old now, with a finished game each: established.
    app.clock.advance_ms(25 * 3_600_000);
    let mut fresh = Vec::new();
    for i in 0..5 {
        fresh.push(app.register(&format!("Fresh {i}")).await);
    }
    let crowd = "203.0.113.7";

    assert_eq!(
        ask_analysis_from(&app, games[0], &fresh[0], crowd)
            .await
            .status(),
        StatusCode::ACCEPTED
    );
    let (status, retry_after, message) =
        refusal_of(ask_analysis_from(&app, games[1], &fresh[0], crowd).await).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{message}");
    assert!(retry_after.is_some(), "{message}");
    assert!(
        message.contains("the most a new account may have"),
        "a new account holds one: {message}"
    );
    for (who, game) in [(&fresh[1], games[1]), (&fresh[2], games[2])] {
        assert_eq!(
            ask_analysis_from(&app, game, who, crowd).await.status(),
            StatusCode::ACCEPTED
        );
    }
    // The address holds its three: a fourth account from it is refused, established or not.
    for who in [&fresh[3], &established[0]] {
        let (status, retry_after, message) =
            refusal_of(ask_analysis_from(&app, games[3], who, crowd).await).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{message}");
        assert!(retry_after.is_some(), "{message}");
        assert!(
            message.contains("3 analyses asked from your address are waiting"),
            "{message}"
        );
    }
    // Others are still served: a fresh account elsewhere, and an established one, which may
    // have more than one waiting.
    assert_eq!(
        ask_analysis_from(&app, games[3], &fresh[4], "198.51.100.2")
            .await
            .status(),
        StatusCode::ACCEPTED
    );
    for game in [games[4], games[5]] {
        assert_eq!(
            ask_analysis_from(&app, game, &established[1], "192.0.2.9")
                .await
                .status(),
            StatusCode::ACCEPTED
        );
    }
}
