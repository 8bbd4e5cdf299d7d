//! Text through the embedded DejaVu Sans Bold (licence in assets/DejaVuSans-LICENSE.txt).

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId, OutlinedGlyph, PxScale, ScaleFont, point};
use tiny_skia::{Pixmap, PremultipliedColorU8};

use crate::error::RenderError;
use crate::palette::Rgba;

static FONT_BYTES: &[u8] = include_bytes!("../assets/DejaVuSans-Bold.ttf");

fn font() -> Result<&'static FontRef<'static>, RenderError> {
    static FONT: OnceLock<Option<FontRef<'static>>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(FONT_BYTES).ok())
        .as_ref()
        .ok_or(RenderError::Font)
}

/// Where a line of text is anchored horizontally.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    Left,
    Center,
    Right,
}

fn glyph_ids(font: &FontRef<'static>, text: &str) -> Vec<GlyphId> {
    text.chars().map(|c| font.glyph_id(c)).collect()
}

/// Advance width of a line of text at `px` pixels.
pub fn text_width(text: &str, px: f32) -> Result<f32, RenderError> {
    let font = font()?;
    let scaled = font.as_scaled(PxScale::from(px));
    let mut width = 0.0;
    let mut previous: Option<GlyphId> = None;
    for id in glyph_ids(font, text) {
        if let Some(prev) = previous {
            width += scaled.kern(prev, id);
        }
        width += scaled.h_advance(id);
        previous = Some(id);
    }
    Ok(width)
}

/// Height of capital letters and of lowercase letters without ascenders, at `px` pixels.
pub fn cap_and_x_height(px: f32) -> Result<(f32, f32), RenderError> {
    let font = font()?;
    let measure = |c: char| {
        font.outline_glyph(font.glyph_id(c).with_scale(PxScale::from(px)))
            .map(|g| g.px_bounds().height())
            .unwrap_or(px * 0.7)
    };
    Ok((measure('H'), measure('x')))
}

/// Draws one line of text with its baseline at `baseline`.
pub fn draw_text(
    pixmap: &mut Pixmap,
    text: &str,
    px: f32,
    x: f32,
    baseline: f32,
    align: Align,
    color: Rgba,
) -> Result<(), RenderError> {
    let font = font()?;
    let width = text_width(text, px)?;
    let start = match align {
        Align::Left => x,
        Align::Center => x - width / 2.0,
        Align::Right => x - width,
    };
    let scale = PxScale::from(px);
    let scaled = font.as_scaled(scale);
    let mut caret = start;
    let mut previous: Option<GlyphId> = None;
    for id in glyph_ids(font, text) {
        if let Some(prev) = previous {
            caret += scaled.kern(prev, id);
        }
        let glyph = id.with_scale_and_position(scale, point(caret, baseline));
        if let Some(outlined) = font.outline_glyph(glyph) {
            blend_glyph(pixmap, &outlined, color);
        }
        caret += scaled.h_advance(id);
        previous = Some(id);
    }
    Ok(())
}

fn blend_glyph(pixmap: &mut Pixmap, glyph: &OutlinedGlyph, color: Rgba) {
    let bounds = glyph.px_bounds();
    let width = i64::from(pixmap.width());
    let height = i64::from(pixmap.height());
    let left = bounds.min.x as i64;
    let top = bounds.min.y as i64;
    let pixels = pixmap.pixels_mut();
    let alpha = f32::from(color.3) / 255.0;
    glyph.draw(|gx, gy, coverage| {
        let x = left + i64::from(gx);
        let y = top + i64::from(gy);
        if x < 0 || y < 0 || x >= width || y >= height {
            return;
        }
        let Ok(index) = usize::try_from(y * width + x) else {
            return;
        };
        if let Some(pixel) = pixels.get_mut(index) {
            *pixel = blend(*pixel, color, (coverage * alpha).clamp(0.0, 1.0));
        }
    });
}

/// Source-over of a straight colour with opacity `a` onto a premultiplied pixel.
pub fn blend(dst: PremultipliedColorU8, color: Rgba, a: f32) -> PremultipliedColorU8 {
    let keep = 1.0 - a;
    let mix = |src: u8, dst: u8| (f32::from(src) * a + f32::from(dst) * keep).round();
    let out_a = (255.0 * a + f32::from(dst.alpha()) * keep).round();
    let r = mix(color.0, dst.red()).min(out_a);
    let g = mix(color.1, dst.green()).min(out_a);
    let b = mix(color.2, dst.blue()).min(out_a);
    PremultipliedColorU8::from_rgba(r as u8, g as u8, b as u8, out_a as u8).unwrap_or(dst)
}
