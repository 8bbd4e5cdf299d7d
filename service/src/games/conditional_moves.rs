//! Conditional moves: a player queues lines ("if they play X, I play Y; then if Z, W") while
//! the opponent is to move. Each line is checked by the referee when queued, hidden from the
//! opponent, and answered inside the transaction of the opponent's move (one commit, so no
//! reader ever sees the game between the two); a move no line expected drops them all.

use serde::{Deserialize, Serialize};
use tafl_engine::{Game, Move, MoveReport};
use utoipa::ToSchema;

use crate::domain::{GameId, PlayerId, Seat};
use crate::store::Conn;
use crate::store::rows::{self, ConditionalMovesRow, GameRow};

use super::Games;
use super::game_state::{self, EngineCache};
use super::moves::{Actor, record};
use crate::{Emitter, Result, ServiceError};

/// At most this many lines, each of at most [`MAX_LINE_PLIES`] moves: enough for any plan a
/// correspondence player writes down, and a bound on the work done inside a move's commit.
pub const MAX_LINES: usize = 32;
pub const MAX_LINE_PLIES: usize = 20;

/// The lines a player queues: each starts with the opponent's next move and alternates.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionalMovesRequest {
    /// Each line the opponent's move, my answer, their next move, my answer, ...: an even
    /// number of moves. An empty list drops every line.
    #[schema(example = json!([["d1-d3", "e5-e7"], ["a4-c4", "e5-e7", "d1-d3", "f5-f7"]]))]
    pub lines: Vec<Vec<String>>,
    /// The game's ply as last seen: lines queued against a game that moved on are refused
    /// with 409 rather than applied to a position their author did not see.
    pub ply: Option<u32>,
}

/// My queued lines in one game (only ever shown to their author).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ConditionalMovesView {
    pub game_id: GameId,
    /// The ply the lines answer from (the game's ply now); null without lines.
    pub ply: Option<u32>,
    /// Each line as queued (moves in the form `d1-d3`), the opponent's move first.
    pub lines: Vec<Vec<String>>,
}

impl ConditionalMovesView {
    fn none(game_id: GameId) -> ConditionalMovesView {
        ConditionalMovesView {
            game_id,
            ply: None,
            lines: Vec::new(),
        }
    }

    fn of(row: ConditionalMovesRow) -> ConditionalMovesView {
        ConditionalMovesView {
            game_id: row.game_id,
            ply: Some(row.ply),
            lines: row.lines,
        }
    }
}

/// Lines checked move by move from `game` (the position now, the opponent to move): each
/// legal, nothing after a move that ends the game, and one answer to each position (two lines
/// that reach the same opponent's move answer it alike). Answers the moves in the form `d1-d3`.
fn checked_lines(game: &Game, lines: &[Vec<String>]) -> Result<Vec<Vec<String>>> {
    if lines.len() > MAX_LINES {
        return Err(ServiceError::Invalid(format!(
            "at most {MAX_LINES} lines can be queued; {} were sent",
            lines.len()
        )));
    }
    let dim = game.rules().dim();
    let mut checked: Vec<Vec<String>> = Vec::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        let number = index + 1;
        if line.is_empty() || line.len() % 2 == 1 {
            return Err(ServiceError::Invalid(format!(
                "line {number} must pair each of your opponent's moves with your answer \
                 (an even number of moves, at least two); it has {}",
                line.len()
            )));
        }
        if line.len() > MAX_LINE_PLIES {
            return Err(ServiceError::Invalid(format!(
                "line {number} has {} moves; at most {MAX_LINE_PLIES}",
                line.len()
            )));
        }
        let mut replay = game.clone();
        let mut moves = Vec::with_capacity(line.len());
        for (step, text) in line.iter().enumerate() {
            if text.len() > 64 {
                return Err(ServiceError::IllegalMove(format!(
                    "line {number}, move {}: `{}...` is too long to be a move",
                    step + 1,
                    cut(text)
                )));
            }
            if replay.is_over() {
                return Err(ServiceError::Invalid(format!(
                    "line {number}: the game is over after move {step}, so `{}` cannot follow",
                    cut(text)
                )));
            }
            let played = Move::parse(text, dim)
                .map_err(|err| err.to_string())
                .and_then(|mv| replay.play(mv).map_err(|err| err.to_string()))
                .map_err(|reason| {
                    ServiceError::IllegalMove(format!("line {number}, move {}: {reason}", step + 1))
                })?;
            moves.push(played.mv.to_string());
        }
        checked.push(moves);
    }
    one_answer_per_position(&checked)?;
    Ok(checked)
}

