//! A finished game's notes on the analysis board: a board opened from a game (or whose
//! address names it with `notes=ID`) shows, under the move tree, the comments on the game's
//! move shown and its variations, each with a link that opens the line on the board; and the
//! game's moves that have notes, as links to them. The address keeps `notes=ID` from step to
//! step, so the notes follow the board (and a shared link shows them too).

use maud::{Markup, html};

use crate::AppState;
use crate::domain::GameId;
use crate::service::ServiceError;
use crate::service::analysis::board::BoardView;
use crate::service::study::BoardNotes;

use super::study::note_item;

/// A board's notes: the game they are of, and what the board shows of them.
pub struct NotesShown {
    pub game: GameId,
    pub notes: BoardNotes,
}

/// `link` (a board's address) with the game whose notes it shows.
pub fn with_notes(link: &str, notes: Option<GameId>) -> String {
    match notes {
        None => link.to_owned(),
        Some(game) if link.contains('?') => format!("{link}&notes={game}"),
        Some(game) => format!("{link}?notes={game}"),
    }
}

/// The notes of `game` on `board` as the viewer may see them; a game the viewer may not see
/// (or one that is gone) shows none, only a failure of the service is an error.
pub async fn notes_on_board(
    state: &AppState,
    viewer: Option<crate::domain::PlayerId>,
    game: Option<GameId>,
    board: &BoardView,
) -> Result<Option<NotesShown>, ServiceError> {
    let Some(game) = game else {
        return Ok(None);
    };
    match state.service.study().board_notes(viewer, game, board).await {
        Ok(notes) => Ok(Some(NotesShown { game, notes })),
        Err(ServiceError::Internal(e)) => Err(ServiceError::Internal(e)),
        Err(_) => Ok(None),
    }
}

/// The notes part of the board: those on the move shown, then links to the others.
pub fn notes_part(shown: &NotesShown, link_at: impl Fn(usize) -> String) -> Markup {
    let notes = &shown.notes;
    if notes.noted.is_empty() {
        return html! {};
    }
    html! {
        section #board-notes aria-label="Notes on the game" data-ply=[notes.ply] {
            h2 { "Notes on game " (shown.game) }
            @if notes.here.is_empty() {
                p { small { @match notes.ply {
                    Some(ply) => { "No notes on move " (ply) "." },
                    None => { "The position shown is not one of the game's." },
                } } }
            } @else {
                ol.notes {
                    @for note in &notes.here {
                        li.board-note {
                            (note_item(&note.note))
                            @if let Some(open) = &note.open {
                                " " a.open-variation href=(with_notes(open, Some(shown.game))) { "Show this line on the board" }
                            }
                        }
                    }
                }
            }
            p { small { "Notes on moves: "
                @for (i, (ply, node)) in notes.noted.iter().enumerate() {
                    @if i > 0 { ", " }
                    @match node {
                        Some(node) => a.mv.noted href=(link_at(*node)) data-at=(node) { (ply) },
                        None => span { (ply) },
                    }
                }
                "."
            } }
        }
    }
}
