//! Resign, abort, draw offers: everything a player does to a game besides moving.

use tafl_engine::Side;

use crate::domain::{GameId, PlayerId, ResultReason, Seat};
use crate::store::Conn;
use crate::store::rows::{self, GameRow};

use super::Games;
use crate::events::{DrawEvent, EventPayload};
use crate::games::game_state;
use crate::games::moves::{end_if_out_of_time, finish};
use crate::views::GameView;
use crate::{Emitter, Result, ServiceError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Resign,
    Abort,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
}

/// The active game `id` and `player`'s side in it.
fn my_active_game(
    c: &Conn<'_>,
    e: &mut Emitter,
    id: GameId,
    player: PlayerId,
) -> Result<(GameRow, Side)> {
    let mut row = game_state::load(c, id)?;
    let side = game_state::side_of(&row, player).ok_or_else(|| game_state::not_a_player(&row))?;
    if !row.status.is_active() || end_if_out_of_time(c, e, &mut row)? {
        return Err(ServiceError::GameOver);
    }
    Ok((row, side))
}

fn act(c: &Conn<'_>, e: &mut Emitter, row: &mut GameRow, side: Side, action: Action) -> Result<()> {
    let opponent_seat = game_state::seat(row, side.opponent());
    match action {
        Action::Resign => finish(c, e, row, Some(side.opponent()), ResultReason::Resignation),
        Action::Abort => {
            if row.ply >= 2 {
                return Err(ServiceError::Conflict {
                    message:
                        "a game can only be aborted before both sides have moved; resign instead"
                            .into(),
                    game: None,
                });
            }
            finish(c, e, row, None, ResultReason::Aborted)
        }
        Action::OfferDraw => {
            if matches!(opponent_seat, Seat::Ai(_)) {
                return Err(ServiceError::Invalid(
                    "the AI does not agree to draws".into(),
                ));
            }
            match row.draw_offer_by {
                Some(by) if by == side => Err(ServiceError::Conflict {
                    message: "you have already offered a draw".into(),
                    game: None,
                }),
                Some(_) => Err(ServiceError::Conflict {
                    message: "your opponent has offered a draw: accept or decline it".into(),
                    game: None,
                }),
                None => {
                    row.draw_offer_by = Some(side);
                    row.updated_at = e.now();
                    rows::update_game(c, row)?;
                    e.emit(
                        c,
                        Some(row.id),
                        None,
                        game_state::humans(row),
                        EventPayload::DrawOffered(DrawEvent {
                            by: side,
                            context: row.context.clone(),
                        }),
                    )
                }
            }
        }
        Action::AcceptDraw | Action::DeclineDraw => {
            if row.draw_offer_by != Some(side.opponent()) {
                return Err(ServiceError::Conflict {
                    message: "there is no draw offer from your opponent".into(),
                    game: None,
                });
            }
            if action == Action::AcceptDraw {
                finish(c, e, row, None, ResultReason::DrawAgreed)
            } else {
                row.draw_offer_by = None;
                row.updated_at = e.now();
                rows::update_game(c, row)?;
                e.emit(
                    c,
                    Some(row.id),
                    None,
                    game_state::humans(row),
                    EventPayload::DrawDeclined(DrawEvent {
                        by: side,
                        context: row.context.clone(),
                    }),
                )
            }
        }
    }
}

impl Games<'_> {
    #[tracing::instrument(level = "debug", skip(self))]
    async fn game_action(self, player: PlayerId, id: GameId, action: Action) -> Result<GameView> {
        let cache = self.service.inner.engines.clone();
        self.service
            .commit(move |c, e| {
                let (mut row, side) = my_active_game(c, e, id, player)?;
                act(c, e, &mut row, side, action)?;
                game_state::game_view(c, &cache, &row, Some(player))
            })
            .await
    }

    pub async fn resign(self, player: PlayerId, id: GameId) -> Result<GameView> {
        self.game_action(player, id, Action::Resign).await
    }

    /// Ends the game without a result; only before both sides have moved.
    pub async fn abort(self, player: PlayerId, id: GameId) -> Result<GameView> {
        self.game_action(player, id, Action::Abort).await
    }

    pub async fn offer_draw(self, player: PlayerId, id: GameId) -> Result<GameView> {
        self.game_action(player, id, Action::OfferDraw).await
    }

    pub async fn accept_draw(self, player: PlayerId, id: GameId) -> Result<GameView> {
        self.game_action(player, id, Action::AcceptDraw).await
    }

    pub async fn decline_draw(self, player: PlayerId, id: GameId) -> Result<GameView> {
        self.game_action(player, id, Action::DeclineDraw).await
    }
}
