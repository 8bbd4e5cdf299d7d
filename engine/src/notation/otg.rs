//! OpenTafl game records (`.otg`, OpenTafl notation spec section 4): tags, the rules tag, then
//! numbered turns `1. e1-e4 d5-d7xd8`, each optionally followed by `[comment|comment]`.
//!
//! Variations are turns numbered by a variation address (`7a.1.1a.`: the first turn of the first
//! variation off the first move of turn 7), and `.....` stands for a move of the parent line in a
//! variation that starts on the second move of a turn.
//!
//! Reading replays the principal line and every variation through the referee into a
//! [`GameRecord`] (the comments kept on their moves); info symbols (`+ - ++ --`) are ignored,
//! and a capture list in the record must name exactly the pieces the referee captured. A
//! resignation (`---`) ends the principal line and is returned as the tag `resigned:<side>`.
//! Tags this engine adds: `to-move` (side to move in a `position` tag, when it is not the rules'
//! first mover) and `resigned`.

use super::capture_list::{CaptureMismatch, check_captures};
use super::record_tree::{GameRecord, LineOfPlay, RecordedMove};
use crate::error::{MoveError, NotationError, PositionParseError, RulesParseError};
use crate::game::{Game, MoveReport};
use crate::moves::Move;
use crate::outcome::{Outcome, WinReason};
use crate::position::Position;
use crate::rules::Rules;
use crate::side::{Piece, Side};

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
    #[error("line {line}: variation address {text:?} names no move of the record before it")]
    BadAddress { line: usize, text: String },
    #[error(
        "line {line}: turn {text:?} is out of order: a line's turns must follow one another, each variation after the move it branches from"
    )]
    OutOfOrder { line: usize, text: String },
}

/// Tags written by [`write`] itself rather than taken from the caller.
const OWN_TAGS: [&str; 3] = ["rules", "position", "to-move"];

/// Stands, in a variation's first turn, for the parent line's moves before the variation.
const PLACEHOLDER: &str = ".....";

/// How deep variations may nest (a variation of a variation of ...): deeper records are
/// refused rather than replayed.
pub const MAX_VARIATION_DEPTH: usize = 32;

/// Writes a game record without comments or variations: the caller's tags (a `result` tag is
/// added for a finished game that has none), the position and rules tags, then one numbered
/// line per turn.
pub fn write(game: &Game, tags: &[(String, String)]) -> String {
    write_record(&GameRecord::from_game(game.clone(), tags.to_vec()))
}

/// Writes a whole record: tags as [`write`] does, then the principal line turn by turn, each
/// turn followed by its comments and by the variations that branch from its moves.
pub fn write_record(record: &GameRecord) -> String {
    let game = &record.game;
    let tags = &record.tags;
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
    let resigned = tags
        .iter()
        .find(|(k, _)| k == "resigned")
        .is_some_and(|(_, side)| {
            game.outcome().is_none() && side.parse::<Side>().ok() == Some(game.side_to_move())
        });
    write_line(&mut out, &record.main, None, 0, resigned.then_some("---"));
    out
}

