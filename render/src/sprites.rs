//! Piece images, drawn once per cell size and theme, then blitted onto every board.
//!
//! Shapes tell the pieces apart without colour: attackers are plain discs, defenders carry a
//! ring, the king is larger and wears a crown.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tiny_skia::{FillRule, PathBuilder, Pixmap, Stroke, Transform};

use crate::canvas::{fill_circle, new_pixmap, solid, stroke_circle};
use crate::error::RenderError;
use crate::palette::{Palette, Rgba};
use crate::scene::ScenePiece;
use crate::style::Theme;

const CACHE_LIMIT: usize = 64;

/// The three piece images, each `cell` pixels square.
#[derive(Debug)]
pub struct Sprites {
    pub attacker: Pixmap,
    pub defender: Pixmap,
    pub king: Pixmap,
}

impl Sprites {
    pub fn of(&self, piece: ScenePiece) -> &Pixmap {
        match piece {
            ScenePiece::Attacker => &self.attacker,
            ScenePiece::Defender => &self.defender,
            ScenePiece::King => &self.king,
        }
    }
}

type Cache = Mutex<HashMap<(u32, Theme), Arc<Sprites>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Sprites for this cell size and theme, drawn on first use.
pub fn sprites(cell: u32, theme: Theme) -> Result<Arc<Sprites>, RenderError> {
    let key = (cell, theme);
    if let Some(found) = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
    {
        return Ok(Arc::clone(found));
    }
    let palette = Palette::of(theme);
    let drawn = Arc::new(Sprites {
        attacker: draw_piece(cell, palette, ScenePiece::Attacker)?,
        defender: draw_piece(cell, palette, ScenePiece::Defender)?,
        king: draw_piece(cell, palette, ScenePiece::King)?,
    });
    let mut map = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if map.len() >= CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, Arc::clone(&drawn));
    Ok(drawn)
}

/// Radius of a piece as a fraction of the cell.
pub fn radius_fraction(piece: ScenePiece) -> f32 {
    match piece {
        ScenePiece::Attacker | ScenePiece::Defender => 0.37,
        ScenePiece::King => 0.44,
    }
}

fn draw_piece(cell: u32, palette: &Palette, piece: ScenePiece) -> Result<Pixmap, RenderError> {
    let mut pixmap = new_pixmap(cell, cell)?;
    let size = cell as f32;
    let r = size * radius_fraction(piece);
    // Flat colours only: gradients would make every pixel unique and triple the PNG size.
    // Depth comes from a darker rim under the top face, like a real game token.
    let depth = (r * 0.12).max(1.0);
    let (cx, cy) = (size / 2.0, size / 2.0 - depth / 2.0);
    fill_circle(
        &mut pixmap,
        cx + depth * 0.3,
        cy + depth * 1.8,
        r,
        &solid(palette.shadow),
    );
    let colors = match piece {
        ScenePiece::Attacker => palette.attacker,
        ScenePiece::Defender => palette.defender,
        ScenePiece::King => palette.king,
    };
    let outline = (r * 0.08).max(1.0);
    fill_circle(&mut pixmap, cx, cy + depth, r, &solid(colors.outline));
    fill_circle(
        &mut pixmap,
        cx,
        cy + depth,
        r - outline,
        &solid(colors.side),
    );
    fill_circle(&mut pixmap, cx, cy, r, &solid(colors.outline));
    fill_circle(&mut pixmap, cx, cy, r - outline, &solid(colors.face));
    match piece {
        ScenePiece::Attacker => {}
        ScenePiece::Defender => {
            stroke_circle(
                &mut pixmap,
                cx,
                cy,
                r * 0.52,
                (r * 0.15).max(1.2),
                colors.detail,
            );
        }
        ScenePiece::King => {
            draw_crown(&mut pixmap, cx, cy, r, colors.detail, colors.outline);
        }
    }
    Ok(pixmap)
}

/// A three-pointed crown centred on the piece.
fn draw_crown(pixmap: &mut Pixmap, cx: f32, cy: f32, r: f32, fill: Rgba, outline: Rgba) {
    let w = r * 1.1;
    let h = r * 0.78;
    let (left, right) = (cx - w / 2.0, cx + w / 2.0);
    let top = cy - h * 0.52;
    let bottom = cy + h * 0.48;
    let valley = top + h * 0.48;
    let mut pb = PathBuilder::new();
    pb.move_to(left, bottom);
    pb.line_to(left - w * 0.04, top);
    pb.line_to(left + w * 0.27, valley);
    pb.line_to(cx, top - h * 0.08);
    pb.line_to(right - w * 0.27, valley);
    pb.line_to(right + w * 0.04, top);
    pb.line_to(right, bottom);
    pb.close();
    let Some(path) = pb.finish() else {
        return;
    };
    pixmap.fill_path(
        &path,
        &solid(fill),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
    let stroke = Stroke {
        width: (r * 0.07).max(1.0),
        line_join: tiny_skia::LineJoin::Round,
        ..Stroke::default()
    };
    pixmap.stroke_path(&path, &solid(outline), &stroke, Transform::identity(), None);
    let ball = (r * 0.09).max(1.0);
    for (x, y) in [
        (left - w * 0.04, top),
        (cx, top - h * 0.08),
        (right + w * 0.04, top),
    ] {
        fill_circle(pixmap, x, y, ball * 1.35, &solid(outline));
        fill_circle(pixmap, x, y, ball, &solid(fill));
    }
    // The band along the crown's base.
    let band_y = bottom - h * 0.2;
    crate::canvas::stroke_polyline(
        pixmap,
        &[(left + w * 0.02, band_y), (right - w * 0.02, band_y)],
        (r * 0.06).max(0.8),
        outline,
        None,
    );
}
