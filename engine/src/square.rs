//! Squares and their notation: files `a..` from the left, ranks `1..` from the bottom.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::NotationError;

/// Smallest board side the engine plays on.
pub const MIN_DIM: u8 = 7;
/// Largest board side the engine plays on.
pub const MAX_DIM: u8 = 19;

/// A square of the board; `a1` is (0, 0), bottom-left.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    file: u8,
    rank: u8,
}

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    pub const fn file(self) -> u8 {
        self.file
    }

    pub const fn rank(self) -> u8 {
        self.rank
    }

    /// Dense index for tables of `MAX_DIM * MAX_DIM` entries.
    pub const fn index(self) -> usize {
        self.rank as usize * MAX_DIM as usize + self.file as usize
    }

    pub fn on_board(self, dim: u8) -> bool {
        self.file < dim && self.rank < dim
    }

    pub fn is_edge(self, dim: u8) -> bool {
        self.file == 0 || self.rank == 0 || self.file == dim - 1 || self.rank == dim - 1
    }

    pub fn is_corner(self, dim: u8) -> bool {
        (self.file == 0 || self.file == dim - 1) && (self.rank == 0 || self.rank == dim - 1)
    }

    /// The neighbouring square in `dir`, if it is on a board of side `dim`.
    pub fn step(self, dir: Direction, dim: u8) -> Option<Square> {
        let (df, dr) = dir.delta();
        let file = self.file as i16 + df as i16;
        let rank = self.rank as i16 + dr as i16;
        if file < 0 || rank < 0 || file >= dim as i16 || rank >= dim as i16 {
            None
        } else {
            Some(Square::new(file as u8, rank as u8))
        }
    }

    /// The four orthogonal neighbours that are on the board.
    pub fn neighbours(self, dim: u8) -> impl Iterator<Item = Square> {
        Direction::ALL
            .into_iter()
            .filter_map(move |dir| self.step(dir, dim))
    }

    /// Reads `e5`, `E5`, `a10`...; `dim` bounds the file letter and the rank.
    pub fn parse(text: &str, dim: u8) -> Result<Square, NotationError> {
        let text = text.trim();
        let mut chars = text.chars();
        let letter = chars
            .next()
            .ok_or_else(|| NotationError::BadSquare(text.to_string()))?;
        if !letter.is_ascii_alphabetic() {
            return Err(NotationError::BadSquare(text.to_string()));
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(NotationError::BadSquare(text.to_string()));
        }
        let file = letter.to_ascii_lowercase() as u8 - b'a';
        let rank: u8 = digits
            .parse()
            .map_err(|_| NotationError::BadSquare(text.to_string()))?;
        if rank == 0 || file >= dim || rank > dim {
            return Err(NotationError::OffBoard {
                square: text.to_ascii_lowercase(),
                dim,
            });
        }
        Ok(Square::new(file, rank - 1))
    }

    pub fn file_letter(self) -> char {
        (b'a' + self.file) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_letter(), self.rank + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let text = String::deserialize(deserializer)?;
        Square::parse(&text, MAX_DIM).map_err(serde::de::Error::custom)
    }
}

/// One of the four orthogonal directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Up => (0, 1),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The two directions at right angles to this one.
    pub const fn perpendicular(self) -> [Direction; 2] {
        match self {
            Direction::Up | Direction::Down => [Direction::Left, Direction::Right],
            Direction::Left | Direction::Right => [Direction::Up, Direction::Down],
        }
    }

    /// The direction of a straight line from `from` to `to`, if they share a file or rank.
    pub fn between(from: Square, to: Square) -> Option<Direction> {
        if from == to {
            None
        } else if from.file() == to.file() {
            Some(if to.rank() > from.rank() {
                Direction::Up
            } else {
                Direction::Down
            })
        } else if from.rank() == to.rank() {
            Some(if to.file() > from.file() {
                Direction::Right
            } else {
                Direction::Left
            })
        } else {
            None
        }
    }
}
