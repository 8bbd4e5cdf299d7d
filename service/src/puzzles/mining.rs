//! Mining: the positions of an analysed game where the side to move had a forced win (or, after
//! the opponent's blunder, a material gain), each searched again by the engine
//! ([`find_puzzle`]) to prove its first move is the only one; those that pass become puzzles.
//!
//! Each game is mined once (`puzzle_mined_games`), right after its analysis is done (the task
//! below hears `analysis_done`), and the games analysed before this existed are mined in
//! batches on start. The searches go through the engine queue as the game's own work and wait
//! while any AI turn is thinking, so mining never holds up a move.

use std::time::Duration;

use tafl_engine::ai::analysis::{self, Mark, PositionEval};
use tafl_engine::ai::puzzle::{PuzzleBounds, PuzzleLine, find_puzzle};
use tafl_engine::{Game, Move, Side};
use tokio::sync::{broadcast, watch};

use crate::domain::{AnalysisId, GameId, PuzzleId};
use crate::engine_queue::{EngineJob, EngineOwner};
use crate::events::EventPayload;
use crate::games::game_state;
use crate::logging::ErrorChain;
use crate::ratings::glicko;
use crate::store::rows::{self, PuzzleRow};
use crate::{Result, ServiceError};

use super::Puzzles;

/// Games mined in one pass of the batch.
pub const MINE_BATCH: u32 = 20;
/// Positions of one game searched at most: the work a game can cost is bounded.
pub const MAX_SEARCHES_PER_GAME: usize = 4;
/// The variant a puzzle from a game on custom rules is filed under.
pub const CUSTOM_VARIANT: &str = "custom";

/// How far a candidate is searched.
fn bounds() -> PuzzleBounds {
    PuzzleBounds::default()
}

