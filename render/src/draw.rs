//! Scene to pixels to PNG.

use tiny_skia::Pixmap;

use crate::background::background;
use crate::caption::draw_caption;
use crate::decorations::{
    draw_capture_crosses, draw_ghosts, draw_last_move, draw_open_lines, draw_pieces,
};
use crate::encode::encode_png;
use crate::error::RenderError;
use crate::layout::Layout;
use crate::palette::Palette;
use crate::scene::Scene;
use crate::sprites::sprites;
use crate::style::Style;

/// Draws a scene and encodes it as PNG bytes.
pub fn render_scene(scene: &Scene, style: &Style) -> Result<Vec<u8>, RenderError> {
    let seeds = Palette::of(style.theme).seed_colours();
    encode_png(&draw_scene(scene, style)?, &seeds)
}

/// Draws a scene into a pixmap (premultiplied RGBA, opaque).
pub fn draw_scene(scene: &Scene, style: &Style) -> Result<Pixmap, RenderError> {
    scene.validate()?;
    style.validate()?;
    let layout = Layout::new(scene.dim, style.size, style.flip, scene.caption.is_some());
    let palette = Palette::of(style.theme);
    let mut pixmap = background(&layout, style.theme, &scene.marks)?
        .as_ref()
        .clone();
    let sprites = sprites(layout.cell, style.theme)?;
    draw_last_move(&mut pixmap, &layout, palette, scene);
    draw_open_lines(&mut pixmap, &layout, palette, scene);
    draw_ghosts(&mut pixmap, &layout, &sprites, scene);
    draw_pieces(&mut pixmap, &layout, &sprites, scene);
    draw_capture_crosses(&mut pixmap, &layout, palette, scene);
    if let Some(caption) = &scene.caption {
        draw_caption(&mut pixmap, &layout, palette, caption)?;
    }
    Ok(pixmap)
}
