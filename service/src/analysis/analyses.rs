//! Computer analysis of games: asked for by a player, queued in the store, searched one
//! position at a time on a blocking thread (never on the async runtime, and only while no AI
//! turn is thinking: the AI's moves in live games come first), each position stored as it is
//! done so that a restart resumes, and announced with an `analysis_done` event.

use std::sync::Arc;
use std::time::Duration;

use tafl_engine::Game;
use tafl_engine::ai::analysis::{self, PlyAnalysis, PositionEval};
use tafl_engine::ai::{SearchLimits, Searcher, available_threads};
use tokio::sync::watch;

use crate::domain::{AnalysisId, AnalysisStatus, GameId, PlayerId, Seat};
use crate::store::Conn;
use crate::store::rows::{self, AnalysisRow, GameRow};

use crate::analysis::view::AnalysisView;
use crate::events::{AnalysisDone, EventPayload};
use crate::logging::ErrorChain;

use super::Analysis;
use crate::cooldowns::Asked;
use crate::engine_queue::{EngineJob, EngineOwner};
use crate::games::game_state;
use crate::{Missing, Result, ServiceError};

use super::queue_share::{Asker, QueueShares};

/// Transposition table of the analysis search, in MiB.
const TABLE_MIB: usize = 64;

impl Analysis<'_> {
    /// Asks for the analysis of game `id` at the configured budget: the stored one when there is
    /// one, otherwise a new one at the end of the queue.
    ///
    /// A finished game may be analysed by anyone who may see it; a game still going only by
    /// its player, and only against the AI (never in a game against a person). A new one is
    /// refused when it would take more than the asker's share of the queue (`queue_share.rs`).
    pub async fn request(self, asker: Asker, id: GameId) -> Result<AnalysisView> {
        let viewer = asker.player;
        let ms_per_ply = self.service.inner.config.analysis_ms_per_ply;
        let shares = QueueShares::of(&self.service.inner.config);
        let service = self.service.clone();
        let cache = self.service.inner.engines.clone();
        let now = self.service.now_ms();
        let view = self
            .service
            .commit(move |c, _| {
                let row = game_state::load_visible(c, id, Some(viewer))?;
                let plies = row.ply;
                if plies == 0 {
                    return Err(ServiceError::Invalid(format!(
                        "game {id} has no move yet: nothing to analyse"
                    )));
                }
                check_may_analyse(&row, viewer)?;
                let analysis = match rows::analysis_of(c, id, ms_per_ply, plies)? {
                    Some(existing) => existing,
                    None => {
                        shares.check(c, &rows::pending_analyses(c)?, asker, now)?;
                        service.ask_engine(viewer, Asked::Analysis)?;
                        let mut new = AnalysisRow {
                            id: AnalysisId(0),
                            game_id: id,
                            ms_per_ply,
                            plies,
                            status: AnalysisStatus::Queued,
                            requested_by: Some(viewer),
                            requested_at: now,
                            finished_at: None,
                            requested_from: asker.from,
                        };
                        rows::insert_analysis(c, &mut new)?;
                        new
                    }
                };
                analysis_view(c, &cache, &row, &analysis)
            })
            .await?;
        self.service.inner.analysis_queued.notify_one();
        Ok(view)
    }

    /// Whether `viewer` may ask for an analysis of game `id` now: the rule
    /// [`Analysis::request`] applies, for a front end that offers the choice only
    /// to whom it would accept it from.
    pub async fn may_request(self, viewer: PlayerId, id: GameId) -> Result<bool> {
        self.service
            .read(move |c| {
                let row = game_state::load_visible(c, id, Some(viewer))?;
                Ok(row.ply > 0 && check_may_analyse(&row, viewer).is_ok())
            })
            .await
    }

    /// The latest analysis of game `id`, as far as it has got.
    pub async fn get(self, viewer: Option<PlayerId>, id: GameId) -> Result<AnalysisView> {
        let cache = self.service.inner.engines.clone();
        self.service
            .read(move |c| {
                let row = game_state::load_visible(c, id, viewer)?;
                if row.status.is_active() {
                    // A game still going shows its analysis to its own player only.
                    match viewer {
                        Some(viewer) => check_may_analyse(&row, viewer)?,
                        None => return Err(not_analysed(id)),
                    }
                }
                let analysis = rows::latest_analysis(c, id)?.ok_or_else(|| not_analysed(id))?;
                analysis_view(c, &cache, &row, &analysis)
            })
            .await
    }

    /// Runs queued analyses, oldest first (one cut short by a restart first), until shutdown.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        loop {
            let next = match self.service.read(|c| Ok(rows::pending_analyses(c)?)).await {
                Ok(pending) => in_turn(pending).into_iter().next(),
                Err(e) => {
                    tracing::warn!(error = %ErrorChain(&e), "cannot read the analysis queue");
                    None
                }
            };
            match next {
                Some(analysis) => {
                    if let Err(e) = self.run_analysis(&analysis, &mut shutdown).await {
                        tracing::warn!(analysis = %analysis.id, error = %ErrorChain(&e), "analysis failed");
                        // Not retried at once: a failure here is a bug or a store outage.
                        tokio::select! {
                            _ = tokio::time::sleep(Duration::from_secs(5)) => {}
                            _ = shutdown.changed() => return,
                        }
                    }
                }
                None => {
                    tokio::select! {
                        _ = self.service.inner.analysis_queued.notified() => {}
                        _ = shutdown.changed() => return,
                    }
                }
            }
            if *shutdown.borrow() {
                return;
            }
        }
    }

    async fn run_analysis(
        self,
        analysis: &AnalysisRow,
        shutdown: &mut watch::Receiver<bool>,
    ) -> Result<()> {
        let id = analysis.id;
        let game_id = analysis.game_id;
        let plies = analysis.plies;
        let cache = self.service.inner.engines.clone();
        let (game, done) = self
            .service
            .commit(move |c, _| {
                rows::set_analysis_status(c, id, AnalysisStatus::Running, None)?;
                let row = game_state::load(c, game_id)?;
                let game = first_plies(&game_state::engine_game(c, &cache, &row)?, plies)?;
                Ok((game, rows::analysis_positions(c, id)?.len()))
            })
            .await?;
        let threads = match self.service.inner.config.analysis_threads {
            0 => available_threads(),
            n => n as usize,
        };
        let limits = SearchLimits::time(Duration::from_millis(u64::from(analysis.ms_per_ply)))
            .with_threads(threads)
            .with_table_mib(TABLE_MIB);
        let mut searcher = Some(Searcher::new(TABLE_MIB));
        let job = EngineJob {
            owner: analysis
                .requested_by
                .map_or(EngineOwner::Game(game_id), EngineOwner::Player),
            strong: threads >= available_threads(),
            // Bounded by the analyses a player may have queued.
            waiting_cap: None,
        };
        let mut replay = Game::from_position(game.rules().clone(), *game.start_position());
        // The loop below plays the move into each position it evaluates, so a resumed analysis
        // starts from the last stored position's predecessor.
        for report in game.history().iter().take(done.saturating_sub(1)) {
            replay
                .play(report.mv)
                .map_err(|e| ServiceError::internal(format!("replaying game {game_id}: {e}")))?;
        }
        for position in done..=plies as usize {
            if position > 0 {
                let mv = game.history()[position - 1].mv;
                replay.play(mv).map_err(|e| {
                    ServiceError::internal(format!("replaying game {game_id}: {e}"))
                })?;
            }
            self.wait_for_ai_turns(shutdown).await;
            if *shutdown.borrow() {
                return Ok(());
            }
            let mut search = searcher.take().unwrap_or_else(|| Searcher::new(TABLE_MIB));
            let at = replay.clone();
            let limits = limits.clone();
            let (search, eval) = self
                .service
                .inner
                .engine
                .run(job, move || {
                    let eval = analysis::evaluate(&mut search, &at, &limits);
                    (search, eval)
                })
                .await?;
            searcher = Some(search);
            let text = serde_json::to_string(&eval)
                .map_err(|e| ServiceError::internal(format!("storing an evaluation: {e}")))?;
            let index = u32::try_from(position).unwrap_or(u32::MAX);
            self.service
                .commit(move |c, _| Ok(rows::put_analysis_position(c, id, index, &text)?))
                .await?;
        }
        let cache = self.service.inner.engines.clone();
        let mut done = analysis.clone();
        self.service
            .commit(move |c, e| {
                rows::set_analysis_status(c, id, AnalysisStatus::Done, Some(e.now()))?;
                let row = game_state::load(c, game_id)?;
                done.status = AnalysisStatus::Done;
                done.finished_at = Some(e.now());
                let view = analysis_view(c, &cache, &row, &done)?;
                let summary = view.summary.as_ref();
                e.emit(
                    c,
                    Some(game_id),
                    None,
                    game_state::humans(&row),
                    EventPayload::AnalysisDone(AnalysisDone {
                        analysis: id,
                        plies,
                        attackers_accuracy: summary.map_or(0.0, |s| s.attackers.accuracy),
                        defenders_accuracy: summary.map_or(0.0, |s| s.defenders.accuracy),
                    }),
                )
            })
            .await
    }

    /// Waits while any AI turn is being thought about (they come first), or until shutdown.
    pub(crate) async fn wait_for_ai_turns(self, shutdown: &mut watch::Receiver<bool>) {
        loop {
            let busy = self
                .service
                .inner
                .ai_running
                .lock()
                .map(|running| !running.is_empty())
                .unwrap_or(false);
            if !busy || *shutdown.borrow() {
                return;
            }
            // The AI's turn ends with a notification; the timeout covers one missed.
            tokio::select! {
                _ = self.service.inner.ai_idle.notified() => {}
                _ = tokio::time::sleep(Duration::from_millis(200)) => {}
                _ = shutdown.changed() => return,
            }
        }
    }
}

