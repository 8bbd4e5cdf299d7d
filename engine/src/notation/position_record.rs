//! OpenTafl position records (notation spec section 2), first row = rank 1:
//! `/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/`.

use crate::error::PositionParseError;
use crate::position::Position;
use crate::side::{Piece, Side};
use crate::square::{MAX_DIM, MIN_DIM, Square};

impl Position {
    /// OpenTafl positional record, first row = rank 1: `/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/`.
    pub fn to_opentafl(&self) -> String {
        let mut out = String::from("/");
        for rank in 0..self.dim {
            let mut empty = 0;
            for file in 0..self.dim {
                match self.piece_at(Square::new(file, rank)) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(piece.opentafl_letter());
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out.push('/');
        }
        out
    }

    /// Reads an OpenTafl positional record (first row = rank 1).
    pub fn from_opentafl(text: &str, to_move: Side) -> Result<Position, PositionParseError> {
        let text = text.trim();
        let inner = text
            .strip_prefix('/')
            .and_then(|t| t.strip_suffix('/'))
            .ok_or(PositionParseError::Shape)?;
        let rows: Vec<&str> = inner.split('/').collect();
        let dim = rows.len();
        if dim < MIN_DIM as usize || dim > MAX_DIM as usize {
            return Err(PositionParseError::BadSize(dim));
        }
        let mut position = Position::empty(dim as u8);
        let mut kings = 0;
        for (rank, row) in rows.iter().enumerate() {
            let mut file = 0usize;
            let mut digits = String::new();
            for letter in row.chars() {
                if letter.is_ascii_digit() {
                    digits.push(letter);
                    if digits.len() > 2 {
                        return Err(PositionParseError::RowWidth {
                            row: rank + 1,
                            width: usize::MAX,
                            dim,
                        });
                    }
                    continue;
                }
                file += take_count(&mut digits);
                let piece = match letter {
                    't' => Piece::Attacker,
                    'T' => Piece::Defender,
                    'K' => Piece::King,
                    _ => {
                        return Err(PositionParseError::UnknownPiece {
                            letter,
                            row: rank + 1,
                        });
                    }
                };
                if file >= dim {
                    return Err(PositionParseError::RowWidth {
                        row: rank + 1,
                        width: file + 1,
                        dim,
                    });
                }
                if piece == Piece::King {
                    kings += 1;
                    if kings > 1 {
                        return Err(PositionParseError::TooManyKings(kings));
                    }
                }
                position.put(Square::new(file as u8, rank as u8), piece);
                file += 1;
            }
            file += take_count(&mut digits);
            if file != dim {
                return Err(PositionParseError::RowWidth {
                    row: rank + 1,
                    width: file,
                    dim,
                });
            }
        }
        position.set_side_to_move(to_move);
        Ok(position)
    }
}

fn take_count(digits: &mut String) -> usize {
    let count = digits.parse::<usize>().unwrap_or(0);
    digits.clear();
    count
}
