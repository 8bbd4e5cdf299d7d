//! Moves: every move, a player's or the AI's, on either backend, is decided by one function
//! ([`decide_move`]) inside the writer's transaction: it reads the stored game, asks
//! [`may_move`] and the engine, and writes. Writes take turns (one writer per instance, and on
//! PostgreSQL one batch at a time across instances), so the read sees every earlier commit and
//! of two racing moves exactly one wins.

use std::borrow::Cow;

use sha2::{Digest, Sha256};
use tafl_engine::{Move, MoveReport, Side};

use crate::domain::{GameId, GameStatus, PlayerId, ResultReason, Seat};
use crate::store::Conn;
use crate::store::rows::{self, GameRow, MoveRow};

use super::Games;
use crate::events::{EventPayload, GameEnded, MovePlayedEvent};
use crate::games::conditional_moves;
use crate::games::game_ended::{self, EndedGame};
use crate::games::game_state::{self, EngineCache};
use crate::games::move_check::{Refusal, may_move};
use crate::views::{MovePlayed, WarningView};
use crate::{ClockSpec, Emitter, Missing, MoveRequest, Result, ServiceError, vacation};

/// Who is moving.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Actor {
    Player(PlayerId),
    Ai,
}

fn request_hash(game: GameId, text: &str, ply: Option<u32>) -> Vec<u8> {
    Sha256::digest(format!("move\n{game}\n{}\n{text}", ply.map_or(-1, i64::from)).as_bytes())
        .to_vec()
}

/// Ends `row` (not yet written back) with a result, rates it when it is rated, and emits
/// `game_ended`.
pub(crate) fn finish(
    c: &Conn<'_>,
    e: &mut Emitter,
    row: &mut GameRow,
    winner: Option<Side>,
    reason: ResultReason,
) -> Result<()> {
    // Nobody wins an aborted game; every other ending is a result.
    row.status = match reason {
        ResultReason::Aborted | ResultReason::NoFirstMove => GameStatus::Aborted,
        _ => GameStatus::Finished,
    };
    row.winner = winner;
    row.result_reason = Some(reason);
    row.deadline_at = None;
    row.draw_offer_by = None;
    row.finished_at = Some(e.now());
    row.updated_at = e.now();
    rows::update_game(c, row)?;
    rows::delete_conditional_moves_of_game(c, row.id)?;
    // What the end feeds (ratings, the explorer, a round, a match) is each area's own
    // decision, from the game's facts: see `game_ended`.
    let subscribers = e.game_ended_subscribers();
    let ended = EndedGame::of(row);
    let settled = game_ended::settle(subscribers, c, &ended)?;
    e.emit(
        c,
        Some(row.id),
        None,
        game_state::humans(row),
        EventPayload::GameEnded(GameEnded {
            status: row.status,
            winner: row.winner,
            reason,
            ply: row.ply,
            context: row.context.clone(),
            rated: row.rated,
            ratings: settled.ratings,
        }),
    )?;
    game_ended::react(subscribers, c, e, &ended)
}

