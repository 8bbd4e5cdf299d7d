//! A puzzle as an OpenTafl puzzle record: the position and the rules, the solution as the
//! record's line, `puzzle-mode:strict` (OpenTafl accepts only the recorded moves) starting at
//! the first move, and the hint in the start comment in OpenTafl's `(hint:...)` form, which
//! OpenTafl hides until asked (OpenTafl notation spec, section 4, "puzzle-mode").

use tafl_engine::{Move, otg};

use crate::domain::PuzzleId;
use crate::service::{Result, ServiceError};

use super::Puzzles;
use super::solving::{Stored, load};

impl Puzzles<'_> {
    /// Puzzle `id` as an OpenTafl `.otg` puzzle record.
    pub async fn export_otg(self, id: PuzzleId) -> Result<String> {
        self.service
            .read(move |c| puzzle_record(&load(c, id)?))
            .await
    }
}

fn puzzle_record(stored: &Stored) -> Result<String> {
    let mut game = stored.game.clone();
    let dim = game.rules().dim();
    for text in &stored.line {
        let mv = Move::parse(text, dim)
            .map_err(|e| ServiceError::internal(format!("a stored puzzle line: {e}")))?;
        game.play(mv)
            .map_err(|e| ServiceError::internal(format!("a stored puzzle line: {e}")))?;
    }
    let view = stored.view();
    let intro = format!(
        "{} to move: {} in {}. (hint:Move the piece on {}.)",
        view.side_to_move,
        match view.theme.as_str() {
            "escape" => "the king escapes",
            "capture_king" => "the king is captured",
            _ => "win material",
        },
        view.moves_to_find,
        view.hint
    );
    let tags = [
        ("event", format!("taflbot puzzle {}", view.id)),
        (
            "site",
            format!("taflbot game {}, after ply {}", view.game_id, view.ply),
        ),
        ("variant", view.variant.clone()),
        ("puzzle-mode", "strict".to_owned()),
        ("puzzle-start", "1a".to_owned()),
        ("start-comment", intro),
    ]
    .map(|(k, v)| (k.to_owned(), v));
    Ok(otg::write(&game, &tags))
}
