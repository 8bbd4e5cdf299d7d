//! Reading games: lists, one game, legal moves, the .otg record, variants, board snapshots.

use tafl_engine::{Game, Move, Position, Rules, Square, Warning};

use crate::store::rows::{self, GameId, PlayerId};

use super::game_state::{self, board_rows, side_name};
use super::views::{GameSummary, GameView, VariantView};
use super::{GamesService, Result, ServiceError};

/// Finished games listed after the active ones.
const RECENT_FINISHED: u32 = 20;

/// What a board image shows: the position after `ply` moves.
#[derive(Debug, Clone)]
pub struct BoardSnapshot {
    pub game_id: GameId,
    pub ply: u32,
    pub rules: Rules,
    pub position: Position,
    pub last_move: Option<Move>,
    pub captures: Vec<Square>,
    pub warning: Option<Warning>,
    /// "Attackers vs Defenders" names, for the caption.
    pub players: String,
    /// Whose turn it is at that ply (none once the game ended there).
    pub to_move: Option<tafl_engine::Side>,
}

impl GamesService {
    /// The preset variants.
    pub fn variants(&self) -> Vec<VariantView> {
        tafl_engine::variants()
            .iter()
            .map(|v| {
                let rules = v.rules();
                let start = rules.start_position();
                VariantView {
                    id: v.id.to_owned(),
                    name: v.name.to_owned(),
                    dim: rules.dim(),
                    first_to_move: side_name(rules.first_to_move()).to_owned(),
                    rules: rules.to_opentafl(),
                    summary: rules.summary(),
                    start_position: start.to_opentafl(),
                    board: board_rows(&start),
                }
            })
            .collect()
    }

    /// `player`'s games: active ones with their turn first, then by most urgent deadline;
    /// then recently finished ones.
    pub async fn list_games(&self, player: PlayerId) -> Result<Vec<GameSummary>> {
        self.read(move |c| {
            let mut list = rows::games_of_player(c, player, RECENT_FINISHED)?
                .iter()
                .map(|row| game_state::game_summary(c, row, player))
                .collect::<Result<Vec<_>>>()?;
            list.sort_by_key(|g| {
                (
                    g.status != "active",
                    !g.your_turn,
                    g.deadline_at.unwrap_or(i64::MAX),
                    std::cmp::Reverse(g.updated_at),
                )
            });
            Ok(list)
        })
        .await
    }

    /// Active games shown in a front end's place (e.g. a Discord channel).
    pub async fn games_in_place(
        &self,
        place: &super::Place,
        viewer: Option<PlayerId>,
    ) -> Result<Vec<GameSummary>> {
        let context = place.to_context();
        self.read(move |c| {
            rows::active_games_in_context(c, &context)?
                .iter()
                .map(|row| game_state::game_summary(c, row, viewer.unwrap_or(0)))
                .collect()
        })
        .await
    }

    /// One game, as `viewer` sees it (anyone may look at any game).
    pub async fn game(&self, viewer: Option<PlayerId>, id: GameId) -> Result<GameView> {
        let cache = self.inner.engines.clone();
        self.read(move |c| game_state::game_view(c, &cache, &game_state::load(c, id)?, viewer))
            .await
    }

    async fn engine(&self, id: GameId) -> Result<Game> {
        let cache = self.inner.engines.clone();
        self.read(move |c| game_state::engine_game(c, &cache, &game_state::load(c, id)?))
            .await
    }

    /// Legal moves of the side to move, all or from one square.
    pub async fn legal_moves(&self, id: GameId, from: Option<&str>) -> Result<Vec<String>> {
        let game = self.engine(id).await?;
        if game.outcome().is_some() {
            return Ok(Vec::new());
        }
        let moves = match from {
            Some(text) => {
                let sq = Square::parse(text, game.rules().dim()).map_err(|e| {
                    ServiceError::Invalid(format!("{text:?} is not a square of this board: {e}"))
                })?;
                game.legal_moves_from(sq)
            }
            None => game.legal_moves(),
        };
        Ok(moves.iter().map(ToString::to_string).collect())
    }

