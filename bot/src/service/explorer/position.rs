//! A position of the explorer as a viewer asks for it: the moves from a preset's start, in
//! the viewer's orientation; the moves played from there shown in that orientation too.

use serde::Serialize;
use tafl_engine::{Game, Symmetry, folded_key};
use utoipa::ToSchema;

use crate::service::analysis::board::{StartAsked, board_path};
use crate::service::ratings::preset;
use crate::service::{Result, ServiceError};
use crate::store::rows::{self, ExplorerCounts};

use super::{EXPLORED_PLIES, Explorer};

/// Moves accepted in one question: past the explored plies there is nothing to show.
const MOST_MOVES: usize = EXPLORED_PLIES;

/// A position of the explorer and the moves played from it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ExplorerView {
    pub variant: String,
    /// The moves asked for, as the referee writes them (captures shown).
    pub played: Vec<String>,
    /// Finished games that reached this position or one of its mirror images.
    pub games: u64,
    pub attackers_won: u64,
    pub defenders_won: u64,
    pub draws: u64,
    /// The moves played from here, most played first, each in the orientation asked.
    pub moves: Vec<ExplorerMove>,
    /// The web client's analysis board at this position, where the engine's line is shown.
    pub analysis_board: String,
}

/// A move played from the explorer's position and how the games through it ended.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ExplorerMove {
    /// The move, from the position asked (`d1-d3`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The same move seen through the board's symmetries from here (on a symmetric position
    /// `d1-c1` and `d1-e1` are one line): it counts them all.
    pub same_as: Vec<String>,
    pub games: u64,
    pub attackers_won: u64,
    pub defenders_won: u64,
    pub draws: u64,
    /// The players' average rating over the games where both had one.
    pub average_rating: Option<u32>,
}

/// An explorer's position with the game that reached it, for a page that draws the board.
#[derive(Debug, Clone)]
pub struct ExplorerBoard {
    pub view: ExplorerView,
    pub game: Game,
}

impl Explorer<'_> {
    /// The explorer's position after `moves` (comma- or space-separated, from the start of
    /// `variant`), every move checked by the referee.
    pub async fn position(self, variant: &str, moves: &str) -> Result<ExplorerView> {
        Ok(self.board(variant, moves).await?.view)
    }

    /// [`Explorer::position`] with the game that reaches it.
    pub async fn board(self, variant: &str, moves: &str) -> Result<ExplorerBoard> {
        let variant = preset(variant)?;
        let (game, played) = replay(variant, moves)?;
        let symmetries = Symmetry::of_rules(game.rules());
        let key = folded_key(game.position(), &symmetries).key;
        let (here, rows) = self
            .service
            .read(move |c| {
                Ok((
                    rows::explorer_position(c, variant, key)?,
                    rows::explorer_moves(c, variant, key)?,
                ))
            })
            .await?;
        let here = here.unwrap_or_default();
        let moves = if rows.is_empty() {
            Vec::new()
        } else {
            // Each legal move here, by the folded position it leads to.
            let mut by_next: Vec<(u64, Vec<String>)> = Vec::new();
            for mv in game.legal_moves() {
                // The referee's own step on a copy of the position: the game's history is
                // not needed to name where the move leads.
                let mut next = *game.position();
                let Some(piece) = next.piece_at(mv.from) else {
                    continue;
                };
                tafl_engine::apply(
                    game.rules(),
                    &mut next,
                    mv,
                    piece,
                    &mut tafl_engine::Captures::default(),
                );
                let next_key = folded_key(&next, &symmetries).key;
                match by_next.iter_mut().find(|(k, _)| *k == next_key) {
                    Some((_, same)) => same.push(mv.to_string()),
                    None => by_next.push((next_key, vec![mv.to_string()])),
                }
            }
            rows.into_iter()
                .filter_map(|row| {
                    let (_, same) = by_next.iter().find(|(k, _)| *k == row.next_key)?;
                    let (first, rest) = same.split_first()?;
                    Some(ExplorerMove {
                        mv: first.clone(),
                        same_as: rest.to_vec(),
                        games: row.counts.games,
                        attackers_won: row.counts.attackers_won,
                        defenders_won: row.counts.defenders_won,
                        draws: row.counts.draws,
                        average_rating: (row.rated_games > 0).then(|| {
                            u32::try_from(row.rating_sum / row.rated_games as i64).unwrap_or(0)
                        }),
                    })
                })
                .collect()
        };
        let ExplorerCounts {
            games,
            attackers_won,
            defenders_won,
            draws,
        } = here;
        let start = StartAsked {
            variant: Some(variant.to_owned()),
            ..StartAsked::default()
        };
        let line = played.join(" ");
        let view = ExplorerView {
            variant: variant.to_owned(),
            analysis_board: board_path(&start, &line, played.len()),
            played,
            games,
            attackers_won,
            defenders_won,
            draws,
            moves,
        };
        Ok(ExplorerBoard { view, game })
    }
}

/// `variant`'s start after `moves`, and the moves as the referee writes them.
fn replay(variant: &'static str, moves: &str) -> Result<(Game, Vec<String>)> {
    let rules = tafl_engine::variant(variant)
        .map(|v| v.rules())
        .ok_or_else(|| ServiceError::internal(format!("preset {variant} vanished")))?;
    let mut game = Game::start(rules)
        .map_err(|e| ServiceError::internal(format!("preset {variant} does not start: {e}")))?;
    let texts: Vec<&str> = moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if texts.len() > MOST_MOVES {
        return Err(ServiceError::Invalid(format!(
            "the explorer follows games for their first {EXPLORED_PLIES} moves; {} were given",
            texts.len()
        )));
    }
    let mut played = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        let report = game.play_str(text).map_err(|e| {
            ServiceError::Invalid(format!("move {} ({text}) cannot be played: {e}", i + 1))
        })?;
        played.push(tafl_engine::canonical_notation(report.mv, &report.captures));
    }
    Ok((game, played))
}
