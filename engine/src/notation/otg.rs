//! OpenTafl game records (`.otg`, OpenTafl notation spec section 4): tags, the rules tag, then
//! numbered turns `1. e1-e4 d5-d7xd8`, each optionally followed by `[comment|comment]`.
//!
//! Reading replays the principal line through the referee: variations and comments are
//! skipped, info symbols (`+ - ++ --`) are ignored, and a capture list in the record must name
//! exactly the pieces the referee captured. A resignation (`---`) ends the record and is
//! returned as the tag `resigned:<side>`. Tags this engine adds: `to-move` (side to move in a
//! `position` tag, when it is not the rules' first mover) and `resigned`.

use crate::error::{MoveError, NotationError, PositionParseError, RulesParseError};
use crate::game::{Game, MoveReport};
use crate::moves::Move;
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::{Piece, Side};
use crate::square::Square;

/// Why a game record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OtgError {
    #[error("the record has no [rules:...] tag")]
    MissingRules,
    #[error("bad rules tag: {0}")]
    Rules(#[from] RulesParseError),
    #[error("bad position tag: {0}")]
    Position(#[from] PositionParseError),
    #[error("the position tag is {found}x{found}, but the rules are for {dim}x{dim}")]
    PositionSize { dim: u8, found: u8 },
    #[error("bad to-move tag {0:?}: expected attackers or defenders")]
    ToMove(String),
    #[error("line {line}: the bracket opened here is never closed")]
    Unclosed { line: usize },
    #[error("line {line}: {text:?} is not a tag of the form [name:value]")]
    BadTag { line: usize, text: String },
    #[error(
        "line {line}: {text:?} is neither a tag, a comment nor a numbered turn like \"1. e1-e4 d5-d7\""
    )]
    BadLine { line: usize, text: String },
    #[error("line {line}: cannot read move {text:?}: {error}")]
    Notation {
        line: usize,
        text: String,
        error: NotationError,
    },
    #[error("line {line}: move {ply} ({text}) is illegal: {error}")]
    Illegal {
        line: usize,
        ply: u32,
        text: String,
        error: MoveError,
    },
    #[error(
        "line {line}: move {ply} ({text}) records captures {recorded:?}, but the referee captured {referee:?}"
    )]
    Captures {
        line: usize,
        ply: u32,
        text: String,
        recorded: Vec<String>,
        referee: Vec<String>,
    },
    #[error("line {line}: move {text:?} comes after the end of the game")]
    AfterEnd { line: usize, text: String },
}

/// Tags written by [`write`] itself rather than taken from the caller.
const OWN_TAGS: [&str; 3] = ["rules", "position", "to-move"];

/// Writes a game record: the caller's tags (a `result` tag is added for a finished game that
/// has none), the position and rules tags, then one numbered line per turn.
pub fn write(game: &Game, tags: &[(String, String)]) -> String {
    let mut out = String::new();
    let clean = |text: &str| text.replace(['\r', '\n'], " ");
    for (key, value) in tags {
        if OWN_TAGS.contains(&key.as_str()) {
            continue;
        }
        out.push_str(&format!("[{}:{}]\n", clean(key), clean(value)));
    }
    let has = |name: &str| tags.iter().any(|(k, _)| k == name);
    if let Some(outcome) = game.outcome()
        && !has("result")
    {
        let result = match outcome.winner() {
            Some(Side::Attackers) => "1",
            Some(Side::Defenders) => "-1",
            None => "0",
        };
        out.push_str(&format!("[result:{result}]\n"));
        if !has("termination") {
            out.push_str(&format!("[termination:{}]\n", outcome.describe()));
        }
    }
    let rules = game.rules();
    let start = game.start_position();
    let mut rules_start = rules.start_position();
    rules_start.set_side_to_move(start.side_to_move());
    if *start != rules_start {
        out.push_str(&format!("[position:{}]\n", start.to_opentafl()));
    }
    if start.side_to_move() != rules.first_to_move() {
        out.push_str(&format!("[to-move:{}]\n", start.side_to_move()));
    }
    out.push_str(&format!("[rules:{}]\n\n", rules.to_opentafl()));
    let mut records: Vec<String> = game.history().iter().map(move_record).collect();
    if let Some((_, side)) = tags.iter().find(|(k, _)| k == "resigned")
        && game.outcome().is_none()
        && side.parse::<Side>().ok() == Some(game.side_to_move())
    {
        records.push("---".to_string());
    }
    for (turn, pair) in records.chunks(2).enumerate() {
        out.push_str(&format!("{}. {}\n", turn + 1, pair.join(" ")));
    }
    out
}

/// One move as OpenTafl writes it: `Kf6-c6`, `e5-e2xf2`, with `++`/`--` when it won by
/// capturing the king or escaping, and `-` when it left the king an open route.
fn move_record(report: &MoveReport) -> String {
    let mut text = String::new();
    if report.piece == Piece::King {
        text.push('K');
    }
    text.push_str(&report.notation);
    match report.outcome {
        Some(Outcome::Win {
            reason: WinReason::KingCaptured,
            ..
        }) => text.push_str("++"),
        Some(Outcome::Win {
            reason: WinReason::KingEscaped,
            ..
        }) => text.push_str("--"),
        None if report.warning.is_some() => text.push('-'),
        _ => {}
    }
    text
}

/// One bracketed block (a tag or a comment), possibly spanning lines.
struct Block {
    line: usize,
    text: String,
}

