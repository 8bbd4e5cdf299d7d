//! Importing a game record: read (an OpenTafl `.otg`, or an archive's move list for a named
//! variant), every move checked by the referee, then stored as a finished, unrated, public game
//! whose players are the names the record gives (imported players, not accounts). An `.otg`
//! record's comments and variations come along as the game's annotations. Its rules must be
//! rules a challenge could start a game by, and its texts text a database column holds.

use serde::{Deserialize, Serialize};
use tafl_engine::move_list::{self, ClaimedResult, MoveListError};
use tafl_engine::otg::{self, OtgError};
use tafl_engine::{Game, GameRecord, Side, variant, variants};
use utoipa::ToSchema;

use crate::domain::{GameId, GameStatus, PlayerId, ResultReason, Seat};
use crate::games::ClockSpec;
use crate::games::challenges::resolve_rules;
use crate::games::game_ended::{self, EndedGame};
use crate::store::Conn;
use crate::store::rows::{self, GameRow, ImportedGameRow, MoveRow};
use crate::{Emitter, Missing, Result, RulesChoice, ServiceError};

use super::{annotations, record_text};

/// The largest record taken: far above any real game (a long 19x19 game with notes is a few
/// tens of kilobytes), and a bound on the work one request asks for.
pub const MAX_RECORD_BYTES: usize = 256 * 1024;

/// Tags the game itself holds once imported (its seats and its result), not kept as tags.
const RESULT_AND_PLAYER_TAGS: [&str; 5] = [
    "attackers",
    "defenders",
    "result",
    "termination",
    "resigned",
];

/// The longest player name kept from a record.
const MAX_NAME_CHARS: usize = 64;

/// How a record is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordFormat {
    /// OpenTafl's game record: tags with the rules, numbered turns, comments, variations.
    Otg,
    /// An archive's move list, `1. d1-d3 e5-e7 2. ...`, for a variant named beside it.
    Moves,
}

impl RecordFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            RecordFormat::Otg => "otg",
            RecordFormat::Moves => "moves",
        }
    }

    /// The format of `text` when none is given: a record with a rules tag is an `.otg`.
    pub fn detect(text: &str) -> RecordFormat {
        if text.contains("[rules:") {
            RecordFormat::Otg
        } else {
            RecordFormat::Moves
        }
    }
}

/// One record to import.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    pub text: String,
    /// `None`: detected from the text.
    pub format: Option<RecordFormat>,
    /// The variant of a move list (its rules are not in the record).
    pub variant: Option<String>,
}

/// A game made from a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ImportedGameView {
    pub game_id: GameId,
    pub format: RecordFormat,
    /// The preset the record's rules are (null for other rules).
    pub variant: Option<String>,
    /// The names the record gives the players (imported players, not accounts).
    pub attackers: String,
    pub defenders: String,
    /// Moves of the principal line.
    pub plies: u32,
    #[schema(value_type = Option<crate::domain::SideSchema>)]
    pub winner: Option<Side>,
    pub reason: ResultReason,
    /// Comments and variations that came with the record.
    pub annotations: u32,
}

/// A record read and replayed, ready to store.
struct ReadRecord {
    format: RecordFormat,
    variant: Option<String>,
    record: GameRecord,
    winner: Option<Side>,
    reason: ResultReason,
}

