//! The shapes of the pieces and of the special squares, described once for both renderers:
//! the PNG boards draw them with tiny-skia (`sprites`, `background`), and the web client's SVG
//! board writes each as an SVG element. So a king wears the same crown and a corner the same
//! rings on every board.
//!
//! Coordinates are pixels: a square `cell` pixels wide whose top-left corner is at `(x, y)`.
//! Line widths keep a floor of one pixel (or so), as a small PNG needs.

use crate::palette::{Palette, Rgba};
use crate::scene::{MarkKind, ScenePiece};

/// One drawing operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// The whole square, filled: a special square's tint.
    Square { fill: Rgba },
    /// A filled circle.
    Disc {
        cx: f32,
        cy: f32,
        r: f32,
        fill: Rgba,
    },
    /// A circle's outline.
    Ring {
        cx: f32,
        cy: f32,
        r: f32,
        width: f32,
        colour: Rgba,
    },
    /// A closed polygon, filled, then outlined with round joins.
    Polygon {
        points: Vec<(f32, f32)>,
        fill: Rgba,
        outline: Rgba,
        width: f32,
    },
    /// An open line with round ends and joins.
    Line {
        points: Vec<(f32, f32)>,
        width: f32,
        colour: Rgba,
    },
}

/// Radius of a piece as a fraction of the cell.
pub fn radius_fraction(piece: ScenePiece) -> f32 {
    match piece {
        ScenePiece::Attacker | ScenePiece::Defender => 0.37,
        ScenePiece::King => 0.44,
    }
}

/// A piece on the square at `(x, y)`: told apart by shape, not only colour. Attackers are plain
/// discs, defenders carry a ring, the king is larger and wears a crown. Flat colours only
/// (gradients would make every PNG pixel unique); depth comes from a darker rim under the top
/// face, like a real game token.
pub fn piece_shapes(piece: ScenePiece, palette: &Palette, x: f32, y: f32, cell: f32) -> Vec<Shape> {
    let r = cell * radius_fraction(piece);
    let depth = (r * 0.12).max(1.0);
    let (cx, cy) = (x + cell / 2.0, y + cell / 2.0 - depth / 2.0);
    let colours = match piece {
        ScenePiece::Attacker => palette.attacker,
        ScenePiece::Defender => palette.defender,
        ScenePiece::King => palette.king,
    };
    let outline = (r * 0.08).max(1.0);
    let mut shapes = vec![
        Shape::Disc {
            cx: cx + depth * 0.3,
            cy: cy + depth * 1.8,
            r,
            fill: palette.shadow,
        },
        Shape::Disc {
            cx,
            cy: cy + depth,
            r,
            fill: colours.outline,
        },
        Shape::Disc {
            cx,
            cy: cy + depth,
            r: r - outline,
            fill: colours.side,
        },
        Shape::Disc {
            cx,
            cy,
            r,
            fill: colours.outline,
        },
        Shape::Disc {
            cx,
            cy,
            r: r - outline,
            fill: colours.face,
        },
    ];
    match piece {
        ScenePiece::Attacker => {}
        ScenePiece::Defender => shapes.push(Shape::Ring {
            cx,
            cy,
            r: r * 0.52,
            width: (r * 0.15).max(1.2),
            colour: colours.detail,
        }),
        ScenePiece::King => crown(&mut shapes, cx, cy, r, colours.detail, colours.outline),
    }
    shapes
}

