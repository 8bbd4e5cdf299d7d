//! The two sides and the three kinds of piece.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A player's side. Attackers are the side with twice the men; defenders are the king's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Attackers,
    Defenders,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::Attackers, Side::Defenders];

    pub fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The text was not the name of a side.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown side {0:?}: expected \"attackers\" or \"defenders\"")]
pub struct ParseSideError(pub String);

impl FromStr for Side {
    type Err = ParseSideError;

    fn from_str(text: &str) -> Result<Side, ParseSideError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" | "black" | "muscovites" => Ok(Side::Attackers),
            "defenders" | "defender" | "d" | "white" | "swedes" => Ok(Side::Defenders),
            _ => Err(ParseSideError(text.to_string())),
        }
    }
}

/// A kind of piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Piece {
    Attacker,
    Defender,
    King,
}

impl Piece {
    pub const ALL: [Piece; 3] = [Piece::Attacker, Piece::Defender, Piece::King];

    pub fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// Dense index, for tables indexed by piece kind.
    pub fn index(self) -> usize {
        match self {
            Piece::Attacker => 0,
            Piece::Defender => 1,
            Piece::King => 2,
        }
    }

    /// The OpenTafl letter of the piece: `t` attacker, `T` defender, `K` king.
    pub fn opentafl_letter(self) -> char {
        match self {
            Piece::Attacker => 't',
            Piece::Defender => 'T',
            Piece::King => 'K',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Piece::Attacker => "attacker",
            Piece::Defender => "defender",
            Piece::King => "king",
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