    /// The game as an OpenTafl .otg record.
    pub async fn export_otg(&self, id: GameId) -> Result<String> {
        let view = self.game(None, id).await?;
        let game = self.engine(id).await?;
        let mut tags = vec![
            ("event".to_owned(), format!("taflbot game {id}")),
            ("attackers".to_owned(), view.attackers.name.clone()),
            ("defenders".to_owned(), view.defenders.name.clone()),
        ];
        if let Some(v) = &view.variant {
            tags.push(("variant".to_owned(), v.clone()));
        }
        // The engine writes the result of a game its rules ended; the service adds the
        // ends it decides itself (resignation, time, agreement), in OpenTafl's form.
        if let (Some(r), None) = (&view.result, game.outcome()) {
            let result = match r.winner.as_deref() {
                Some("attackers") => "1",
                Some("defenders") => "-1",
                _ => "0",
            };
            tags.push(("result".to_owned(), result.to_owned()));
            tags.push(("termination".to_owned(), r.reason.replace('_', " ")));
        }
        Ok(tafl_engine::otg::write(&game, &tags))
    }

    /// The position after `ply` moves (the current one when `None`), for drawing.
    pub async fn board_snapshot(&self, id: GameId, ply: Option<u32>) -> Result<BoardSnapshot> {
        self.read(move |c| {
            let row = game_state::load(c, id)?;
            let ply = ply.unwrap_or(row.ply);
            if ply > row.ply {
                return Err(ServiceError::NotFound(format!(
                    "game {id} has only {} moves, not {ply}",
                    row.ply
                )));
            }
            let moves = rows::moves(c, id)?;
            let game = game_state::replay(&row, &moves, Some(ply))?;
            let last = game.history().last();
            let players = format!(
                "{} vs {}",
                game_state::seat_view(c, row.attackers)?.name,
                game_state::seat_view(c, row.defenders)?.name
            );
            // Only the moves decide the picture, so an image of a ply never changes
            // (a later resignation or timeout does not redraw it).
            let over = game.outcome().is_some();
            Ok(BoardSnapshot {
                players,
                to_move: (!over).then(|| game.side_to_move()),
                game_id: id,
                ply,
                rules: game.rules().clone(),
                position: *game.position(),
                last_move: last.map(|r| r.mv),
                captures: last.map(|r| r.captures.clone()).unwrap_or_default(),
                warning: game.warning(),
            })
        })
        .await
    }
}

/// Draws a snapshot as PNG off the async runtime.
pub async fn render_board(snapshot: &BoardSnapshot, flip: bool, theme: &str) -> Result<Vec<u8>> {
    use tafl_render::{Caption, CaptionSide, RenderOptions, Style, Theme};
    let theme: Theme = theme
        .parse()
        .map_err(|e| ServiceError::Invalid(format!("theme: {e}")))?;
    let s = snapshot.clone();
    let options = RenderOptions {
        style: Style {
            theme,
            flip,
            ..Style::default()
        },
        last_move: s.last_move,
        captured: s.captures.clone(),
        warning: s.warning.clone(),
        caption: Some(Caption {
            players: Some(s.players.clone()),
            move_number: Some(s.ply),
            to_move: s.to_move.map(|side| match side {
                tafl_engine::Side::Attackers => CaptionSide::Attackers,
                tafl_engine::Side::Defenders => CaptionSide::Defenders,
            }),
            warning: None,
        }),
    };
    tokio::task::spawn_blocking(move || tafl_render::render(&s.position, &s.rules, &options))
        .await
        .map_err(|e| ServiceError::Internal(format!("the renderer crashed: {e}")))?
        .map_err(|e| ServiceError::Internal(format!("cannot draw game {}: {e}", s.game_id)))
}
