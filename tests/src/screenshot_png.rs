//! Screenshots kept in the repository (docs/screenshots) as indexed PNGs of at most 256
//! colours: Chromium's own PNGs of the pages are two to three times larger.

/// `png` (Chromium's RGB or RGBA screenshot) with its colours reduced to the 256 most used
/// (counted in 5-bit steps per channel, each the mean of the pixels it stands for), every
/// pixel the nearest of them; `None` when it is not an 8-bit RGB(A) picture.
pub fn indexed(png_bytes: &[u8]) -> Option<Vec<u8>> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png_bytes))
        .read_info()
        .ok()?;
    let mut buffer = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buffer).ok()?;
    let channels = match (info.color_type, info.bit_depth) {
        (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
        (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
        _ => return None,
    };
    let size = info.line_size * usize::try_from(info.height).ok()?;
    let pixels: Vec<[u8; 3]> = buffer[..size]
        .chunks_exact(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    let bin = |p: &[u8; 3]| {
        (usize::from(p[0] >> 3) << 10) | (usize::from(p[1] >> 3) << 5) | usize::from(p[2] >> 3)
    };
    let mut bins = vec![(0u64, [0u64; 3]); 1 << 15];
    for p in &pixels {
        let (count, sums) = &mut bins[bin(p)];
        *count += 1;
        for (sum, channel) in sums.iter_mut().zip(p) {
            *sum += u64::from(*channel);
        }
    }
    let mut used: Vec<usize> = (0..bins.len()).filter(|&b| bins[b].0 > 0).collect();
    used.sort_by_key(|&b| std::cmp::Reverse(bins[b].0));
    used.truncate(256);
    let palette: Vec<[u8; 3]> = used
        .iter()
        .map(|&b| {
            let (count, sums) = bins[b];
            sums.map(|sum| u8::try_from(sum / count).unwrap_or(u8::MAX))
        })
        .collect();
    let distance = |a: &[u8; 3], b: &[u8; 3]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| (i32::from(*x) - i32::from(*y)).pow(2))
            .sum::<i32>()
    };
    // Each bin's nearest palette colour, found once.
    let mut nearest: Vec<Option<u8>> = vec![None; bins.len()];
    let indices: Vec<u8> = pixels
        .iter()
        .map(|p| {
            *nearest[bin(p)].get_or_insert_with(|| {
                let best = (0..palette.len())
                    .min_by_key(|&i| distance(&palette[i], p))
                    .unwrap_or(0);
                u8::try_from(best).unwrap_or(0)
            })
        })
        .collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, info.width, info.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.concat());
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header().ok()?;
    writer.write_image_data(&indices).ok()?;
    writer.finish().ok()?;
    Some(out)
}
