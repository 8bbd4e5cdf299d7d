//! Solving: the next puzzle for a player (the nearest their rating among those they have not
//! tried), and their tries, checked move by move against the stored line.
//!
//! A try sends the solver's moves so far. Each must be legal (an illegal one is refused with
//! the referee's reason, and counts for nothing). A move is right when it is the line's, or
//! when it ends the game with the solver's win at once (another way to the same end); after a
//! right move the opponent's reply is the line's. A wrong move ends the try, answered with the
//! engine's reply to it (the refutation) and the line. A player's first finished try (solved or
//! failed) is rated: the player and the puzzle play one Glicko-2 game, the player winning when
//! they solved it. A try still going (every move right, more to find) changes nothing, so a
//! front end may send the moves one at a time.

use std::time::Duration;

use tafl_engine::ai::SearchLimits;
use tafl_engine::ai::puzzle::PuzzleTheme;
use tafl_engine::{Game, Move, Position, Rules, Side};

use crate::cooldowns::Asked;
use crate::domain::{GameId, PlayerId, PuzzleId};
use crate::engine_queue::{EngineJob, EngineOwner};
use crate::ratings::glicko;
use crate::store::Conn;
use crate::store::rows::{self, PuzzleAttemptRow, PuzzleRow};
use crate::{Missing, Result, ServiceError};

use super::Puzzles;
use super::view::{
    AttemptResult, AttemptView, GamePuzzles, PuzzleRatingChange, PuzzleRatingView, PuzzleView,
    hint_of,
};

/// Nodes of the search that finds the refutation of a wrong move: quick, it answers a click.
const REFUTATION_NODES: u64 = 200_000;
/// How long a try waits for the refutation before answering without it.
const REFUTATION_WAIT: Duration = Duration::from_secs(10);
/// Searches a player may have waiting for refutations.
const REFUTATIONS_WAITING: usize = 2;
/// Most moves a try may send.
pub const MAX_ATTEMPT_MOVES: usize = 32;

/// A stored puzzle, read back.
pub(super) struct Stored {
    pub row: PuzzleRow,
    pub theme: PuzzleTheme,
    pub line: Vec<String>,
    pub game: Game,
}

pub(super) fn stored(row: PuzzleRow) -> Result<Stored> {
    let corrupt = |what: String| ServiceError::internal(format!("puzzle {}: {what}", row.id));
    let theme = PuzzleTheme::parse(&row.theme)
        .ok_or_else(|| corrupt(format!("unknown theme {:?}", row.theme)))?;
    let rules = Rules::from_opentafl(&row.rules).map_err(|e| corrupt(e.to_string()))?;
    let position = Position::from_opentafl(&row.position, row.side_to_move)
        .map_err(|e| corrupt(e.to_string()))?;
    let game = Game::from_position(rules, position);
    let line = row.solution.split_whitespace().map(str::to_owned).collect();
    Ok(Stored {
        row,
        theme,
        line,
        game,
    })
}

pub(super) fn load(c: &Conn<'_>, id: PuzzleId) -> Result<Stored> {
    let row = rows::puzzle(c, id)?.ok_or(ServiceError::NotFound(Missing::Puzzle(id)))?;
    stored(row)
}

impl Stored {
    pub(super) fn view(&self) -> PuzzleView {
        PuzzleView::new(&self.row, self.theme, &self.line)
    }
}

/// What checking a try's moves against the line found.
struct Checked {
    result: AttemptResult,
    replies: Vec<String>,
    /// The position after the wrong move, to search for its refutation.
    wrong: Option<(String, Game)>,
    next_hint: Option<String>,
}

fn check_moves(stored: &Stored, moves: &[String]) -> Result<Checked> {
    let mut game = stored.game.clone();
    let solver = game.side_to_move();
    let dim = game.rules().dim();
    let mut replies = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text, dim)
            .map_err(|e| ServiceError::Invalid(format!("move {} ({text:?}): {e}", i + 1)))?;
        let expected = stored.line.get(2 * i).map(|m| Move::parse(m, dim));
        let report = game
            .play(mv)
            .map_err(|e| ServiceError::IllegalMove(format!("move {} ({text}): {e}", i + 1)))?;
        let wins_now = report.outcome.and_then(|o| o.winner()) == Some(solver);
        let right = wins_now || matches!(expected, Some(Ok(m)) if m == mv);
        if !right {
            return Ok(Checked {
                result: AttemptResult::Wrong,
                replies,
                wrong: Some((mv.to_string(), game)),
                next_hint: None,
            });
        }
        let reply = stored.line.get(2 * i + 1);
        if wins_now || reply.is_none() {
            if i + 1 < moves.len() {
                return Err(ServiceError::Invalid(format!(
                    "the puzzle is solved after move {}: {} moves sent",
                    i + 1,
                    moves.len()
                )));
            }
            return Ok(Checked {
                result: AttemptResult::Correct,
                replies,
                wrong: None,
                next_hint: None,
            });
        }
        let Some(Ok(reply_move)) = reply.map(|m| Move::parse(m, dim)) else {
            return Err(ServiceError::internal("a stored puzzle line is unreadable"));
        };
        game.play(reply_move)
            .map_err(|e| ServiceError::internal(format!("a stored puzzle reply: {e}")))?;
        replies.push(reply_move.to_string());
    }
    Ok(Checked {
        result: AttemptResult::Continue,
        replies,
        wrong: None,
        next_hint: stored.line.get(2 * moves.len()).map(|m| hint_of(m)),
    })
}