impl Puzzles<'_> {
    /// Mines up to `limit` analysed finished games not mined yet; answers how many puzzles were
    /// found.
    pub async fn mine_pending(self, limit: u32) -> Result<u32> {
        let games = self
            .service
            .read(move |c| Ok(rows::games_to_mine(c, limit)?))
            .await?;
        let mut found = 0;
        for (game, analysis) in games {
            found += self.mine_game(game, analysis).await?.len() as u32;
        }
        Ok(found)
    }

    /// Mines game `id` from its analysis `analysis` (done), and records it as mined; answers the
    /// puzzles found.
    pub async fn mine_game(self, id: GameId, analysis: AnalysisId) -> Result<Vec<PuzzleId>> {
        let cache = self.service.inner.engines.clone();
        let (row, game, evals) = self
            .service
            .read(move |c| {
                let row = game_state::load(c, id)?;
                let game = game_state::engine_game(c, &cache, &row)?;
                let evals = rows::analysis_positions(c, analysis)?
                    .into_iter()
                    .map(|(_, text)| serde_json::from_str::<PositionEval>(&text))
                    .collect::<std::result::Result<Vec<_>, _>>()
                    .map_err(|e| ServiceError::internal(format!("a stored evaluation: {e}")))?;
                Ok((row, game, evals))
            })
            .await?;
        if row.private {
            // Never reached through `games_to_mine`; kept here too, because a puzzle is public
            // and would show the game's position and name it.
            let now = self.service.now_ms();
            return self
                .service
                .commit(move |c, _| {
                    rows::mark_game_mined(c, id, analysis, 0, now)?;
                    Ok(Vec::new())
                })
                .await;
        }
        let job = EngineJob {
            owner: EngineOwner::Game(id),
            strong: false,
            // Owed by the service, one search at a time per game.
            waiting_cap: None,
        };
        let mut found: Vec<(u32, PuzzleLine, Game)> = Vec::new();
        // Mining stops with the task that runs it; its waits for AI turns need no other signal.
        let (_running, mut shutdown) = watch::channel(false);
        for ply in candidates(&game, &evals, bounds().max_plies)
            .into_iter()
            .take(MAX_SEARCHES_PER_GAME)
        {
            // A line already found covers the later positions of the same forced win, as long
            // as the game followed it.
            if found
                .iter()
                .any(|(at, line, _)| game_followed(&game, *at, &line.moves, ply))
            {
                continue;
            }
            let at = position_at(&game, ply)?;
            self.service
                .analysis()
                .wait_for_ai_turns(&mut shutdown)
                .await;
            let searched = at.clone();
            let line = self
                .service
                .inner
                .engine
                .run(job, move || find_puzzle(&searched, &bounds()))
                .await?;
            if let Some(line) = line {
                found.push((ply, line, at));
            }
        }
        let variant = row.variant.clone().unwrap_or_else(|| CUSTOM_VARIANT.into());
        let rules = row.rules.clone();
        let now = self.service.now_ms();
        self.service
            .commit(move |c, _| {
                let mut ids = Vec::new();
                for (ply, line, at) in &found {
                    let mut puzzle = PuzzleRow {
                        id: PuzzleId(0),
                        variant: variant.clone(),
                        rules: rules.clone(),
                        position: at.position().to_opentafl(),
                        side_to_move: at.side_to_move(),
                        solution: line
                            .moves
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(" "),
                        theme: line.theme.as_str().into(),
                        game_id: id,
                        ply: *ply,
                        glicko: glicko::INITIAL,
                        attempts: 0,
                        solved: 0,
                        created_at: now,
                    };
                    if rows::insert_puzzle(c, &mut puzzle)? {
                        ids.push(puzzle.id);
                    }
                }
                rows::mark_game_mined(c, id, analysis, ids.len() as u32, now)?;
                Ok(ids)
            })
            .await
    }

    /// Mines the games analysed before (in batches), then each game as its analysis is done,
    /// and posts the daily puzzle where it is due (every `daily_puzzle_check_secs`), until
    /// shutdown.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let mut events = self.service.inner.bus.subscribe();
        let daily_check = super::daily::check_interval(&self.service.inner.config);
        loop {
            match self.mine_pending(MINE_BATCH).await {
                // A full batch: there may be more waiting.
                Ok(_) if self.more_to_mine().await => continue,
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(error = %ErrorChain(&e), "puzzle mining failed");
                    tokio::select! {
                        _ = tokio::time::sleep(Duration::from_secs(30)) => {}
                        _ = shutdown.changed() => return,
                    }
                }
            }
            // Wait for the next analysis done (a lagged receiver has missed some: mine again),
            // posting the daily puzzle where it is due meanwhile.
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(daily_check) => {
                        if let Err(e) = self.post_daily().await {
                            tracing::warn!(error = %ErrorChain(&e), "daily puzzle not posted");
                        }
                    }
                    event = events.recv() => match event {
                        Ok(event) if matches!(event.payload, EventPayload::AnalysisDone(_)) => break,
                        Ok(_) => {}
                        Err(broadcast::error::RecvError::Lagged(_)) => break,
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                    _ = shutdown.changed() => return,
                }
            }
            if *shutdown.borrow() {
                return;
            }
        }
    }

    async fn more_to_mine(self) -> bool {
        self.service
            .read(|c| Ok(rows::games_to_mine(c, 1)?))
            .await
            .is_ok_and(|games| !games.is_empty())
    }
}

/// Plies (positions, counted as the plies played before them) worth a search: first where the
/// analysis proved a forced win for the side to move within the bound (the first position of
/// each such run: the later ones are the same line), then where the move just played was a
/// mistake or a blunder (the side to move may win material); each in game order.
pub(super) fn candidates(game: &Game, evals: &[PositionEval], max_plies: u32) -> Vec<u32> {
    let history = game.history();
    let mut forced_wins = Vec::new();
    let mut after_blunders = Vec::new();
    // The winner of the forced run the game is in: a run ends when the proof goes, or when it
    // turns to the other side (a forced win thrown away by a blunder starts a new one).
    let mut run: Option<Side> = None;
    for (ply, eval) in evals.iter().enumerate() {
        let Some(report) = history.get(ply) else {
            // The last position: the game is over there.
            break;
        };
        let winner = eval.forced.as_ref().map(|f| f.winner);
        if winner != run {
            run = None;
        }
        let forced = eval
            .forced
            .as_ref()
            .is_some_and(|f| f.winner == report.side && f.plies <= max_plies);
        if forced {
            if run.is_none() {
                forced_wins.push(ply as u32);
            }
            run = winner;
            continue;
        }
        let blundered = ply > 0
            && evals.get(ply - 1).is_some_and(|before| {
                let last = &history[ply - 1];
                let judged = analysis::judge(last.ply, last.side, last.mv, before, eval);
                matches!(judged.mark, Mark::Mistake | Mark::Blunder)
            });
        if blundered && eval.forced.is_none() {
            after_blunders.push(ply as u32);
        }
    }
    forced_wins.extend(after_blunders);
    forced_wins
}

