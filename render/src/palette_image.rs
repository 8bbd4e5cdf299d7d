//! Turning a drawn board into a palette image (one byte per pixel).
//!
//! A board is a few hundred flat colours plus the anti-aliased edges between them, and almost
//! all pixels share fewer than 256 colours. An indexed PNG is a third of the raw data of an RGB
//! one and compresses far better, so it is both smaller and faster to encode.

/// Colours that are left after the 256 commonest are mapped to their nearest palette entry,
/// unless they cover more than this fraction of the pixels (then the picture is too colourful
/// for a palette and stays RGB).
const MAX_REMAPPED_FRACTION: f32 = 0.02;
/// Past this many distinct colours the picture is not a flat-coloured board.
const MAX_DISTINCT: usize = 8192;
const TABLE_SIZE: usize = 4 * MAX_DISTINCT;
const EMPTY: u32 = u32::MAX;

/// An image as palette indices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaletteImage {
    /// RGB triplets, at most 256 of them.
    pub palette: Vec<u8>,
    pub indices: Vec<u8>,
}

/// Open-addressing map from a 24-bit colour to a slot; far cheaper than a general HashMap here.
struct ColourTable {
    keys: Vec<u32>,
    values: Vec<u32>,
    len: usize,
}

impl ColourTable {
    fn new() -> ColourTable {
        ColourTable {
            keys: vec![EMPTY; TABLE_SIZE],
            values: vec![0; TABLE_SIZE],
            len: 0,
        }
    }