/// The puzzle's position after the solver's `moves`, each followed by the line's reply.
fn after_moves(stored: &Stored, moves: &[String]) -> Result<Game> {
    let mut game = stored.game.clone();
    let dim = game.rules().dim();
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text, dim)
            .map_err(|e| ServiceError::Invalid(format!("move {} ({text:?}): {e}", i + 1)))?;
        game.play(mv)
            .map_err(|e| ServiceError::IllegalMove(format!("move {} ({text}): {e}", i + 1)))?;
        if let Some(Ok(reply)) = stored.line.get(2 * i + 1).map(|m| Move::parse(m, dim))
            && !game.is_over()
        {
            game.play(reply)
                .map_err(|e| ServiceError::internal(format!("a stored puzzle reply: {e}")))?;
        }
    }
    Ok(game)
}

impl Puzzles<'_> {
    /// A puzzle by id.
    pub async fn get(self, id: PuzzleId) -> Result<PuzzleView> {
        self.service.read(move |c| Ok(load(c, id)?.view())).await
    }

    /// The solver's legal moves in puzzle `id` after `moves` (their moves so far, each followed
    /// by the line's reply), only those from `from` when given: what a move picker offers.
    pub async fn legal_moves(
        self,
        id: PuzzleId,
        moves: Vec<String>,
        from: Option<String>,
    ) -> Result<Vec<String>> {
        self.service
            .read(move |c| {
                let stored = load(c, id)?;
                let game = after_moves(&stored, &moves)?;
                Ok(game
                    .legal_moves()
                    .into_iter()
                    .map(|m| m.to_string())
                    .filter(|m| from.as_deref().is_none_or(|f| hint_of(m) == f))
                    .collect())
            })
            .await
    }

    /// Puzzle `id`'s rules and position after `moves` (as [`Puzzles::legal_moves`]), to draw.
    pub async fn board(self, id: PuzzleId, moves: Vec<String>) -> Result<(Rules, Position)> {
        self.service
            .read(move |c| {
                let stored = load(c, id)?;
                let game = after_moves(&stored, &moves)?;
                Ok((game.rules().clone(), *game.position()))
            })
            .await
    }

    /// The puzzles mined from game `id`, and whether it has been mined yet.
    pub async fn of_game(self, id: GameId) -> Result<GamePuzzles> {
        self.service
            .read(move |c| {
                let puzzles = rows::puzzles_of_game(c, id)?
                    .into_iter()
                    .map(|row| Ok(stored(row)?.view()))
                    .collect::<Result<Vec<_>>>()?;
                Ok(GamePuzzles {
                    mined: rows::game_mined(c, id)?,
                    puzzles,
                })
            })
            .await
    }

    /// The puzzle of `variant` (any when `None`) nearest `player`'s puzzle rating that they
    /// have not tried yet.
    pub async fn next(self, player: PlayerId, variant: Option<String>) -> Result<PuzzleView> {
        if let Some(v) = &variant
            && v != super::mining::CUSTOM_VARIANT
            && tafl_engine::variant(v).is_none()
        {
            return Err(ServiceError::NotFound(Missing::Variant(v.clone())));
        }
        let now = self.service.now_ms();
        self.service
            .read(move |c| {
                let rating = player_glicko(c, player, now)?;
                let row =
                    rows::nearest_unseen_puzzle(c, player, variant.as_deref(), rating.rating)?
                        .ok_or_else(|| {
                            ServiceError::NotFound(Missing::NoPuzzleLeft(
                                variant.map(|v| format!(" in {v}")).unwrap_or_default(),
                            ))
                        })?;
                Ok(stored(row)?.view())
            })
            .await
    }

    /// `player`'s puzzle rating (the start's when they have tried none).
    pub async fn rating(self, player: PlayerId) -> Result<PuzzleRatingView> {
        let now = self.service.now_ms();
        self.service
            .read(move |c| {
                let row = rows::puzzle_rating(c, player)?;
                let g = player_glicko(c, player, now)?;
                Ok(PuzzleRatingView {
                    rating: glicko::shown(g.rating),
                    deviation: glicko::shown(g.deviation),
                    provisional: glicko::is_provisional(&g),
                    attempts: row.as_ref().map_or(0, |r| r.attempts),
                    solved: row.as_ref().map_or(0, |r| r.solved),
                })
            })
            .await
    }

    /// Checks `player`'s try at puzzle `id` (the solver's moves so far, in OpenTafl notation),
    /// rates it when it is their first finished one, and answers how it went.
    pub async fn attempt(
        self,
        player: PlayerId,
        id: PuzzleId,
        moves: Vec<String>,
    ) -> Result<AttemptView> {
        if moves.is_empty() {
            return Err(ServiceError::Invalid(
                "send at least one move, the solver's first".into(),
            ));
        }
        if moves.len() > MAX_ATTEMPT_MOVES {
            return Err(ServiceError::Invalid(format!(
                "{} moves sent: a try has at most {MAX_ATTEMPT_MOVES}",
                moves.len()
            )));
        }
        let sent = moves.clone();
        let (stored, checked) = self
            .service
            .read(move |c| {
                let stored = load(c, id)?;
                let checked = check_moves(&stored, &sent)?;
                Ok((stored, checked))
            })
            .await?;
        let line = stored.line.clone();
        let mut view = AttemptView {
            puzzle_id: id,
            result: checked.result,
            replies: checked.replies,
            wrong_move: None,
            refutation: None,
            solution: None,
            next_hint: checked.next_hint,
            rated: false,
            player_rating: None,
            puzzle_rating: None,
        };
        if checked.result == AttemptResult::Continue {
            return Ok(view);
        }
        view.solution = Some(line);
        if let Some((wrong, after)) = checked.wrong {
            view.wrong_move = Some(wrong);
            view.refutation = self.refutation(player, after).await;
        }
        let solved = checked.result == AttemptResult::Correct;
        let now = self.service.now_ms();
        let text = moves.join(" ");
        let changes = self
            .service
            .commit(move |c, _| rate_attempt(c, player, id, solved, &text, now))
            .await?;
        if let Some((player_change, puzzle_change)) = changes {
            view.rated = true;
            view.player_rating = Some(player_change);
            view.puzzle_rating = Some(puzzle_change);
        }
        Ok(view)
    }

    /// The engine's reply in `after` (the position a wrong move left), if it finds one in time.
    /// A busy engine (the player's searches waiting at their cap, or no turn within the wait)
    /// or a player asking again within the engine cooldown (each refutation is a search)
    /// leaves the refutation out rather than refusing the try or holding the answer.
    async fn refutation(self, player: PlayerId, after: Game) -> Option<String> {
        if after.is_over() {
            return None;
        }
        if let Err(e) = self.service.ask_engine(player, Asked::Refutation) {
            tracing::debug!(player = player.0, error = %e, "refutation left out: cooldown");
            return None;
        }
        let job = EngineJob {
            owner: EngineOwner::Player(player),
            strong: false,
            waiting_cap: Some(REFUTATIONS_WAITING),
        };
        let search = self.service.inner.engine.run(job, move || {
            tafl_engine::ai::search(&after, &SearchLimits::nodes(REFUTATION_NODES))
                .map(|r| r.best_move.to_string())
        });
        match tokio::time::timeout(REFUTATION_WAIT, search).await {
            Ok(Ok(found)) => found,
            _ => None,
        }
    }
}

