//! `/games/live`, the list of public games' live stream, says nothing of private games: not
//! their events, not even their kinds.

use std::time::Duration;

use serde_json::json;

use crate::common::TestApp;
use crate::web_sessions::browserless;

/// The next `data:` line of a Server-Sent Events stream (keep-alive comments skipped).
pub(crate) async fn next_data(stream: &mut reqwest::Response, buffered: &mut String) -> String {
    let read = async {
        loop {
            if let Some(at) = buffered.find("data: ") {
                let rest = &buffered[at + 6..];
                if let Some(end) = rest.find('\n') {
                    let data = rest[..end].trim().to_owned();
                    buffered.drain(..at + 6 + end + 1);
                    return data;
                }
            }
            let chunk = stream.chunk().await.unwrap().expect("the stream ended");
            buffered.push_str(&String::from_utf8_lossy(&chunk));
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read)
        .await
        .expect("an event on the live stream within 10 s")
}

#[tokio::test]
async fn the_public_games_stream_sends_nothing_of_private_games() {
    let app = TestApp::start().await;
    let (a, b, public) = app.game_between_a_and_b("brandubh").await;
    let mut stream = browserless()
        .get(format!("{}/games/live", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), reqwest::StatusCode::OK);
    // A private game starts and is played: nothing of it may reach the stream.
    let challenge = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "variant": "brandubh", "side": "attackers", "private": true }),
        )
        .await;
    let private = app
        .post(
            &format!("/challenges/{challenge}/accept"),
            &b.token,
            json!({}),
        )
        .await["id"]
        .as_i64()
        .unwrap();
    app.play_line(private, &a, &b, &["d1-c1"]).await;
    app.post(&format!("/games/{private}/resign"), &b.token, json!({}))
        .await;
    // Then a move in the public game: the first thing the stream says.
    app.play_line(public, &a, &b, &["d1-c1"]).await;
    let mut buffered = String::new();
    assert_eq!(next_data(&mut stream, &mut buffered).await, "move_played");
    app.post(&format!("/games/{public}/resign"), &b.token, json!({}))
        .await;
    assert_eq!(next_data(&mut stream, &mut buffered).await, "game_ended");
}
