//! A game's annotations on the analysis board. The board is only its link (a start and a tree
//! of moves), so which of the game's moves it shows is found by following the game's own
//! moves through the tree: the node shown is move `ply` of the game when the line to it is the
//! game's moves from the board's start. Each variation comes with the board's link with that
//! line added as a branch, so it can be opened, stepped through and played on from.

use tafl_engine::{Game, Move};

use crate::Result;
use crate::analysis::board::{BoardView, MoveTree, board_path};
use crate::domain::{GameId, PlayerId};
use crate::games::game_state;
use crate::store::rows;

use super::annotations::{self, AnnotationView, VariationMove};

/// What the board shows of a game's notes.
#[derive(Debug, Clone, Default)]
pub struct BoardNotes {
    /// The game's move shown (1 is the first move); `None` at the game's start or off its
    /// line (a variation tried on the board).
    pub ply: Option<u32>,
    /// The notes on that move, in the order they were written.
    pub here: Vec<BoardNote>,
    /// Every move of the game that has notes, and the board's node of that move (`None`
    /// when the board does not reach it).
    pub noted: Vec<(u32, Option<usize>)>,
}

/// One note on the move shown.
#[derive(Debug, Clone)]
pub struct BoardNote {
    pub note: AnnotationView,
    /// For a variation: the board's link with the line added, showing its last move.
    pub open: Option<String>,
}

/// The game's nodes on `board`: `nodes[k]` is the node after the game's move `from + k`
/// (`nodes[0]` the start), as far as the tree follows the game.
fn game_nodes(board: &BoardView, history: &[Move], from: usize) -> Vec<usize> {
    let dim = board.start.rules.dim();
    let mut nodes = vec![0];
    let mut at = 0;
    for mv in history.iter().skip(from) {
        let next = board.tree.node(at).and_then(|n| {
            n.children.iter().copied().find(|&c| {
                board
                    .tree
                    .node(c)
                    .is_some_and(|child| Move::parse(&child.text, dim).is_ok_and(|m| m == *mv))
            })
        });
        match next {
            Some(next) => {
                nodes.push(next);
                at = next;
            }
            None => break,
        }
    }
    nodes
}

/// The ply of `game` whose position the board starts from, if any.
fn start_ply(game: &Game, board: &BoardView) -> Option<usize> {
    let mut replayed = Game::from_position(game.rules().clone(), *game.start_position());
    for (ply, report) in game.history().iter().enumerate() {
        if *replayed.position() == board.start.position {
            return Some(ply);
        }
        replayed.play(report.mv).ok()?;
    }
    (*replayed.position() == board.start.position).then_some(game.history().len())
}

/// The board's link with `line` added after node `parent`, showing the line's last move;
/// `None` when the tree cannot take it (too many moves for a link).
fn link_with_line(board: &BoardView, parent: usize, line: &[VariationMove]) -> Option<String> {
    let dim = board.start.rules.dim();
    let mut tree: MoveTree = board.tree.clone();
    let mut at = parent;
    for m in line {
        let mv = Move::parse(&m.mv, dim).ok()?;
        at = tree
            .play(at, &mv.to_string(), |other| {
                Move::parse(other, dim).is_ok_and(|o| o == mv)
            })
            .ok()?;
    }
    Some(board_path(&board.start.asked(), &tree.to_text(), at))
}

impl super::Study<'_> {
    /// The notes of game `id` on `board`, as `viewer` may see them: those on the move shown,
    /// and where the others are.
    pub async fn board_notes(
        self,
        viewer: Option<PlayerId>,
        id: GameId,
        board: &BoardView,
    ) -> Result<BoardNotes> {
        let cache = self.service.inner.engines.clone();
        let (game, notes) = self
            .service
            .read(move |c| {
                let row = game_state::load_visible(c, id, viewer)?;
                let game = game_state::engine_game(c, &cache, &row)?;
                let notes = rows::annotations(c, id)?
                    .into_iter()
                    .map(|row| annotations::view(c, row))
                    .collect::<Result<Vec<_>>>()?;
                Ok((game, notes))
            })
            .await?;
        if notes.is_empty() || game.rules() != &board.start.rules {
            return Ok(BoardNotes::default());
        }
        let Some(from) = start_ply(&game, board) else {
            return Ok(BoardNotes::default());
        };
        let history: Vec<Move> = game.history().iter().map(|r| r.mv).collect();
        let nodes = game_nodes(board, &history, from);
        let node_of = |ply: u32| (ply as usize).checked_sub(from).and_then(|k| nodes.get(k));
        let ply = nodes
            .iter()
            .position(|&n| n == board.at)
            .filter(|&k| k > 0)
            .map(|k| (from + k) as u32);
        let mut noted: Vec<(u32, Option<usize>)> = Vec::new();
        for note in &notes {
            if noted.last().is_none_or(|(p, _)| *p != note.ply) {
                noted.push((note.ply, node_of(note.ply).copied()));
            }
        }
        let here = notes
            .into_iter()
            .filter(|note| Some(note.ply) == ply)
            .map(|note| {
                let parent = node_of(note.ply - 1).copied();
                let open = match (&note.variation, parent) {
                    (Some(line), Some(parent)) => link_with_line(board, parent, line),
                    _ => None,
                };
                BoardNote { note, open }
            })
            .collect();
        Ok(BoardNotes { ply, here, noted })
    }
}
