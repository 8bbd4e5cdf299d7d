//! Annotations of finished games: comments on moves and variations (lines played instead of a
//! move, each move checked by the referee, with comments and variations of their own). Who may
//! write them is one function, [`role_of`]: the game's players, and whoever imported it; the
//! stored role leaves room for commentators. They go out with the game's `.otg` record and
//! come back in when that record is imported.

use serde::{Deserialize, Serialize};
use tafl_engine::{Game, GameRecord, LineOfPlay, Move, RecordedMove};
use utoipa::ToSchema;

use crate::domain::{AnnotationId, GameId, PlayerId};
use crate::games::game_state;
use crate::store::Conn;
use crate::store::rows::{self, AnnotationRow, GameRow};
use crate::{Missing, Result, ServiceError};

/// The longest comment taken.
pub const MAX_COMMENT_CHARS: usize = 2_000;
/// The longest variation taken.
pub const MAX_VARIATION_PLIES: usize = 60;
/// Annotations one game may hold: room for a thorough study, a bound on one record.
pub const MAX_ANNOTATIONS_PER_GAME: u32 = 500;

/// Why someone may annotate a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnnotatorRole {
    /// One of the game's players.
    Player,
    /// Whoever imported the game.
    Importer,
    /// Someone invited to comment on others' games (not offered yet).
    Commentator,
    /// Came with the imported record itself.
    Record,
}

impl AnnotatorRole {
    pub fn as_str(self) -> &'static str {
        match self {
            AnnotatorRole::Player => "player",
            AnnotatorRole::Importer => "importer",
            AnnotatorRole::Commentator => "commentator",
            AnnotatorRole::Record => "record",
        }
    }

    fn parse(text: &str) -> Result<AnnotatorRole> {
        Ok(match text {
            "player" => AnnotatorRole::Player,
            "importer" => AnnotatorRole::Importer,
            "commentator" => AnnotatorRole::Commentator,
            "record" => AnnotatorRole::Record,
            other => {
                return Err(ServiceError::internal(format!(
                    "stored annotation role {other:?} is unknown"
                )));
            }
        })
    }
}

/// One move of a variation, with what is said about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VariationMove {
    /// The move with its captures, `e5-e8xe9`.
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Lines played instead of this move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(no_recursion)]
    pub variations: Vec<Vec<VariationMove>>,
}

/// A comment on a move, or a variation instead of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct AnnotationView {
    pub id: AnnotationId,
    /// The move of the game it is about (1 is the first move).
    pub ply: u32,
    /// Who wrote it (null for what came with an imported record).
    pub author: Option<String>,
    pub author_id: Option<PlayerId>,
    pub role: AnnotatorRole,
    /// A comment on the game's move `ply`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// A line played instead of the game's move `ply`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variation: Option<Vec<VariationMove>>,
    pub created_at: i64,
}

/// A new annotation: a comment on move `ply`, or a variation instead of it (its comment, if
/// any, goes on the variation's first move).
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnnotateRequest {
    /// The game's move it is about; 1 is the first move.
    pub ply: u32,
    #[schema(example = "The king's side was open here.")]
    pub comment: Option<String>,
    /// Moves played instead of move `ply`, in the form `d1-d3`.
    #[schema(example = json!(["a4-c4", "e5-e7"]))]
    pub variation: Option<Vec<String>>,
}

/// Why `who` may annotate `row`, or why not.
pub(crate) fn role_of(c: &Conn<'_>, row: &GameRow, who: PlayerId) -> Result<AnnotatorRole> {
    if row.status.is_active() {
        return Err(ServiceError::Conflict {
            message: format!(
                "game {} is still being played: it can be annotated once it is over",
                row.id
            ),
            game: None,
        });
    }
    if game_state::side_of(row, who).is_some() {
        return Ok(AnnotatorRole::Player);
    }
    if rows::imported_game(c, row.id)?.is_some_and(|g| g.imported_by == Some(who)) {
        return Ok(AnnotatorRole::Importer);
    }
    Err(ServiceError::Forbidden(format!(
        "only the players of game {} (or whoever imported it) may annotate it",
        row.id
    )))
}

