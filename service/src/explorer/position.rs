//! A position of the explorer as a viewer asks for it: the moves from a preset's start, in
//! the viewer's orientation; the moves played from there shown in that orientation too.

use serde::Serialize;
use tafl_engine::{Game, Move, Position, Symmetry, folded_key};
use utoipa::ToSchema;

use crate::analysis::board::{StartAsked, board_path};
use crate::ratings::preset;
use crate::store::rows::{self, ExplorerCounts, ExplorerEvaluation};
use crate::{Result, ServiceError};

use super::evaluations::{MOVES_EVALUATED, Wanted};
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
    /// The engine's view of this position; `null` until it has been searched (the search is
    /// asked for by this answer and runs in the background: ask again shortly).
    pub engine: Option<ExplorerEngine>,
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
    /// The engine's winning chance for the defenders (percent) after this move; `null` until
    /// that position has been searched.
    pub engine_chance: Option<f64>,
}

/// What the engine found in a position: one search of a fixed node budget, shared by the
/// position's mirror images.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct ExplorerEngine {
    /// The defenders' winning chance in percent (one decimal), counted from the variant's
    /// start as a game's analysis counts it.
    pub chance: f64,
    /// The move the search prefers, in the orientation asked; `null` where the game is over.
    pub best: Option<String>,
    /// A result the search proved ("escape in 3").
    pub forced: Option<String>,
    pub depth: u32,
    pub nodes: u64,
}

impl ExplorerEngine {
    /// `stored` (its best move in the folded image's orientation) seen from a position that
    /// `to_canonical` turns into that image.
    fn of(stored: ExplorerEvaluation, to_canonical: Symmetry, dim: u8) -> ExplorerEngine {
        let best = stored.best.map(|text| match Move::parse(&text, dim) {
            Ok(mv) => to_canonical.inverse().apply_to_move(mv, dim).to_string(),
            // Stored by this code from a move's own text: kept as it is if it ever differs.
            Err(_) => text,
        });
        ExplorerEngine {
            chance: one_decimal(stored.chance),
            best,
            forced: stored.forced,
            depth: stored.depth,
            nodes: stored.nodes,
        }
    }
}

fn one_decimal(percent: f64) -> f64 {
    (percent * 10.0).round() / 10.0
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
        let folded = folded_key(game.position(), &symmetries);
        let key = folded.key;
        let (here, rows, evaluation) = self
            .service
            .read(move |c| {
                Ok((
                    rows::explorer_position(c, variant, key)?,
                    rows::explorer_moves(c, variant, key)?,
                    rows::explorer_evaluation(c, variant, key)?,
                ))
            })
            .await?;
        let here = here.unwrap_or_default();
        let dim = game.rules().dim();
        // Only positions finished games reached are searched: the cache holds the explorer's
        // positions, not every line someone typed.
        if evaluation.is_none() && here.games > 0 {
            self.want(
                variant,
                key,
                folded.to_canonical.apply_to_position(game.position()),
            );
        }
        let engine = evaluation.map(|e| ExplorerEngine::of(e, folded.to_canonical, dim));
        let moves = if rows.is_empty() {
            Vec::new()
        } else {
            // Each legal move here, by the folded position it leads to.
            let mut by_next: Vec<(u64, Vec<String>, Position)> = Vec::new();
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
                match by_next.iter_mut().find(|(k, _, _)| *k == next_key) {
                    Some((_, same, _)) => same.push(mv.to_string()),
                    None => by_next.push((next_key, vec![mv.to_string()], next)),
                }
            }
            for row in rows.iter().take(MOVES_EVALUATED) {
                if row.engine_chance.is_some() {
                    continue;
                }
                if let Some((_, _, next)) = by_next.iter().find(|(k, _, _)| *k == row.next_key) {
                    let image = folded_key(next, &symmetries).to_canonical;
                    self.want(variant, row.next_key, image.apply_to_position(next));
                }
            }
            rows.into_iter()
                .filter_map(|row| {
                    let (_, same, _) = by_next.iter().find(|(k, _, _)| *k == row.next_key)?;
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
                        engine_chance: row.engine_chance.map(one_decimal),
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
            engine,
        };
        Ok(ExplorerBoard { view, game })
    }
}

impl ExplorerView {
    /// The web explorer's page (a path) of this line after its first `upto` moves, and `next`
    /// after them.
    pub fn page_path(&self, upto: usize, next: Option<&str>) -> String {
        let moves: Vec<&str> = self
            .played
            .iter()
            .take(upto)
            // The referee's text shows captures (`d6-a6xa5`); the move is what comes before.
            .map(|m| m.split('x').next().unwrap_or(m))
            .chain(next)
            .collect();
        let query = serde_urlencoded::to_string([("moves", moves.join(","))]).unwrap_or_default();
        format!("/explorer/{}?{query}", self.variant)
    }
}

impl Explorer<'_> {
    /// Asks for the engine's search of `variant`'s folded position `key` (`image` the folded
    /// image itself), in the background.
    fn want(self, variant: &'static str, key: u64, image: Position) {
        if !self.service.inner.config.explorer_evaluation {
            return;
        }
        self.service.inner.explorer_evaluations.want(Wanted {
            variant,
            key,
            image,
        });
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
