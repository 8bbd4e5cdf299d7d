//! Golden images: a handful of pictures compared pixel by pixel (with a small tolerance) with
//! reference PNGs in tests/golden/. After an intended change of the drawing, regenerate them
//! with `TAFL_UPDATE_GOLDEN=1 cargo test -p tafl-render --test golden` and look at them.
#![allow(clippy::unwrap_used)] // helpers below run only inside tests

mod common;

use std::path::PathBuf;

use common::{BRANDUBH, COPENHAGEN, decode, midgame, raichi};
use tafl_render::{Coord, Mark, MarkKind, Scene, ScenePiece, Style, Theme, render_scene};

/// A pixel counts as different when a channel moved by more than this.
const CHANNEL_TOLERANCE: u8 = 24;
/// At most this fraction of pixels may differ (anti-aliasing may vary across CPUs).
const MAX_DIFFERENT_FRACTION: f64 = 0.002;

fn check(name: &str, scene: &Scene, style: Style) {
    let png = render_scene(scene, &style).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"));
    if std::env::var_os("TAFL_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &png).unwrap();
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with TAFL_UPDATE_GOLDEN=1",
            path.display()
        )
    });
    let (got, want) = (decode(&png), decode(&expected));
    assert_eq!(got.dimensions(), want.dimensions(), "{name}: dimensions");
    let different = got
        .pixels()
        .zip(want.pixels())
        .filter(|(a, b)| {
            a.0.iter()
                .zip(b.0)
                .any(|(x, y)| x.abs_diff(y) > CHANNEL_TOLERANCE)
        })
        .count();
    let total = (got.width() * got.height()) as f64;
    assert!(
        (different as f64) <= total * MAX_DIFFERENT_FRACTION,
        "{name}: {different} of {total} pixels differ from {}",
        path.display()
    );
}

#[test]
fn copenhagen_start_light() {
    let scene = Scene::from_diagram(COPENHAGEN)
        .unwrap()
        .with_corners_and_throne();
    check(
        "copenhagen-start-light",
        &scene,
        Style {
            size: 360,
            ..Style::default()
        },
    );
}

#[test]
fn brandubh_start_dark_flipped() {
    let scene = Scene::from_diagram(BRANDUBH)
        .unwrap()
        .with_corners_and_throne();
    let style = Style {
        size: 320,
        theme: Theme::Dark,
        flip: true,
    };
    check("brandubh-start-dark-flipped", &scene, style);
}

#[test]
fn midgame_with_last_move_captures_and_caption() {
    check(
        "midgame-light",
        &midgame(),
        Style {
            size: 400,
            ..Style::default()
        },
    );
}

#[test]
fn raichi_with_open_line_dark() {
    let style = Style {
        size: 400,
        theme: Theme::Dark,
        flip: false,
    };
    check("raichi-dark", &raichi(), style);
}

#[test]
fn large_board_with_fortresses() {
    let mut scene = Scene::empty(19).unwrap().with_corners_and_throne();
    scene.set(Coord::new(9, 9), Some(ScenePiece::King)).unwrap();
    for i in [0, 3, 6, 12, 15, 18] {
        scene
            .set(Coord::new(i, 9), Some(ScenePiece::Attacker))
            .unwrap();
        scene
            .set(Coord::new(9, i), Some(ScenePiece::Defender))
            .unwrap();
    }
    scene.marks.push(Mark {
        at: Coord::new(1, 1),
        kind: MarkKind::AttackerFortress,
    });
    scene.marks.push(Mark {
        at: Coord::new(17, 17),
        kind: MarkKind::DefenderFortress,
    });
    check(
        "large-fortresses-light",
        &scene,
        Style {
            size: 400,
            ..Style::default()
        },
    );
}
