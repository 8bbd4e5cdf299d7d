//! What an analysis looks like to a client: its state, then each ply judged and a summary.

use serde::Serialize;
use tafl_engine::ai::analysis::{self, Mark, PlyAnalysis};
use utoipa::ToSchema;

use crate::domain::{AnalysisId, AnalysisStatus, GameId, Side};
use crate::store::rows::AnalysisRow;

/// A computer analysis of a game.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AnalysisView {
    pub id: AnalysisId,
    pub game_id: GameId,
    pub status: AnalysisStatus,
    /// While it waits or runs: 1 for the analysis being searched now.
    pub queue_position: Option<u32>,
    /// Search time per position, in milliseconds.
    pub ms_per_ply: u32,
    /// Plies of the game analysed.
    pub plies_analysed: u32,
    pub requested_at: i64,
    pub finished_at: Option<i64>,
    /// Once done: each side's accuracy and the worst moves.
    pub summary: Option<AnalysisSummaryView>,
    /// Once done: every ply, in order.
    pub plies: Vec<PlyView>,
}

/// One ply judged.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PlyView {
    pub ply: u32,
    #[schema(value_type = crate::domain::SideSchema)]
    pub side: Side,
    /// The move played.
    #[serde(rename = "move")]
    pub mv: String,
    pub mark: MarkView,
    /// The defenders' winning chance (0 to 100) before and after the move.
    pub before: f64,
    pub after: f64,
    /// Winning chance the mover gave away, in percentage points.
    pub loss: f64,
    /// The move the search preferred, and its line.
    pub best: Option<String>,
    pub line: Vec<String>,
    /// A result the search proved before the move ("escape in 3").
    pub forced: Option<String>,
}

/// How good a move was (thresholds in docs/ai.md, "Analysis").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MarkView {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
    MissedWin,
}

/// Each side's accuracy and the worst moves.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AnalysisSummaryView {
    pub attackers: SideSummaryView,
    pub defenders: SideSummaryView,
    /// At most three, worst first (a missed win first).
    pub worst: Vec<PlyView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct SideSummaryView {
    /// 0 to 100.
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    pub missed_wins: u32,
}

impl AnalysisView {
    pub fn new(
        row: &AnalysisRow,
        queue_position: Option<u32>,
        plies: &[PlyAnalysis],
    ) -> AnalysisView {
        let summary = (!plies.is_empty()).then(|| {
            let summary = analysis::summarize(plies);
            let side = |s: &analysis::SideSummary| SideSummaryView {
                accuracy: round1(s.accuracy),
                inaccuracies: s.inaccuracies,
                mistakes: s.mistakes,
                blunders: s.blunders,
                missed_wins: s.missed_wins,
            };
            AnalysisSummaryView {
                attackers: side(&summary.attackers),
                defenders: side(&summary.defenders),
                worst: summary.worst.iter().map(PlyView::of).collect(),
            }
        });
        AnalysisView {
            id: row.id,
            game_id: row.game_id,
            status: row.status,
            queue_position,
            ms_per_ply: row.ms_per_ply,
            plies_analysed: row.plies,
            requested_at: row.requested_at,
            finished_at: row.finished_at,
            summary,
            plies: plies.iter().map(PlyView::of).collect(),
        }
    }
}

impl PlyView {
    /// The view of a ply the engine judged.
    pub fn of(ply: &PlyAnalysis) -> PlyView {
        PlyView {
            ply: ply.ply,
            side: ply.side,
            mv: ply.played.to_string(),
            mark: MarkView::of(ply.mark),
            before: round1(ply.before.defenders()),
            after: round1(ply.after.defenders()),
            loss: round1(ply.loss),
            best: ply.best.map(|m| m.to_string()),
            line: ply.line.iter().map(ToString::to_string).collect(),
            forced: ply.forced.as_ref().map(|f| f.describe()),
        }
    }
}

impl MarkView {
    fn of(mark: Mark) -> MarkView {
        match mark {
            Mark::Best => MarkView::Best,
            Mark::Good => MarkView::Good,
            Mark::Inaccuracy => MarkView::Inaccuracy,
            Mark::Mistake => MarkView::Mistake,
            Mark::Blunder => MarkView::Blunder,
            Mark::MissedWin => MarkView::MissedWin,
        }
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