/// Reads a game record and replays it through the referee.
pub fn read(text: &str) -> Result<(Game, Vec<(String, String)>), OtgError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut turns: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    let mut in_header = true;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.is_empty() {
            i += 1;
            continue;
        }
        if line.starts_with('[') {
            let block = bracketed(&lines, &mut i)?;
            if in_header {
                tags.push(tag(&block)?);
            }
            continue;
        }
        in_header = false;
        let (number, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let Some(digits) = number.strip_suffix('.') else {
            return Err(OtgError::BadLine {
                line: i + 1,
                text: line.to_string(),
            });
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            // A variation address ("12b.1.1a."): only the principal line is replayed.
            let is_variation = digits
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.')
                && !digits.is_empty();
            if !is_variation {
                return Err(OtgError::BadLine {
                    line: i + 1,
                    text: line.to_string(),
                });
            }
        } else {
            turns.push((i + 1, rest));
        }
        i += 1;
    }
    let (game, resigned) = replay(&tags, &turns)?;
    let mut tags: Vec<(String, String)> = tags
        .into_iter()
        .filter(|(k, _)| !OWN_TAGS.contains(&k.as_str()))
        .collect();
    if let Some(side) = resigned
        && !tags.iter().any(|(k, _)| k == "resigned")
    {
        tags.push(("resigned".to_string(), side.to_string()));
    }
    Ok((game, tags))
}

/// Collects a bracketed block starting at line `*i`, advancing `*i` past it.
fn bracketed(lines: &[&str], i: &mut usize) -> Result<Block, OtgError> {
    let first = *i;
    let mut text = String::new();
    while *i < lines.len() {
        let line = lines[*i].trim_end();
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
        *i += 1;
        if line.ends_with(']') {
            let inner = text.trim();
            let inner = inner
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .unwrap_or(inner);
            return Ok(Block {
                line: first + 1,
                text: inner.to_string(),
            });
        }
    }
    Err(OtgError::Unclosed { line: first + 1 })
}

fn tag(block: &Block) -> Result<(String, String), OtgError> {
    let bad = || OtgError::BadTag {
        line: block.line,
        text: block.text.clone(),
    };
    let (key, value) = block.text.split_once(':').ok_or_else(bad)?;
    let key = key.trim();
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(bad());
    }
    Ok((key.to_string(), value.trim().to_string()))
}

/// Builds the game from the rules and position tags and plays the principal line.
fn replay(
    tags: &[(String, String)],
    turns: &[(usize, &str)],
) -> Result<(Game, Option<Side>), OtgError> {
    let find = |name: &str| {
        tags.iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let rules = Rules::from_opentafl(find("rules").ok_or(OtgError::MissingRules)?)?;
    let to_move = match find("to-move") {
        Some(text) => text
            .parse::<Side>()
            .map_err(|_| OtgError::ToMove(text.to_string()))?,
        None => rules.first_to_move(),
    };
    let start = match find("position") {
        Some(record) => {
            let position = Position::from_opentafl(record, to_move)?;
            if position.dim() != rules.dim() {
                return Err(OtgError::PositionSize {
                    dim: rules.dim(),
                    found: position.dim(),
                });
            }
            position
        }
        None => rules.start_position().with_side_to_move(to_move),
    };
    let mut game = Game::from_position(rules, start);
    let mut resigned = None;
    for &(line, rest) in turns {
        for token in rest.split_whitespace() {
            if resigned.is_some() || game.is_over() {
                return Err(OtgError::AfterEnd {
                    line,
                    text: token.to_string(),
                });
            }
            if token == "---" {
                resigned = Some(game.side_to_move());
                continue;
            }
            play_record(&mut game, line, token)?;
        }
    }
    Ok((game, resigned))
}

/// Plays one move record and checks its capture list, if it has one.
fn play_record(game: &mut Game, line: usize, token: &str) -> Result<(), OtgError> {
    let dim = game.rules().dim();
    let mv = Move::parse(token, dim).map_err(|error| OtgError::Notation {
        line,
        text: token.to_string(),
        error,
    })?;
    let recorded = recorded_captures(token, dim).map_err(|error| OtgError::Notation {
        line,
        text: token.to_string(),
        error,
    })?;
    let ply = game.ply() + 1;
    let report = game.play(mv).map_err(|error| OtgError::Illegal {
        line,
        ply,
        text: token.to_string(),
        error,
    })?;
    if let Some(mut recorded) = recorded {
        let mut referee = report.captures.clone();
        recorded.sort();
        referee.sort();
        if recorded != referee {
            return Err(OtgError::Captures {
                line,
                ply,
                text: token.to_string(),
                recorded: recorded.iter().map(ToString::to_string).collect(),
                referee: referee.iter().map(ToString::to_string).collect(),
            });
        }
    }
    Ok(())
}

/// The squares after `x` in a move record (`e5-e8xe9/Tf8+`), or `None` without a capture list.
fn recorded_captures(token: &str, dim: u8) -> Result<Option<Vec<Square>>, NotationError> {
    let Some((_, list)) = token.split_once(['x', 'X']) else {
        return Ok(None);
    };
    let list = list.trim_end_matches(['+', '-']);
    let mut squares = Vec::new();
    for item in list.split('/') {
        let bytes = item.as_bytes();
        // An optional piece symbol before the square ("ce7").
        let item =
            if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1].is_ascii_alphabetic()
            {
                &item[1..]
            } else {
                item
            };
        squares.push(Square::parse(item, dim)?);
    }
    Ok(Some(squares))
}