/// A three-pointed crown centred on the piece, with a ball on each point and a band.
fn crown(shapes: &mut Vec<Shape>, cx: f32, cy: f32, r: f32, fill: Rgba, outline: Rgba) {
    let w = r * 1.1;
    let h = r * 0.78;
    let (left, right) = (cx - w / 2.0, cx + w / 2.0);
    let top = cy - h * 0.52;
    let bottom = cy + h * 0.48;
    let valley = top + h * 0.48;
    shapes.push(Shape::Polygon {
        points: vec![
            (left, bottom),
            (left - w * 0.04, top),
            (left + w * 0.27, valley),
            (cx, top - h * 0.08),
            (right - w * 0.27, valley),
            (right + w * 0.04, top),
            (right, bottom),
        ],
        fill,
        outline,
        width: (r * 0.07).max(1.0),
    });
    let ball = (r * 0.09).max(1.0);
    for (bx, by) in [
        (left - w * 0.04, top),
        (cx, top - h * 0.08),
        (right + w * 0.04, top),
    ] {
        shapes.push(Shape::Disc {
            cx: bx,
            cy: by,
            r: ball * 1.35,
            fill: outline,
        });
        shapes.push(Shape::Disc {
            cx: bx,
            cy: by,
            r: ball,
            fill,
        });
    }
    let band_y = bottom - h * 0.2;
    shapes.push(Shape::Line {
        points: vec![(left + w * 0.02, band_y), (right - w * 0.02, band_y)],
        width: (r * 0.06).max(0.8),
        colour: outline,
    });
}

/// A special square at `(x, y)`: its tint and its symbol. The throne is a box with a cross,
/// a corner target rings, an attacker fortress hatched, a defender fortress dotted.
pub fn mark_shapes(kind: MarkKind, palette: &Palette, x: f32, y: f32, cell: f32) -> Vec<Shape> {
    let stroke = (cell * 0.045).max(1.0);
    let symbol = palette.mark_symbol;
    let line = |points: Vec<(f32, f32)>, width: f32, colour: Rgba| Shape::Line {
        points,
        width,
        colour,
    };
    match kind {
        MarkKind::Throne => {
            let inset = cell * 0.12;
            let (x0, y0, x1, y1) = (x + inset, y + inset, x + cell - inset, y + cell - inset);
            vec![
                Shape::Square {
                    fill: palette.throne,
                },
                line(
                    vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)],
                    stroke,
                    symbol,
                ),
                line(vec![(x0, y0), (x1, y1)], stroke, symbol),
                line(vec![(x1, y0), (x0, y1)], stroke, symbol),
            ]
        }
        MarkKind::Corner => {
            let (cx, cy) = (x + cell / 2.0, y + cell / 2.0);
            let ring = |r: f32| Shape::Ring {
                cx,
                cy,
                r,
                width: stroke,
                colour: symbol,
            };
            vec![
                Shape::Square {
                    fill: palette.corner,
                },
                ring(cell * 0.32),
                ring(cell * 0.17),
                Shape::Disc {
                    cx,
                    cy,
                    r: cell * 0.05,
                    fill: symbol,
                },
            ]
        }
        MarkKind::AttackerFortress => {
            let mut shapes = vec![Shape::Square {
                fill: palette.fortress_attacker,
            }];
            hatch(
                &mut shapes,
                x,
                y,
                cell,
                stroke * 0.8,
                symbol.with_alpha(150),
            );
            shapes
        }
        MarkKind::DefenderFortress => {
            let mut shapes = vec![Shape::Square {
                fill: palette.fortress_defender,
            }];
            let fill = symbol.with_alpha(170);
            for i in 0..3 {
                for j in 0..3 {
                    shapes.push(Shape::Disc {
                        cx: x + cell * (0.22 + 0.28 * i as f32),
                        cy: y + cell * (0.22 + 0.28 * j as f32),
                        r: cell * 0.055,
                        fill,
                    });
                }
            }
            shapes
        }
    }
}

/// Diagonal lines (rising to the right) clipped to the square.
fn hatch(shapes: &mut Vec<Shape>, x: f32, y: f32, cell: f32, width: f32, colour: Rgba) {
    let step = cell / 5.0;
    let (x0, y0, x1, y1) = (x, y, x + cell, y + cell);
    let mut c = x0 + y0 + step / 2.0;
    while c < x1 + y1 {
        // On the line x + y = c, x runs over [max(x0, c - y1), min(x1, c - y0)].
        let start_x = x0.max(c - y1);
        let end_x = x1.min(c - y0);
        if end_x > start_x {
            let inset = width * 0.5;
            shapes.push(Shape::Line {
                points: vec![
                    (start_x + inset, c - start_x - inset),
                    (end_x - inset, c - end_x + inset),
                ],
                width,
                colour,
            });
        }
        c += step;
    }
}
