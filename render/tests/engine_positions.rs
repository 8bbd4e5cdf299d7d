//! Engine positions through `render`: every preset, special squares from the rules, and the
//! decorations of real moves.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{center, decode, distance, pixel_at};
use tafl_engine::{Game, Position, Side, Square, WarningKind, variant, variants};
use tafl_render::{
    Caption, Coord, Layout, MarkKind, RenderError, RenderOptions, ScenePiece, Style, Theme, render,
    scene_of,
};

#[test]
fn every_preset_start_position_renders_in_both_themes() {
    assert!(!variants().is_empty());
    for preset in variants() {
        let rules = preset.rules();
        let position = rules.start_position();
        for theme in Theme::ALL {
            let options = RenderOptions {
                style: Style {
                    size: 480,
                    theme,
                    flip: false,
                },
                ..RenderOptions::default()
            };
            let png = render(&position, &rules, &options)
                .unwrap_or_else(|e| panic!("{}: {e}", preset.id));
            assert_eq!(decode(&png).dimensions(), (480, 480), "{}", preset.id);
            assert!(png.len() < 80 * 1024, "{}: {} bytes", preset.id, png.len());
        }
    }
}

#[test]
fn pieces_and_special_squares_come_from_the_position_and_rules() {
    let rules = variant("copenhagen").unwrap().rules();
    let position = rules.start_position();
    let scene = scene_of(&position, &rules, &RenderOptions::default()).unwrap();
    assert_eq!(scene.dim, 11);
    let count = |kind| scene.cells.iter().filter(|c| **c == Some(kind)).count();
    assert_eq!(count(ScenePiece::Attacker), 24);
    assert_eq!(count(ScenePiece::Defender), 12);
    assert_eq!(count(ScenePiece::King), 1);
    assert_eq!(scene.king(), Some(Coord::new(5, 5)));
    let corners: Vec<Coord> = scene
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Corner)
        .map(|m| m.at)
        .collect();
    assert_eq!(corners.len(), 4);
    assert!(corners.contains(&Coord::new(10, 10)));
    assert!(
        scene
            .marks
            .iter()
            .any(|m| m.kind == MarkKind::Throne && m.at == Coord::new(5, 5))
    );
}

#[test]
fn last_move_and_captures_of_a_real_game_are_drawn() {
    let mut game = Game::new(variant("copenhagen").unwrap().rules());
    for text in ["a8-e8", "e5-e3"] {
        game.play_str(text).unwrap();
    }
    let report = game.play_str("k8-g8").unwrap();
    assert_eq!(report.captures, vec![Square::new(5, 7)]);
    let options = RenderOptions {
        last_move: Some(report.mv),
        captured: report.captures.clone(),
        ..RenderOptions::default()
    };
    let scene = scene_of(game.position(), game.rules(), &options).unwrap();
    assert_eq!(scene.last_move, Some((Coord::new(10, 7), Coord::new(6, 7))));
    // Attackers captured, so the ghost is a defender.
    assert_eq!(scene.captured.len(), 1);
    assert_eq!(scene.captured[0].piece, Some(ScenePiece::Defender));

    let plain = decode(&render(game.position(), game.rules(), &RenderOptions::default()).unwrap());
    let decorated = decode(&render(game.position(), game.rules(), &options).unwrap());
    let layout = Layout::new(11, options.style.size, false, false);
    for (file, rank) in [(10, 7), (8, 7), (5, 7)] {
        let at = center(&layout, file, rank);
        assert!(
            distance(pixel_at(&decorated, at), pixel_at(&plain, at)) > 60,
            "{file},{rank}"
        );
    }
}

#[test]
fn escape_warning_draws_open_lines_and_fills_the_caption_badge() {
    let rules = variant("brandubh").unwrap().rules();
    let position = Position::from_opentafl("/7/7/7/K6/7/7/7/", Side::Attackers).unwrap();
    let game = Game::from_position(rules.clone(), position);
    let warning = game
        .warning()
        .expect("the king on a4 sees both corners of file a");
    assert_eq!(warning.kind, WarningKind::Tuichu);
    let options = RenderOptions {
        warning: Some(warning.clone()),
        caption: Some(Caption::default()),
        ..RenderOptions::default()
    };
    let scene = scene_of(&position, &rules, &options).unwrap();
    assert_eq!(scene.open_lines.len(), warning.paths.len());
    assert!(
        scene
            .open_lines
            .iter()
            .any(|line| line.last() == Some(&Coord::new(0, 0)))
    );
    assert_eq!(
        scene.caption.as_ref().and_then(|c| c.warning.as_deref()),
        Some("Tuichu!")
    );
    let png = render(&position, &rules, &options).unwrap();
    assert!(decode(&png).height() > options.style.size);
}

#[test]
fn a_position_for_other_rules_is_refused() {
    let rules = variant("copenhagen").unwrap().rules();
    let position = variant("brandubh").unwrap().rules().start_position();
    let error = render(&position, &rules, &RenderOptions::default()).unwrap_err();
    assert_eq!(
        error,
        RenderError::RulesMismatch {
            position: 7,
            rules: 11
        }
    );
    assert!(error.to_string().contains("7x7"), "{error}");
}

#[test]
fn flip_is_taken_from_the_options() {
    let rules = variant("brandubh").unwrap().rules();
    let position = rules.start_position();
    let normal = render(&position, &rules, &RenderOptions::default()).unwrap();
    let options = RenderOptions {
        style: Style {
            flip: true,
            ..Style::default()
        },
        ..RenderOptions::default()
    };
    let flipped = render(&position, &rules, &options).unwrap();
    // Brandubh's start is symmetric, so only the coordinate labels tell the two apart.
    assert_ne!(decode(&normal), decode(&flipped));
}

#[test]
fn a_captured_king_keeps_his_place_and_gets_only_the_cross() {
    let rules = variant("brandubh").unwrap().rules();
    let start = Position::from_opentafl("/2t4/7/7/7/7/tK5/7/", Side::Attackers).unwrap();
    let mut game = Game::from_position(rules, start);
    let report = game.play_str("c1-c6").unwrap();
    assert!(
        report.outcome.is_some(),
        "the king between a6 and c6 is taken"
    );
    let king = game.position().king().unwrap();
    let options = RenderOptions {
        last_move: Some(report.mv),
        captured: vec![king],
        ..RenderOptions::default()
    };
    let scene = scene_of(game.position(), game.rules(), &options).unwrap();
    assert_eq!(scene.captured.len(), 1);
    assert_eq!(scene.captured[0].at, Coord::new(1, 5));
    assert_eq!(scene.captured[0].piece, None);
    assert_eq!(scene.piece_at(Coord::new(1, 5)), Some(ScenePiece::King));
}
