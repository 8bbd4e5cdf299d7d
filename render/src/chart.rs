//! The analysis chart: the defenders' winning chance over a game's plies, the mistakes,
//! blunders and missed wins marked, in the boards' colours (light and dark).

use crate::canvas::{fill_circle, fill_polygon, fill_rect, new_pixmap, solid, stroke_polyline};
use crate::encode::encode_png;
use crate::error::RenderError;
use crate::palette::{Palette, Rgba};
use crate::style::{MAX_SIZE, MIN_SIZE, Theme};
use crate::text::{Align, draw_text};

/// A move's mark worth showing on the chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartMark {
    Mistake,
    Blunder,
    MissedWin,
}

/// What the chart shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// A line above the plot (players and variant).
    pub title: String,
    /// The defenders' winning chance in percent (0 to 100) at the start and after each ply.
    pub chances: Vec<f32>,
    /// Marked plies (1-based: ply n is the move from `chances[n - 1]` to `chances[n]`).
    pub marks: Vec<(usize, ChartMark)>,
}

/// Mistakes in amber on either theme (blunders take the theme's warning red).
const MISTAKE: Rgba = Rgba::opaque(0xF0A030);

/// Height over width.
const ASPECT: f32 = 0.4;

/// Draws `chart` as a PNG `width` pixels wide.
pub fn render_chart(chart: &Chart, theme: Theme, width: u32) -> Result<Vec<u8>, RenderError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&width) {
        return Err(RenderError::Size {
            size: width,
            min: MIN_SIZE,
            max: MAX_SIZE,
        });
    }
    let palette = Palette::of(theme);
    let height = (width as f32 * ASPECT).round() as u32;
    let mut pixmap = new_pixmap(width, height)?;
    let (w, h) = (width as f32, height as f32);
    let unit = w / 800.0;
    fill_rect(&mut pixmap, 0.0, 0.0, w, h, palette.canvas);

    let title_band = 40.0 * unit;
    fill_rect(&mut pixmap, 0.0, 0.0, w, title_band, palette.caption_band);
    draw_text(
        &mut pixmap,
        &chart.title,
        18.0 * unit,
        14.0 * unit,
        27.0 * unit,
        Align::Left,
        palette.caption_text,
    )?;

    draw_text(
        &mut pixmap,
        "defenders' winning chance",
        13.0 * unit,
        w - 16.0 * unit,
        26.0 * unit,
        Align::Right,
        palette.caption_muted,
    )?;

    let plot = Plot {
        left: 56.0 * unit,
        top: title_band + 14.0 * unit,
        right: w - 16.0 * unit,
        bottom: h - 30.0 * unit,
        plies: chart.chances.len().saturating_sub(1).max(1),
    };
    let points: Vec<(f32, f32)> = chart
        .chances
        .iter()
        .enumerate()
        .map(|(i, &c)| plot.at(i, c))
        .collect();

    // Above the curve the attackers' colour, below it the defenders': the defenders' share.
    fill_rect(
        &mut pixmap,
        plot.left,
        plot.top,
        plot.right - plot.left,
        plot.bottom - plot.top,
        palette.attacker.face,
    );
    if let (Some(&(first_x, _)), Some(&(last_x, _))) = (points.first(), points.last()) {
        let mut area = points.clone();
        area.push((last_x, plot.bottom));
        area.push((first_x, plot.bottom));
        fill_polygon(&mut pixmap, &area, &solid(palette.defender.face));
    }
    stroke_polyline(
        &mut pixmap,
        &[(plot.left, plot.y(50.0)), (plot.right, plot.y(50.0))],
        1.5 * unit,
        palette.grid,
        Some((6.0 * unit, 5.0 * unit)),
    );
    stroke_polyline(&mut pixmap, &points, 2.5 * unit, palette.frame, None);
    for &(ply, mark) in &chart.marks {
        if let Some(&(x, y)) = points.get(ply) {
            let colour = mark_colour(palette, mark);
            fill_circle(&mut pixmap, x, y, 6.0 * unit, &solid(palette.canvas));
            fill_circle(&mut pixmap, x, y, 4.5 * unit, &solid(colour));
        }
    }
    draw_axes(&mut pixmap, palette, &plot, unit)?;
    encode_png(&pixmap, &seed_colours(palette))
}

/// The colour of `mark` on the chart in `theme` (the web client's SVG chart uses it too).
pub fn chart_mark_colour(theme: Theme, mark: ChartMark) -> Rgba {
    mark_colour(Palette::of(theme), mark)
}

fn mark_colour(palette: &Palette, mark: ChartMark) -> Rgba {
    match mark {
        ChartMark::Mistake => MISTAKE,
        ChartMark::Blunder | ChartMark::MissedWin => palette.warning,
    }
}

fn seed_colours(palette: &Palette) -> Vec<[u8; 3]> {
    let mut seeds = palette.seed_colours();
    seeds.push([MISTAKE.0, MISTAKE.1, MISTAKE.2]);
    seeds
}

/// The plot's rectangle and its scales.
struct Plot {
    left: f32,
    top: f32,
    right: f32,
    bottom: f32,
    plies: usize,
}

impl Plot {
    fn x(&self, ply: usize) -> f32 {
        self.left + (self.right - self.left) * ply as f32 / self.plies as f32
    }

    fn y(&self, chance: f32) -> f32 {
        let chance = if chance.is_finite() {
            chance.clamp(0.0, 100.0)
        } else {
            50.0
        };
        self.bottom - (self.bottom - self.top) * chance / 100.0
    }

    fn at(&self, ply: usize, chance: f32) -> (f32, f32) {
        (self.x(ply), self.y(chance))
    }
}

fn draw_axes(
    pixmap: &mut tiny_skia::Pixmap,
    palette: &Palette,
    plot: &Plot,
    unit: f32,
) -> Result<(), RenderError> {
    let px = 13.0 * unit;
    for chance in [0.0, 50.0, 100.0] {
        draw_text(
            pixmap,
            &format!("{chance}%"),
            px,
            plot.left - 8.0 * unit,
            plot.y(chance) + px * 0.35,
            Align::Right,
            palette.label,
        )?;
    }
    let step = match plot.plies {
        0..=30 => 5,
        31..=120 => 10,
        121..=300 => 25,
        _ => 50,
    };
    for ply in (0..=plot.plies).step_by(step) {
        draw_text(
            pixmap,
            &ply.to_string(),
            px,
            plot.x(ply),
            plot.bottom + 20.0 * unit,
            Align::Center,
            palette.label,
        )?;
    }
    Ok(())
}