/// Reads and checks `request`'s record; nothing is stored.
fn read(request: &ImportRequest) -> Result<ReadRecord> {
    if request.text.len() > MAX_RECORD_BYTES {
        return Err(ServiceError::Invalid(format!(
            "the record is {} bytes; at most {MAX_RECORD_BYTES} are taken",
            request.text.len()
        )));
    }
    let format = request
        .format
        .unwrap_or_else(|| RecordFormat::detect(&request.text));
    let parsed = parse(request, format);
    // Before any other refusal of the record: a NUL anywhere is named where it is.
    record_text::check_record_text(&request.text, parsed.as_ref().ok().map(|p| &p.1))?;
    let (variant, record, claimed) = parsed?;
    let game = &record.game;
    if game.ply() == 0 {
        return Err(ServiceError::Invalid("the record holds no moves".into()));
    }
    if *game.start_position() != game.rules().start_position() {
        return Err(ServiceError::Invalid(
            "the record starts from a position of its own: only games from the rules' start \
             position can be imported"
                .into(),
        ));
    }
    let (winner, reason) = match (game.outcome(), claimed) {
        (Some(outcome), _) => ResultReason::of_outcome(outcome),
        (None, Some(ClaimedResult::Won(side))) => (Some(side), ResultReason::Resignation),
        (None, Some(ClaimedResult::Draw)) => (None, ResultReason::DrawAgreed),
        (None, None) => {
            return Err(ServiceError::Invalid(
                "the record does not say how the game ended: the rules did not end it, and it \
                 has no result (write 1-0, 0-1 or 1/2-1/2 after the moves, or a [result:1] tag)"
                    .into(),
            ));
        }
    };
    Ok(ReadRecord {
        format,
        variant,
        record,
        winner,
        reason,
    })
}

/// The record `request` holds, written as `format`, every move replayed: (its preset variant,
/// the record, the result it claims).
fn parse(
    request: &ImportRequest,
    format: RecordFormat,
) -> Result<(Option<String>, GameRecord, Option<ClaimedResult>)> {
    match format {
        RecordFormat::Otg => {
            // The record's rules are judged as a challenge's (a tournament's, a match's) are:
            // by the same function, in the same words, before a move is played on them.
            let header = otg::read_header(&request.text).map_err(otg_refusal)?;
            // The last rules tag, as the record is read.
            if let Some((_, rules)) = header.iter().rev().find(|(name, _)| name == "rules") {
                resolve_rules(&RulesChoice::Rules(rules.clone()))?;
            }
            let record = otg::read_record(&request.text).map_err(otg_refusal)?;
            let claimed = otg_claimed(&record.tags)?;
            let variant = preset_of(&record.game);
            Ok((variant, record, claimed))
        }
        RecordFormat::Moves => {
            let name = request.variant.as_deref().ok_or_else(|| {
                ServiceError::Invalid(
                    "a move list does not say its rules: name its variant (variant=copenhagen)"
                        .into(),
                )
            })?;
            let preset = variant(name)
                .ok_or_else(|| ServiceError::NotFound(Missing::Variant(name.into())))?;
            let list = move_list::read(&request.text, preset.rules()).map_err(move_list_refusal)?;
            let record = GameRecord::from_game(list.game, list.tags);
            Ok((Some(preset.id.to_owned()), record, list.claimed))
        }
    }
}

/// The result an `.otg` record's tags state: `resigned:<side>`, or `result:1|-1|0`.
fn otg_claimed(tags: &[(String, String)]) -> Result<Option<ClaimedResult>> {
    let find = |name: &str| tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim());
    if let Some(side) = find("resigned") {
        let side: Side = side.parse().map_err(|_| {
            ServiceError::Invalid(format!(
                "bad resigned tag {side:?}: expected attackers or defenders"
            ))
        })?;
        return Ok(Some(ClaimedResult::Won(side.opponent())));
    }
    Ok(match find("result") {
        Some("1") => Some(ClaimedResult::Won(Side::Attackers)),
        Some("-1") => Some(ClaimedResult::Won(Side::Defenders)),
        Some("0") => Some(ClaimedResult::Draw),
        _ => None,
    })
}

/// The preset whose rules the game is played by, if any.
fn preset_of(game: &Game) -> Option<String> {
    variants()
        .iter()
        .find(|v| v.rules() == *game.rules())
        .map(|v| v.id.to_owned())
}

/// A refused `.otg` record in the user's terms: an illegal move says which and why.
fn otg_refusal(error: OtgError) -> ServiceError {
    match error {
        OtgError::Illegal {
            ply, text, error, ..
        } => ServiceError::IllegalMove(format!("move {ply} ({text}): {error}")),
        error @ OtgError::Captures { .. } => ServiceError::IllegalMove(error.to_string()),
        error => ServiceError::Invalid(format!("the record cannot be read: {error}")),
    }
}

