//! Text through the embedded DejaVu Sans Bold (licence in assets/DejaVuSans-LICENSE.txt).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont, point};
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
    let scaled = font.as_scaled(PxScale::from(px));
    let mut caret = start;
    let mut previous: Option<GlyphId> = None;
    for id in glyph_ids(font, text) {
        if let Some(prev) = previous {
            caret += scaled.kern(prev, id);
        }
        if let Some(raster) = raster(font, id, px) {
            // Whole-pixel placement lets one raster per glyph and size serve every picture.
            let x = caret.round() as i64 + i64::from(raster.left);
            let y = baseline.round() as i64 + i64::from(raster.top);
            blend_raster(pixmap, &raster, x, y, color);
        }
        caret += scaled.h_advance(id);
        previous = Some(id);
    }
    Ok(())
}

/// A glyph's coverage, rasterised once per size.
#[derive(Debug)]
struct GlyphRaster {
    /// Offset of the top-left pixel from the pen position on the baseline.
    left: i32,
    top: i32,
    width: usize,
    coverage: Vec<u8>,
}

type RasterCache = Mutex<HashMap<(u16, u32), Option<Arc<GlyphRaster>>>>;

/// Glyph sizes in use are few (labels, caption, badge per picture size); past this, start over.
const RASTER_CACHE_LIMIT: usize = 4096;

fn raster(font: &FontRef<'static>, id: GlyphId, px: f32) -> Option<Arc<GlyphRaster>> {
    static CACHE: OnceLock<RasterCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let key = (id.0, px.to_bits());
    if let Some(found) = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&key)
    {
        return found.clone();
    }
    let drawn = rasterise(font, id, px).map(Arc::new);
    let mut map = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if map.len() >= RASTER_CACHE_LIMIT {
        map.clear();
    }
    map.insert(key, drawn.clone());
    drawn
}

fn rasterise(font: &FontRef<'static>, id: GlyphId, px: f32) -> Option<GlyphRaster> {
    let outlined =
        font.outline_glyph(id.with_scale_and_position(PxScale::from(px), point(0.0, 0.0)))?;
    let bounds = outlined.px_bounds();
    let width = bounds.width().max(0.0) as usize;
    let height = bounds.height().max(0.0) as usize;
    let mut coverage = vec![0u8; width * height];
    outlined.draw(|x, y, c| {
        if let Some(cell) = coverage.get_mut(y as usize * width + x as usize) {
            *cell = (c.clamp(0.0, 1.0) * 255.0).round() as u8;
        }
    });
    Some(GlyphRaster {
        left: bounds.min.x as i32,
        top: bounds.min.y as i32,
        width,
        coverage,
    })
}

fn blend_raster(pixmap: &mut Pixmap, raster: &GlyphRaster, left: i64, top: i64, color: Rgba) {
    let width = i64::from(pixmap.width());
    let height = i64::from(pixmap.height());
    let pixels = pixmap.pixels_mut();
    let alpha = f32::from(color.3) / 255.0;
    for (row, line) in raster.coverage.chunks(raster.width.max(1)).enumerate() {
        let y = top + row as i64;
        if y < 0 || y >= height {
            continue;
        }
        for (column, coverage) in line.iter().enumerate() {
            let x = left + column as i64;
            if *coverage == 0 || x < 0 || x >= width {
                continue;
            }
            let Ok(index) = usize::try_from(y * width + x) else {
                continue;
            };
            if let Some(pixel) = pixels.get_mut(index) {
                *pixel = blend(*pixel, color, f32::from(*coverage) / 255.0 * alpha);
            }
        }
    }
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