/// Ends the game if the player to move is past their deadline: lost on time, or aborted
/// (nobody wins) when that player has not made a single move yet, as correspondence sites do.
/// Returns whether it ended the game.
pub(crate) fn end_if_out_of_time(c: &Conn<'_>, e: &mut Emitter, row: &mut GameRow) -> Result<bool> {
    match row.deadline_at {
        // A paused game's clock stands still: it never runs out of time.
        Some(deadline)
            if row.status.is_active() && row.paused_at.is_none() && deadline <= e.now() =>
        {
            // A vacation that stops this clock, or a vacation day spent now, keeps it going.
            if vacation::clocks::keeps_going(c, e, row)? {
                return Ok(false);
            }
            let late = row.side_to_move;
            if let Some(bank) = match late {
                Side::Attackers => row.attackers_bank_ms.as_mut(),
                Side::Defenders => row.defenders_bank_ms.as_mut(),
            } {
                *bank = 0;
            }
            // Plies alternate from the first mover, so at ply 0 or 1 the side to move has
            // not moved yet.
            if row.ply < 2 {
                finish(c, e, row, None, ResultReason::NoFirstMove)?;
            } else {
                finish(c, e, row, Some(late.opponent()), ResultReason::Timeout)?;
            }
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Why a move came too late, for the refusal.
fn too_late_message(row: &GameRow) -> String {
    if row.result_reason == Some(ResultReason::NoFirstMove) {
        format!(
            "game {} was aborted: {} did not make their first move in time",
            row.id, row.side_to_move
        )
    } else {
        format!(
            "game {} is over: {} ran out of time",
            row.id, row.side_to_move
        )
    }
}

/// Decides one move inside the writer's transaction: reads the stored game (with the answer
/// kept under the request's idempotency key, if any), checks it with [`may_move`] and the
/// engine, and writes it. The outer `Result` rolls back; the inner one is a refusal that keeps
/// what was written (a game ended on time stays ended).
pub(crate) fn decide_move(
    c: &Conn<'_>,
    e: &mut Emitter,
    cache: &EngineCache,
    actor: Actor,
    game_id: GameId,
    request: &MoveRequest,
    max_bank_ratio: f64,
) -> Result<std::result::Result<MovePlayed, ServiceError>> {
    // Only a keyed request's answer is kept, so only it is hashed.
    let keyed = match (actor, &request.idempotency_key) {
        (Actor::Player(p), Some(key)) => Some((
            p,
            key.as_str(),
            request_hash(game_id, &request.text, request.expected_ply),
        )),
        _ => None,
    };
    let key = keyed.as_ref().map(|&(player, key, _)| (player, key));
    let read = rows::game_for_move(c, game_id, key)?
        .ok_or_else(|| ServiceError::NotFound(Missing::Game(game_id)))?;
    if let Some((stored_hash, answer)) = read.stored_answer {
        if keyed
            .as_ref()
            .is_none_or(|(_, _, hash)| *hash != stored_hash)
        {
            return Err(ServiceError::Invalid(
                "this Idempotency-Key was already used for a different request".into(),
            ));
        }
        return serde_json::from_str(&answer)
            .map(Ok)
            .map_err(|err| ServiceError::internal(format!("stored answer unreadable: {err}")));
    }
    let mut row = read.game;
    let queued = read.conditional;
    e.know_dm_users(game_id, read.dm_users);
    // A player on vacation who moves is back: their clocks run again first.
    if read.mover_on_vacation
        && let Some(player) = actor_player(actor)
        && let Some(running) = rows::running_vacation(c, player)?
    {
        vacation::clocks::end_running(c, e, &running, e.now(), Some(&mut row))?;
    }
    // A clock run out may yet go on: a vacation stops it (its stored deadline is moved when
    // the vacation ends: the opponent is told it is not their turn, not that time ran out),
    // or a vacation day is spent now.
    let late = row.status.is_active()
        && row.paused_at.is_none()
        && row.deadline_at.is_some_and(|d| d <= e.now());
    let stands_still = late
        && vacation::clocks::keeps_going(c, e, &mut row)?
        && row.deadline_at.is_some_and(|d| d <= e.now());
    let checked = if stands_still {
        Cow::Owned(GameRow {
            deadline_at: None,
            ..row.clone()
        })
    } else {
        Cow::Borrowed(&row)
    };
    if let Err(refusal) = may_move(&checked, actor, request.expected_ply, e.now()) {
        return refused(c, e, cache, actor, &mut row, refusal);
    }
    let mut game = game_state::engine_game_to_move(c, cache, &row)?;
    // The engine's reason already quotes the text and says how to write a move.
    let report = match Move::parse(&request.text, game.rules().dim())
        .map_err(|err| err.to_string())
        .and_then(|mv| game.play(mv).map_err(|err| err.to_string()))
    {
        Ok(report) => report,
        Err(reason) => {
            // A refused move leaves the engine game as it was: back into the cache.
            cache.put(row.id, game);
            return Err(ServiceError::IllegalMove(reason));
        }
    };
    let now = e.now();
    let mut remember = |played: &MovePlayed| -> Result<()> {
        if let Some((player, key, hash)) = &keyed {
            let answer = stored_answer(played)?;
            rows::store_idempotent_answer(c, *player, key, hash, &answer, now)?;
        }
        Ok(())
    };
    let played = record(
        c,
        e,
        &mut row,
        &report,
        actor,
        &game,
        max_bank_ratio,
        &mut remember,
    )?;
    if let Some(queued) = queued {
        conditional_moves::answer_from_queue(
            c,
            e,
            &mut row,
            &mut game,
            &report,
            queued,
            max_bank_ratio,
        )?;
    }
    e.cache_after_commit(row.id, game);
    Ok(Ok(played))
}

/// The answer to a move [`may_move`] refused on the stored game `row`. A game found out of
/// time is ended, and stays ended (the inner `Err`); the refusals that a retry may get past
/// carry the game as it is.
fn refused(
    c: &Conn<'_>,
    e: &mut Emitter,
    cache: &EngineCache,
    actor: Actor,
    row: &mut GameRow,
    refusal: Refusal,
) -> Result<std::result::Result<MovePlayed, ServiceError>> {
    let conflict = |c: &Conn<'_>, row: &GameRow, message: String| -> Result<ServiceError> {
        let view = game_state::game_view(c, cache, row, actor_player(actor))?;
        Ok(ServiceError::Conflict {
            message,
            game: Some(Box::new(view)),
        })
    };
    Err(match refusal {
        Refusal::OutOfTime => {
            end_if_out_of_time(c, e, row)?;
            return Ok(Err(conflict(c, row, too_late_message(row))?));
        }
        Refusal::StalePly { sent, played } => conflict(c, row, stale_ply_message(sent, played))?,
        Refusal::NotInGame => game_state::not_a_player(row),
        Refusal::GameOver => ServiceError::GameOver,
        Refusal::Paused => conflict(c, row, paused_message(row))?,
        Refusal::NotYourTurn(side) => ServiceError::NotYourTurn(side.to_string()),
        Refusal::WrongSeat => ServiceError::NotYourTurn(match actor {
            Actor::Player(_) => "the AI".to_owned(),
            Actor::Ai => row.side_to_move.to_string(),
        }),
    })
}

/// Why a paused game takes no move, and when it goes on.
fn paused_message(row: &GameRow) -> String {
    format!(
        "game {} is paused: the bot was removed from the Discord server where it is played. \
         Its clocks stand still and resume when the bot is added back, or when the server's \
         grace period ends, after which the game goes on over HTTP",
        row.id
    )
}

/// A move's answer as kept under its idempotency key.
fn stored_answer(played: &MovePlayed) -> Result<String> {
    serde_json::to_string(played).map_err(ServiceError::internal)
}

/// Why a move's `ply` does not match the game: sent before a move that came in between,
/// or a ply the game has not reached.
fn stale_ply_message(sent: u32, played: u32) -> String {
    if sent > played {
        let moves = if played == 1 {
            "move has"
        } else {
            "moves have"
        };
        format!("ply {sent} is ahead of the game: {played} {moves} been played")
    } else {
        format!("the game has moved on: you sent ply {sent}, it is at ply {played}")
    }
}

fn actor_player(actor: Actor) -> Option<PlayerId> {
    match actor {
        Actor::Player(p) => Some(p),
        Actor::Ai => None,
    }
}

/// Writes an accepted move: the move row, the game's new state and clocks, the events; tells
/// `remember` the answer once it is known (to store it under the request's idempotency key).
#[allow(
    clippy::too_many_arguments,
    reason = "the move's transaction, its engine verdict and its answer's keeper"
)]
pub(crate) fn record(
    c: &Conn<'_>,
    e: &mut Emitter,
    row: &mut GameRow,
    report: &MoveReport,
    actor: Actor,
    game: &tafl_engine::Game,
    max_bank_ratio: f64,
    remember: &mut dyn FnMut(&MovePlayed) -> Result<()>,
) -> Result<MovePlayed> {
    let step = advance(row, report, actor, game, max_bank_ratio, e.now());
    // A move that does not end the game is written, and its answer kept, before its event:
    // on PostgreSQL those writes travel with the event's insert (one round trip for all).
    let played_before_event = match report.outcome {
        None => {
            rows::insert_move_and_update_game(c, &step.move_row, row)?;
            let played = step.answer(row, report);
            remember(&played)?;
            Some(played)
        }
        Some(_) => None,
    };
    e.emit(
        c,
        Some(row.id),
        None,
        game_state::humans(row),
        EventPayload::MovePlayed(step.event(row, report, actor)),
    )?;
    if let Some(played) = played_before_event {
        return Ok(played);
    }
    // The move ends the game: its answer says how.
    if let Some(outcome) = &report.outcome {
        rows::insert_move(c, row.id, &step.move_row)?;
        let (winner, reason) = ResultReason::of_outcome(outcome);
        finish(c, e, row, winner, reason)?;
    }
    let played = step.answer(row, report);
    remember(&played)?;
    Ok(played)
}

