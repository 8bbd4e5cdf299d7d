//! An AI task and a move that comes as it ends: the task may have read the game before the
//! move, so the move's call for the AI must make it look once more, or the turn waits for the
//! scheduler (and, with none, for ever).

use std::sync::Arc;

use crate::instances_tests::{Db, Picker, game_against_the_ai, service};
use crate::{ManualClock, MovePicker, MoveRequest, SideChoice};

#[tokio::test]
async fn a_move_made_while_the_ai_task_ends_is_answered_by_that_task() {
    let db = Db::sqlite();
    let picker = Picker::quick();
    let service = service(&db, &Arc::new(ManualClock::new(1_000)), picker.clone());
    let player = service
        .accounts()
        .register("p", None)
        .await
        .unwrap()
        .player
        .id;
    // I attack, so I move first: no AI turn yet.
    let game = game_against_the_ai(&service, player, SideChoice::Attackers).await;
    // The game's AI task is ending: it has read the game, found no turn of its own, and not yet
    // let go of the game.
    service.inner.ai_running.lock().unwrap().insert(game, false);
    let played = service
        .games()
        .play(
            player,
            game,
            MoveRequest {
                text: "d1-c1".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert!(played.ai_to_move);
    assert!(
        !service.games().ai_task_ends(game),
        "the ending task was not told of the move made meanwhile"
    );
    // Its next round plays the AI's turn, then it ends.
    let picker: Arc<dyn MovePicker> = picker;
    service.games().ai_task(game, picker).await;
    let view = service.games().game(Some(player), game).await.unwrap();
    assert_eq!(view.ply, 2, "the AI did not answer the move");
    assert!(service.inner.ai_running.lock().unwrap().is_empty());
}