/// How long a hint waits, at most, for the engine (its search included).
const HINT_WAIT: Duration = Duration::from_secs(30);

fn not_analysed(id: GameId) -> ServiceError {
    ServiceError::NotFound(Missing::Analysis(id))
}

/// A finished game: anyone who sees it. A game still going: its player, against the AI only.
pub(super) fn check_may_analyse(row: &GameRow, viewer: PlayerId) -> Result<()> {
    if !row.status.is_active() {
        return Ok(());
    }
    let Some(side) = game_state::side_of(row, viewer) else {
        return Err(ServiceError::Forbidden(format!(
            "game {} is still being played: only its players see its analysis",
            row.id
        )));
    };
    match game_state::seat(row, side.opponent()) {
        Seat::Ai(_) | Seat::Imported(_) => Ok(()),
        Seat::Player(_) => Err(ServiceError::Forbidden(format!(
            "game {} is still being played against a person: it can be analysed once it is over",
            row.id
        ))),
    }
}

/// `game` cut to its first `plies` plies.
fn first_plies(game: &Game, plies: u32) -> Result<Game> {
    let moves: Vec<_> = game
        .history()
        .iter()
        .take(plies as usize)
        .map(|r| r.mv)
        .collect();
    Game::replay(game.rules().clone(), *game.start_position(), &moves)
        .map_err(|(i, e)| ServiceError::internal(format!("replaying move {}: {e}", i + 1)))
}