/// Checks `request` against the game and stores it.
pub(super) fn annotate(
    c: &Conn<'_>,
    id: GameId,
    who: PlayerId,
    request: &AnnotateRequest,
    now: i64,
) -> Result<AnnotationView> {
    let row = game_state::load_visible(c, id, Some(who))?;
    let role = role_of(c, &row, who)?;
    if rows::annotation_count(c, id)? >= MAX_ANNOTATIONS_PER_GAME {
        return Err(ServiceError::Invalid(format!(
            "game {id} already has {MAX_ANNOTATIONS_PER_GAME} annotations, the most one game holds"
        )));
    }
    if request.ply == 0 || request.ply > row.ply {
        return Err(ServiceError::NotFound(Missing::Ply {
            game: id,
            plies: row.ply,
            asked: request.ply,
        }));
    }
    let comment = match request.comment.as_deref().map(str::trim) {
        Some("") | None => None,
        Some(text) if text.chars().count() > MAX_COMMENT_CHARS => {
            return Err(ServiceError::Invalid(format!(
                "a comment holds at most {MAX_COMMENT_CHARS} characters"
            )));
        }
        Some(text) => Some(text.to_owned()),
    };
    let variation = match &request.variation {
        None => None,
        Some(moves) => Some(checked_variation(
            c,
            &row,
            request.ply,
            moves,
            comment.clone(),
        )?),
    };
    if comment.is_none() && variation.is_none() {
        return Err(ServiceError::Invalid(
            "say something: a comment, a variation, or both".into(),
        ));
    }
    let stored = AnnotationRow {
        id: AnnotationId(0),
        game_id: id,
        ply: request.ply,
        author: Some(who),
        role: role.as_str().to_owned(),
        comment: if variation.is_some() { None } else { comment },
        variation: variation.as_ref().map(to_json).transpose()?,
        created_at: now,
    };
    let new_id = rows::insert_annotation(c, &stored)?;
    view(
        c,
        AnnotationRow {
            id: new_id,
            ..stored
        },
    )
}

/// A variation's moves checked by the referee from the position before move `ply`.
fn checked_variation(
    c: &Conn<'_>,
    row: &GameRow,
    ply: u32,
    moves: &[String],
    comment: Option<String>,
) -> Result<Vec<VariationMove>> {
    if moves.is_empty() || moves.len() > MAX_VARIATION_PLIES {
        return Err(ServiceError::Invalid(format!(
            "a variation has 1 to {MAX_VARIATION_PLIES} moves; this one has {}",
            moves.len()
        )));
    }
    let stored = rows::moves(c, row.id)?;
    let before = game_state::replay(row, &stored, Some(ply - 1))?;
    let dim = before.rules().dim();
    let mut parsed = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = Move::parse(text, dim).map_err(|e| {
            ServiceError::IllegalMove(format!("variation move {} ({}): {e}", i + 1, cut(text)))
        })?;
        parsed.push(mv);
    }
    let line = LineOfPlay::replay(&before, &parsed).map_err(|(i, e)| {
        ServiceError::IllegalMove(format!(
            "variation move {} ({}), the game's move {}: {e}",
            i + 1,
            cut(&moves[i]),
            ply as usize + i
        ))
    })?;
    let mut line = moves_of(&line);
    if let Some(first) = line.first_mut() {
        first.comment = comment;
    }
    Ok(line)
}

fn cut(text: &str) -> String {
    text.chars().take(16).collect()
}

/// A line of the record as the annotation stores it.
fn moves_of(line: &LineOfPlay) -> Vec<VariationMove> {
    line.moves
        .iter()
        .map(|m| VariationMove {
            mv: m.report.notation.clone(),
            comment: m.comment.clone(),
            variations: m.variations.iter().map(moves_of).collect(),
        })
        .collect()
}

