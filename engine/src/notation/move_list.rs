//! The move lists of public tafl archives (aagenielsen.dk, hnefatafl.org): numbered turns of
//! plain moves, `1. d1-d3 e5-e7 2. h4-h2xh3 ...`, a capture either on the move (`d4-d6xd5`) or
//! as a word of its own after it (`xd5`), and a result at the end (`1-0`: the side that moved
//! first won, `0-1`: the other side, `1/2-1/2`: a draw, `*`: unfinished). The rules are not in
//! the record: the caller says which variant it is. Tags before the moves may be written
//! `[Name "value"]` or `[name:value]`; comments in braces or parentheses are skipped.
//!
//! Every move is replayed through the referee, and a capture list must name exactly the pieces
//! the referee captured.

use super::capture_list::{CaptureMismatch, check_captures, check_list};
use crate::error::{MoveError, NotationError};
use crate::game::{Game, MoveReport};
use crate::moves::Move;
use crate::rules::Rules;
use crate::side::Side;

/// What the record says the result was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimedResult {
    Won(Side),
    Draw,
}

impl std::fmt::Display for ClaimedResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClaimedResult::Won(side) => write!(f, "the {side} won"),
            ClaimedResult::Draw => f.write_str("a draw"),
        }
    }
}

/// A move list read and replayed.
#[derive(Clone, Debug)]
pub struct MoveList {
    pub game: Game,
    /// The tags, names lower-cased (`[Attackers "Eve"]` is `("attackers", "Eve")`).
    pub tags: Vec<(String, String)>,
    /// The result written at the end, when there is one other than `*`.
    pub claimed: Option<ClaimedResult>,
}

/// Why a move list could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveListError {
    #[error("the record holds no moves")]
    Empty,
    #[error("line {line}: {text:?} is not a tag of the form [Name \"value\"] or [name:value]")]
    BadTag { line: usize, text: String },
    #[error("the comment opened before move {ply} is never closed")]
    Unclosed { ply: u32 },
    #[error("move {ply}: cannot read {text:?}: {error}")]
    Notation {
        ply: u32,
        text: String,
        error: NotationError,
    },
    #[error("move {ply} ({text}) is illegal: {error}")]
    Illegal {
        ply: u32,
        text: String,
        error: MoveError,
    },
    #[error(
        "move {ply} ({text}) records captures {recorded:?}, but the referee captured {referee:?}"
    )]
    Captures {
        ply: u32,
        text: String,
        recorded: Vec<String>,
        referee: Vec<String>,
    },
    #[error("{text:?} comes after the end of the game (after move {ply})")]
    AfterEnd { ply: u32, text: String },
    #[error("the record says {claimed}, but by the rules {actual}")]
    ResultContradicts {
        claimed: ClaimedResult,
        actual: String,
    },
}

