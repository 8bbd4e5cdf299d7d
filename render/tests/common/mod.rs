//! Helpers shared by the integration tests.
#![allow(dead_code)]
// Test helpers: a failure here is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use image::RgbImage;
use tafl_render::{Coord, Layout, Scene, Style};

pub const COPENHAGEN: &str = "
...ttttt...
.....t.....
...........
t....T....t
t...TTT...t
tt.TTKTT.tt
t...TTT...t
t....T....t
...........
.....t.....
...ttttt...";

pub const BRANDUBH: &str = "
...t...
...t...
...T...
ttTKTtt
...T...
...t...
...t...";

pub fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("renderer output decodes as PNG")
        .to_rgb8()
}

pub fn layout_of(scene: &Scene, style: &Style) -> Layout {
    Layout::new(scene.dim, style.size, style.flip, scene.caption.is_some())
}

pub fn pixel_at(image: &RgbImage, (x, y): (f32, f32)) -> [u8; 3] {
    image.get_pixel(x as u32, y as u32).0
}

pub fn center(layout: &Layout, file: u8, rank: u8) -> (f32, f32) {
    layout.center(Coord::new(file, rank))
}

/// Sum of channel differences.
pub fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    a.iter().zip(b).map(|(x, y)| u32::from(x.abs_diff(y))).sum()
}

pub fn luminance(c: [u8; 3]) -> u32 {
    (u32::from(c[0]) * 3 + u32::from(c[1]) * 6 + u32::from(c[2])) / 10
}

pub const MIDGAME: &str = "
...tt.t....
.....t.....
......t....
t....T...t.
t..T.Tt...t
tt..TK.T.tt
t...T.T...t
t.........t
.....T.....
..t..t.....
...tt.tt...";

/// A middle game just after b9-g9 captured g8 and h9: caption, last move and captures.
pub fn midgame() -> Scene {
    use tafl_render::{Caption, CaptionSide, Captured, ScenePiece};
    let mut scene = Scene::from_diagram(MIDGAME)
        .unwrap()
        .with_corners_and_throne();
    scene.last_move = Some((Coord::new(1, 8), Coord::new(6, 8)));
    scene.captured = vec![
        Captured {
            at: Coord::new(6, 7),
            piece: Some(ScenePiece::Defender),
        },
        Captured {
            at: Coord::new(7, 8),
            piece: Some(ScenePiece::Defender),
        },
    ];
    scene.caption = Some(Caption {
        players: Some("Ragnar vs Astrid".into()),
        move_number: Some(23),
        moved: None,
        to_move: Some(CaptionSide::Defenders),
        warning: None,
    });
    scene
}

pub const RAICHI: &str = "
...tt.t....
.....t.....
......t....
.....T...t.
t..T.Tt...t
tt..T..T.tt
t...T.T...t
K.........t
.....T.....
..t..t.....
...tt.tt...";

/// The king has just reached a4 with an open path to the corner a1.
pub fn raichi() -> Scene {
    use tafl_render::{Caption, CaptionSide};
    let mut scene = Scene::from_diagram(RAICHI)
        .unwrap()
        .with_corners_and_throne();
    scene.last_move = Some((Coord::new(5, 3), Coord::new(0, 3)));
    scene.open_lines = vec![vec![Coord::new(0, 2), Coord::new(0, 1), Coord::new(0, 0)]];
    scene.caption = Some(Caption {
        players: Some("Ragnar vs Astrid".into()),
        move_number: Some(24),
        moved: None,
        to_move: Some(CaptionSide::Attackers),
        warning: Some("Raichi!".into()),
    });
    scene
}
