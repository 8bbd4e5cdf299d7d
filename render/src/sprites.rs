//! Piece images, drawn once per cell size and theme, then blitted onto every board.
//!
//! The shapes are `glyphs::piece_shapes`, the same the web's SVG board draws.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tiny_skia::Pixmap;

use crate::canvas::{draw_shapes, new_pixmap};
use crate::error::RenderError;
use crate::palette::Palette;
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

fn draw_piece(cell: u32, palette: &Palette, piece: ScenePiece) -> Result<Pixmap, RenderError> {
    let mut pixmap = new_pixmap(cell, cell)?;
    let size = cell as f32;
    let shapes = crate::glyphs::piece_shapes(piece, palette, 0.0, 0.0, size);
    draw_shapes(&mut pixmap, &shapes, 0.0, 0.0, size);
    Ok(pixmap)
}
