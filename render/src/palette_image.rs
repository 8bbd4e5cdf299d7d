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
/// Transparent black: never a pixel of an opaque picture.
const EMPTY: u32 = 0;
const UNASSIGNED: u16 = u16::MAX;

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

    /// The slot holding `key`, if it was inserted.
    fn find(&self, key: u32) -> Option<usize> {
        let mask = TABLE_SIZE - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 16) as usize & mask;
        loop {
            let found = *self.keys.get(i)?;
            if found == key {
                return Some(i);
            }
            if found == EMPTY {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of `key`, inserting it if absent; `None` when the table is full.
    fn slot(&mut self, key: u32) -> Option<usize> {
        if key == EMPTY {
            // Only a transparent pixel could look like this; such a buffer stays RGB.
            return None;
        }
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
        // Pictures are opaque, so alpha is always 255 and no key is ever 0, the empty slot.
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

fn nearest(palette: &[[i32; 3]], colour: [i32; 3]) -> usize {
    palette
        .iter()
        .enumerate()
        .min_by_key(|(_, c)| {
            c.iter()
                .zip(colour)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<i32>()
        })
        .map_or(0, |(index, _)| index)
}

/// Indexes an opaque RGBA buffer `width` pixels wide, or `None` if it has too many colours for
/// a faithful palette. When the picture has more than 256 colours, the `seeds` (a theme's own
/// colours and the in-between shades of its text) enter the palette first, however few pixels
/// use them: small text must keep its colour and its anti-aliasing.
pub fn to_palette(rgba: &[u8], width: usize, seeds: &[[u8; 3]]) -> Option<PaletteImage> {
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
    // Palette index of each table slot that keeps its exact colour.
    let mut assigned = vec![UNASSIGNED; TABLE_SIZE];
    let mut kept_colours: Vec<[i32; 3]> = Vec::with_capacity(256);
    if used.len() > 256 {
        // Too many colours: the seeds go first so that they are exact and so that
        // anti-aliased text finds its in-between shades.
        for &[r, g, b] in seeds {
            if kept_colours.len() >= 256 {
                break;
            }
            let key = u32::from_le_bytes([r, g, b, 255]);
            match table.find(key) {
                Some(slot) => {
                    let entry = assigned.get_mut(slot)?;
                    if *entry == UNASSIGNED {
                        *entry = kept_colours.len() as u16;
                        kept_colours.push(channels(key));
                    }
                }
                // Absent from the picture, yet a good match for its anti-aliased pixels.
                None if !kept_colours.contains(&channels(key)) => {
                    kept_colours.push(channels(key));
                }
                None => {}
            }
        }
    }
    for (_, slot) in &used {
        if kept_colours.len() >= 256 {
            break;
        }
        let entry = assigned.get_mut(*slot)?;
        if *entry == UNASSIGNED {
            *entry = kept_colours.len() as u16;
            kept_colours.push(channels(*table.keys.get(*slot)?));
        }
    }
    let mut remapped = 0u64;
    for (count, slot) in &used {
        let index = match *assigned.get(*slot)? {
            UNASSIGNED => {
                remapped += u64::from(*count);
                nearest(&kept_colours, channels(*table.keys.get(*slot)?))
            }
            index => usize::from(index),
        };
        *table.values.get_mut(*slot)? = index as u32;
    }
    if remapped as f32 > pixel_count as f32 * MAX_REMAPPED_FRACTION {
        return None;
    }
    let palette: Vec<u8> = kept_colours
        .iter()
        .flat_map(|c| c.map(|v| v as u8))
        .collect();
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
    fn white_is_a_colour_like_any_other() {
        let colours = [[255, 255, 255], [0, 0, 0], [255, 255, 255]];
        let indexed = to_palette(&rgba(&colours), 3, &[]).unwrap();
        assert_eq!(indexed.palette.len(), 6);
        assert_eq!(decoded(&indexed), colours.to_vec());
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let colours = [[1, 2, 3], [1, 2, 3], [200, 100, 0], [1, 2, 3]];
        let indexed = to_palette(&rgba(&colours), 2, &[]).unwrap();
        assert_eq!(indexed.palette.len(), 6);
        assert_eq!(decoded(&indexed), colours.to_vec());
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
        let indexed = to_palette(&rgba(&colours), 100, &[]).unwrap();
        assert_eq!(indexed.palette.len(), 256 * 3);
        let rare = *indexed.indices.last().unwrap() as usize;
        assert_eq!(&indexed.palette[rare * 3..rare * 3 + 3], &[1, 254, 7]);
    }

    fn decoded(indexed: &PaletteImage) -> Vec<[u8; 3]> {
        indexed
            .indices
            .iter()
            .map(|i| {
                let at = usize::from(*i) * 3;
                [
                    indexed.palette[at],
                    indexed.palette[at + 1],
                    indexed.palette[at + 2],
                ]
            })
            .collect()
    }

    #[test]
    fn seeds_enter_a_crowded_palette_even_when_rare() {
        // 262 colours: one background, 260 used 100 times each, and one white pixel.
        let mut colours = vec![[7, 7, 7]; 30_000];
        for i in 0..260u32 {
            for _ in 0..100 {
                colours.push([i as u8, (i / 2) as u8, 0]);
            }
        }
        colours.push([255, 255, 255]);
        let without = to_palette(&rgba(&colours), 100, &[]).unwrap();
        assert!(!without.palette.chunks(3).any(|c| c == [255, 255, 255]));
        let with = to_palette(&rgba(&colours), 100, &[[255, 255, 255], [1, 2, 3]]).unwrap();
        let white = *with.indices.last().unwrap() as usize;
        assert_eq!(&with.palette[white * 3..white * 3 + 3], &[255, 255, 255]);
        assert!(with.palette.chunks(3).any(|c| c == [1, 2, 3]));
        assert_eq!(with.palette.len(), 256 * 3);
    }

    #[test]
    fn seeds_are_not_added_when_every_colour_fits() {
        let image = rgba(&[[1, 2, 3], [9, 9, 9]]);
        let indexed = to_palette(&image, 2, &[[255, 255, 255]]).unwrap();
        assert_eq!(indexed.palette.len(), 6);
        assert_eq!(decoded(&indexed), vec![[1, 2, 3], [9, 9, 9]]);
    }

    #[test]
    fn transparent_pixels_are_refused() {
        let mut image = rgba(&[[1, 2, 3], [4, 5, 6]]);
        image.extend_from_slice(&[0, 0, 0, 0]);
        assert!(to_palette(&image, 3, &[]).is_none());
    }

    #[test]
    fn photographic_images_are_refused() {
        let colours: Vec<[u8; 3]> = (0..20_000u32)
            .map(|i| [(i % 251) as u8, (i / 251 * 3) as u8, (i * 7 % 253) as u8])
            .collect();
        assert!(to_palette(&rgba(&colours), 100, &[]).is_none());
    }
}
