//! What changes from move to move: pieces, the last move, captures, the king's open lines.

use tiny_skia::Pixmap;

use crate::blit::blit_over;

use crate::canvas::{fill_circle, fill_polygon, fill_rect, solid, stroke_circle, stroke_polyline};
use crate::glyphs::radius_fraction;
use crate::layout::Layout;
use crate::palette::Palette;
use crate::scene::{Coord, Scene};
use crate::sprites::Sprites;

/// Opacity of a captured piece's ghost.
const GHOST_OPACITY: u8 = 100;

/// Square highlights and the last move's arrow, under the pieces.
pub fn draw_last_move(pixmap: &mut Pixmap, layout: &Layout, palette: &Palette, scene: &Scene) {
    let Some((from, to)) = scene.last_move else {
        return;
    };
    let cell = layout.cell as f32;
    for (at, color) in [(from, palette.move_from), (to, palette.move_to)] {
        let (x, y) = layout.square_origin(at);
        fill_rect(pixmap, x as f32, y as f32, cell, cell, color);
    }
    if from == to {
        return;
    }
    let (fx, fy) = layout.center(from);
    let (tx, ty) = layout.center(to);
    let (dx, dy) = (tx - fx, ty - fy);
    let length = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / length, dy / length);
    // Stop the arrow at the edge of the piece that moved, so its tip stays visible.
    let stop = scene.piece_at(to).map_or(cell * 0.12, |piece| {
        cell * radius_fraction(piece) + cell * 0.03
    });
    let width = (cell * 0.09).max(2.0);
    let head = width * 2.4;
    let tip = (tx - ux * stop, ty - uy * stop);
    let neck = (tip.0 - ux * head, tip.1 - uy * head);
    let color = palette.move_line;
    fill_circle(pixmap, fx, fy, width * 1.1, &solid(color));
    if length - stop > head + width {
        stroke_polyline(pixmap, &[(fx, fy), neck], width, color, None);
    }
    let (px, py) = (-uy * head * 0.62, ux * head * 0.62);
    fill_polygon(
        pixmap,
        &[tip, (neck.0 + px, neck.1 + py), (neck.0 - px, neck.1 - py)],
        &solid(color),
    );
}

/// The king's open paths to winning squares, dashed, each ending in a target ring.
pub fn draw_open_lines(pixmap: &mut Pixmap, layout: &Layout, palette: &Palette, scene: &Scene) {
    let cell = layout.cell as f32;
    let width = (cell * 0.075).max(2.0);
    let king = scene.king();
    for line in &scene.open_lines {
        let Some(&last) = line.last() else {
            continue;
        };
        let points: Vec<(f32, f32)> = king
            .into_iter()
            .chain(line.iter().copied())
            .map(|at| layout.center(at))
            .collect();
        stroke_polyline(
            pixmap,
            &points,
            width,
            palette.warning,
            Some((cell * 0.2, cell * 0.14)),
        );
        let (cx, cy) = layout.center(last);
        stroke_circle(pixmap, cx, cy, cell * 0.3, width, palette.warning);
        fill_circle(pixmap, cx, cy, width * 1.1, &solid(palette.warning));
    }
}

pub fn draw_ghosts(pixmap: &mut Pixmap, layout: &Layout, sprites: &Sprites, scene: &Scene) {
    for captured in &scene.captured {
        if let Some(piece) = captured.piece {
            blit(
                pixmap,
                layout,
                sprites.of(piece),
                captured.at,
                GHOST_OPACITY,
            );
        }
    }
}

pub fn draw_pieces(pixmap: &mut Pixmap, layout: &Layout, sprites: &Sprites, scene: &Scene) {
    let dim = scene.dim;
    for rank in 0..dim {
        for file in 0..dim {
            let at = Coord::new(file, rank);
            if let Some(piece) = scene.piece_at(at) {
                blit(pixmap, layout, sprites.of(piece), at, 255);
            }
        }
    }
}

/// A cross on each captured square, over everything else.
pub fn draw_capture_crosses(
    pixmap: &mut Pixmap,
    layout: &Layout,
    palette: &Palette,
    scene: &Scene,
) {
    let cell = layout.cell as f32;
    let arm = cell * 0.2;
    let width = (cell * 0.085).max(2.0);
    for captured in &scene.captured {
        let (cx, cy) = layout.center(captured.at);
        stroke_polyline(
            pixmap,
            &[(cx - arm, cy - arm), (cx + arm, cy + arm)],
            width,
            palette.capture_cross,
            None,
        );
        stroke_polyline(
            pixmap,
            &[(cx + arm, cy - arm), (cx - arm, cy + arm)],
            width,
            palette.capture_cross,
            None,
        );
    }
}

fn blit(pixmap: &mut Pixmap, layout: &Layout, sprite: &Pixmap, at: Coord, opacity: u8) {
    let (x, y) = layout.square_origin(at);
    blit_over(pixmap, sprite, x, y, opacity);
}