/// The view of `analysis`: its place in the queue, or its plies judged.
fn analysis_view(
    c: &Conn<'_>,
    cache: &Arc<game_state::EngineCache>,
    row: &GameRow,
    analysis: &AnalysisRow,
) -> Result<AnalysisView> {
    let queue_position = match analysis.status {
        AnalysisStatus::Done => None,
        _ => in_turn(rows::pending_analyses(c)?)
            .iter()
            .position(|a| a.id == analysis.id)
            .map(|i| u32::try_from(i + 1).unwrap_or(u32::MAX)),
    };
    let mut plies = Vec::new();
    if analysis.status == AnalysisStatus::Done {
        let game = first_plies(&game_state::engine_game(c, cache, row)?, analysis.plies)?;
        let evals = rows::analysis_positions(c, analysis.id)?
            .into_iter()
            .map(|(_, text)| serde_json::from_str::<PositionEval>(&text))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| ServiceError::internal(format!("a stored evaluation: {e}")))?;
        plies = judge_all(&game, &analysis::rebased(evals));
    }
    Ok(AnalysisView::new(analysis, queue_position, &plies))
}

/// The pending analyses in the order they are run: one cut short by a restart first, then in
/// turn between the players who asked (each player's own oldest first), so one player's many
/// requests do not put everyone else's behind them.
fn in_turn(pending: Vec<AnalysisRow>) -> Vec<AnalysisRow> {
    let (mut order, waiting): (Vec<_>, Vec<_>) = pending
        .into_iter()
        .partition(|a| a.status == AnalysisStatus::Running);
    // Each requester's queue, in the order of their first request.
    let mut queues: Vec<(Option<PlayerId>, std::collections::VecDeque<AnalysisRow>)> = Vec::new();
    for analysis in waiting {
        match queues
            .iter_mut()
            .find(|(by, _)| *by == analysis.requested_by)
        {
            Some((_, queue)) => queue.push_back(analysis),
            None => queues.push((analysis.requested_by, [analysis].into())),
        }
    }
    while !queues.is_empty() {
        queues.retain_mut(|(_, queue)| match queue.pop_front() {
            Some(next) => {
                order.push(next);
                true
            }
            None => false,
        });
    }
    order
}