/// Whether `game`, from ply `at`, played `line` up to ply `ply` (a later position of that line).
fn game_followed(game: &Game, at: u32, line: &[Move], ply: u32) -> bool {
    let Some(played) = ply.checked_sub(at) else {
        return false;
    };
    let played = played as usize;
    played < line.len()
        && game
            .history()
            .iter()
            .skip(at as usize)
            .take(played)
            .map(|r| r.mv)
            .eq(line[..played].iter().copied())
}

/// `game` cut to its first `ply` plies.
fn position_at(game: &Game, ply: u32) -> Result<Game> {
    let moves: Vec<_> = game
        .history()
        .iter()
        .take(ply as usize)
        .map(|r| r.mv)
        .collect();
    Game::replay(game.rules().clone(), *game.start_position(), &moves)
        .map_err(|(i, e)| ServiceError::internal(format!("replaying move {}: {e}", i + 1)))
}

#[cfg(test)]
mod tests {
    use tafl_engine::ai::analysis::{ForcedResult, WinningChance, example};
    use tafl_engine::{Position, Rules};

    use super::*;

    fn example_game() -> Game {
        let rules = Rules::from_opentafl(&example::rules_string()).unwrap();
        let start = Position::from_opentafl(example::START, Side::Attackers).unwrap();
        let mut game = Game::from_position(rules, start);
        for mv in example::MOVES {
            game.play_str(mv).unwrap();
        }
        game
    }

    fn eval(forced: Option<(Side, u32)>) -> PositionEval {
        PositionEval {
            chance: WinningChance::EVEN,
            score: 0,
            best: None,
            line: Vec::new(),
            forced: forced.map(|(winner, plies)| ForcedResult {
                winner,
                plies,
                reason: None,
            }),
            depth: 1,
            nodes: 1,
        }
    }

    #[test]
    fn a_forced_win_thrown_away_starts_a_new_run_for_the_other_side() {
        // The attackers' win proved at the start (a deep analysis), thrown away by a2-b2; the
        // king's escape at ply 1, missed; the king taken at ply 2: three runs, three candidates.
        let game = example_game();
        let evals = [
            eval(Some((Side::Attackers, 5))),
            eval(Some((Side::Defenders, 1))),
            eval(Some((Side::Attackers, 1))),
            eval(None),
        ];
        assert_eq!(candidates(&game, &evals, 7), vec![0, 1, 2]);
    }

    #[test]
    fn a_run_kept_by_both_sides_is_searched_once_from_its_start() {
        // Ply 0 proves the attackers' win, ply 1 the defenders' loss (the same run), ply 2 the
        // attackers' win again: one candidate.
        let game = example_game();
        let evals = [
            eval(Some((Side::Attackers, 3))),
            eval(Some((Side::Attackers, 2))),
            eval(Some((Side::Attackers, 1))),
            eval(None),
        ];
        assert_eq!(candidates(&game, &evals, 7), vec![0]);
    }

    #[test]
    fn a_line_covers_the_later_positions_only_while_the_game_follows_it() {
        let game = example_game();
        let mv = |text: &str| Move::parse(text, 7).unwrap();
        let followed = [mv("a2-b2"), mv("a3-b3"), mv("b6-b4")];
        assert!(game_followed(&game, 0, &followed, 2));
        let left = [mv("a2-b2"), mv("a3-a1")];
        assert!(game_followed(&game, 0, &left, 1));
        assert!(!game_followed(&game, 1, &left, 2));
        assert!(!game_followed(&game, 0, &[mv("f6-f5"), mv("a3-b3")], 1));
        assert!(!game_followed(&game, 2, &followed, 1));
    }
}
