//! What the picture shows: pieces where the scene puts them (in either orientation), and
//! decorations exactly on their squares.
#![allow(clippy::unwrap_used)] // helpers below run only inside tests

mod common;

use common::{center, decode, distance, layout_of, luminance, pixel_at};
use tafl_render::{Captured, Coord, Scene, ScenePiece, Style, Theme, render_scene};

fn with_piece(dim: u8, at: Coord, piece: ScenePiece) -> Scene {
    let mut scene = Scene::empty(dim).unwrap();
    scene.set(at, Some(piece)).unwrap();
    scene
}

#[test]
fn a1_is_drawn_bottom_left_and_flip_moves_it_top_right() {
    let scene = with_piece(11, Coord::new(0, 0), ScenePiece::Attacker);
    let empty = Scene::empty(11).unwrap();
    for flip in [false, true] {
        let style = Style {
            flip,
            ..Style::default()
        };
        let image = decode(&render_scene(&scene, &style).unwrap());
        let board = decode(&render_scene(&empty, &style).unwrap());
        let layout = layout_of(&scene, &style);
        let (x, y) = center(&layout, 0, 0);
        let (w, h) = (image.width() as f32, image.height() as f32);
        if flip {
            assert!(x > w / 2.0 && y < h / 2.0, "flipped a1 at ({x}, {y})");
        } else {
            assert!(x < w / 2.0 && y > h / 2.0, "a1 at ({x}, {y})");
        }
        // A dark attacker covers the square's centre; the opposite corner is untouched board.
        assert!(luminance(pixel_at(&image, (x, y))) < 90, "flip {flip}");
        assert!(luminance(pixel_at(&board, (x, y))) > 150, "flip {flip}");
        let far = center(&layout, 10, 10);
        assert_eq!(pixel_at(&image, far), pixel_at(&board, far), "flip {flip}");
    }
}

#[test]
fn flipped_picture_is_the_board_turned_half_around() {
    // Pieces at c2 (attacker) and h9 (defender): after the flip, c2 sits where i10 was.
    let mut scene = with_piece(11, Coord::new(2, 1), ScenePiece::Attacker);
    scene
        .set(Coord::new(7, 8), Some(ScenePiece::Defender))
        .unwrap();
    let style = Style::default();
    let flipped_style = Style {
        flip: true,
        ..style
    };
    let normal = layout_of(&scene, &style);
    let flipped = layout_of(&scene, &flipped_style);
    assert_eq!(center(&normal, 2, 1), center(&flipped, 8, 9));
    let normal_image = decode(&render_scene(&scene, &style).unwrap());
    let flipped_image = decode(&render_scene(&scene, &flipped_style).unwrap());
    let attacker = pixel_at(&normal_image, center(&normal, 2, 1));
    let defender = pixel_at(&normal_image, center(&normal, 7, 8));
    assert_eq!(pixel_at(&flipped_image, center(&normal, 8, 9)), attacker);
    assert_eq!(pixel_at(&flipped_image, center(&normal, 3, 2)), defender);
}

#[test]
fn pieces_differ_in_shape_not_only_colour() {
    // Greyscale the three pieces: a defender's ring and the king's crown put dark pixels
    // inside a light piece, an attacker is uniform; the king is wider than a defender.
    let mut scene = Scene::empty(7).unwrap();
    scene
        .set(Coord::new(1, 3), Some(ScenePiece::Attacker))
        .unwrap();
    scene
        .set(Coord::new(3, 3), Some(ScenePiece::Defender))
        .unwrap();
    scene.set(Coord::new(5, 3), Some(ScenePiece::King)).unwrap();
    let style = Style::default();
    let image = decode(&render_scene(&scene, &style).unwrap());
    let layout = layout_of(&scene, &style);
    let cell = layout.cell as f32;
    let row = |file: u8| -> Vec<u32> {
        let (cx, cy) = center(&layout, file, 3);
        (0..layout.cell)
            .map(|i| {
                luminance(pixel_at(
                    &image,
                    (cx - cell / 2.0 + i as f32, cy - cell * 0.05),
                ))
            })
            .collect()
    };
    let swings = |values: &[u32]| {
        values
            .windows(2)
            .filter(|w| w[0].abs_diff(w[1]) > 60)
            .count()
    };
    let attacker = row(1);
    let defender = row(3);
    let king = row(5);
    assert!(
        swings(&defender) > swings(&attacker),
        "{defender:?} vs {attacker:?}"
    );
    let width =
        |values: &[u32], board: u32| values.iter().filter(|v| v.abs_diff(board) > 25).count();
    let board = luminance(pixel_at(&image, center(&layout, 0, 0)));
    assert!(
        width(&king, board) > width(&defender, board),
        "king {king:?} defender {defender:?}"
    );
}

