//! A game as a page shows it: the game, its board at a ply, and the moves the viewer may play
//! there, read for one viewer in one call (the web client's game page).

use crate::domain::{GameId, PlayerId};

use super::Games;
use crate::{BoardSnapshot, GameView, Result};

/// A game and its board at one ply, for one viewer.
#[derive(Debug, Clone)]
pub struct GameBoard {
    pub game: GameView,
    /// The position shown: at the ply asked for, else the game's last.
    pub board: BoardSnapshot,
    /// The viewer's legal moves ("e5-e8"), when it is their turn and the board is the last
    /// ply; empty otherwise.
    pub your_moves: Vec<String>,
}

impl Games<'_> {
    /// Game `id` as `viewer` may see it (a private game is "not found" to anyone but its
    /// players), with its board after `ply` moves (default: all of them).
    pub async fn game_board(
        self,
        viewer: Option<PlayerId>,
        id: GameId,
        ply: Option<u32>,
    ) -> Result<GameBoard> {
        let game = self.visible_game(viewer, id).await?;
        // The ply the game view was read at, so a move landing meanwhile cannot mix two plies.
        let board = self
            .board_snapshot(id, Some(ply.unwrap_or(game.ply)))
            .await?;
        let your_moves = if game.your_turn && board.ply == game.ply {
            self.legal_moves(id, None).await?
        } else {
            Vec::new()
        };
        Ok(GameBoard {
            game,
            board,
            your_moves,
        })
    }
}
