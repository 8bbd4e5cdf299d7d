//! Golden images: a handful of pictures compared pixel by pixel (with a small tolerance) with
//! reference PNGs in tests/golden/. After an intended change of the drawing, regenerate them
//! with `TAFL_UPDATE_GOLDEN=1 cargo test -p tafl-render --test golden` and look at them.
#![allow(clippy::unwrap_used)] // helpers below run only inside tests

mod common;

use std::path::PathBuf;

use common::{BRANDUBH, COPENHAGEN, decode, midgame, raichi};
use tafl_render::{
    Chart, ChartMark, Coord, Mark, MarkKind, Scene, ScenePiece, Style, Theme, render_chart,
    render_scene,
};

/// A pixel counts as different when a channel moved by more than this.
const CHANNEL_TOLERANCE: u8 = 24;
/// At most this fraction of pixels may differ (anti-aliasing may vary across CPUs).
const MAX_DIFFERENT_FRACTION: f64 = 0.002;

fn check(name: &str, scene: &Scene, style: Style) {
    compare(name, &render_scene(scene, &style).unwrap());
}

/// Compares `png` with the golden image `name` (or writes it with TAFL_UPDATE_GOLDEN).
fn compare(name: &str, png: &[u8]) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"));
    if std::env::var_os("TAFL_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, png).unwrap();
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with TAFL_UPDATE_GOLDEN=1",
            path.display()
        )
    });
    let (got, want) = (decode(png), decode(&expected));
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

/// An analysis chart: a level game that the attackers blunder (ply 9), a missed win by the
/// defenders (ply 14) and an attackers' mistake (ply 21) before the king escapes.
fn analysis_chart() -> Chart {
    let mut chances = vec![50.0f32];
    for ply in 1..=30 {
        let previous = chances[ply - 1];
        let next = match ply {
            9 => 85.0,
            14 => 30.0,
            21 => 62.0,
            30 => 100.0,
            _ => previous + if ply % 2 == 0 { 2.5 } else { -2.0 },
        };
        chances.push(next);
    }
    Chart {
        title: "Astrid vs Ragnar \u{b7} Brandubh".to_string(),
        chances,
        marks: vec![
            (9, ChartMark::Blunder),
            (14, ChartMark::MissedWin),
            (21, ChartMark::Mistake),
        ],
    }
}

#[test]
fn analysis_chart_light_and_dark() {
    for theme in Theme::ALL {
        let png = render_chart(&analysis_chart(), theme, 800).unwrap();
        compare(&format!("analysis-chart-{theme}"), &png);
    }
}

#[test]
fn a_chart_refuses_a_size_it_cannot_draw() {
    assert!(render_chart(&analysis_chart(), Theme::Light, 10).is_err());
    let empty = Chart {
        title: String::new(),
        chances: Vec::new(),
        marks: vec![(3, ChartMark::Blunder)],
    };
    // Nothing to plot and a mark off the end: still a picture, no panic.
    assert!(render_chart(&empty, Theme::Dark, 400).is_ok());
}
