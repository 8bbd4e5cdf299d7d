//! Every board size, theme and orientation renders to a PNG of the promised dimensions.

mod common;

use common::{COPENHAGEN, decode};
use tafl_render::{
    Caption, CaptionSide, Coord, MAX_DIM, MIN_DIM, Scene, ScenePiece, Style, Theme, render_scene,
};

#[test]
fn every_dimension_renders_and_decodes() {
    for dim in MIN_DIM..=MAX_DIM {
        let mut scene = Scene::empty(dim).unwrap().with_corners_and_throne();
        let c = dim / 2;
        scene.set(Coord::new(c, c), Some(ScenePiece::King)).unwrap();
        scene
            .set(Coord::new(0, c), Some(ScenePiece::Attacker))
            .unwrap();
        scene
            .set(Coord::new(c, 1), Some(ScenePiece::Defender))
            .unwrap();
        scene.last_move = Some((Coord::new(0, 1), Coord::new(0, c)));
        for theme in Theme::ALL {
            for flip in [false, true] {
                for size in [200, 800] {
                    let style = Style { size, theme, flip };
                    let png = render_scene(&scene, &style).unwrap();
                    let image = decode(&png);
                    assert_eq!(
                        image.dimensions(),
                        (size, size),
                        "dim {dim} {theme} flip {flip}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_caption_adds_a_strip_above_the_board() {
    let mut scene = Scene::from_diagram(COPENHAGEN).unwrap();
    scene.caption = Some(Caption {
        players: Some("A rather long pair of player names that cannot possibly fit".into()),
        move_number: Some(120),
        moved: None,
        to_move: Some(CaptionSide::Attackers),
        warning: Some("Tuichu!".into()),
    });
    for size in [160, 400, 800, 1200] {
        let image = decode(
            &render_scene(
                &scene,
                &Style {
                    size,
                    ..Style::default()
                },
            )
            .unwrap(),
        );
        assert_eq!(image.width(), size);
        assert!(
            image.height() > size,
            "size {size}: height {}",
            image.height()
        );
    }
}

#[test]
fn default_picture_is_about_800_pixels_wide_and_small() {
    let scene = Scene::from_diagram(COPENHAGEN)
        .unwrap()
        .with_corners_and_throne();
    let png = render_scene(&scene, &Style::default()).unwrap();
    assert_eq!(decode(&png).width(), 800);
    assert!(png.len() <= 80 * 1024, "{} bytes", png.len());
}
