//! Conditional moves a line at a time, as the web's analysis board and Discord's
//! `/conditional` queue them: a line added to those already queued (checked by the referee
//! with them, in one commit, so two lines added at once are both kept), one line dropped by its
//! number, and the position a player explores their lines from (the game's position now).
//! Every check is the one `PUT /games/{id}/conditional-moves` makes: the same game, the same
//! turn, the same referee.

use tafl_engine::{Position, Rules, Variant};

use crate::domain::{GameId, PlayerId, Side};
use crate::store::Conn;
use crate::store::rows;

use super::Games;
use super::conditional_moves::{
    ConditionalMovesRequest, ConditionalMovesView, game_to_queue_in, queue,
};
use super::game_state;
use crate::{Result, ServiceError};

/// Where a player explores the lines they may queue in a game: its position now, the opponent
/// to move, and the lines already queued there.
#[derive(Debug, Clone)]
pub struct ConditionalPlan {
    pub game_id: GameId,
    /// The game's ply now: the lines answer from it.
    pub ply: u32,
    /// The preset, when the game is played on one.
    pub variant: Option<&'static Variant>,
    pub rules: Rules,
    /// The position now, the opponent to move.
    pub position: Position,
    /// The side the player plays.
    pub my_side: Side,
    /// The lines queued, each the opponent's move first.
    pub lines: Vec<Vec<String>>,
}

/// My lines queued at the game's ply now (none once it moved past them).
fn queued_now(c: &Conn<'_>, id: GameId, player: PlayerId, ply: u32) -> Result<Vec<Vec<String>>> {
    Ok(rows::conditional_moves(c, id, player)?
        .filter(|queued| queued.ply == ply)
        .map(|queued| queued.lines)
        .unwrap_or_default())
}

impl Games<'_> {
    /// Where `player` explores lines for game `id`: refused as queueing is (not their game,
    /// their move, over, against the AI).
    pub async fn conditional_plan(self, player: PlayerId, id: GameId) -> Result<ConditionalPlan> {
        let cache = self.service.inner.engines.clone();
        self.service
            .read(move |c| {
                let row = game_to_queue_in(c, id, player, None)?;
                let game = game_state::engine_game(c, &cache, &row)?;
                let my_side = game_state::side_of(&row, player)
                    .ok_or_else(|| game_state::not_a_player(&row))?;
                Ok(ConditionalPlan {
                    game_id: id,
                    ply: row.ply,
                    variant: row.variant.as_deref().and_then(tafl_engine::variant),
                    rules: game.rules().clone(),
                    position: *game.position(),
                    my_side,
                    lines: queued_now(c, id, player, row.ply)?,
                })
            })
            .await
    }

    /// Adds `line` (the opponent's move, my answer, ...) to my lines in game `id`, all checked
    /// again together; a line already queued is not added twice. `ply`: the game's ply as the
    /// player saw it (a game that moved on refuses the line).
    pub async fn add_conditional_line(
        self,
        player: PlayerId,
        id: GameId,
        ply: Option<u32>,
        line: Vec<String>,
    ) -> Result<ConditionalMovesView> {
        let cache = self.service.inner.engines.clone();
        self.service
            .commit(move |c, e| {
                let row = game_to_queue_in(c, id, player, ply)?;
                let mut lines = queued_now(c, id, player, row.ply)?;
                if !lines.contains(&line) {
                    lines.push(line);
                }
                let request = ConditionalMovesRequest {
                    lines,
                    ply: Some(row.ply),
                };
                queue(c, e, &cache, player, id, &request)
            })
            .await
    }

    /// Drops my line number `number` (counted from 1, as listed) in game `id`; the others stay.
    pub async fn drop_conditional_line(
        self,
        player: PlayerId,
        id: GameId,
        number: usize,
    ) -> Result<ConditionalMovesView> {
        let cache = self.service.inner.engines.clone();
        self.service
            .commit(move |c, e| {
                let row = game_to_queue_in(c, id, player, None)?;
                let mut lines = queued_now(c, id, player, row.ply)?;
                if number == 0 || number > lines.len() {
                    return Err(ServiceError::Invalid(format!(
                        "there is no line {number}: {} queued",
                        lines.len()
                    )));
                }
                lines.remove(number - 1);
                let request = ConditionalMovesRequest {
                    lines,
                    ply: Some(row.ply),
                };
                queue(c, e, &cache, player, id, &request)
            })
            .await
    }
}
