//! An AI task and a move that comes as it ends: the task may have read the game before the
//! move, so the move's call for the AI must make it look once more, or the turn waits for the
//! scheduler (and, with none, for ever).

use std::sync::Arc;
use std::time::Duration;

use tafl_engine::{Game, Move};

use crate::config::GamesConfig;
use crate::notify::TargetPolicy;
use crate::service::{
    ClockSpec, GamesService, ManualClock, MovePicker, MoveRequest, NewChallenge, Opponent,
    RulesChoice, SideChoice,
};
use crate::store::Store;

/// Plays the first legal move.
struct FirstMove;

impl MovePicker for FirstMove {
    fn pick(&self, game: &Game, _level: u8) -> Option<Move> {
        game.legal_moves().into_iter().next()
    }
}

#[tokio::test]
async fn a_move_made_while_the_ai_task_ends_is_answered_by_that_task() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 8).unwrap();
    let picker: Arc<dyn MovePicker> = Arc::new(FirstMove);
    let service = GamesService::new(
        store,
        Arc::new(ManualClock::new(1_000)),
        GamesConfig::default(),
        TargetPolicy::new(&[]).unwrap(),
        Some(picker.clone()),
    );
    let player = service.register_player("p", None).await.unwrap().player.id;
    // I attack, so I move first: no AI turn yet.
    let created = service
        .create_challenge(
            player,
            NewChallenge {
                opponent: Opponent::Ai { level: 1 },
                rules: RulesChoice::Variant("brandubh".into()),
                side: SideChoice::Attackers,
                clock: ClockSpec::Unlimited {},
                context: None,
                rated: None,
                private: false,
            },
        )
        .await
        .unwrap();
    let game = created
        .game
        .expect("a game against the AI starts at once")
        .id;
    // The game's AI task is ending: it has read the game, found no turn of its own, and not yet
    // let go of the game.
    service.inner.ai_running.lock().unwrap().insert(game, false);
    let played = service
        .play_move(
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
        !service.ai_task_ends(game),
        "the ending task was not told of the move made meanwhile"
    );
    // Its next round plays the AI's turn, then it ends.
    service.ai_task(game, picker).await;
    let view = service.game(Some(player), game).await.unwrap();
    assert_eq!(view.ply, 2, "the AI did not answer the move");
    assert!(service.inner.ai_running.lock().unwrap().is_empty());
}