/// A move as its writes, its event and its answer tell it.
struct Step {
    move_row: MoveRow,
    captures: Vec<String>,
    king_captured: Option<String>,
    warning: Option<WarningView>,
}

/// Applies an accepted move to its game's row (ply, side to move, position, clocks) at `now`.
fn advance(
    row: &mut GameRow,
    report: &MoveReport,
    actor: Actor,
    game: &tafl_engine::Game,
    max_bank_ratio: f64,
    now: i64,
) -> Step {
    let captures: Vec<String> = report.captures.iter().map(ToString::to_string).collect();
    let move_row = MoveRow {
        ply: report.ply,
        side: report.side,
        notation: report.notation.clone(),
        mv: report.mv.to_string(),
        captures: captures.clone(),
        position_hash: report.hash,
        played_by: actor_player(actor),
        played_at: now,
    };
    let clock = ClockSpec::from_row(&row.clock);
    let spent = now - row.turn_started_at;
    // The sides alternate from ply 1, so this is the mover's nth move.
    let nth = report.ply.div_ceil(2);
    match report.side {
        Side::Attackers => {
            row.attackers_bank_ms =
                clock.bank_after_move(row.attackers_bank_ms, spent, nth, max_bank_ratio)
        }
        Side::Defenders => {
            row.defenders_bank_ms =
                clock.bank_after_move(row.defenders_bank_ms, spent, nth, max_bank_ratio)
        }
    }
    let next = report.side.opponent();
    row.ply = report.ply;
    row.side_to_move = next;
    row.position = game.position().to_opentafl();
    row.turn_started_at = now;
    row.reminded_ply = None;
    row.draw_offer_by = None;
    row.updated_at = now;
    let next_bank = match next {
        Side::Attackers => row.attackers_bank_ms,
        Side::Defenders => row.defenders_bank_ms,
    };
    row.deadline_at = match game_state::seat(row, next) {
        Seat::Player(_) => clock.deadline(now, next_bank),
        Seat::Ai(_) | Seat::Imported(_) => None,
    };
    Step {
        move_row,
        captures,
        king_captured: report.king_captured.map(|sq| sq.to_string()),
        warning: report.warning.as_ref().map(game_state::warning_view),
    }
}

