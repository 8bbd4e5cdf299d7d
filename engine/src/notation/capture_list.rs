//! The capture list a record writes after a move (`e5-e8xe9/Tf8`), checked against the pieces
//! the referee actually took.

use crate::error::NotationError;
use crate::game::MoveReport;
use crate::square::Square;

/// Why a recorded capture list does not fit the move the referee played.
#[derive(Debug)]
pub(crate) enum CaptureMismatch {
    Notation(NotationError),
    /// Both lists as squares, sorted.
    Differ {
        recorded: Vec<String>,
        referee: Vec<String>,
    },
}

/// Checks the capture list of `token`, if it has one, against `report`.
pub(crate) fn check_captures(
    token: &str,
    report: &MoveReport,
    dim: u8,
) -> Result<(), CaptureMismatch> {
    let Some((_, list)) = token.split_once(['x', 'X']) else {
        return Ok(());
    };
    check_list(list, report, dim)
}

/// Checks a capture list written on its own (`e9/f8`, without the `x`) against `report`.
pub(crate) fn check_list(list: &str, report: &MoveReport, dim: u8) -> Result<(), CaptureMismatch> {
    let mut recorded = parse_list(list, dim).map_err(CaptureMismatch::Notation)?;
    let mut referee = report.captures.clone();
    recorded.sort();
    referee.sort();
    if recorded == referee {
        return Ok(());
    }
    Err(CaptureMismatch::Differ {
        recorded: recorded.iter().map(ToString::to_string).collect(),
        referee: referee.iter().map(ToString::to_string).collect(),
    })
}

/// The squares of a capture list, each with an optional piece symbol before it (`Tf8`).
fn parse_list(list: &str, dim: u8) -> Result<Vec<Square>, NotationError> {
    let list = list.trim_end_matches(['+', '-', '#', '!', '?']);
    let mut squares = Vec::new();
    for item in list.split(['/', 'x', 'X']) {
        let bytes = item.as_bytes();
        let item =
            if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1].is_ascii_alphabetic()
            {
                &item[1..]
            } else {
                item
            };
        squares.push(Square::parse(item, dim)?);
    }
    Ok(squares)
}