#[test]
fn last_move_marks_both_squares_and_the_path_between() {
    let mut scene = with_piece(9, Coord::new(4, 6), ScenePiece::Defender);
    let plain = decode(&render_scene(&scene, &Style::default()).unwrap());
    scene.last_move = Some((Coord::new(4, 1), Coord::new(4, 6)));
    let style = Style::default();
    let image = decode(&render_scene(&scene, &style).unwrap());
    let layout = layout_of(&scene, &style);
    let cell = layout.cell as f32;
    for (file, rank) in [(4, 1), (4, 3), (4, 4)] {
        let at = center(&layout, file, rank);
        assert!(
            distance(pixel_at(&image, at), pixel_at(&plain, at)) > 60,
            "{file},{rank}"
        );
    }
    // The destination square is tinted around the piece.
    let (x, y) = center(&layout, 4, 6);
    let corner = (x - cell * 0.45, y - cell * 0.45);
    assert!(distance(pixel_at(&image, corner), pixel_at(&plain, corner)) > 30);
    // Squares off the move stay as they were.
    for (file, rank) in [(3, 3), (5, 1), (0, 0)] {
        let at = center(&layout, file, rank);
        assert_eq!(pixel_at(&image, at), pixel_at(&plain, at), "{file},{rank}");
    }
}

#[test]
fn captures_leave_a_cross_over_a_faint_ghost() {
    let mut scene = Scene::empty(9).unwrap();
    let style = Style {
        theme: Theme::Dark,
        ..Style::default()
    };
    let plain = decode(&render_scene(&scene, &style).unwrap());
    scene.captured = vec![
        Captured {
            at: Coord::new(2, 2),
            piece: Some(ScenePiece::Defender),
        },
        Captured {
            at: Coord::new(6, 6),
            piece: None,
        },
    ];
    let image = decode(&render_scene(&scene, &style).unwrap());
    let layout = layout_of(&scene, &style);
    let cell = layout.cell as f32;
    for (file, rank) in [(2, 2), (6, 6)] {
        let (x, y) = center(&layout, file, rank);
        let cross = pixel_at(&image, (x, y));
        assert!(
            cross[0] > cross[2] + 60,
            "cross should be red, got {cross:?}"
        );
        // Off the cross's arms, the ghost (if any) only tints the board.
        let beside = (x, y - cell * 0.3);
        let change = distance(pixel_at(&image, beside), pixel_at(&plain, beside));
        if file == 2 {
            assert!(change > 20 && change < 300, "ghost tint {change}");
        } else {
            assert_eq!(change, 0);
        }
    }
}

#[test]
fn open_lines_run_from_the_king_to_the_winning_square() {
    let mut scene = with_piece(11, Coord::new(3, 5), ScenePiece::King);
    let style = Style::default();
    let plain = decode(&render_scene(&scene, &style).unwrap());
    scene.open_lines = vec![(0..5).rev().map(|rank| Coord::new(3, rank)).collect()];
    let image = decode(&render_scene(&scene, &style).unwrap());
    let layout = layout_of(&scene, &style);
    let changed = |file: u8, rank: u8| {
        let (x, y) = center(&layout, file, rank);
        // Dashes leave gaps, so look along the whole square.
        (0..layout.cell).any(|dy| {
            let at = (x, y - layout.cell as f32 / 2.0 + dy as f32);
            distance(pixel_at(&image, at), pixel_at(&plain, at)) > 60
        })
    };
    for rank in 0..5 {
        assert!(changed(3, rank), "d{}", rank + 1);
    }
    assert!(!changed(3, 7));
    assert!(!changed(5, 2));
}
