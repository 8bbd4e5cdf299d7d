//! Copying a sprite onto the board at whole-pixel offsets. tiny-skia's general pattern pipeline
//! costs several times more per pixel than this integer source-over.

use tiny_skia::{Pixmap, PremultipliedColorU8};

/// Draws `src` over `dst` with its top-left corner at (`x`, `y`), scaled by `opacity` (255 = as is).
pub fn blit_over(dst: &mut Pixmap, src: &Pixmap, x: u32, y: u32, opacity: u8) {
    let dst_width = dst.width() as usize;
    let dst_height = dst.height() as usize;
    let src_width = src.width() as usize;
    let (x, y) = (x as usize, y as usize);
    if x >= dst_width || y >= dst_height {
        return;
    }
    let columns = src_width.min(dst_width - x);
    let opacity = u32::from(opacity);
    let dst_pixels = dst.pixels_mut();
    for (row_index, src_row) in src.pixels().chunks_exact(src_width).enumerate() {
        let dy = y + row_index;
        if dy >= dst_height {
            break;
        }
        let start = dy * dst_width + x;
        let Some(dst_row) = dst_pixels.get_mut(start..start + columns) else {
            break;
        };
        for (d, s) in dst_row.iter_mut().zip(src_row) {
            let s = scale(*s, opacity);
            let sa = u32::from(s.alpha());
            if sa == 0 {
                continue;
            }
            if sa == 255 {
                *d = s;
                continue;
            }
            let keep = 255 - sa;
            let mix = |sc: u8, dc: u8| (u32::from(sc) + div255(u32::from(dc) * keep)) as u8;
            let out = PremultipliedColorU8::from_rgba(
                mix(s.red(), d.red()),
                mix(s.green(), d.green()),
                mix(s.blue(), d.blue()),
                mix(s.alpha(), d.alpha()),
            );
            if let Some(out) = out {
                *d = out;
            }
        }
    }
}

fn scale(c: PremultipliedColorU8, opacity: u32) -> PremultipliedColorU8 {
    if opacity >= 255 {
        return c;
    }
    let f = |v: u8| div255(u32::from(v) * opacity) as u8;
    PremultipliedColorU8::from_rgba(f(c.red()), f(c.green()), f(c.blue()), f(c.alpha()))
        .unwrap_or(c)
}

/// Exact rounding division by 255 for products of two bytes.
fn div255(v: u32) -> u32 {
    (v + 128 + ((v + 128) >> 8)) >> 8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn div255_rounds_like_float_division() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let expected = ((a * b) as f32 / 255.0).round() as u32;
                assert_eq!(div255(a * b), expected, "{a} * {b}");
            }
        }
    }

    #[test]
    fn half_transparent_sprite_mixes_with_background() {
        let mut dst = Pixmap::new(2, 1).unwrap();
        dst.fill(tiny_skia::Color::from_rgba8(0, 0, 200, 255));
        let mut src = Pixmap::new(1, 1).unwrap();
        src.fill(tiny_skia::Color::from_rgba8(200, 0, 0, 128));
        blit_over(&mut dst, &src, 1, 0, 255);
        let left = dst.pixel(0, 0).unwrap();
        let right = dst.pixel(1, 0).unwrap();
        assert_eq!((left.red(), left.blue()), (0, 200));
        assert!((99..=101).contains(&right.red()), "{right:?}");
        assert!((98..=101).contains(&right.blue()), "{right:?}");
        assert_eq!(right.alpha(), 255);
    }
}
