//! A board as monospace text (`/board text:true`), for screen readers and small screens: files
//! and ranks named as the notation names them (files `a..` left to right, rank 1 at the
//! bottom), the throne and the corners marked. 19x19 stays far under Discord's 2,000
//! characters.

use tafl_engine::{Piece, Square, SquareKind};

use crate::service::BoardSnapshot;

/// What each square shows, explained under the board.
pub const LEGEND: &str = "A attacker · D defender · K king · # throne · X corner · . empty";

fn cell(snapshot: &BoardSnapshot, sq: Square) -> char {
    match snapshot.position.piece_at(sq) {
        Some(Piece::Attacker) => 'A',
        Some(Piece::Defender) => 'D',
        Some(Piece::King) => 'K',
        None => match snapshot.rules.square_kind(sq) {
            SquareKind::Throne => '#',
            SquareKind::Corner => 'X',
            _ => '.',
        },
    }
}

fn files_line(dim: u8) -> String {
    let files: Vec<String> = (0..dim)
        .map(|f| Square::new(f, 0).file_letter().to_string())
        .collect();
    format!("    {}", files.join(" "))
}

/// The board of `snapshot` as a code block with coordinates on all sides, then the legend.
pub fn render(snapshot: &BoardSnapshot) -> String {
    grid(snapshot.rules.dim(), |sq| cell(snapshot, sq))
}

/// A `dim` x `dim` grid of `cell`s, top rank first, with coordinates and the legend.
fn grid(dim: u8, cell: impl Fn(Square) -> char) -> String {
    let mut lines = vec!["```".to_owned(), files_line(dim)];
    for rank in (0..dim).rev() {
        let cells: Vec<String> = (0..dim)
            .map(|file| cell(Square::new(file, rank)).to_string())
            .collect();
        let number = u32::from(rank) + 1;
        lines.push(format!("{number:>2}  {}  {number}", cells.join(" ")));
    }
    lines.push(files_line(dim));
    lines.push("```".to_owned());
    lines.push(LEGEND.to_owned());
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_board_the_engine_plays_fits_one_message_with_room_to_spare() {
        let text = grid(tafl_engine::MAX_DIM, |_| 'A');
        assert!(
            text.chars().count() < 1200,
            "{} characters",
            text.chars().count()
        );
        assert!(text.contains("19  A A"), "{text}");
        assert!(
            text.contains("    a b c d e f g h i j k l m n o p q r s"),
            "{text}"
        );
    }

    #[test]
    fn rank_one_is_at_the_bottom_and_file_a_on_the_left() {
        let text = grid(7, |sq| if sq == Square::new(0, 0) { 'K' } else { '.' });
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows[2], " 7  . . . . . . .  7");
        assert_eq!(rows[8], " 1  K . . . . . .  1");
    }
}
