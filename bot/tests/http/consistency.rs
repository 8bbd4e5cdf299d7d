//! What the API says is consistent: legal moves say whose they are, the record carries its
//! date.

use reqwest::Method;

use crate::common::TestApp;

#[tokio::test]
async fn legal_moves_name_their_side_and_whether_it_is_to_move() {
    let app = TestApp::start().await;
    let (a, b, game) = app.game_between_a_and_b("copenhagen").await;
    let path = format!("/games/{game}/legal-moves");
    let own = app.get(&path, &a.token).await;
    assert_eq!(own["side"], "attackers");
    assert_eq!(own["to_move"], true);
    assert_eq!(own["game_id"], game);
    assert!(own["from"].is_null());
    let attackers = app.get(&format!("{path}?side=attackers"), &a.token).await;
    assert_eq!(attackers["moves"], own["moves"]);

    let defenders = app.get(&format!("{path}?side=defenders"), &a.token).await;
    assert_eq!(defenders["side"], "defenders");
    assert_eq!(defenders["to_move"], false);
    let moves: Vec<&str> = defenders["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    // A defender next to the empty ring may move; no attacker's move is among them.
    assert!(moves.contains(&"f4-f3"), "{moves:?}");
    assert!(!moves.contains(&"d1-d4"), "{moves:?}");

    let from = app
        .get(&format!("{path}?side=defenders&from=f4"), &a.token)
        .await;
    assert_eq!(from["from"], "f4");
    assert!(
        from["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m.as_str().unwrap().starts_with("f4-"))
    );
    assert!(!from["moves"].as_array().unwrap().is_empty());

    // After a move the default follows the side to move.
    app.play_line(game, &a, &b, &["d1-d4"]).await;
    let now = app.get(&path, &b.token).await;
    assert_eq!(now["side"], "defenders");
    assert_eq!(now["to_move"], true);
}

#[tokio::test]
async fn the_otg_record_carries_the_day_the_game_started() {
    let app = TestApp::start().await;
    let (a, _b, game) = app.game_between_a_and_b("copenhagen").await;
    let r = app
        .send(
            Method::GET,
            &format!("/games/{game}/export"),
            Some(&a.token),
            None,
        )
        .await;
    let text = r.text().await.unwrap();
    // The test clock starts at 2023-11-14 22:13:20 UTC.
    assert!(text.contains("[date:2023-11-14]\n"), "{text}");
    let (_, tags) = tafl_engine::otg::read(&text).unwrap();
    assert!(tags.contains(&("date".to_owned(), "2023-11-14".to_owned())));
}
