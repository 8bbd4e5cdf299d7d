//! Reading games: lists, one game, legal moves, the .otg record, variants, board snapshots.

use tafl_engine::{Game, Move, Position, Rules, Side, Square, Warning};

use crate::domain::{GameId, PlayerId, ResultReason};
use crate::store::rows;

use super::Games;
use crate::games::game_state::{self, board_rows};
use crate::views::{GameSummary, GameView, LegalMovesView, VariantView};
use crate::{Missing, Result, ServiceError};

/// Finished games listed after the active ones.
const RECENT_FINISHED: u32 = 20;

/// A preset variant as a page shows it: its view, and the rules and start to draw.
#[derive(Debug, Clone)]
pub struct VariantStart {
    pub view: VariantView,
    pub rules: Rules,
    pub start: Position,
}

fn variant_start(variant: &tafl_engine::Variant) -> VariantStart {
    let rules = variant.rules();
    let start = rules.start_position();
    VariantStart {
        view: VariantView {
            id: variant.id.to_owned(),
            name: variant.name.to_owned(),
            dim: rules.dim(),
            first_to_move: rules.first_to_move(),
            rules: rules.to_opentafl(),
            summary: rules.summary(),
            start_position: start.to_opentafl(),
            board: board_rows(&start),
        },
        rules,
        start,
    }
}

/// What a board image shows: the position after `ply` moves.
#[derive(Debug, Clone)]
pub struct BoardSnapshot {
    pub game_id: GameId,
    pub ply: u32,
    pub rules: Rules,
    pub position: Position,
    pub last_move: Option<Move>,
    /// The side that made the last move.
    pub moved: Option<Side>,
    pub captures: Vec<Square>,
    pub warning: Option<Warning>,
    /// "Attackers vs Defenders" names, for the caption.
    pub players: String,
    /// Whose turn it is at that ply (none once the game ended there).
    pub to_move: Option<tafl_engine::Side>,
    /// Where the move that led here captured the king (he stays on the board, crossed out).
    pub king_captured: Option<Square>,
    /// How the game ended, on its last ply once it is over (by the moves or otherwise:
    /// resignation, time, agreement, abort); drawn as a badge like `taflbot render` does.
    pub result: Option<BoardResult>,
    /// The picture can no longer change: an earlier ply, or a game that is over. The current
    /// ply of an active game may yet be redrawn with a result.
    pub settled: bool,
    /// Anyone may see the game (it is not private).
    pub public: bool,
}

/// The result a board image shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardResult {
    /// None for a draw or an aborted game.
    pub winner: Option<Side>,
    /// As in the game's `result.reason`.
    pub reason: ResultReason,
}

impl BoardResult {
    /// The badge: "Defenders win", "Draw", "Aborted".
    pub fn badge(&self) -> &'static str {
        match self.winner {
            Some(Side::Attackers) => "Attackers win",
            Some(Side::Defenders) => "Defenders win",
            None if matches!(
                self.reason,
                ResultReason::Aborted | ResultReason::NoFirstMove
            ) =>
            {
                "Aborted"
            }
            None => "Draw",
        }
    }
}