/// Reads a move list for a game played under `rules` from their start position.
pub fn read(text: &str, rules: Rules) -> Result<MoveList, MoveListError> {
    let first_mover = rules.first_to_move();
    let mut game = Game::new(rules);
    let mut tags = Vec::new();
    let mut body = String::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if body.trim().is_empty() && trimmed.starts_with('[') {
            tags.push(tag(i + 1, trimmed)?);
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    let words = words(&body, &game)?;
    let mut last: Option<(String, MoveReport)> = None;
    let mut claimed = None;
    let mut result_written = false;
    for word in words {
        let ply = game.ply();
        if result_written {
            return Err(MoveListError::AfterEnd { ply, text: word });
        }
        if let Some(result) = result_word(&word, first_mover) {
            claimed = result;
            result_written = true;
            continue;
        }
        if let Some(list) = word.strip_prefix(['x', 'X'])
            && let Some((text, report)) = &last
        {
            check_list(list, report, game.rules().dim())
                .map_err(|e| capture_error(e, ply, format!("{text} {word}")))?;
            continue;
        }
        if game.is_over() {
            return Err(MoveListError::AfterEnd { ply, text: word });
        }
        let report = play(&mut game, &word)?;
        last = Some((word, report));
    }
    if game.ply() == 0 {
        return Err(MoveListError::Empty);
    }
    if let (Some(claimed), Some(outcome)) = (claimed, game.outcome()) {
        let agrees = match claimed {
            ClaimedResult::Won(side) => outcome.winner() == Some(side),
            ClaimedResult::Draw => outcome.winner().is_none(),
        };
        if !agrees {
            return Err(MoveListError::ResultContradicts {
                claimed,
                actual: outcome.describe(),
            });
        }
    }
    Ok(MoveList {
        game,
        tags,
        claimed,
    })
}

/// Plays one move word (`d4-d6xd5`, `Kd4-d6`, `d4xd6`) and checks its capture list.
fn play(game: &mut Game, word: &str) -> Result<MoveReport, MoveListError> {
    let dim = game.rules().dim();
    let ply = game.ply() + 1;
    // `d4xd6` writes the move itself with an x: read it as `d4-d6`, with no list to check.
    let dashed = if word.contains('-') {
        word.to_string()
    } else {
        word.replacen(['x', 'X'], "-", 1)
    };
    let mv = Move::parse(&dashed, dim).map_err(|error| MoveListError::Notation {
        ply,
        text: word.to_string(),
        error,
    })?;
    let report = game.play(mv).map_err(|error| MoveListError::Illegal {
        ply,
        text: word.to_string(),
        error,
    })?;
    check_captures(&dashed, &report, dim).map_err(|e| capture_error(e, ply, word.to_string()))?;
    Ok(report)
}

fn capture_error(error: CaptureMismatch, ply: u32, text: String) -> MoveListError {
    match error {
        CaptureMismatch::Notation(error) => MoveListError::Notation { ply, text, error },
        CaptureMismatch::Differ { recorded, referee } => MoveListError::Captures {
            ply,
            text,
            recorded,
            referee,
        },
    }
}

/// `[Name "value"]` or `[name:value]`.
fn tag(line: usize, text: &str) -> Result<(String, String), MoveListError> {
    let bad = || MoveListError::BadTag {
        line,
        text: text.to_string(),
    };
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .ok_or_else(bad)?;
    let (key, value) = match inner.split_once('"') {
        Some((key, value)) => (
            key.trim(),
            value.trim_end().strip_suffix('"').ok_or_else(bad)?,
        ),
        None => inner.split_once(':').ok_or_else(bad)?,
    };
    let key = key.trim().trim_end_matches(':').trim();
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    {
        return Err(bad());
    }
    Ok((key.to_lowercase(), value.trim().to_string()))
}

/// The body's words without turn numbers and comments.
fn words(body: &str, game: &Game) -> Result<Vec<String>, MoveListError> {
    let mut out = Vec::new();
    let mut closing: Option<char> = None;
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<String>| {
        let text = strip_turn_number(word);
        if !text.is_empty() {
            out.push(text.to_string());
        }
        word.clear();
    };
    for c in body.chars() {
        if let Some(close) = closing {
            if c == close {
                closing = None;
            }
            continue;
        }
        match c {
            '{' | '(' => {
                flush(&mut word, &mut out);
                closing = Some(if c == '{' { '}' } else { ')' });
            }
            c if c.is_whitespace() || c == ',' || c == ';' => flush(&mut word, &mut out),
            c => word.push(c),
        }
    }
    if closing.is_some() {
        return Err(MoveListError::Unclosed {
            ply: game.ply() + out.len() as u32,
        });
    }
    flush(&mut word, &mut out);
    Ok(out)
}

/// `12.d1-d3` is `d1-d3`; `12.` and `12...` are nothing.
fn strip_turn_number(word: &str) -> &str {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !word[digits..].starts_with('.') {
        return word;
    }
    word[digits..].trim_start_matches('.')
}

/// The result words: `Some(None)` for `*`, `None` for a word that is not a result.
fn result_word(word: &str, first_mover: Side) -> Option<Option<ClaimedResult>> {
    match word {
        "1-0" => Some(Some(ClaimedResult::Won(first_mover))),
        "0-1" => Some(Some(ClaimedResult::Won(first_mover.opponent()))),
        "1/2-1/2" | "½-½" | "=" => Some(Some(ClaimedResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}
