//! The board as SVG, drawn from the renderer's own [`Scene`] (the same special squares, last
//! move, captures and king's open lines as the PNG boards) in the renderer's colours, with the
//! renderer's own shapes for pieces and special squares (`tafl_render::piece_shapes`,
//! `mark_shapes`: the king's crown, the corners' rings), so both boards look alike. Every
//! square is a `rect` named by `data-sq`, so the page's script can take clicks and drags.

use std::fmt::Write;

use tafl_engine::{Position, Rules};
use tafl_render::{Coord, Layout, MarkKind, Palette, Rgba, Scene, ScenePiece, Shape, Theme};

use crate::service::BoardSnapshot;

/// One square's side, in SVG units.
const CELL: u32 = 40;
/// The band around the board that holds the coordinates.
const MARGIN: u32 = 22;

/// How the board is drawn.
#[derive(Debug, Clone, Copy, Default)]
pub struct BoardLook {
    /// Turned half a turn: rank 1 at the top, file `a` on the right.
    pub flip: bool,
    pub theme: ThemeChoice,
}

/// The renderer's themes, by name in a query (`?theme=dark`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ThemeChoice {
    #[default]
    Light,
    Dark,
}

impl ThemeChoice {
    pub fn theme(self) -> Theme {
        match self {
            ThemeChoice::Light => Theme::Light,
            ThemeChoice::Dark => Theme::Dark,
        }
    }

    pub fn palette(self) -> &'static Palette {
        Palette::of(self.theme())
    }
}

/// The board of `snapshot` as an SVG element.
pub fn board_svg(snapshot: &BoardSnapshot, look: BoardLook) -> String {
    let options = tafl_render::RenderOptions {
        last_move: snapshot.last_move,
        captured: snapshot
            .captures
            .iter()
            .copied()
            .chain(snapshot.king_captured)
            .collect(),
        warning: snapshot.warning.clone(),
        ..Default::default()
    };
    match tafl_render::scene_of(&snapshot.position, &snapshot.rules, &options) {
        Ok(scene) => scene_svg(&scene, look),
        // The store's rules and position always agree; should they not, say so in place.
        Err(e) => format!("<p class=\"error\">cannot draw this board: {e}</p>"),
    }
}

/// A start position (a variant's page), undecorated.
pub fn start_svg(position: &Position, rules: &Rules, look: BoardLook) -> String {
    match tafl_render::scene_of(position, rules, &Default::default()) {
        Ok(scene) => scene_svg(&scene, look),
        Err(e) => format!("<p class=\"error\">cannot draw this board: {e}</p>"),
    }
}

pub fn hex(c: Rgba) -> String {
    if c.3 == 255 {
        format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
    } else {
        format!(
            "rgba({},{},{},{:.2})",
            c.0,
            c.1,
            c.2,
            f32::from(c.3) / 255.0
        )
    }
}

fn square_name(at: Coord) -> String {
    format!("{}{}", char::from(b'a' + at.file), u32::from(at.rank) + 1)
}

/// Draws `scene`: squares, coordinates, last move, open lines, pieces, captures.
pub fn scene_svg(scene: &Scene, look: BoardLook) -> String {
    let p = look.theme.palette();
    let layout = Layout::new(scene.dim, CELL * u32::from(scene.dim), look.flip, false);
    let dim = u32::from(scene.dim);
    let side = dim * CELL + 2 * MARGIN;
    let origin = |at: Coord| {
        let (col, row) = layout.screen_cell(at);
        (MARGIN + col * CELL, MARGIN + row * CELL)
    };
    let center = |at: Coord| {
        let (x, y) = origin(at);
        (x + CELL / 2, y + CELL / 2)
    };
    let mut s = String::with_capacity(16 * 1024);
    let _ = write!(
        s,
        "<svg class=\"board\" viewBox=\"0 0 {side} {side}\" xmlns=\"http://www.w3.org/2000/svg\" \
         role=\"img\" aria-labelledby=\"board-alt\" data-dim=\"{}\" data-flip=\"{}\">",
        scene.dim, look.flip
    );
    let _ = write!(
        s,
        "<rect width=\"{side}\" height=\"{side}\" rx=\"6\" fill=\"{}\"/>",
        hex(p.frame)
    );
    squares(&mut s, scene, p, origin);
    coordinates(&mut s, scene.dim, &layout, p, side);
    if let Some((from, to)) = scene.last_move {
        for (at, colour) in [(from, p.move_from), (to, p.move_to)] {
            let (x, y) = origin(at);
            let _ = write!(
                s,
                "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" \
                 fill=\"{}\" pointer-events=\"none\"/>",
                hex(colour)
            );
        }
        let ((x1, y1), (x2, y2)) = (center(from), center(to));
        let _ = write!(
            s,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"4\" \
             stroke-linecap=\"round\" opacity=\".7\" pointer-events=\"none\"/>",
            hex(p.move_line)
        );
    }
    if let Some(king) = scene.king() {
        for path in &scene.open_lines {
            let mut points = format!("{},{}", center(king).0, center(king).1);
            for at in path {
                let (x, y) = center(*at);
                let _ = write!(points, " {x},{y}");
            }
            let _ = write!(
                s,
                "<polyline class=\"open-line\" points=\"{points}\" fill=\"none\" stroke=\"{}\" \
                 stroke-width=\"3\" stroke-dasharray=\"7 5\" pointer-events=\"none\"/>",
                hex(p.warning)
            );
        }
    }
    for rank in 0..scene.dim {
        for file in 0..scene.dim {
            let at = Coord::new(file, rank);
            if let Some(piece) = scene.piece_at(at) {
                draw_piece(&mut s, piece, origin(at), p, 1.0, &square_name(at));
            }
        }
    }
    for captured in &scene.captured {
        if let Some(ghost) = captured.piece {
            draw_piece(&mut s, ghost, origin(captured.at), p, 0.35, "");
        }
        let (x, y) = center(captured.at);
        let r = CELL / 4;
        let _ = write!(
            s,
            "<path class=\"capture\" d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{}\" stroke-width=\"4\" \
             stroke-linecap=\"round\" pointer-events=\"none\"/>",
            x - r,
            y - r,
            x + r,
            y + r,
            x + r,
            y - r,
            x - r,
            y + r,
            hex(p.capture_cross)
        );
    }
    // The script draws the legal destinations of a chosen piece here.
    s.push_str("<g class=\"hints\" pointer-events=\"none\"></g></svg>");
    s
}