/// A refused move list in the user's terms.
fn move_list_refusal(error: MoveListError) -> ServiceError {
    match error {
        MoveListError::Illegal { ply, text, error } => {
            ServiceError::IllegalMove(format!("move {ply} ({text}): {error}"))
        }
        error @ MoveListError::Captures { .. } => ServiceError::IllegalMove(error.to_string()),
        error => ServiceError::Invalid(format!("the move list cannot be read: {error}")),
    }
}

/// A player's name from the record's tag `side`, or a stand-in.
fn player_name(tags: &[(String, String)], side: Side) -> String {
    let name: String = tags
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(side.as_str()))
        .map(|(_, v)| v.chars().filter(|c| !c.is_control()).collect::<String>())
        .unwrap_or_default()
        .trim()
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    if name.is_empty() {
        format!("unknown {side}")
    } else {
        name
    }
}

/// Reads, checks and stores one record; answers the new game.
pub(super) fn import(
    c: &Conn<'_>,
    e: &mut Emitter,
    request: &ImportRequest,
    by: Option<PlayerId>,
) -> Result<ImportedGameView> {
    let read = read(request)?;
    let game = &read.record.game;
    let tags = &read.record.tags;
    let attackers = player_name(tags, Side::Attackers);
    let defenders = player_name(tags, Side::Defenders);
    let now = e.now();
    let mut row = GameRow {
        id: GameId(0),
        variant: read.variant.clone(),
        rules: game.rules().to_opentafl(),
        attackers: Seat::Imported(rows::imported_player_named(c, &attackers)?),
        defenders: Seat::Imported(rows::imported_player_named(c, &defenders)?),
        status: GameStatus::Finished,
        winner: read.winner,
        result_reason: Some(read.reason),
        ply: game.ply(),
        side_to_move: game.side_to_move(),
        position: game.position().to_opentafl(),
        clock: ClockSpec::Unlimited {}.to_row(),
        attackers_bank_ms: None,
        defenders_bank_ms: None,
        turn_started_at: now,
        deadline_at: None,
        reminded_ply: None,
        draw_offer_by: None,
        context: None,
        created_at: now,
        updated_at: now,
        finished_at: Some(now),
        rated: false,
        private: false,
        paused_at: None,
    };
    row.id = rows::insert_game(c, &row)?;
    for report in game.history() {
        rows::insert_move(
            c,
            row.id,
            &MoveRow {
                ply: report.ply,
                side: report.side,
                notation: report.notation.clone(),
                mv: report.mv.to_string(),
                captures: report.captures.iter().map(ToString::to_string).collect(),
                position_hash: report.hash,
                played_by: None,
                played_at: now,
            },
        )?;
    }
    // Heard like any game's end, as an imported one: each area decides what it takes (the
    // explorer and the balance, which show games played here, take nothing).
    let subscribers = e.game_ended_subscribers();
    let ended = EndedGame::imported(&row);
    game_ended::settle(subscribers, c, &ended)?;
    game_ended::react(subscribers, c, e, &ended)?;
    let kept_tags: Vec<(String, String)> = tags
        .iter()
        // The players are seats, and the result the game's own: the export writes them.
        .filter(|(k, _)| !RESULT_AND_PLAYER_TAGS.contains(&k.to_lowercase().as_str()))
        .cloned()
        .collect();
    rows::insert_imported_game(
        c,
        &ImportedGameRow {
            game_id: row.id,
            format: read.format.as_str().to_owned(),
            tags: kept_tags,
            imported_by: by,
            imported_at: now,
        },
    )?;
    let annotations = annotations::store_record_annotations(c, row.id, &read.record, now)?;
    Ok(ImportedGameView {
        game_id: row.id,
        format: read.format,
        variant: read.variant,
        attackers,
        defenders,
        plies: game.ply(),
        winner: read.winner,
        reason: read.reason,
        annotations,
    })
}