/// A stored line replayed from `before` (stored lines were checked when written).
fn line_of(before: &Game, moves: &[VariationMove]) -> Result<LineOfPlay> {
    let mut game = before.clone();
    let dim = game.rules().dim();
    let mut line = LineOfPlay::default();
    for m in moves {
        let variations = m
            .variations
            .iter()
            .map(|v| line_of(&game, v))
            .collect::<Result<Vec<_>>>()?;
        let report = Move::parse(&m.mv, dim)
            .map_err(|e| e.to_string())
            .and_then(|mv| game.play(mv).map_err(|e| e.to_string()))
            .map_err(|e| ServiceError::internal(format!("stored variation refused: {e}")))?;
        line.moves.push(RecordedMove {
            report,
            comment: m.comment.clone(),
            variations,
        });
    }
    Ok(line)
}

fn to_json(line: &Vec<VariationMove>) -> Result<String> {
    serde_json::to_string(line).map_err(|e| ServiceError::internal(e.to_string()))
}

fn from_json(text: &str) -> Result<Vec<VariationMove>> {
    serde_json::from_str(text)
        .map_err(|e| ServiceError::internal(format!("stored variation unreadable: {e}")))
}

/// The view of a stored annotation.
pub(super) fn view(c: &Conn<'_>, row: AnnotationRow) -> Result<AnnotationView> {
    let author = match row.author {
        Some(id) => rows::player(c, id)?.map(|p| p.name),
        None => None,
    };
    Ok(AnnotationView {
        id: row.id,
        ply: row.ply,
        author,
        author_id: row.author,
        role: AnnotatorRole::parse(&row.role)?,
        comment: row.comment,
        variation: row.variation.as_deref().map(from_json).transpose()?,
        created_at: row.created_at,
    })
}

/// Stores the comments and variations of an imported record's principal line; answers how
/// many annotations that made.
pub(super) fn store_record_annotations(
    c: &Conn<'_>,
    game: GameId,
    record: &GameRecord,
    now: i64,
) -> Result<u32> {
    let mut count = 0;
    for (index, m) in record.main.moves.iter().enumerate() {
        let ply = index as u32 + 1;
        let mut add = |comment: Option<String>, variation: Option<String>| {
            if count >= MAX_ANNOTATIONS_PER_GAME {
                return Err(ServiceError::Invalid(format!(
                    "the record has more than {MAX_ANNOTATIONS_PER_GAME} comments and variations"
                )));
            }
            count += 1;
            rows::insert_annotation(
                c,
                &AnnotationRow {
                    id: AnnotationId(0),
                    game_id: game,
                    ply,
                    author: None,
                    role: AnnotatorRole::Record.as_str().to_owned(),
                    comment,
                    variation,
                    created_at: now,
                },
            )
            .map_err(ServiceError::from)
        };
        if let Some(comment) = &m.comment {
            add(Some(comment.clone()), None)?;
        }
        for variation in &m.variations {
            add(None, Some(to_json(&moves_of(variation))?))?;
        }
    }
    Ok(count)
}

/// The game as a record tree with its annotations: comments on a move joined in the order
/// they were written, each variation hung on the move it replaces.
pub(crate) fn annotated_record(
    game: Game,
    tags: Vec<(String, String)>,
    annotations: &[AnnotationRow],
) -> Result<GameRecord> {
    let mut record = GameRecord::from_game(game, tags);
    for a in annotations {
        let Some(index) = (a.ply as usize).checked_sub(1) else {
            continue;
        };
        if index >= record.main.moves.len() {
            continue;
        }
        if let Some(comment) = &a.comment {
            let slot = &mut record.main.moves[index].comment;
            *slot = Some(match slot.take() {
                Some(before) => format!("{before}\n\n{comment}"),
                None => comment.clone(),
            });
        }
        if let Some(variation) = &a.variation {
            let Some(before) = record.game_before(a.ply) else {
                continue;
            };
            let line = line_of(&before, &from_json(variation)?)?;
            record.main.moves[index].variations.push(line);
        }
    }
    Ok(record)
}
