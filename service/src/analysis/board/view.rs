//! An analysis board as the API shows it: where it starts, its moves, the position shown, and
//! that position's legal moves.

use serde::Serialize;
use tafl_engine::Side;
use utoipa::ToSchema;

use crate::ResultView;
use crate::domain::ResultReason;

use super::BoardView;

/// An analysis board: its start, its tree of moves, the position it shows and what may be
/// played there.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct AnalysisBoardView {
    /// The preset, or null for a rules string.
    pub variant: Option<String>,
    /// The rules as an OpenTafl rules string (a preset's too).
    pub rules: String,
    /// The start position (OpenTafl, first row is rank 1) and who moves first there.
    pub start_position: String,
    #[schema(value_type = crate::domain::SideSchema)]
    pub start_to_move: Side,
    /// The moves with their variations: `d1-c1 d3-e3 (d3-f3) a4-a2`.
    pub moves: String,
    /// The move shown: its number in `moves` (0: the start).
    pub at: usize,
    /// The moves from the start to the one shown, as the referee writes them (with captures,
    /// `e5-e8xe9`).
    pub line: Vec<String>,
    /// The position shown.
    pub position: String,
    /// Who moves there; null once the game is over there.
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub to_move: Option<Side>,
    /// The legal moves there (none once the game is over).
    pub legal_moves: Vec<String>,
    /// Where the move shown captured (the king stays on his square, see `result`).
    pub captures: Vec<String>,
    /// How the game ended there, by the rules.
    pub result: Option<ResultView>,
    /// The web client's address of this board (`/analysis?...`), which reopens it.
    pub link: String,
}

impl BoardView {
    pub fn view(&self) -> AnalysisBoardView {
        let start = self.shown.start_position();
        let shown = &self.shown;
        AnalysisBoardView {
            variant: self.start.variant.map(|v| v.id.to_owned()),
            rules: self.start.rules.to_opentafl(),
            start_position: start.to_opentafl(),
            start_to_move: start.side_to_move(),
            moves: self.tree.to_text(),
            at: self.at,
            line: self
                .tree
                .line_to(self.at)
                .iter()
                .filter_map(|&n| self.notation.get(n).cloned())
                .collect(),
            position: shown.position().to_opentafl(),
            to_move: (!shown.is_over()).then(|| shown.side_to_move()),
            legal_moves: self.legal.clone(),
            captures: shown
                .history()
                .last()
                .map(|r| r.captures.iter().map(ToString::to_string).collect())
                .unwrap_or_default(),
            result: shown.outcome().map(|o| {
                let (winner, reason) = ResultReason::of_outcome(o);
                ResultView { winner, reason }
            }),
            link: self.link(),
        }
    }
}
