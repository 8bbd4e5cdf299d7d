//! Computer analysis of finished games (asked for, queued, searched one at a time while no
//! AI turn waits), its chart, and hints during a game.

mod analyses;
pub(crate) mod chart;
mod view;

use super::GamesService;

pub(crate) use chart::chart_mark;
pub use chart::{analysis_chart, analysis_chart_text};
pub use view::{AnalysisSummaryView, AnalysisView, MarkView, PlyView, SideSummaryView};

/// Analyses and hints: `service.analysis().request(viewer, game)`.
#[derive(Clone, Copy)]
pub struct Analysis<'s> {
    pub(super) service: &'s GamesService,
}
