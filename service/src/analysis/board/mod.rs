//! The analysis board: any position of any game, a variant's start or a pasted position and
//! rules string, where both sides' moves may be tried, variations branched, and the engine
//! asked for its line. Nothing is stored: a board is its link (its start, its tree of moves
//! and the move shown), read and checked by the referee at every step.

mod engine;
pub mod move_tree;
mod start;
mod view;

use tafl_engine::{Game, Move};

use crate::domain::{GameId, PlayerId};
use crate::games::game_state;
use crate::{Result, ServiceError};

use super::Analysis;
pub use engine::{BoardSearch, EngineLineView};
pub(crate) use engine::{BoardSearches, start_score};
pub use move_tree::{MAX_MOVES, MoveTree};
pub use start::{BoardStart, MAX_RULES_TEXT, StartAsked};
pub use view::AnalysisBoardView;

/// What a board is asked to show.
#[derive(Debug, Clone)]
pub struct BoardAsk {
    pub from: BoardFrom,
    /// The tree of moves in its text form (`d1-c1 d3-e3 (d3-f3) a4-a5`).
    pub moves: String,
    /// The node shown (its number in the text, 0: the start); the main line's end when absent.
    pub at: Option<usize>,
    /// A move to play from the node shown: it follows the move there if the tree has it,
    /// else it starts a variation (or extends the line).
    pub play: Option<String>,
}

/// Where a board starts.
#[derive(Debug, Clone)]
pub enum BoardFrom {
    Start(StartAsked),
    /// A game's moves, shown at `ply` (its last when absent).
    Game {
        id: GameId,
        ply: Option<u32>,
    },
}

/// A board, checked: what its link says, and the position shown.
#[derive(Debug, Clone)]
pub struct BoardView {
    pub start: BoardStart,
    pub tree: MoveTree,
    /// Each node's move as the referee wrote it, captures included (`e5-e8xe9`); the start's
    /// is empty.
    pub notation: Vec<String>,
    /// The node shown.
    pub at: usize,
    /// The game from the start to the node shown: its position, last move, warning, outcome.
    pub shown: Game,
    /// The legal moves in the position shown (none once it is decided).
    pub legal: Vec<String>,
    /// When the board came from a game: that game and the ply its start is at.
    pub from_game: Option<(GameId, u32)>,
}

impl BoardView {
    /// The web address that reopens this board exactly: its start, its moves, the move shown.
    pub fn link(&self) -> String {
        board_path(&self.start.asked(), &self.tree.to_text(), self.at)
    }
}

/// `/analysis?variant=..&moves=..&at=..`, the web address of a board: only the parts it
/// needs, in a fixed order.
pub fn board_path(start: &StartAsked, moves: &str, at: usize) -> String {
    let at = at.to_string();
    let parts: Vec<(&str, &str)> = [
        ("variant", start.variant.as_deref()),
        ("rules", start.rules.as_deref()),
        ("position", start.position.as_deref()),
        ("to_move", start.to_move.as_deref()),
        ("moves", Some(moves).filter(|m| !m.is_empty())),
        ("at", Some(at.as_str()).filter(|_| !moves.is_empty())),
    ]
    .into_iter()
    .filter_map(|(k, v)| Some((k, v?)))
    .collect();
    match serde_urlencoded::to_string(&parts) {
        Ok(query) if !query.is_empty() => format!("/analysis?{query}"),
        _ => "/analysis".to_owned(),
    }
}

impl Analysis<'_> {
    /// The board `ask` describes, every move checked by the referee; a refusal names the part
    /// of the link that is wrong.
    pub async fn board(self, viewer: Option<PlayerId>, ask: BoardAsk) -> Result<BoardView> {
        let (start, moves, at, from_game) = match ask.from {
            BoardFrom::Start(asked) => (BoardStart::read(&asked)?, ask.moves, ask.at, None),
            BoardFrom::Game { id, ply } => {
                let (start, moves, at, from_ply) = self.game_start(viewer, id, ply).await?;
                (start, moves, Some(at), Some((id, from_ply)))
            }
        };
        let tree = MoveTree::parse(&moves).map_err(|e| ServiceError::Invalid(e.to_string()))?;
        let mut board = checked(start, tree, at)?;
        board.from_game = from_game;
        match ask.play {
            Some(text) => play(board, &text),
            None => Ok(board),
        }
    }

    /// A game's board: its start and moves (the last [`MAX_MOVES`] of a longer game, from the
    /// ply shown or the latest where they still reach the end), and the node of `ply`.
    async fn game_start(
        self,
        viewer: Option<PlayerId>,
        id: GameId,
        ply: Option<u32>,
    ) -> Result<(BoardStart, String, usize, u32)> {
        let cache = self.service.inner.engines.clone();
        let game = self
            .service
            .read(move |c| {
                let row = game_state::load_visible(c, id, viewer)?;
                match viewer {
                    Some(viewer) => super::analyses::check_may_analyse(&row, viewer)?,
                    None if row.status.is_active() => {
                        return Err(ServiceError::Forbidden(format!(
                            "game {id} is still being played: it can be analysed once it is over"
                        )));
                    }
                    None => {}
                }
                let variant = row.variant.as_deref().and_then(tafl_engine::variant);
                Ok((variant, game_state::engine_game(c, &cache, &row)?))
            })
            .await?;
        let (variant, game) = game;
        let plies = game.ply();
        let shown = ply.unwrap_or(plies).min(plies);
        let max = u32::try_from(MAX_MOVES).unwrap_or(u32::MAX);
        let from = shown.min(plies.saturating_sub(max));
        let before: Vec<Move> = game.history()[..from as usize]
            .iter()
            .map(|r| r.mv)
            .collect();
        let position = *Game::replay(game.rules().clone(), *game.start_position(), &before)
            .map_err(|(i, e)| ServiceError::internal(format!("replaying move {}: {e}", i + 1)))?
            .position();
        let moves = game.history()[from as usize..]
            .iter()
            .take(MAX_MOVES)
            .map(|r| r.mv.to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let start = BoardStart {
            variant,
            rules: game.rules().clone(),
            position,
        };
        Ok((start, moves, (shown - from) as usize, from))
    }
}