/// Each ply of `game` judged from the evaluations of the positions around it.
fn judge_all(game: &Game, evals: &[PositionEval]) -> Vec<PlyAnalysis> {
    game.history()
        .iter()
        .zip(evals.windows(2))
        .map(|(report, pair)| {
            analysis::judge(report.ply, report.side, report.mv, &pair[0], &pair[1])
        })
        .collect()
}

impl Analysis<'_> {
    fn hints_waiting_per_player(self) -> usize {
        usize::try_from(self.service.inner.config.hints_waiting_per_player).unwrap_or(usize::MAX)
    }

    /// The AI's move for `player` in their casual game against the AI, at its level's budget.
    /// When the engine is busy and the hint must wait, `on_wait` is told its place in line
    /// first (1: next), so the player can be told.
    pub async fn hint(
        self,
        player: PlayerId,
        id: GameId,
        on_wait: impl FnOnce(usize),
    ) -> Result<String> {
        let Some(picker) = self.service.inner.picker.clone() else {
            return Err(ServiceError::Unavailable(
                "the AI is not available on this server".into(),
            ));
        };
        let cache = self.service.inner.engines.clone();
        let (game, level) = self
            .service
            .read(move |c| {
                let row = game_state::load_visible(c, id, Some(player))?;
                let Some(side) = game_state::side_of(&row, player) else {
                    return Err(ServiceError::Forbidden(format!(
                        "you do not play in game {id}"
                    )));
                };
                let level = match game_state::seat(&row, side.opponent()) {
                    Seat::Ai(level) if !row.rated => level,
                    _ => {
                        return Err(ServiceError::Forbidden(
                            "hints are for casual games against the AI only".into(),
                        ));
                    }
                };
                if !row.status.is_active() {
                    return Err(ServiceError::GameOver);
                }
                if row.side_to_move != side {
                    return Err(ServiceError::NotYourTurn(row.side_to_move.to_string()));
                }
                Ok((game_state::engine_game(c, &cache, &row)?, level))
            })
            .await?;
        self.service.ask_engine(player, Asked::Hint)?;
        let job = EngineJob {
            owner: EngineOwner::Player(player),
            strong: level >= picker.max_level(),
            waiting_cap: Some(self.hints_waiting_per_player()),
        };
        // A hint is asked for now: past its wait it is refused (the place in line is given
        // back), never answered minutes later.
        let search = self.service.inner.engine.run_telling_place(
            job,
            move || picker.pick(&game, level),
            on_wait,
        );
        let picked = tokio::time::timeout(HINT_WAIT, search)
            .await
            .map_err(|_| ServiceError::Limited {
                message: format!(
                    "the engine is busy: no hint within {} s; ask again later",
                    HINT_WAIT.as_secs()
                ),
                retry_after_secs: HINT_WAIT.as_secs(),
            })??;
        picked
            .map(|mv| mv.to_string())
            .ok_or(ServiceError::GameOver)
    }
}
