//! The static part of a picture (canvas, frame, squares, special squares, grid, coordinates),
//! drawn once per geometry and theme and kept in a process-wide cache.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use tiny_skia::Pixmap;

use crate::canvas::{fill_rect, fill_rounded_rect, new_pixmap};
use crate::error::RenderError;
use crate::layout::Layout;
use crate::palette::Palette;
use crate::scene::Mark;
use crate::style::Theme;
use crate::text::{Align, cap_and_x_height, draw_text};

/// More distinct backgrounds than this in one process are unusual; past it the cache starts over.
const CACHE_LIMIT: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct BackgroundKey {
    dim: u8,
    width: u32,
    theme: Theme,
    flip: bool,
    caption: bool,
    marks: Vec<Mark>,
}

type Cache = Mutex<HashMap<BackgroundKey, Arc<Pixmap>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The background for this layout, theme and set of marks, drawn on first use.
pub fn background(
    layout: &Layout,
    theme: Theme,
    marks: &[Mark],
) -> Result<Arc<Pixmap>, RenderError> {
    let mut sorted = marks.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let key = BackgroundKey {
        dim: layout.dim,
        width: layout.width,
        theme,
        flip: layout.flip,
        caption: layout.caption_height > 0,
        marks: sorted,
    };
    // A poisoned lock only means another thread panicked mid-insert; the map is still usable.
    if let Some(found) = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
    {
        return Ok(Arc::clone(found));
    }
    let drawn = Arc::new(draw_background(layout, Palette::of(theme), &key.marks)?);
    let mut map = cache()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if map.len() >= CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, Arc::clone(&drawn));
    Ok(drawn)
}

fn draw_background(
    layout: &Layout,
    palette: &Palette,
    marks: &[Mark],
) -> Result<Pixmap, RenderError> {
    let mut pixmap = new_pixmap(layout.width, layout.height)?;
    pixmap.fill(palette.canvas.color());
    if layout.caption_height > 0 {
        fill_rect(
            &mut pixmap,
            0.0,
            0.0,
            layout.width as f32,
            layout.caption_height as f32,
            palette.caption_band,
        );
    }
    let board = layout.board_size() as f32;
    let frame = layout.frame as f32;
    let (bx, by) = (layout.board_x as f32, layout.board_y as f32);
    fill_rounded_rect(
        &mut pixmap,
        bx - frame,
        by - frame,
        board + 2.0 * frame,
        board + 2.0 * frame,
        frame * 1.2,
        palette.frame,
    );
    fill_rect(&mut pixmap, bx, by, board, board, palette.square);
    for mark in marks {
        draw_mark(&mut pixmap, layout, palette, *mark);
    }
    draw_grid(&mut pixmap, layout, palette);
    draw_labels(&mut pixmap, layout, palette)?;
    Ok(pixmap)
}

fn draw_grid(pixmap: &mut Pixmap, layout: &Layout, palette: &Palette) {
    let line = (layout.cell / 30).max(1) as f32;
    let board = layout.board_size() as f32;
    let (bx, by) = (layout.board_x as f32, layout.board_y as f32);
    for i in 1..u32::from(layout.dim) {
        let offset = (i * layout.cell) as f32 - (line / 2.0).floor();
        fill_rect(pixmap, bx + offset, by, line, board, palette.grid);
        fill_rect(pixmap, bx, by + offset, board, line, palette.grid);
    }
}

fn draw_labels(pixmap: &mut Pixmap, layout: &Layout, palette: &Palette) -> Result<(), RenderError> {
    let px = layout.label_px;
    let (cap, x_height) = cap_and_x_height(px)?;
    let cell = layout.cell as f32;
    let board = layout.board_size() as f32;
    let (bx, by) = (layout.board_x as f32, layout.board_y as f32);
    let band = layout.board_x.saturating_sub(layout.frame) as f32;
    let outer = layout.frame as f32 + band / 2.0;
    let top_center = by - outer;
    let bottom_center = by + board + outer;
    let left_center = bx - outer;
    let right_center = bx + board + outer;
    for i in 0..layout.dim {
        let along = f32::from(i) * cell + cell / 2.0;
        let file = layout.file_in_column(i);
        let letter = char::from(b'a' + file).to_string();
        for center in [top_center, bottom_center] {
            let baseline = center + x_height / 2.0;
            draw_text(
                pixmap,
                &letter,
                px,
                bx + along,
                baseline,
                Align::Center,
                palette.label,
            )?;
        }
        let rank = (u32::from(layout.rank_in_row(i)) + 1).to_string();
        let baseline = by + along + cap / 2.0;
        draw_text(
            pixmap,
            &rank,
            px,
            left_center,
            baseline,
            Align::Center,
            palette.label,
        )?;
        draw_text(
            pixmap,
            &rank,
            px,
            right_center,
            baseline,
            Align::Center,
            palette.label,
        )?;
    }
    Ok(())
}

fn draw_mark(pixmap: &mut Pixmap, layout: &Layout, palette: &Palette, mark: Mark) {
    let (x, y) = layout.square_origin(mark.at);
    let (x, y, cell) = (x as f32, y as f32, layout.cell as f32);
    let shapes = crate::glyphs::mark_shapes(mark.kind, palette, x, y, cell);
    crate::canvas::draw_shapes(pixmap, &shapes, x, y, cell);
}