fn squares(s: &mut String, scene: &Scene, p: &Palette, origin: impl Fn(Coord) -> (u32, u32)) {
    let marks: std::collections::HashMap<Coord, MarkKind> =
        scene.marks.iter().map(|m| (m.at, m.kind)).collect();
    for rank in 0..scene.dim {
        for file in 0..scene.dim {
            let at = Coord::new(file, rank);
            let (x, y) = origin(at);
            let shapes = marks
                .get(&at)
                .map(|kind| tafl_render::mark_shapes(*kind, p, x as f32, y as f32, CELL as f32))
                .unwrap_or_default();
            let fill = shapes
                .iter()
                .find_map(|shape| match shape {
                    Shape::Square { fill } => Some(*fill),
                    _ => None,
                })
                .unwrap_or(p.square);
            let _ = write!(
                s,
                "<rect class=\"sq\" data-sq=\"{}\" x=\"{x}\" y=\"{y}\" width=\"{CELL}\" \
                 height=\"{CELL}\" fill=\"{}\" stroke=\"{}\"/>",
                square_name(at),
                hex(fill),
                hex(p.grid)
            );
            if shapes.len() > 1 {
                s.push_str("<g class=\"square-mark\" pointer-events=\"none\">");
                shapes_svg(s, &shapes);
                s.push_str("</g>");
            }
        }
    }
}

/// Writes the renderer's shapes (`tafl_render::Shape`) as SVG elements; a square's tint is
/// its `rect`'s fill, written by the caller.
fn shapes_svg(s: &mut String, shapes: &[Shape]) {
    for shape in shapes {
        match shape {
            Shape::Square { .. } => {}
            Shape::Disc { cx, cy, r, fill } => {
                let _ = write!(
                    s,
                    "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{}\"/>",
                    hex(*fill)
                );
            }
            Shape::Ring {
                cx,
                cy,
                r,
                width,
                colour,
            } => {
                let _ = write!(
                    s,
                    "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"none\" \
                     stroke=\"{}\" stroke-width=\"{width:.1}\"/>",
                    hex(*colour)
                );
            }
            Shape::Polygon {
                points,
                fill,
                outline,
                width,
            } => {
                let _ = write!(
                    s,
                    "<polygon points=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"{width:.1}\" \
                     stroke-linejoin=\"round\"/>",
                    points_svg(points),
                    hex(*fill),
                    hex(*outline)
                );
            }
            Shape::Line {
                points,
                width,
                colour,
            } => {
                let _ = write!(
                    s,
                    "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{width:.1}\" \
                     stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
                    points_svg(points),
                    hex(*colour)
                );
            }
        }
    }
}

fn points_svg(points: &[(f32, f32)]) -> String {
    let mut out = String::new();
    for (x, y) in points {
        if !out.is_empty() {
            out.push(' ');
        }
        let _ = write!(out, "{x:.1},{y:.1}");
    }
    out
}

fn coordinates(s: &mut String, dim: u8, layout: &Layout, p: &Palette, side: u32) {
    let half = MARGIN / 2;
    let _ = write!(
        s,
        "<g font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\" \
         dominant-baseline=\"central\" fill=\"{}\" aria-hidden=\"true\">",
        hex(p.square)
    );
    for i in 0..dim {
        let file = char::from(b'a' + layout.file_in_column(i));
        let rank = u32::from(layout.rank_in_row(i)) + 1;
        let along = MARGIN + u32::from(i) * CELL + CELL / 2;
        let far = side - half;
        let _ = write!(
            s,
            "<text x=\"{along}\" y=\"{half}\">{file}</text><text x=\"{along}\" y=\"{far}\">{file}</text>\
             <text x=\"{half}\" y=\"{along}\">{rank}</text><text x=\"{far}\" y=\"{along}\">{rank}</text>"
        );
    }
    s.push_str("</g>");
}

