//! Drawing engine positions: a `tafl_engine::Position` plus decorations becomes a [`Scene`].

use tafl_engine::{Move, Piece, Position, Rules, Side, Square, SquareKind, Warning};

use crate::draw::render_scene;
use crate::error::RenderError;
use crate::scene::{Caption, Captured, Coord, Mark, MarkKind, Scene, ScenePiece};
use crate::style::Style;

/// How to draw a position, and what to draw on top of it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderOptions {
    pub style: Style,
    /// The move that led to the position: its squares are highlighted and joined by an arrow.
    pub last_move: Option<Move>,
    /// Squares emptied by the last move's captures, drawn as faint ghosts under a cross. A
    /// square that still holds a piece (a captured king stays on the board) gets only the cross.
    pub captured: Vec<Square>,
    /// The king's open lines (raichi / tuichu), drawn as dashed lines to the winning squares.
    pub warning: Option<Warning>,
    /// The strip above the board. Its warning badge, when left empty, shows `warning`'s shout.
    pub caption: Option<Caption>,
}

/// Draws a position with its decorations as PNG bytes.
pub fn render(
    position: &Position,
    rules: &Rules,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    render_scene(&scene_of(position, rules, options)?, &options.style)
}

/// The scene for a position, rules (for the special squares) and decorations.
pub fn scene_of(
    position: &Position,
    rules: &Rules,
    options: &RenderOptions,
) -> Result<Scene, RenderError> {
    if position.dim() != rules.dim() {
        return Err(RenderError::RulesMismatch {
            position: position.dim(),
            rules: rules.dim(),
        });
    }
    let dim = position.dim();
    let mut scene = Scene::empty(dim)?;
    for (square, piece) in position.pieces() {
        scene.set(coord(square), Some(scene_piece(piece)))?;
    }
    for rank in 0..dim {
        for file in 0..dim {
            let kind = match rules.square_kind(Square::new(file, rank)) {
                SquareKind::Plain => continue,
                SquareKind::Throne => MarkKind::Throne,
                SquareKind::Corner => MarkKind::Corner,
                SquareKind::AttackerFortress => MarkKind::AttackerFortress,
                SquareKind::DefenderFortress => MarkKind::DefenderFortress,
            };
            scene.marks.push(Mark {
                at: Coord::new(file, rank),
                kind,
            });
        }
    }
    scene.last_move = options.last_move.map(|mv| (coord(mv.from), coord(mv.to)));
    // The captured pieces belong to the side that did not make the last move.
    let mover = options
        .last_move
        .and_then(|mv| position.piece_at(mv.to))
        .map_or(position.side_to_move().opponent(), Piece::side);
    let ghost = match mover {
        Side::Attackers => ScenePiece::Defender,
        Side::Defenders => ScenePiece::Attacker,
    };
    scene.captured = options
        .captured
        .iter()
        .map(|square| Captured {
            at: coord(*square),
            // A captured king stays on the board: it gets the cross but no ghost under it.
            piece: position.piece_at(*square).is_none().then_some(ghost),
        })
        .collect();
    if let Some(warning) = &options.warning {
        scene.open_lines = warning
            .paths
            .iter()
            .map(|path| path.iter().copied().map(coord).collect())
            .collect();
    }
    scene.caption = options.caption.clone().map(|mut caption| {
        if caption.warning.is_none() {
            caption.warning = options
                .warning
                .as_ref()
                .map(|warning| warning.kind.shout().to_string());
        }
        caption
    });
    Ok(scene)
}

fn coord(square: Square) -> Coord {
    Coord::new(square.file(), square.rank())
}

fn scene_piece(piece: Piece) -> ScenePiece {
    match piece {
        Piece::Attacker => ScenePiece::Attacker,
        Piece::Defender => ScenePiece::Defender,
        Piece::King => ScenePiece::King,
    }
}
