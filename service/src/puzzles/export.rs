//! A puzzle as an OpenTafl puzzle record: the position and the rules, the solution as the
//! record's line, `puzzle-mode:strict` (OpenTafl accepts only the recorded moves) starting at
//! the first move, and the hint in the start comment in OpenTafl's `(hint:...)` form, which
//! OpenTafl hides until asked (OpenTafl notation spec, section 4, "puzzle-mode").
//!
//! The line is the answer: it goes only to a player who has tried the puzzle (whose first try,
//! the rated one, is behind them). Anyone else gets the position to solve, with no line and
//! no puzzle mode, so reading the export first cannot win a rated try.

use tafl_engine::{Move, otg};

use crate::domain::{PlayerId, PuzzleId};
use crate::store::rows;
use crate::{Result, ServiceError};

use super::Puzzles;
use super::solving::{Stored, load};

impl Puzzles<'_> {
    /// Puzzle `id` as an OpenTafl `.otg` record, as `viewer` may read it: the puzzle record
    /// with its line once they have tried it, the position alone otherwise.
    pub async fn export_otg(self, id: PuzzleId, viewer: Option<PlayerId>) -> Result<String> {
        self.service
            .read(move |c| {
                let stored = load(c, id)?;
                let tried = match viewer {
                    Some(player) => rows::puzzle_attempt(c, id, player)?.is_some(),
                    None => false,
                };
                puzzle_record(&stored, tried)
            })
            .await
    }
}

fn puzzle_record(stored: &Stored, with_line: bool) -> Result<String> {
    let mut game = stored.game.clone();
    let dim = game.rules().dim();
    let line: &[String] = if with_line { &stored.line } else { &[] };
    for text in line {
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
    let mut tags = vec![
        ("event", format!("taflbot puzzle {}", view.id)),
        (
            "site",
            format!("taflbot game {}, after ply {}", view.game_id, view.ply),
        ),
        ("variant", view.variant.clone()),
    ];
    if with_line {
        tags.push(("puzzle-mode", "strict".to_owned()));
        tags.push(("puzzle-start", "1a".to_owned()));
    }
    tags.push(("start-comment", intro));
    let tags: Vec<(String, String)> = tags.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
    Ok(otg::write(&game, &tags))
}