/// Writes one line of play turn by turn. `prefix` is the variation address up to its turn
/// number (`7a.1.`), `None` for the principal line; `offset` is 1 when the variation starts on
/// the second move of a turn (its first turn then opens with a placeholder).
fn write_line(
    out: &mut String,
    line: &LineOfPlay,
    prefix: Option<&str>,
    offset: usize,
    trailing: Option<&str>,
) {
    let mut slots: Vec<Option<&RecordedMove>> = vec![None; offset];
    slots.extend(line.moves.iter().map(Some));
    let mut tokens: Vec<String> = slots
        .iter()
        .map(|slot| match slot {
            Some(m) => move_record(&m.report),
            None => PLACEHOLDER.to_string(),
        })
        .collect();
    if let Some(token) = trailing {
        tokens.push(token.to_string());
        slots.push(None);
    }
    for (turn, (words, moves)) in tokens.chunks(2).zip(slots.chunks(2)).enumerate() {
        let number = turn + 1;
        let turn_address = match prefix {
            None => format!("{number}."),
            Some(prefix) => format!("{prefix}{number}a."),
        };
        out.push_str(&format!("{turn_address} {}\n", words.join(" ")));
        if moves.iter().any(|slot| comment_of(*slot).is_some()) {
            let parts: Vec<String> = moves
                .iter()
                .map(|slot| comment_of(*slot).map(clean_comment).unwrap_or_default())
                .collect();
            out.push_str(&format!("[{}]\n", parts.join("|")));
        }
        for (index, slot) in moves.iter().enumerate() {
            let Some(m) = slot else { continue };
            let letter = char::from(b'a' + index as u8);
            let address = format!("{}{number}{letter}", prefix.unwrap_or(""));
            for (k, variation) in m.variations.iter().enumerate() {
                let prefix = format!("{address}.{}.", k + 1);
                write_line(out, variation, Some(&prefix), index, None);
            }
        }
    }
}

fn comment_of(slot: Option<&RecordedMove>) -> Option<&str> {
    slot.and_then(|m| m.comment.as_deref())
}

/// A comment as a bracketed block can hold it: brackets would end the block and `|` would
/// split it, so they become parentheses and a slash.
fn clean_comment(text: &str) -> String {
    text.replace('[', "(")
        .replace(']', ")")
        .replace('|', "/")
        .replace('\r', "")
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

/// Reads a game record and replays its principal line through the referee (variations are
/// checked too; see [`read_record`] to keep them and the comments).
pub fn read(text: &str) -> Result<(Game, Vec<(String, String)>), OtgError> {
    let record = read_record(text)?;
    Ok((record.game, record.tags))
}

/// The tags of a record's header (the bracketed lines before its first turn), nothing
/// replayed: what a reader checks before the moves are played (the rules a game can start
/// by). Errors as [`read_record`] gives them for the same lines.
pub fn read_header(text: &str) -> Result<Vec<(String, String)>, OtgError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut tags = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.is_empty() {
            i += 1;
        } else if line.starts_with('[') {
            tags.push(tag(&bracketed(&lines, &mut i)?)?);
        } else {
            break;
        }
    }
    Ok(tags)
}

/// Reads a game record with its comments and variations, every line replayed by the referee.
pub fn read_record(text: &str) -> Result<GameRecord, OtgError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tree = RecordText::default();
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
            } else {
                tree.comment(&block)?;
            }
            continue;
        }
        in_header = false;
        let (number, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let bad_line = || OtgError::BadLine {
            line: i + 1,
            text: line.to_string(),
        };
        let address = TurnAddress::parse(number).ok_or_else(bad_line)?;
        tree.turn(i + 1, number, &address, rest)?;
        i += 1;
    }
    let (game, main, resigned) = replay(&tags, &tree)?;
    let mut tags: Vec<(String, String)> = tags
        .into_iter()
        .filter(|(k, _)| !OWN_TAGS.contains(&k.as_str()))
        .collect();
    if let Some(side) = resigned
        && !tags.iter().any(|(k, _)| k == "resigned")
    {
        tags.push(("resigned".to_string(), side.to_string()));
    }
    Ok(GameRecord { game, tags, main })
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

/// The largest turn number an address may give.
const MAX_TURN: usize = 1_000_000;

/// A move's place in its line: turn `7`, move `b` is `7b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MoveAddress {
    turn: usize,
    /// 0 for the turn's first move (`a`), 1 for its second (`b`).
    letter: usize,
}

impl MoveAddress {
    fn parse(text: &str) -> Option<MoveAddress> {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        let (number, letter) = text.split_at(digits);
        // Bounded, so that the index arithmetic below cannot overflow.
        let turn: usize = number.parse().ok().filter(|t| (1..=MAX_TURN).contains(t))?;
        let letter = match letter.as_bytes() {
            [b @ b'a'..=b'z'] => usize::from(b - b'a'),
            _ => return None,
        };
        Some(MoveAddress { turn, letter })
    }

