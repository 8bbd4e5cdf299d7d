//! The chart of an analysis (the render crate draws it) and its text alternative.

use tafl_render::{Chart, ChartMark, Theme, render_chart};

use crate::analysis::view::{MarkView, PlyView};
use crate::{Result, ServiceError};

/// Width of the chart in pixels.
const CHART_WIDTH: u32 = 800;

/// The chart of an analysis's judged `plies` as a PNG, titled `title`.
pub fn analysis_chart(plies: &[PlyView], title: &str, theme: Theme) -> Result<Vec<u8>> {
    let start = plies.first().map_or(50.0, |p| p.before as f32);
    let chances = std::iter::once(start)
        .chain(plies.iter().map(|p| p.after as f32))
        .collect();
    let marks = plies
        .iter()
        .enumerate()
        .filter_map(|(i, p)| chart_mark(p.mark).map(|m| (i + 1, m)))
        .collect();
    let chart = Chart {
        title: title.to_owned(),
        chances,
        marks,
    };
    render_chart(&chart, theme, CHART_WIDTH)
        .map_err(|e| ServiceError::internal(format!("drawing the analysis chart: {e}")))
}

/// The marks the chart shows: mistakes, blunders and missed wins (the web's SVG chart too).
pub fn chart_mark(mark: MarkView) -> Option<ChartMark> {
    match mark {
        MarkView::Mistake => Some(ChartMark::Mistake),
        MarkView::Blunder => Some(ChartMark::Blunder),
        MarkView::MissedWin => Some(ChartMark::MissedWin),
        MarkView::Best | MarkView::Good | MarkView::Inaccuracy => None,
    }
}

/// What the chart shows, in words (its alt text).
pub fn analysis_chart_text(plies: &[PlyView]) -> String {
    let plies_marked = |wanted: &[MarkView]| {
        let marked: Vec<String> = plies
            .iter()
            .filter(|p| wanted.contains(&p.mark))
            .map(|p| p.ply.to_string())
            .collect();
        if marked.is_empty() {
            "none".to_owned()
        } else {
            marked.join(", ")
        }
    };
    let end = plies.last().map_or(50.0, |p| p.after);
    let text = format!(
        "Chart of the defenders' winning chance over {} {}, ending at {end:.0}%. \
         Blunders and missed wins at plies: {}. Mistakes at plies: {}.",
        plies.len(),
        if plies.len() == 1 { "ply" } else { "plies" },
        plies_marked(&[MarkView::Blunder, MarkView::MissedWin]),
        plies_marked(&[MarkView::Mistake]),
    );
    text.chars().take(1000).collect()
}