/// `player`'s puzzle rating as of `now` (the start's when they have none).
fn player_glicko(c: &Conn<'_>, player: PlayerId, now: i64) -> Result<rows::Glicko> {
    Ok(match rows::puzzle_rating(c, player)? {
        Some(row) => glicko::as_of(&row.glicko, row.updated_at, now),
        None => glicko::INITIAL,
    })
}

/// Rates `player`'s finished try at puzzle `id` unless they tried it before: one Glicko-2 game
/// between the player and the puzzle.
fn rate_attempt(
    c: &Conn<'_>,
    player: PlayerId,
    id: PuzzleId,
    solved: bool,
    moves: &str,
    now: i64,
) -> Result<Option<(PuzzleRatingChange, PuzzleRatingChange)>> {
    if rows::puzzle_attempt(c, id, player)?.is_some() {
        return Ok(None);
    }
    let puzzle = load(c, id)?.row;
    let before = player_glicko(c, player, now)?;
    // The player plays the attackers' part in the maths: they win when they solve it.
    let winner = if solved {
        Side::Attackers
    } else {
        Side::Defenders
    };
    let (player_after, puzzle_after) = glicko::after_game(&before, &puzzle.glicko, Some(winner));
    rows::put_puzzle_rating(c, player, &player_after, solved, now)?;
    rows::update_puzzle_rating(c, id, &puzzle_after, solved)?;
    rows::insert_puzzle_attempt(
        c,
        &PuzzleAttemptRow {
            puzzle_id: id,
            player_id: player,
            solved,
            moves: moves.to_owned(),
            rating_before: before.rating,
            rating_after: player_after.rating,
            attempted_at: now,
        },
    )?;
    Ok(Some((
        PuzzleRatingChange::new(&before, &player_after),
        PuzzleRatingChange::new(&puzzle.glicko, &puzzle_after),
    )))
}
