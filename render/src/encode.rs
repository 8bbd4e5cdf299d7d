//! PNG encoding, tuned for speed and size: an indexed image when the board's colours fit a
//! palette (nearly always), RGB otherwise.

use image::ImageEncoder;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use tiny_skia::Pixmap;

use crate::error::RenderError;
use crate::palette_image::{PaletteImage, to_palette};

/// zlib level for palette images: level 1 halves the time of level 3 for a third more bytes,
/// and already stays far below the 80 KB budget.
const DEFLATE_LEVEL: u8 = 1;

/// Encodes an opaque pixmap as PNG; `seeds` are colours a palette image must offer.
pub fn encode_png(pixmap: &Pixmap, seeds: &[[u8; 3]]) -> Result<Vec<u8>, RenderError> {
    // Every picture starts from an opaque background, so premultiplied equals straight colour
    // and the alpha channel carries nothing.
    match to_palette(pixmap.data(), pixmap.width() as usize, seeds) {
        Some(indexed) => encode_indexed(&indexed, pixmap.width(), pixmap.height()),
        None => encode_rgb(pixmap),
    }
}

fn encode_indexed(image: &PaletteImage, width: u32, height: u32) -> Result<Vec<u8>, RenderError> {
    let encode_error = |e: png::EncodingError| RenderError::Encode(e.to_string());
    // Each scanline is prefixed with its filter type; palette images compress best unfiltered.
    let row = usize::try_from(width).unwrap_or(usize::MAX).max(1);
    let mut scanlines = Vec::with_capacity(image.indices.len() + image.indices.len() / row + 1);
    for line in image.indices.chunks(row) {
        scanlines.push(0);
        scanlines.extend_from_slice(line);
    }
    // Deflate in one call: the png crate's streaming path goes through flate2, which clears a
    // 32 KiB buffer for every scanline written and so spends most of its time in memset.
    let zlib = miniz_oxide::deflate::compress_to_vec_zlib(&scanlines, DEFLATE_LEVEL);
    let mut out = Vec::with_capacity(zlib.len() + image.palette.len() + 128);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(image.palette.as_slice());
    let mut writer = encoder.write_header().map_err(encode_error)?;
    writer
        .write_chunk(png::chunk::IDAT, &zlib)
        .map_err(encode_error)?;
    // Dropping the writer appends IEND.
    drop(writer);
    Ok(out)
}

fn encode_rgb(pixmap: &Pixmap) -> Result<Vec<u8>, RenderError> {
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|px| [px[0], px[1], px[2]])
        .collect();
    let mut out = Vec::with_capacity(rgb.len() / 16);
    PngEncoder::new_with_quality(&mut out, CompressionType::Level(1), FilterType::Adaptive)
        .write_image(
            &rgb,
            pixmap.width(),
            pixmap.height(),
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
}
