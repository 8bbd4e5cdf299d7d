//! Bad scenes and options are refused with errors that say what was wrong.

use tafl_render::{
    Captured, Coord, Mark, MarkKind, RenderError, Scene, Style, Theme, render_scene,
};

#[test]
fn theme_names_parse_forgivingly_and_unknown_ones_are_named() {
    assert_eq!("light".parse::<Theme>().unwrap(), Theme::Light);
    assert_eq!(" Dark ".parse::<Theme>().unwrap(), Theme::Dark);
    let error = "sepia".parse::<Theme>().unwrap_err();
    let message = error.to_string();
    assert!(message.contains("sepia"), "{message}");
    assert!(
        message.contains("light") && message.contains("dark"),
        "{message}"
    );
    for theme in Theme::ALL {
        assert_eq!(theme.to_string().parse::<Theme>().unwrap(), theme);
    }
}

#[test]
fn sizes_outside_the_supported_range_are_refused() {
    let scene = Scene::empty(9).unwrap();
    for size in [0, 10, 159, 4097, u32::MAX] {
        let style = Style {
            size,
            ..Style::default()
        };
        match render_scene(&scene, &style) {
            Err(RenderError::Size { size: got, .. }) => assert_eq!(got, size),
            other => panic!("size {size}: {other:?}"),
        }
    }
}

#[test]
fn board_dimensions_outside_7_to_19_are_refused() {
    for dim in [0, 1, 6, 20, 255] {
        assert!(
            matches!(Scene::empty(dim), Err(RenderError::Dimension { dim: d, .. }) if d == dim)
        );
        let mut scene = Scene::empty(7).unwrap();
        scene.dim = dim;
        let error = render_scene(&scene, &Style::default()).unwrap_err();
        assert!(matches!(error, RenderError::Dimension { .. }), "{error:?}");
    }
}

#[test]
fn inconsistent_scenes_are_refused() {
    let mut wrong_cells = Scene::empty(9).unwrap();
    wrong_cells.cells.pop();
    assert_eq!(
        render_scene(&wrong_cells, &Style::default()).unwrap_err(),
        RenderError::CellCount {
            dim: 9,
            expected: 81,
            found: 80
        }
    );

    let off = Coord::new(9, 0);
    let mut bad_mark = Scene::empty(9).unwrap();
    bad_mark.marks.push(Mark {
        at: off,
        kind: MarkKind::Corner,
    });
    let mut bad_move = Scene::empty(9).unwrap();
    bad_move.last_move = Some((Coord::new(0, 0), Coord::new(0, 9)));
    let mut bad_capture = Scene::empty(9).unwrap();
    bad_capture.captured.push(Captured {
        at: off,
        piece: None,
    });
    let mut bad_line = Scene::empty(9).unwrap();
    bad_line
        .open_lines
        .push(vec![Coord::new(3, 3), Coord::new(3, 200)]);
    for scene in [bad_mark, bad_move, bad_capture, bad_line] {
        let error = render_scene(&scene, &Style::default()).unwrap_err();
        assert!(
            matches!(error, RenderError::OffBoard { dim: 9, .. }),
            "{error:?}"
        );
        assert!(error.to_string().contains("off the 9x9 board"), "{error}");
    }
    assert!(Scene::empty(9).unwrap().set(off, None).is_err());
}

#[test]
fn diagrams_with_bad_rows_or_letters_are_refused() {
    let short_row = "...t...\n...t..\n...T...\nttTKTtt\n...T...\n...t...\n...t...";
    let error = Scene::from_diagram(short_row).unwrap_err();
    assert!(error.to_string().contains("row 2"), "{error}");
    let bad_letter = "...t...\n...t...\n...T...\nttTKTtx\n...T...\n...t...\n...t...";
    let error = Scene::from_diagram(bad_letter).unwrap_err();
    assert!(error.to_string().contains("`x`"), "{error}");
    assert!(Scene::from_diagram("").is_err());
}
