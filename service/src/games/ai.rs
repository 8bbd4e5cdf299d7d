//! AI turns. The service asks a [`MovePicker`] for the AI's move on a blocking thread (the
//! search must not stall the async runtime), then commits it like any player's move,
//! guarded by the ply it thought about.

use std::sync::Arc;

use tafl_engine::{Game, Move, Outcome, check_start};

use crate::domain::{GameId, ResultReason, Seat};
use crate::store::rows;

use super::Games;
use crate::engine_queue::{EngineJob, EngineOwner};
use crate::games::game_state;
use crate::games::moves::{Actor, finish};
use crate::logging::ErrorChain;
use crate::{MoveRequest, Result, ServiceError};

/// Chooses the AI's move. `level` is the seat's level (1 = beginner).
/// Returns `None` only when the game is over or has no legal move.
pub trait MovePicker: Send + Sync + 'static {
    fn pick(&self, game: &Game, level: u8) -> Option<Move>;

    /// The strongest level it knows.
    fn max_level(&self) -> u8 {
        u8::MAX
    }
}

impl Games<'_> {
    /// Starts the AI's turn in `game_id` when it is the AI to move and no turn is running.
    pub fn kick_ai(self, game_id: GameId) {
        let Some(picker) = self.service.inner.picker.clone() else {
            return;
        };
        match self.service.inner.ai_running.lock() {
            Ok(mut running) => {
                if let Some(again) = running.get_mut(&game_id) {
                    // The game's task may be ending, having read the game before this move:
                    // it looks once more rather than leave the turn to the scheduler.
                    *again = true;
                    return;
                }
                running.insert(game_id, false);
            }
            Err(_) => return,
        }
        // The AI's moves outlive any reply that started them: they are never held.
        let service = self.service.discord().detached();
        tokio::spawn(async move { service.games().ai_task(game_id, picker).await });
    }

    /// The AI task of `game_id`: plays its turns, until no turn was asked for meanwhile.
    pub(crate) async fn ai_task(self, game_id: GameId, picker: Arc<dyn MovePicker>) {
        loop {
            if let Err(e) = self.ai_turns(game_id, picker.clone()).await {
                tracing::warn!(%game_id, error = %ErrorChain(&e), "AI turn failed");
            }
            if self.ai_task_ends(game_id) {
                break;
            }
        }
        self.service.inner.ai_idle.notify_waiters();
    }

    /// Whether the AI task of `game_id`, done with the turns it saw, ends: not when its turn
    /// was asked for again meanwhile (it then looks once more).
    pub(crate) fn ai_task_ends(self, game_id: GameId) -> bool {
        let Ok(mut running) = self.service.inner.ai_running.lock() else {
            return true;
        };
        match running.get_mut(&game_id) {
            Some(again) if *again => {
                *again = false;
                false
            }
            _ => {
                running.remove(&game_id);
                true
            }
        }
    }

    /// Plays the AI's moves while it is the AI's turn (both seats may be AI).
    async fn ai_turns(self, game_id: GameId, picker: Arc<dyn MovePicker>) -> Result<()> {
        loop {
            let cache = self.service.inner.engines.clone();
            let (game, level, owner) = self
                .service
                .read(move |c| {
                    let row = game_state::load(c, game_id)?;
                    // A paused game's AI waits for its clocks to run again (the resume kicks it).
                    if !row.status.is_active() || row.paused_at.is_some() {
                        return Ok(None);
                    }
                    // The AI's turn waits in line as its human opponent's work.
                    let owner = game_state::humans(&row)
                        .first()
                        .map_or(EngineOwner::Game(game_id), |p| EngineOwner::Player(*p));
                    match game_state::seat(&row, row.side_to_move) {
                        Seat::Ai(level) => Ok(Some((
                            game_state::engine_game(c, &cache, &row)?,
                            level,
                            owner,
                        ))),
                        Seat::Player(_) | Seat::Imported(_) => Ok(None),
                    }
                })
                .await?
                .map_or((None, 0, EngineOwner::Game(game_id)), |(g, l, o)| {
                    (Some(g), l, o)
                });
            let Some(game) = game else {
                return self.release_ai_turn(game_id).await;
            };
            let ply = game.ply();
            // Another instance sharing the database may be thinking about this turn already.
            if !self.claim_ai_turn(game_id, ply).await? {
                tracing::debug!(%game_id, ply, "another instance has this AI turn");
                return Ok(());
            }
            let picker = picker.clone();
            let thinking = std::time::Instant::now();
            let job = EngineJob {
                owner,
                strong: level >= picker.max_level(),
                // An AI's turn is owed: never refused, bounded by the games a player may have.
                waiting_cap: None,
            };
            let engine = self.service.inner.engine.clone();
            let think = engine.run(job, move || picker.pick(&game, level));
            tokio::pin!(think);
            // Renewed while the AI thinks, so the claim stands however long that takes.
            let renew_every = std::time::Duration::from_millis(
                u64::try_from(self.service.claim_lease_ms() / 3)
                    .unwrap_or(1)
                    .max(1),
            );
            let picked = loop {
                tokio::select! {
                    picked = &mut think => break picked,
                    () = tokio::time::sleep(renew_every) => {
                        if !self.claim_ai_turn(game_id, ply).await? {
                            tracing::warn!(%game_id, ply, "the AI turn's claim was lost while thinking");
                        }
                    }
                }
            }?;
            metrics::histogram!(crate::telemetry::AI_THINK, "level" => level.to_string())
                .record(thinking.elapsed().as_secs_f64());
            let Some(mv) = picked else {
                return self.end_without_a_move(game_id, ply).await;
            };
            let played = self
                .play_as(
                    Actor::Ai,
                    game_id,
                    MoveRequest {
                        text: mv.to_string(),
                        expected_ply: Some(ply),
                        idempotency_key: None,
                    },
                )
                .await;
            match played {
                Ok(p) if p.status.is_active() => continue,
                Ok(_) => return self.release_ai_turn(game_id).await,
                // The game changed while the AI thought (resigned, timed out): look again.
                Err(ServiceError::Conflict { .. }) => continue,
                Err(ServiceError::GameOver) => return self.release_ai_turn(game_id).await,
                Err(e) => return Err(e),
            }
        }
    }

    /// Claims the AI's turn at `ply` of `game_id` for this instance (see
    /// `store/src/rows/claims.rs`); `false` when another instance holds it.
    async fn claim_ai_turn(self, game_id: GameId, ply: u32) -> Result<bool> {
        let now = self.service.now_ms();
        let until = now.saturating_add(self.service.claim_lease_ms());
        let me = self.service.inner.instance.as_str().to_owned();
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::claim_ai_turn(c, game_id, ply, &me, now, until)?))
            .await
    }

    /// Lets go of this instance's claim on `game_id`'s AI turn: nobody's turn to think now.
    async fn release_ai_turn(self, game_id: GameId) -> Result<()> {
        let me = self.service.inner.instance.as_str().to_owned();
        self.service
            .inner
            .store
            .write(move |c| Ok(rows::release_ai_turn(c, game_id, &me)?))
            .await
    }

    /// The AI found no move: the game ends as the rules say (the side that cannot move loses),
    /// rather than the turn being tried again forever. Only a picker that gives up in a game
    /// the rules have not decided is an error.
    async fn end_without_a_move(self, game_id: GameId, ply: u32) -> Result<()> {
        let cache = self.service.inner.engines.clone();
        self.service.commit(move |c, e| {
            let mut row = game_state::load(c, game_id)?;
            if !row.status.is_active() || row.ply != ply {
                return Ok(());
            }
            let game = game_state::engine_game(c, &cache, &row)?;
            let Some(outcome) = rules_outcome(&game) else {
                return Err(ServiceError::internal(format!(
                    "the AI found no move in game {game_id} at ply {ply}"
                )));
            };
            tracing::warn!(%game_id, ply, result = %outcome.describe(), "the AI has no move: the game ends by the rules");
            let (winner, reason) = ResultReason::of_outcome(&outcome);
            finish(c, e, &mut row, winner, reason)
        })
        .await
    }
}

/// What the rules say of a game: its outcome, or for a game still at a start that could not
/// have been created today (stored before starts were checked), the result of that start.
fn rules_outcome(game: &Game) -> Option<Outcome> {
    if let Some(outcome) = game.outcome() {
        return Some(*outcome);
    }
    if game.ply() > 0 {
        return None;
    }
    check_start(game.rules(), game.start_position())
        .err()
        .and_then(|refused| refused.outcome())
}