/// Refuses two lines that answer the same sequence of the opponent's moves differently.
fn one_answer_per_position(lines: &[Vec<String>]) -> Result<()> {
    for (i, line) in lines.iter().enumerate() {
        for (j, other) in lines.iter().enumerate().skip(i + 1) {
            let shared = line.iter().zip(other).take_while(|(a, b)| a == b).count();
            // They part on my answer (an odd index): two answers to one position.
            if shared % 2 == 1 && shared < line.len() && shared < other.len() {
                return Err(ServiceError::Invalid(format!(
                    "lines {} and {} answer `{}` differently ({} and {}): keep one",
                    i + 1,
                    j + 1,
                    line[shared - 1],
                    line[shared],
                    other[shared]
                )));
            }
        }
    }
    Ok(())
}

/// A move text as quoted back: the first 16 characters.
fn cut(text: &str) -> String {
    text.chars().take(16).collect()
}

/// Answers the opponent's move `report`, just recorded on `row` and `game`, from the lines
/// `queued` at the ply before it, in the same transaction: plays the answer of the line that
/// expected this move and keeps what follows it; a move no line expected drops them all.
pub(crate) fn answer_from_queue(
    c: &Conn<'_>,
    e: &mut Emitter,
    row: &mut GameRow,
    game: &mut Game,
    report: &MoveReport,
    queued: ConditionalMovesRow,
    max_bank_ratio: f64,
) -> Result<()> {
    let owner = queued.player_id;
    let waiting = game_state::seat(row, row.side_to_move) == Seat::Player(owner);
    let expected: Vec<&Vec<String>> = queued
        .lines
        .iter()
        .filter(|line| line.first().is_some_and(|mv| *mv == report.mv.to_string()))
        .collect();
    let answer = expected
        .first()
        .and_then(|line| line.get(1))
        .and_then(|text| Move::parse(text, game.rules().dim()).ok());
    let (Some(answer), true, true) = (answer, waiting, row.status.is_active()) else {
        rows::delete_conditional_moves(c, row.id, owner)?;
        return Ok(());
    };
    let Ok(answered) = game.play(answer) else {
        // Checked when queued from this very position: only a rules change could get here.
        tracing::warn!(game = %row.id, "a queued answer was refused by the referee; lines dropped");
        rows::delete_conditional_moves(c, row.id, owner)?;
        return Ok(());
    };
    // Its answer goes to nobody: the player who queued it hears its event. A reply that shows
    // the opponent's move (Discord's `/move`) does not show this one: its post is not held.
    e.not_held(|e| {
        record(
            c,
            e,
            row,
            &answered,
            Actor::Player(owner),
            game,
            max_bank_ratio,
            &mut |_| Ok(()),
        )
    })?;
    let rest: Vec<Vec<String>> = expected
        .into_iter()
        .filter(|line| line.len() > 2 && line[1] == answered.mv.to_string())
        .map(|line| line[2..].to_vec())
        .collect();
    if rest.is_empty() || !row.status.is_active() {
        rows::delete_conditional_moves(c, row.id, owner)?;
    } else {
        rows::set_conditional_moves(
            c,
            &ConditionalMovesRow {
                game_id: row.id,
                player_id: owner,
                ply: row.ply,
                lines: rest,
            },
            e.now(),
        )?;
    }
    Ok(())
}