    /// Index of the move in a line whose first move has letter `offset`.
    fn index(self, offset: usize) -> Option<usize> {
        ((self.turn - 1) * 2 + self.letter).checked_sub(offset)
    }
}

/// The number before a turn's moves: `7.` in the principal line, `7a.1.2a.` in a variation
/// (the moves branched from, each with its variation number, then the turn in the variation).
#[derive(Clone, Debug, PartialEq, Eq)]
enum TurnAddress {
    Principal,
    Variation {
        path: Vec<(MoveAddress, usize)>,
        turn: MoveAddress,
    },
}

impl TurnAddress {
    fn parse(number: &str) -> Option<TurnAddress> {
        let text = number.strip_suffix('.').unwrap_or(number);
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            return number.ends_with('.').then_some(TurnAddress::Principal);
        }
        let parts: Vec<&str> = text.split('.').collect();
        if parts.len() < 3 || parts.len().is_multiple_of(2) {
            return None;
        }
        let mut path = Vec::new();
        for pair in parts[..parts.len() - 1].chunks(2) {
            let from = MoveAddress::parse(pair[0])?;
            let variation: usize = pair[1]
                .parse()
                .ok()
                .filter(|v| (1..=MAX_TURN).contains(v))?;
            path.push((from, variation));
        }
        let turn = MoveAddress::parse(parts[parts.len() - 1])?;
        Some(TurnAddress::Variation { path, turn })
    }
}

/// A line of the record as text, before the referee has seen it.
#[derive(Default)]
struct LineText {
    /// 1 when the line starts on the second move of a turn.
    offset: usize,
    moves: Vec<MoveText>,
    /// The line number of a resignation ending the principal line.
    resigned: Option<usize>,
}

struct MoveText {
    line: usize,
    text: String,
    comment: Option<String>,
    variations: Vec<LineText>,
}

/// A turn line's place: the path to its line, and the index in it of each of its words that
/// is a move (`None` for a placeholder or a resignation).
type LastTurn = (Vec<(MoveAddress, usize)>, Vec<Option<usize>>);

/// The record's moves as read so far, and where the last turn's moves went (for its comment).
#[derive(Default)]
struct RecordText {
    main: LineText,
    last_turn: Option<LastTurn>,
}

impl RecordText {
    /// Adds one turn line's moves to the line its address names.
    fn turn(
        &mut self,
        line_no: usize,
        number: &str,
        address: &TurnAddress,
        rest: &str,
    ) -> Result<(), OtgError> {
        let (path, start) = match address {
            TurnAddress::Principal => (Vec::new(), None),
            TurnAddress::Variation { path, turn } => (path.clone(), Some(*turn)),
        };
        if path.len() > MAX_VARIATION_DEPTH {
            return Err(OtgError::BadAddress {
                line: line_no,
                text: number.to_string(),
            });
        }
        let line = line_at(&mut self.main, &path, true).ok_or_else(|| OtgError::BadAddress {
            line: line_no,
            text: number.to_string(),
        })?;
        let out_of_order = || OtgError::OutOfOrder {
            line: line_no,
            text: number.to_string(),
        };
        // Where the turn's first move goes in its line (negative: placeholders first).
        let first = match start {
            None => line.moves.len() as isize,
            Some(turn) => ((turn.turn - 1) * 2) as isize - line.offset as isize,
        };
        let mut slots = Vec::new();
        for (offset, token) in rest.split_whitespace().enumerate() {
            let next = first + offset as isize;
            if token.len() >= 2 && token.bytes().all(|b| b == b'.') {
                if next >= 0 {
                    return Err(out_of_order());
                }
                slots.push(None);
            } else if token == "---" {
                if path.is_empty() {
                    line.resigned.get_or_insert(line_no);
                }
                slots.push(None);
            } else {
                if line.resigned.is_some() {
                    return Err(OtgError::AfterEnd {
                        line: line_no,
                        text: token.to_string(),
                    });
                }
                if next != line.moves.len() as isize {
                    return Err(out_of_order());
                }
                slots.push(Some(line.moves.len()));
                line.moves.push(MoveText {
                    line: line_no,
                    text: token.to_string(),
                    comment: None,
                    variations: Vec::new(),
                });
            }
        }
        self.last_turn = Some((path, slots));
        Ok(())
    }