impl Games<'_> {
    /// The preset variants.
    pub fn variants(self) -> Vec<VariantView> {
        tafl_engine::variants()
            .iter()
            .map(|v| variant_start(v).view)
            .collect()
    }

    /// The preset `id`: its view, and its rules and start for drawing.
    pub fn variant(self, id: &str) -> Result<VariantStart> {
        tafl_engine::variants()
            .iter()
            .find(|v| v.id == id)
            .map(variant_start)
            .ok_or_else(|| ServiceError::NotFound(Missing::Variant(id.to_owned())))
    }

    /// `player`'s games: active ones with their turn first, then by most urgent deadline;
    /// then recently finished ones.
    pub async fn list_games(self, player: PlayerId) -> Result<Vec<GameSummary>> {
        self.service
            .read(move |c| {
                let mut list = rows::games_of_player(c, player, RECENT_FINISHED)?
                    .iter()
                    .map(|row| game_state::game_summary(c, row, Some(player)))
                    .collect::<Result<Vec<_>>>()?;
                list.sort_by_key(|g| {
                    (
                        !g.status.is_active(),
                        !g.your_turn,
                        g.deadline_at.unwrap_or(i64::MAX),
                        std::cmp::Reverse(g.updated_at),
                    )
                });
                Ok(list)
            })
            .await
    }

    /// `player`'s games where it is their move, most urgent deadline first: what every web
    /// page counts in its tab title and icon.
    pub async fn games_to_move(self, player: PlayerId) -> Result<Vec<GameSummary>> {
        let mut games = self.list_games(player).await?;
        games.retain(|g| g.your_turn);
        Ok(games)
    }

    /// Active games shown in a front end's place (e.g. a Discord channel).
    pub async fn games_in_place(
        self,
        place: &crate::Place,
        viewer: Option<PlayerId>,
    ) -> Result<Vec<GameSummary>> {
        let context = place.to_context();
        let channel = place.discord_channel();
        self.service
            .read(move |c| {
                let mut games = rows::active_games_in_context(c, &context)?;
                // A game of another place shown here too (a tournament game between servers).
                if let Some(channel) = channel {
                    for id in rows::active_games_mirrored_in(c, channel)? {
                        if !games.iter().any(|g| g.id == id) {
                            games.push(game_state::load(c, id)?);
                        }
                    }
                }
                games
                    .iter()
                    .map(|row| game_state::game_summary(c, row, viewer))
                    .collect()
            })
            .await
    }

    /// One game, as `viewer` sees it, for a front end that may show any game (Discord shows a
    /// game in its own channel). Readers from outside use [`Games::visible_game`].
    pub async fn game(self, viewer: Option<PlayerId>, id: GameId) -> Result<GameView> {
        let cache = self.service.inner.engines.clone();
        self.service
            .read(move |c| game_state::game_view(c, &cache, &game_state::load(c, id)?, viewer))
            .await
    }

    /// One game, if `viewer` may see it (anyone a public game; only its players a private
    /// one, which is "not found" to everyone else).
    pub async fn visible_game(self, viewer: Option<PlayerId>, id: GameId) -> Result<GameView> {
        let cache = self.service.inner.engines.clone();
        self.service
            .read(move |c| {
                game_state::game_view(c, &cache, &game_state::load_visible(c, id, viewer)?, viewer)
            })
            .await
    }

    /// `Ok` when `viewer` may see game `id`; "not found" when it is missing or private to others.
    pub async fn ensure_visible(self, viewer: Option<PlayerId>, id: GameId) -> Result<()> {
        self.service
            .read(move |c| game_state::load_visible(c, id, viewer).map(|_| ()))
            .await
    }

    async fn engine(self, id: GameId) -> Result<Game> {
        let cache = self.service.inner.engines.clone();
        self.service
            .read(move |c| game_state::engine_game(c, &cache, &game_state::load(c, id)?))
            .await
    }

    /// Legal moves of the side to move, all or from one square.
    pub async fn legal_moves(self, id: GameId, from: Option<&str>) -> Result<Vec<String>> {
        Ok(self.legal_moves_of(id, None, from).await?.moves)
    }

    /// Legal moves of `side` (default: the side to move), all or from one square. The side
    /// not to move gets the moves it could play were it its turn.
    pub async fn legal_moves_of(
        self,
        id: GameId,
        side: Option<Side>,
        from: Option<&str>,
    ) -> Result<LegalMovesView> {
        let game = self.engine(id).await?;
        let over = game.outcome().is_some();
        let side = side.unwrap_or_else(|| game.side_to_move());
        let position = game.position().with_side_to_move(side);
        let from_square = from
            .map(|text| {
                Square::parse(text, game.rules().dim())
                    .map_err(|e| ServiceError::Invalid(format!("from: {e}")))
            })
            .transpose()?;
        let moves = match (over, from_square) {
            (true, _) => Vec::new(),
            (false, Some(sq)) => tafl_engine::legal_moves_from(game.rules(), &position, sq),
            (false, None) => tafl_engine::legal_moves(game.rules(), &position),
        };
        Ok(LegalMovesView {
            game_id: id,
            from: from.map(str::to_owned),
            side,
            to_move: !over && side == game.side_to_move(),
            moves: moves.iter().map(ToString::to_string).collect(),
        })
    }

    /// The game as an OpenTafl .otg record, with its annotations (comments and variations).
    /// An imported game keeps the tags of the record it came from.
    pub async fn export_otg(self, id: GameId) -> Result<String> {
        let view = self.game(None, id).await?;
        let game = self.engine(id).await?;
        let (annotations, imported) = self
            .service
            .read(move |c| Ok((rows::annotations(c, id)?, rows::imported_game(c, id)?)))
            .await?;
        let mut tags = vec![
            ("attackers".to_owned(), view.attackers.name.clone()),
            ("defenders".to_owned(), view.defenders.name.clone()),
        ];
        match imported {
            Some(imported) => tags.extend(imported.tags),
            None => {
                tags.insert(0, ("event".to_owned(), format!("taflbot game {id}")));
                // The day the game started (UTC), ISO 8601.
                tags.push(("date".to_owned(), iso_date(view.created_at)));
            }
        }
        if annotations.iter().any(|a| a.author.is_some())
            && !tags.iter().any(|(k, _)| k == "annotator")
        {
            tags.push(("annotator".to_owned(), "taflbot players".to_owned()));
        }
        if let Some(v) = &view.variant
            && !tags.iter().any(|(k, _)| k == "variant")
        {
            tags.push(("variant".to_owned(), v.clone()));
        }
        // The engine writes the result of a game its rules ended; the service adds the
        // ends it decides itself (resignation, time, agreement), in OpenTafl's form.
        if let (Some(r), None) = (&view.result, game.outcome()) {
            let result = match r.winner {
                Some(Side::Attackers) => "1",
                Some(Side::Defenders) => "-1",
                None => "0",
            };
            tags.push(("result".to_owned(), result.to_owned()));
            tags.push((
                "termination".to_owned(),
                r.reason.as_str().replace('_', " "),
            ));
        }
        let record = crate::study::annotations::annotated_record(game, tags, &annotations)?;
        Ok(tafl_engine::otg::write_record(&record))
    }

    /// The position after `ply` moves (the current one when `None`), for drawing.
    pub async fn board_snapshot(self, id: GameId, ply: Option<u32>) -> Result<BoardSnapshot> {
        self.service
            .read(move |c| {
                let row = game_state::load(c, id)?;
                let ply = ply.unwrap_or(row.ply);
                if ply > row.ply {
                    return Err(ServiceError::NotFound(Missing::Ply {
                        game: id,
                        plies: row.ply,
                        asked: ply,
                    }));
                }
                let moves = rows::moves(c, id)?;
                let game = game_state::replay(&row, &moves, Some(ply))?;
                let last = game.history().last();
                let players = format!(
                    "{} vs {}",
                    game_state::seat_view(c, row.attackers)?.name,
                    game_state::seat_view(c, row.defenders)?.name
                );
                // The moves decide the picture of every ply but the last; that one shows the
                // result once the game is over, however it ended.
                let over = game.outcome().is_some();
                let finished = !row.status.is_active();
                let result = row
                    .result_reason
                    .filter(|_| finished && ply == row.ply)
                    .map(|reason| BoardResult {
                        winner: row.winner,
                        reason,
                    });
                Ok(BoardSnapshot {
                    public: !row.private,
                    king_captured: last.and_then(|r| r.king_captured),
                    settled: finished || ply < row.ply,
                    result,
                    players,
                    to_move: (!over).then(|| game.side_to_move()),
                    game_id: id,
                    ply,
                    rules: game.rules().clone(),
                    position: *game.position(),
                    last_move: last.map(|r| r.mv),
                    moved: last.map(|r| r.side),
                    captures: last.map(|r| r.captures.clone()).unwrap_or_default(),
                    warning: game.warning(),
                })
            })
            .await
    }
}