/// The game `id` as one of its players may queue lines in it: active, against a person, their
/// opponent to move at the ply they saw.
pub(super) fn game_to_queue_in(
    c: &Conn<'_>,
    id: GameId,
    player: PlayerId,
    seen_ply: Option<u32>,
) -> Result<GameRow> {
    let row = game_state::load(c, id)?;
    let side = game_state::side_of(&row, player).ok_or_else(|| game_state::not_a_player(&row))?;
    if !row.status.is_active() {
        return Err(ServiceError::GameOver);
    }
    if let Seat::Ai(_) = game_state::seat(&row, side.opponent()) {
        return Err(ServiceError::Invalid(
            "conditional moves are for games against people: the AI answers at once".into(),
        ));
    }
    if let Some(seen) = seen_ply.filter(|seen| *seen != row.ply) {
        return Err(ServiceError::Conflict {
            message: format!(
                "the game has moved on: you sent ply {seen}, it is at ply {}",
                row.ply
            ),
            game: None,
        });
    }
    if row.side_to_move == side {
        return Err(ServiceError::Conflict {
            message: "it is your move: play it; conditional moves answer your opponent's next \
                      move"
                .into(),
            game: None,
        });
    }
    Ok(row)
}

pub(super) fn queue(
    c: &Conn<'_>,
    e: &mut Emitter,
    cache: &EngineCache,
    player: PlayerId,
    id: GameId,
    request: &ConditionalMovesRequest,
) -> Result<ConditionalMovesView> {
    let row = game_to_queue_in(c, id, player, request.ply)?;
    if request.lines.is_empty() {
        rows::delete_conditional_moves(c, id, player)?;
        return Ok(ConditionalMovesView::none(id));
    }
    let game = game_state::engine_game(c, cache, &row)?;
    let queued = ConditionalMovesRow {
        game_id: id,
        player_id: player,
        ply: row.ply,
        lines: checked_lines(&game, &request.lines)?,
    };
    rows::set_conditional_moves(c, &queued, e.now())?;
    Ok(ConditionalMovesView::of(queued))
}

impl Games<'_> {
    /// My lines queued in game `id` (none once the game moved past them).
    pub async fn conditional_moves(
        self,
        player: PlayerId,
        id: GameId,
    ) -> Result<ConditionalMovesView> {
        self.service
            .read(move |c| {
                let row = game_state::load(c, id)?;
                game_state::side_of(&row, player).ok_or_else(|| game_state::not_a_player(&row))?;
                Ok(rows::conditional_moves(c, id, player)?
                    .filter(|queued| queued.ply == row.ply && row.status.is_active())
                    .map_or_else(|| ConditionalMovesView::none(id), ConditionalMovesView::of))
            })
            .await
    }

    /// Replaces my lines in game `id` with `request`'s, each checked by the referee.
    pub async fn queue_conditional_moves(
        self,
        player: PlayerId,
        id: GameId,
        request: ConditionalMovesRequest,
    ) -> Result<ConditionalMovesView> {
        let cache = self.service.inner.engines.clone();
        self.service
            .commit(move |c, e| queue(c, e, &cache, player, id, &request))
            .await
    }

    /// Drops my lines in game `id`.
    pub async fn drop_conditional_moves(self, player: PlayerId, id: GameId) -> Result<()> {
        self.service
            .commit(move |c, _| {
                let row = game_state::load(c, id)?;
                game_state::side_of(&row, player).ok_or_else(|| game_state::not_a_player(&row))?;
                rows::delete_conditional_moves(c, id, player)?;
                Ok(())
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(raw: &[&[&str]]) -> Vec<Vec<String>> {
        raw.iter()
            .map(|l| l.iter().map(|m| (*m).to_owned()).collect())
            .collect()
    }

    #[test]
    fn two_answers_to_one_position_are_refused_and_a_shared_answer_is_not() {
        let same = lines(&[
            &["a1-a2", "b1-b2", "c1-c2", "d1-d2"],
            &["a1-a2", "b1-b2", "e1-e2", "f1-f2"],
        ]);
        assert!(one_answer_per_position(&same).is_ok());
        let other_first = lines(&[&["a1-a2", "b1-b2"], &["c1-c2", "d1-d2"]]);
        assert!(one_answer_per_position(&other_first).is_ok());
        let two = lines(&[&["a1-a2", "b1-b2"], &["a1-a2", "c1-c2"]]);
        let err = one_answer_per_position(&two).unwrap_err().to_string();
        assert!(
            err.contains("lines 1 and 2 answer `a1-a2` differently"),
            "{err}"
        );
        let deep = lines(&[
            &["a1-a2", "b1-b2", "c1-c2", "d1-d2"],
            &["a1-a2", "b1-b2", "c1-c2", "e1-e2"],
        ]);
        assert!(one_answer_per_position(&deep).is_err());
    }
}