    /// The slot of `key`, inserting it if absent; `None` when the table is full.
    fn slot(&mut self, key: u32) -> Option<usize> {
        let mask = TABLE_SIZE - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 16) as usize & mask;
        loop {
            let found = *self.keys.get(i)?;
            if found == key {
                return Some(i);
            }
            if found == EMPTY {
                if self.len >= MAX_DISTINCT {
                    return None;
                }
                *self.keys.get_mut(i)? = key;
                self.len += 1;
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }
}

/// A pixel as one word; its byte order does not matter as long as `channels` agrees.
fn pixel_key(pixel: &[u8]) -> u32 {
    match *pixel {
        // Alpha is always 255 (opaque pictures), so it can stay in the key.
        [r, g, b, a] => u32::from_le_bytes([r, g, b, a]),
        _ => 0,
    }
}

fn channels(key: u32) -> [i32; 3] {
    let [r, g, b, _] = key.to_le_bytes();
    [i32::from(r), i32::from(g), i32::from(b)]
}

/// Appends the runs of one colour in a row of RGBA pixels: (colour, length).
fn push_runs(row: &[u8], out: &mut Vec<(u32, u32)>) {
    let mut pixels = row.chunks_exact(4);
    let Some(first) = pixels.next() else {
        return;
    };
    let mut current = pixel_key(first);
    let mut length = 1;
    for pixel in pixels {
        let key = pixel_key(pixel);
        if key == current {
            length += 1;
        } else {
            out.push((current, length));
            current = key;
            length = 1;
        }
    }
    out.push((current, length));
}

/// Indexes an opaque RGBA buffer `width` pixels wide, or `None` if it has too many colours for
/// a faithful palette.
pub fn to_palette(rgba: &[u8], width: usize) -> Option<PaletteImage> {
    let row_bytes = width.max(1) * 4;
    let pixel_count = rgba.len() / 4;
    let mut table = ColourTable::new();
    // Boards are long runs of one colour and rows equal to the row above, so the image is read
    // once into runs (with slots in the colour table) and the rest works on runs.
    let mut runs: Vec<(u32, u32)> = Vec::with_capacity(rgba.len() / 64);
    // For each row: the range of its runs in `runs`, shared with the row above when equal.
    let mut rows: Vec<(usize, usize)> = Vec::with_capacity(rgba.len() / row_bytes + 1);
    let mut previous: Option<&[u8]> = None;
    for row in rgba.chunks(row_bytes) {
        if previous == Some(row) {
            let last = rows.last().copied().unwrap_or((0, 0));
            rows.push(last);
        } else {
            let start = runs.len();
            push_runs(row, &mut runs);
            rows.push((start, runs.len()));
            previous = Some(row);
        }
    }
    for (key, _) in runs.iter_mut() {
        *key = table.slot(*key)? as u32;
    }
    for &(start, end) in &rows {
        for &(slot, length) in runs.get(start..end)? {
            *table.values.get_mut(slot as usize)? += length;
        }
    }
    let mut used: Vec<(u32, usize)> = table
        .keys
        .iter()
        .enumerate()
        .filter(|(_, key)| **key != EMPTY)
        .map(|(slot, _)| (table.values.get(slot).copied().unwrap_or(0), slot))
        .collect();
    used.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let remapped: u64 = used
        .iter()
        .skip(256)
        .map(|(count, _)| u64::from(*count))
        .sum();
    if remapped as f32 > pixel_count as f32 * MAX_REMAPPED_FRACTION {
        return None;
    }
    let kept = used.len().min(256);
    let mut palette = Vec::with_capacity(kept * 3);
    let mut kept_colours = Vec::with_capacity(kept);
    for (index, (_, slot)) in used.iter().take(kept).enumerate() {
        let colour = channels(*table.keys.get(*slot)?);
        palette.extend(colour.iter().map(|c| *c as u8));
        kept_colours.push(colour);
        *table.values.get_mut(*slot)? = index as u32;
    }
    for (_, slot) in used.iter().skip(kept) {
        let colour = channels(*table.keys.get(*slot)?);
        let nearest = kept_colours
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| {
                c.iter()
                    .zip(colour)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum::<i32>()
            })
            .map_or(0, |(index, _)| index);
        *table.values.get_mut(*slot)? = nearest as u32;
    }
    let mut indices: Vec<u8> = Vec::with_capacity(pixel_count);
    let mut previous_row = None;
    for &(start, end) in &rows {
        let row_start = indices.len();
        if previous_row == Some((start, end)) {
            indices.extend_from_within(row_start.checked_sub(width)?..row_start);
            continue;
        }
        for &(slot, length) in runs.get(start..end)? {
            let index = *table.values.get(slot as usize)? as u8;
            indices.resize(indices.len() + length as usize, index);
        }
        previous_row = Some((start, end));
    }
    Some(PaletteImage { palette, indices })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(colours: &[[u8; 3]]) -> Vec<u8> {
        colours
            .iter()
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect()
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let image = rgba(&[[1, 2, 3], [1, 2, 3], [200, 100, 0], [1, 2, 3]]);
        let indexed = to_palette(&image, 2).unwrap();
        assert_eq!(indexed.palette, vec![1, 2, 3, 200, 100, 0]);
        assert_eq!(indexed.indices, vec![0, 0, 1, 0]);
    }

    #[test]
    fn rare_colours_map_to_their_nearest_common_colour() {
        // 256 common colours (each used 100 times) and one rare colour close to the first.
        let mut colours = Vec::new();
        for i in 0..256u32 {
            for _ in 0..100 {
                colours.push([i as u8, (255 - i) as u8, 7]);
            }
        }
        colours.push([1, 254, 9]);
        let indexed = to_palette(&rgba(&colours), 100).unwrap();
        assert_eq!(indexed.palette.len(), 256 * 3);
        let rare = *indexed.indices.last().unwrap() as usize;
        assert_eq!(&indexed.palette[rare * 3..rare * 3 + 3], &[1, 254, 7]);
    }

    #[test]
    fn photographic_images_are_refused() {
        let colours: Vec<[u8; 3]> = (0..20_000u32)
            .map(|i| [(i % 251) as u8, (i / 251 * 3) as u8, (i * 7 % 253) as u8])
            .collect();
        assert!(to_palette(&rgba(&colours), 100).is_none());
    }
}