/// The UTC calendar day of a Unix time in milliseconds, as ISO 8601 `YYYY-MM-DD`
/// (Howard Hinnant's `civil_from_days`, proleptic Gregorian).
fn iso_date(unix_ms: i64) -> String {
    let days = unix_ms.div_euclid(86_400_000) + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
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
        // The captured king stays on the board: he gets the cross alone.
        captured: s.captures.iter().copied().chain(s.king_captured).collect(),
        warning: s.warning.clone(),
        caption: Some(Caption {
            players: Some(s.players.clone()),
            // Counted in turns, as the .otg record counts them, with the side that moved.
            move_number: (s.ply > 0).then(|| s.ply.div_ceil(2)),
            moved: s.moved.map(|side| match side {
                Side::Attackers => CaptionSide::Attackers,
                Side::Defenders => CaptionSide::Defenders,
            }),
            to_move: match (&s.result, s.to_move) {
                (Some(_), _) | (None, None) => None,
                (None, Some(Side::Attackers)) => Some(CaptionSide::Attackers),
                (None, Some(Side::Defenders)) => Some(CaptionSide::Defenders),
            },
            // A finished game says how it ended where the escape warning would be.
            warning: s.result.as_ref().map(|r| r.badge().to_owned()),
        }),
    };
    tokio::task::spawn_blocking(move || tafl_render::render(&s.position, &s.rules, &options))
        .await
        .map_err(|e| ServiceError::internal(format!("the renderer crashed: {e}")))?
        .map_err(|e| ServiceError::internal(format!("cannot draw game {}: {e}", s.game_id)))
}

#[cfg(test)]
mod tests {
    use super::iso_date;

    #[test]
    fn iso_dates_of_unix_times() {
        assert_eq!(iso_date(0), "1970-01-01");
        assert_eq!(iso_date(1_700_000_000_000), "2023-11-14");
        assert_eq!(iso_date(951_782_400_000), "2000-02-29");
        assert_eq!(iso_date(1_709_251_199_999), "2024-02-29");
        assert_eq!(iso_date(-1), "1969-12-31");
    }
}
