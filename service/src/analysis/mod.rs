//! Computer analysis of finished games (asked for, queued, searched one at a time while no
//! AI turn waits), its chart, hints during a game, and the analysis board (`board/`).

mod analyses;
pub mod board;
pub mod chart;
mod queue_share;
mod view;

use super::GamesService;

pub use chart::chart_mark;
pub use chart::{analysis_chart, analysis_chart_text};
pub use queue_share::Asker;
pub use view::{AnalysisSummaryView, AnalysisView, MarkView, PlyView, SideSummaryView};

/// Analyses and hints: `service.analysis().request(asker, game)`.
#[derive(Clone, Copy)]
pub struct Analysis<'s> {
    pub(super) service: &'s GamesService,
}
