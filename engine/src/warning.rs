//! Escape warnings (docs/rules.md, Warnings and R-000-warnings; source 000): "If the king should
//! ever have an unimpeded path to the edge of the board, he must call out "raichi" ..., and if he
//! has two paths of escape, then he must call out "tuichu"". A path is a move the king could make
//! to a winning square.

use serde::{Deserialize, Serialize};

use crate::movegen;
use crate::position::Position;
use crate::rules::Rules;
use crate::side::Piece;
use crate::square::{Direction, Square};

/// Raichi: the king has one open path to a winning square; tuichu: two or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WarningKind {
    Raichi,
    Tuichu,
}

impl WarningKind {
    pub fn shout(self) -> &'static str {
        match self {
            WarningKind::Raichi => "Raichi!",
            WarningKind::Tuichu => "Tuichu!",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Warning {
    pub kind: WarningKind,
    /// Each open path: the squares from the king (excluded) to the winning square (included).
    pub paths: Vec<Vec<Square>>,
}

/// The warning for a position, whoever is to move.
pub fn escape_warning(rules: &Rules, position: &Position) -> Option<Warning> {
    let king = position.king()?;
    if position.king_awaits_rescue() || rules.is_escape_square(king) {
        return None;
    }
    let mut targets = Vec::new();
    movegen::for_each_destination(rules, position, king, Piece::King, |to| {
        if rules.is_escape_square(to) {
            targets.push(to);
        }
    });
    let paths: Vec<Vec<Square>> = targets
        .into_iter()
        .filter_map(|to| {
            let dir = Direction::between(king, to)?;
            let mut path = Vec::new();
            let mut sq = king;
            while sq != to {
                sq = sq.step(dir, position.dim())?;
                path.push(sq);
            }
            Some(path)
        })
        .collect();
    let kind = match paths.len() {
        0 => return None,
        1 => WarningKind::Raichi,
        _ => WarningKind::Tuichu,
    };
    Some(Warning { kind, paths })
}