/// A piece in the square whose top-left corner is `(x, y)`, as the PNG boards draw it.
fn draw_piece(
    s: &mut String,
    piece: ScenePiece,
    (x, y): (u32, u32),
    p: &Palette,
    opacity: f32,
    name: &str,
) {
    let kind = match piece {
        ScenePiece::Attacker => "attacker",
        ScenePiece::Defender => "defender",
        ScenePiece::King => "king",
    };
    let _ = write!(
        s,
        "<g class=\"piece {kind}\" data-at=\"{name}\" opacity=\"{opacity}\" pointer-events=\"none\">"
    );
    shapes_svg(
        s,
        &tafl_render::piece_shapes(piece, p, x as f32, y as f32, CELL as f32),
    );
    s.push_str("</g>");
}

/// The board in words, for screen readers and anyone without the picture.
pub fn board_text(position: &Position) -> String {
    let mut attackers = Vec::new();
    let mut defenders = Vec::new();
    let mut king = None;
    for (square, piece) in position.pieces() {
        match piece {
            tafl_engine::Piece::Attacker => attackers.push(square.to_string()),
            tafl_engine::Piece::Defender => defenders.push(square.to_string()),
            tafl_engine::Piece::King => king = Some(square.to_string()),
        }
    }
    format!(
        "King on {}. Defenders ({}): {}. Attackers ({}): {}.",
        king.as_deref().unwrap_or("no square (captured)"),
        defenders.len(),
        defenders.join(", "),
        attackers.len(),
        attackers.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_named_and_special_squares_coloured() {
        let variant = tafl_engine::variants()
            .iter()
            .find(|v| v.id == "brandubh")
            .unwrap();
        let rules = variant.rules();
        let position = rules.start_position();
        let svg = start_svg(&position, &rules, BoardLook::default());
        assert_eq!(svg.matches("class=\"sq\"").count(), 49);
        assert!(svg.contains("data-sq=\"a1\"") && svg.contains("data-sq=\"g7\""));
        let throne = hex(Palette::of(Theme::Light).throne);
        assert!(svg.contains(&throne));
        assert_eq!(svg.matches("class=\"piece king\"").count(), 1);
        assert!(board_text(&position).starts_with("King on d4."));
    }

    #[test]
    fn the_king_wears_the_pngs_crown_and_corners_their_rings() {
        let variant = tafl_engine::variants()
            .iter()
            .find(|v| v.id == "copenhagen")
            .unwrap();
        let rules = variant.rules();
        let svg = start_svg(&rules.start_position(), &rules, BoardLook::default());
        let king_start = svg.find("class=\"piece king\"").unwrap();
        let king = &svg[king_start..king_start + svg[king_start..].find("</g>").unwrap()];
        assert_eq!(king.matches("<polygon").count(), 1, "the crown: {king}");
        // Four corners and the throne, each with its symbol; corners are two rings and a dot.
        assert_eq!(svg.matches("class=\"square-mark\"").count(), 5);
        let palette = Palette::of(Theme::Light);
        let ring = format!("fill=\"none\" stroke=\"{}\"", hex(palette.mark_symbol));
        let rings = svg
            .split("<circle")
            .filter(|circle| circle.split("/>").next().is_some_and(|c| c.contains(&ring)))
            .count();
        assert_eq!(rings, 4 * 2, "two rings per corner");
        assert!(!svg.contains("M8 8"), "no X on the corners any more");
    }

    #[test]
    fn last_move_captures_and_the_kings_open_lines_are_drawn() {
        let mut scene = Scene::from_diagram(
            ".......
             .......
             ...K...
             .......
             .......
             .t.....
             .......",
        )
        .unwrap();
        scene.last_move = Some((Coord::new(1, 0), Coord::new(1, 1)));
        scene.captured = vec![tafl_render::Captured {
            at: Coord::new(2, 1),
            piece: Some(ScenePiece::Defender),
        }];
        scene.open_lines = vec![vec![Coord::new(3, 5), Coord::new(3, 6)]];
        let svg = scene_svg(&scene, BoardLook::default());
        assert_eq!(svg.matches("class=\"last\"").count(), 2);
        assert_eq!(svg.matches("class=\"capture\"").count(), 1);
        assert!(
            svg.contains("opacity=\"0.35\""),
            "the captured piece's ghost"
        );
        assert_eq!(svg.matches("class=\"open-line\"").count(), 1);
    }

    #[test]
    fn a_flipped_board_puts_a1_top_right() {
        let scene = Scene::empty(7).unwrap();
        let svg = scene_svg(
            &scene,
            BoardLook {
                flip: true,
                theme: ThemeChoice::Dark,
            },
        );
        let a1 = format!("data-sq=\"a1\" x=\"{}\" y=\"{MARGIN}\"", MARGIN + 6 * CELL);
        assert!(svg.contains(&a1), "{svg}");
    }
}