impl Step {
    /// The move's event, from the game as the move left it (before any ending is written).
    fn event(&self, row: &GameRow, report: &MoveReport, actor: Actor) -> MovePlayedEvent {
        MovePlayedEvent {
            ply: report.ply,
            side: report.side,
            mv: report.mv.to_string(),
            notation: report.notation.clone(),
            captures: self.captures.clone(),
            king_captured: self.king_captured.clone(),
            warning: self.warning.clone(),
            by: actor_player(actor),
            side_to_move: report.outcome.is_none().then_some(row.side_to_move),
            deadline_at: row.deadline_at,
            context: row.context.clone(),
        }
    }

    /// The answer to the move, from the game as the move left it.
    fn answer(&self, row: &GameRow, report: &MoveReport) -> MovePlayed {
        MovePlayed {
            game_id: row.id,
            ply: report.ply,
            side: report.side,
            mv: report.mv.to_string(),
            notation: report.notation.clone(),
            captures: self.captures.clone(),
            king_captured: self.king_captured.clone(),
            warning: self.warning.clone(),
            status: row.status,
            result: game_state::result_view(row),
            side_to_move: row.status.is_active().then_some(row.side_to_move),
            deadline_at: row.deadline_at,
            position: row.position.clone(),
            ai_to_move: row.status.is_active()
                && matches!(game_state::seat(row, row.side_to_move), Seat::Ai(_)),
        }
    }
}

impl Games<'_> {
    /// Plays `request` for `player` in game `game_id`.
    #[tracing::instrument(level = "debug", skip(self, request), fields(ply = ?request.expected_ply))]
    pub async fn play(
        self,
        player: PlayerId,
        game_id: GameId,
        request: MoveRequest,
    ) -> Result<MovePlayed> {
        if request.text.len() > 64 {
            return Err(ServiceError::IllegalMove(
                "that move text is too long".into(),
            ));
        }
        let played = self
            .play_as(Actor::Player(player), game_id, request)
            .await?;
        // Only a game the AI plays next has an AI turn to start (the scheduler resumes any
        // turn a restart interrupted).
        if played.ai_to_move {
            self.kick_ai(game_id);
        }
        Ok(played)
    }

    pub(crate) async fn play_as(
        self,
        actor: Actor,
        game_id: GameId,
        request: MoveRequest,
    ) -> Result<MovePlayed> {
        let cache = self.service.inner.engines.clone();
        let ratio = self.service.inner.config.max_bank_ratio;
        self.service
            .commit(move |c, e| decide_move(c, e, &cache, actor, game_id, &request, ratio))
            .await?
    }
}
