//! The analysis chart as SVG, for the game page: the same picture as the PNG chart the render
//! crate draws (the defenders' winning chance over the plies, the attackers' colour above the
//! curve and the defenders' below, mistakes, blunders and missed wins as dots), in the same
//! theme colours, but crisp at any width and clickable: a click on the plot or on a dot shows
//! that ply (the page's script reads `data-x0`/`data-dx` and the dots' `data-ply`).

use maud::{Markup, html};
use tafl_render::chart_mark_colour;

use crate::service::analysis::chart_mark;
use crate::service::{PlyView, analysis_chart_text};

use super::board_svg::{ThemeChoice, hex};

/// The drawing's size, in SVG units (the page scales it to its column).
const WIDTH: f64 = 600.0;
const HEIGHT: f64 = 220.0;

/// The plot's rectangle inside the drawing and its scales.
struct Plot {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    plies: usize,
}

impl Plot {
    const fn new(plies: usize) -> Plot {
        Plot {
            left: 46.0,
            top: 26.0,
            right: WIDTH - 12.0,
            bottom: HEIGHT - 28.0,
            plies: if plies == 0 { 1 } else { plies },
        }
    }

    /// Width of one ply.
    fn dx(&self) -> f64 {
        (self.right - self.left) / self.plies as f64
    }

    fn x(&self, ply: usize) -> f64 {
        self.left + self.dx() * ply as f64
    }

    fn y(&self, chance: f64) -> f64 {
        let chance = if chance.is_finite() {
            chance.clamp(0.0, 100.0)
        } else {
            50.0
        };
        self.bottom - (self.bottom - self.top) * chance / 100.0
    }
}

/// The chart of `plies` (judged in order from ply 1), in `look`'s colours.
pub fn analysis_chart_svg(plies: &[PlyView], look: ThemeChoice) -> Markup {
    let p = look.palette();
    let plot = Plot::new(plies.len());
    let start = plies.first().map_or(50.0, |ply| ply.before);
    let points: Vec<(f64, f64)> = std::iter::once(start)
        .chain(plies.iter().map(|ply| ply.after))
        .enumerate()
        .map(|(i, chance)| (plot.x(i), plot.y(chance)))
        .collect();
    let line = points_attr(&points);
    let area = format!(
        "{line} {:.1},{:.1} {:.1},{:.1}",
        plot.x(plies.len()),
        plot.bottom,
        plot.left,
        plot.bottom
    );
    // As on the PNG chart, but every ply of a short game (the web chart is often read close).
    let step = match plot.plies {
        0..=10 => 1,
        11..=30 => 5,
        31..=120 => 10,
        121..=300 => 25,
        _ => 50,
    };
    html! {
        svg #analysis-chart .chart viewBox={ "0 0 " (WIDTH) " " (HEIGHT) } xmlns="http://www.w3.org/2000/svg"
            role="group" aria-label=(analysis_chart_text(plies))
            data-x0=(plot.left) data-dx=(format!("{:.3}", plot.dx())) data-plies=(plies.len()) {
            rect width=(WIDTH) height=(HEIGHT) rx="6" fill=(hex(p.canvas)) {}
            text x=(WIDTH - 12.0) y="17" text-anchor="end" font-size="13" fill=(hex(p.caption_muted)) {
                "defenders' winning chance"
            }
            rect x=(plot.left) y=(plot.top) width=(plot.right - plot.left) height=(plot.bottom - plot.top)
                fill=(hex(p.attacker.face)) {}
            polygon points=(area) fill=(hex(p.defender.face)) {}
            line x1=(plot.left) x2=(plot.right) y1=(plot.y(50.0)) y2=(plot.y(50.0))
                stroke=(hex(p.grid)) stroke-width="1.5" stroke-dasharray="6 5" {}
            polyline points=(line) fill="none" stroke=(hex(p.frame)) stroke-width="2.5" stroke-linejoin="round" {}
            line #chart-cursor x1=(fmt(plot.x(plies.len()))) x2=(fmt(plot.x(plies.len())))
                y1=(plot.top) y2=(plot.bottom) stroke=(hex(p.move_line)) stroke-width="2" pointer-events="none" {}
            // The whole plot takes clicks (the script turns the place into a ply).
            rect.hit x=(plot.left) y=(plot.top) width=(plot.right - plot.left) height=(plot.bottom - plot.top)
                fill="transparent" {}
            @for (i, ply) in plies.iter().enumerate() {
                @if let Some(mark) = chart_mark(ply.mark) {
                    @let (x, y) = points[i + 1];
                    @let label = format!("Move {}, {} ({}): {}", ply.ply, ply.mv, ply.side, super::pages::game_analysis::mark_words(ply.mark));
                    g.dot tabindex="0" role="button" data-ply=(ply.ply) aria-label=(label) {
                        title { (label) }
                        circle cx=(fmt(x)) cy=(fmt(y)) r="7" fill=(hex(p.canvas)) {}
                        circle cx=(fmt(x)) cy=(fmt(y)) r="5" fill=(hex(chart_mark_colour(look.theme(), mark))) {}
                    }
                }
            }
            @for chance in [0u32, 50, 100] {
                text x=(plot.left - 6.0) y=(fmt(plot.y(f64::from(chance)) + 4.5)) text-anchor="end"
                    font-size="13" fill=(hex(p.label)) { (chance) "%" }
            }
            @for ply in (0..=plot.plies).step_by(step) {
                text x=(fmt(plot.x(ply))) y=(plot.bottom + 18.0) text-anchor="middle" font-size="13"
                    fill=(hex(p.label)) { (ply) }
            }
        }
    }
}

fn fmt(v: f64) -> String {
    format!("{v:.1}")
}

fn points_attr(points: &[(f64, f64)]) -> String {
    points
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Side;
    use crate::service::MarkView;

    fn ply(n: u32, mark: MarkView, after: f64) -> PlyView {
        PlyView {
            ply: n,
            side: if n % 2 == 1 {
                Side::Attackers
            } else {
                Side::Defenders
            },
            mv: "a2-b2".into(),
            mark,
            before: 50.0,
            after,
            loss: 0.0,
            best: None,
            line: vec![],
            forced: None,
        }
    }

    #[test]
    fn dots_mark_mistakes_blunders_and_missed_wins_only() {
        let plies = [
            ply(1, MarkView::Blunder, 100.0),
            ply(2, MarkView::Inaccuracy, 90.0),
            ply(3, MarkView::Mistake, 60.0),
            ply(4, MarkView::MissedWin, 60.0),
            ply(5, MarkView::Best, 60.0),
        ];
        let svg = analysis_chart_svg(&plies, ThemeChoice::Light).into_string();
        let dots: Vec<&str> = svg
            .match_indices("data-ply=\"")
            .map(|(i, _)| &svg[i + 10..i + 11])
            .collect();
        assert_eq!(dots, ["1", "3", "4"]);
        // The blunder is drawn at the top of the plot (the defenders' chance 100%).
        assert!(svg.contains("cx=\"154.4\" cy=\"26.0\""), "{svg}");
        // Every element is closed: inside HTML, an SVG element left open swallows the next.
        assert_eq!(
            svg.matches("<circle").count(),
            svg.matches("</circle>").count()
        );
    }

    #[test]
    fn an_empty_analysis_draws_an_even_line() {
        let svg = analysis_chart_svg(&[], ThemeChoice::Dark).into_string();
        assert!(svg.contains("points=\"46.0,109.0\""), "{svg}");
    }
}
