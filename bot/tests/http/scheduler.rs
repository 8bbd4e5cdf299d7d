//! The scheduler's pass: one game that cannot be handled does not stop the others.

use serde_json::json;

use taflbot::domain::GameId;

use taflbot::store::params;

use crate::common::{Player, TestApp};

const DAY_MS: i64 = 86_400_000;

/// A tablut game between `a` and `b`, a day per move, where both have moved once.
async fn game_under_way(app: &TestApp, a: &Player, b: &Player) -> i64 {
    let game = app
        .start_game(
            a,
            b,
            "tablut",
            json!({ "kind": "per_move", "seconds": 86_400 }),
        )
        .await;
    for player in [a, b] {
        let mv = app
            .service()
            .games()
            .legal_moves(GameId(game), None)
            .await
            .unwrap()[0]
            .clone();
        app.play_line(game, player, player, &[mv.as_str()]).await;
    }
    game
}

#[tokio::test]
async fn a_game_that_fails_does_not_stop_the_timeouts_of_the_others() {
    let app = TestApp::start().await;
    let (a, b) = (app.register("A").await, app.register("B").await);
    let (c, d) = (app.register("C").await, app.register("D").await);
    let broken = game_under_way(&app, &a, &b).await;
    let sound = game_under_way(&app, &c, &d).await;
    // A row the service can no longer read (as after a bad manual edit of the database).
    app.service()
        .store()
        .write(move |conn| {
            conn.execute(
                "UPDATE games SET result_reason = 'not a reason' WHERE id = ?1",
                params![broken],
            )
        })
        .await
        .unwrap();

    app.clock.advance_ms(2 * DAY_MS);
    let pass = app.service().scheduler().run_due().await.unwrap();
    assert_eq!((pass.timeouts, pass.failed), (1, 1), "{pass:?}");
    let view = app.get(&format!("/games/{sound}"), &c.token).await;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["result"]["reason"], "timeout");
}