/// Replays every move of `tree` from `start`: the first that cannot be played is refused with
/// its place in the link and the referee's reason.
fn checked(start: BoardStart, tree: MoveTree, at: Option<usize>) -> Result<BoardView> {
    let at = at.unwrap_or_else(|| tree.line_end(0));
    if tree.node(at).is_none() {
        return Err(ServiceError::Invalid(format!(
            "the link shows move {at}, but its lines hold only {} moves",
            tree.moves()
        )));
    }
    let dim = start.rules.dim();
    let mut games: Vec<Game> = Vec::with_capacity(tree.nodes().len());
    let mut notation = Vec::with_capacity(tree.nodes().len());
    games.push(start.game());
    notation.push(String::new());
    for (id, node) in tree.nodes().iter().enumerate().skip(1) {
        // A parent is written before its children, so its game is ready.
        let mut game = games[node.parent].clone();
        let refused = |reason: String| {
            ServiceError::Invalid(format!(
                "the link's move {id}, {:?}, cannot be played after {}: {reason}",
                node.text,
                line_text(&tree, &notation, node.parent)
            ))
        };
        let mv = Move::parse(&node.text, dim).map_err(|e| refused(e.to_string()))?;
        let report = game.play(mv).map_err(|e| refused(e.to_string()))?;
        notation.push(report.notation);
        games.push(game);
    }
    let shown = games.swap_remove(at);
    let legal = if shown.is_over() {
        Vec::new()
    } else {
        shown
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    Ok(BoardView {
        start,
        tree,
        notation,
        at,
        shown,
        legal,
        from_game: None,
    })
}

/// Plays `text` from the node shown; the board then shows the move played.
fn play(board: BoardView, text: &str) -> Result<BoardView> {
    let dim = board.start.rules.dim();
    let mv = Move::parse(text, dim).map_err(|e| ServiceError::IllegalMove(e.to_string()))?;
    board
        .shown
        .check(mv)
        .map_err(|e| ServiceError::IllegalMove(e.to_string()))?;
    let mut tree = board.tree;
    let same = |other: &str| Move::parse(other, dim).is_ok_and(|o| o == mv);
    let at = tree
        .play(board.at, &mv.to_string(), same)
        .map_err(|e| ServiceError::Invalid(e.to_string()))?;
    let mut next = checked(board.start, tree, Some(at))?;
    next.from_game = board.from_game;
    Ok(next)
}

/// "the start", or "1. d1-c1 d3-e3": the moves that lead to `node`.
fn line_text(tree: &MoveTree, notation: &[String], node: usize) -> String {
    let line = tree.line_to(node);
    if line.is_empty() {
        return "the start".to_owned();
    }
    line.iter()
        .map(|&n| notation.get(n).cloned().unwrap_or_default())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brandubh() -> BoardStart {
        BoardStart::read(&StartAsked {
            variant: Some("brandubh".into()),
            ..Default::default()
        })
        .unwrap()
    }

    fn board(moves: &str, at: Option<usize>) -> Result<BoardView> {
        checked(brandubh(), MoveTree::parse(moves).unwrap(), at)
    }

    #[test]
    fn a_board_shows_the_position_at_the_node_named() {
        let b = board("d1-c1 d3-e3 (d3-f3) a4-a2", Some(3)).unwrap();
        assert_eq!(b.shown.ply(), 2, "d1-c1 d3-f3");
        assert_eq!(b.shown.history()[1].mv.to_string(), "d3-f3");
        assert!(b.legal.iter().all(|m| !m.is_empty()) && !b.legal.is_empty());
        let end = board("d1-c1 d3-e3 (d3-f3) a4-a2", None).unwrap();
        assert_eq!(end.at, 4);
        assert_eq!(end.shown.ply(), 3);
    }

    #[test]
    fn an_illegal_move_in_a_link_is_named_with_the_line_before_it() {
        let Err(ServiceError::Invalid(message)) = board("d1-c1 d3-e3 d1-d7", None) else {
            panic!("the third move is not legal");
        };
        assert!(
            message
                .starts_with("the link's move 3, \"d1-d7\", cannot be played after d1-c1 d3-e3:"),
            "{message}"
        );
        let Err(ServiceError::Invalid(message)) = board("d1-c1", Some(9)) else {
            panic!("there is no move 9");
        };
        assert!(message.contains("only 1 moves"), "{message}");
    }

    #[test]
    fn playing_from_an_earlier_move_branches_and_the_same_move_follows() {
        let b = board("d1-c1 d3-e3", Some(1)).unwrap();
        let followed = play(b.clone(), "d3e3").unwrap();
        assert_eq!(followed.tree.to_text(), "d1-c1 d3-e3");
        assert_eq!(followed.at, 2);
        let branched = play(b, "d3-f3").unwrap();
        assert_eq!(branched.tree.to_text(), "d1-c1 d3-e3 (d3-f3)");
        assert_eq!(branched.at, 3);
        assert!(matches!(
            play(branched, "a1-a7"),
            Err(ServiceError::IllegalMove(_))
        ));
    }
}
