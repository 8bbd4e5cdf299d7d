//! The engine's line for an analysis board's position: through the engine queue like every
//! search (fair between players, its place in line told), one at a time per viewer, within a
//! deadline.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tafl_engine::Game;
use tafl_engine::ai::analysis::{self, PositionEval};
use tafl_engine::ai::{SearchLimits, Searcher};
use tafl_engine::{Rules, Side};

use crate::domain::PlayerId;
use crate::engine_queue::{EngineJob, EngineOwner};
use crate::{GamesService, Result, ServiceError};

use super::super::Analysis;
use super::BoardView;

/// How long a board's search waits, at most, for the engine (its search included): as a hint.
const SEARCH_WAIT: Duration = Duration::from_secs(30);
/// Transposition table of a board's search, in MiB (one thread, a short search).
const TABLE_MIB: usize = 16;

/// What the engine found in a board's position.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineLineView {
    /// The defenders' winning chance in percent, read from the search's score as a game's
    /// analysis reads it (counted from the score of the rules' start, so that a start is
    /// about even).
    pub defenders_chance: f64,
    pub best: Option<String>,
    /// The line the search expects, from the position shown.
    pub line: Vec<String>,
    /// A proved result ("escape in 3").
    pub forced: Option<String>,
    pub depth: u32,
}

impl EngineLineView {
    fn of(eval: PositionEval, baseline: i32) -> EngineLineView {
        let eval = eval.with_baseline(baseline);
        EngineLineView {
            defenders_chance: eval.chance.defenders(),
            best: eval.best.map(|m| m.to_string()),
            line: eval.line.iter().map(ToString::to_string).collect(),
            forced: eval.forced.as_ref().map(|f| f.describe()),
            depth: eval.depth,
        }
    }
}

/// The viewers whose board search is waiting or running: one each.
#[derive(Default)]
pub(crate) struct BoardSearches(Arc<Mutex<HashSet<PlayerId>>>);

/// A viewer's one search; their place is given back when it is dropped (answered, refused,
/// or given up because the page went away).
struct ViewerTurn {
    searches: Arc<Mutex<HashSet<PlayerId>>>,
    viewer: PlayerId,
}

impl Drop for ViewerTurn {
    fn drop(&mut self) {
        if let Ok(mut searching) = self.searches.lock() {
            searching.remove(&self.viewer);
        }
    }
}

/// A board search that may start: [`BoardSearch::run`] waits for its turn and searches.
pub struct BoardSearch {
    service: GamesService,
    game: Game,
    /// The defenders' score of the rules' start, which the chance is counted from.
    baseline: i32,
    viewer: PlayerId,
    _turn: ViewerTurn,
}

impl Analysis<'_> {
    /// Takes `viewer`'s one board search for the position `board` shows; refused while their
    /// last one is still waiting or running, or when the position is decided.
    pub fn board_search(self, viewer: PlayerId, board: &BoardView) -> Result<BoardSearch> {
        if board.shown.is_over() {
            return Err(ServiceError::Invalid(
                "the game is over in this position: there is nothing to search".into(),
            ));
        }
        let searches = self.service.inner.board_searches.0.clone();
        let fresh = searches
            .lock()
            .map_err(|_| ServiceError::internal("the board searches' lock is poisoned"))?
            .insert(viewer);
        if !fresh {
            return Err(ServiceError::Limited {
                message: "the engine is still working on your last position; \
                          ask again once it answers"
                    .into(),
                retry_after_secs: 5,
            });
        }
        Ok(BoardSearch {
            service: self.service.clone(),
            game: board.shown.clone(),
            baseline: start_score(&board.start.rules),
            viewer,
            _turn: ViewerTurn { searches, viewer },
        })
    }
}

impl BoardSearch {
    /// Waits for the engine and searches at an analysis's budget per position; when it must
    /// wait, `on_wait` is told its place in line first (1: next). Past [`SEARCH_WAIT`] it is
    /// refused and its place given back.
    pub async fn run(self, on_wait: impl FnOnce(usize)) -> Result<EngineLineView> {
        let budget = u64::from(self.service.inner.config.analysis_ms_per_ply);
        let limits = SearchLimits::time(Duration::from_millis(budget))
            .with_threads(1)
            .with_table_mib(TABLE_MIB);
        let job = EngineJob {
            owner: EngineOwner::Player(self.viewer),
            strong: false,
            waiting_cap: Some(1),
        };
        let game = self.game;
        let search = self.service.inner.engine.run_telling_place(
            job,
            move || analysis::evaluate(&mut Searcher::new(TABLE_MIB), &game, &limits),
            on_wait,
        );
        let eval = tokio::time::timeout(SEARCH_WAIT, search)
            .await
            .map_err(|_| ServiceError::Limited {
                message: format!(
                    "the engine is busy: no answer within {} s; ask again later",
                    SEARCH_WAIT.as_secs()
                ),
                retry_after_secs: SEARCH_WAIT.as_secs(),
            })??;
        Ok(EngineLineView::of(eval, self.baseline))
    }
}

/// The defenders' score of `rules`' start by the evaluation alone: what a game's analysis
/// counts its chances from (it searches the start; a board's single search cannot).
pub(crate) fn start_score(rules: &Rules) -> i32 {
    let start = rules.start_position();
    let score = tafl_engine::ai::evaluate(rules, &start);
    match start.side_to_move() {
        Side::Defenders => score,
        Side::Attackers => score.saturating_neg(),
    }
}
