//! Moves as text: `e5-e8`, read forgivingly and written canonically (`e5-e8xe9/f8`), and as
//! JSON strings.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::NotationError;
use crate::moves::Move;
use crate::square::{MAX_DIM, Square};

impl Move {
    /// Reads a move forgivingly: `e5-e8`, `E5-E8`, `e5 e8`, `e5e8`, `e5–e8`, `Ke5-e8`, with or
    /// without a capture suffix (`xe9/f8`) or an OpenTafl info symbol (`+`, `-`, `++`, `--`).
    pub fn parse(text: &str, dim: u8) -> Result<Move, NotationError> {
        let bad = || NotationError::BadMove(text.to_string());
        let normalized: String = text
            .trim()
            .chars()
            .map(|c| match c {
                '\u{2010}'..='\u{2015}' | '\u{2212}' | ':' => '-',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        let mut rest = normalized.as_str();
        // An OpenTafl taflman symbol before the start square ("Ke5-e1").
        let bytes = rest.as_bytes();
        if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1].is_ascii_alphabetic() {
            rest = &rest[1..];
        }
        let (from, after_from) = split_square(rest).ok_or_else(bad)?;
        let after_sep = after_from.trim_start_matches([' ', '-', '–']);
        let (to, suffix) = split_square(after_sep).ok_or_else(bad)?;
        let suffix = suffix.trim();
        let suffix_ok = suffix.is_empty()
            || suffix.starts_with('x')
            || suffix.chars().all(|c| c == '+' || c == '-');
        if !suffix_ok {
            return Err(bad());
        }
        Ok(Move::new(
            Square::parse(from, dim)?,
            Square::parse(to, dim)?,
        ))
    }
}

/// Splits a leading square (`letter digits`) off `text`.
fn split_square(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || !bytes[0].is_ascii_alphabetic() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    Some(text.split_at(1 + digits))
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Move, D::Error> {
        let text = String::deserialize(deserializer)?;
        Move::parse(&text, MAX_DIM).map_err(serde::de::Error::custom)
    }
}

/// Canonical notation of a played move with its captures: `e5-e8xe9/f8`.
pub fn canonical_notation(mv: Move, captures: &[Square]) -> String {
    let mut text = mv.to_string();
    for (i, sq) in captures.iter().enumerate() {
        text.push(if i == 0 { 'x' } else { '/' });
        text.push_str(&sq.to_string());
    }
    text
}