    /// Hangs a comment block's parts on the moves of the turn before it.
    fn comment(&mut self, block: &Block) -> Result<(), OtgError> {
        let Some((path, slots)) = &self.last_turn else {
            return Ok(());
        };
        let Some(line) = line_at(&mut self.main, path, false) else {
            return Ok(());
        };
        for (part, slot) in block.text.split('|').zip(slots) {
            let part = part.trim();
            if let Some(index) = slot
                && !part.is_empty()
                && let Some(m) = line.moves.get_mut(*index)
            {
                m.comment = Some(part.to_string());
            }
        }
        Ok(())
    }
}

/// The line reached by following `path` from the principal line; a variation just one past
/// the last of its move is opened when `open` is set.
fn line_at<'a>(
    main: &'a mut LineText,
    path: &[(MoveAddress, usize)],
    open: bool,
) -> Option<&'a mut LineText> {
    let mut line = main;
    for &(from, variation) in path {
        let index = from.index(line.offset)?;
        let m = line.moves.get_mut(index)?;
        if open && variation == m.variations.len() + 1 {
            m.variations.push(LineText {
                offset: from.letter,
                ..LineText::default()
            });
        }
        line = m.variations.get_mut(variation - 1)?;
    }
    Some(line)
}

/// Builds the game from the rules and position tags and plays the principal line and every
/// variation.
fn replay(
    tags: &[(String, String)],
    tree: &RecordText,
) -> Result<(Game, LineOfPlay, Option<Side>), OtgError> {
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
    let main = replay_line(&mut game, &tree.main)?;
    let resigned = match tree.main.resigned {
        Some(line) if game.is_over() => {
            return Err(OtgError::AfterEnd {
                line,
                text: "---".to_string(),
            });
        }
        Some(_) => Some(game.side_to_move()),
        None => None,
    };
    Ok((game, main, resigned))
}

/// Plays a line on `game`, each of its variations on a copy of the game before its move.
fn replay_line(game: &mut Game, text: &LineText) -> Result<LineOfPlay, OtgError> {
    let mut line = LineOfPlay::default();
    for m in &text.moves {
        if game.is_over() {
            return Err(OtgError::AfterEnd {
                line: m.line,
                text: m.text.clone(),
            });
        }
        let variations = m
            .variations
            .iter()
            .map(|variation| replay_line(&mut game.clone(), variation))
            .collect::<Result<Vec<_>, _>>()?;
        let report = play_record(game, m.line, &m.text)?;
        line.moves.push(RecordedMove {
            report,
            comment: m.comment.clone(),
            variations,
        });
    }
    Ok(line)
}

/// Plays one move record and checks its capture list, if it has one.
fn play_record(game: &mut Game, line: usize, token: &str) -> Result<MoveReport, OtgError> {
    let dim = game.rules().dim();
    let notation = |error| OtgError::Notation {
        line,
        text: token.to_string(),
        error,
    };
    let mv = Move::parse(token, dim).map_err(notation)?;
    let ply = game.ply() + 1;
    let report = game.play(mv).map_err(|error| OtgError::Illegal {
        line,
        ply,
        text: token.to_string(),
        error,
    })?;
    match check_captures(token, &report, dim) {
        Ok(()) => Ok(report),
        Err(CaptureMismatch::Notation(error)) => Err(notation(error)),
        Err(CaptureMismatch::Differ { recorded, referee }) => Err(OtgError::Captures {
            line,
            ply,
            text: token.to_string(),
            recorded,
            referee,
        }),
    }
}
