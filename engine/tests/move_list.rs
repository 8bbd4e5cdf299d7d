//! The move lists of public tafl archives: numbered turns, captures on the move or as their own
//! word, a result at the end; each move replayed by the referee and the first illegal one
//! refused with its ply, its text and the referee's reason.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use tafl_engine::move_list::{self, ClaimedResult, MoveListError};
use tafl_engine::{MoveError, Piece, Rules, Side, Square};

const BRANDUB: &str = "dim:7 name:Brandub_Strong_Center_King surf:n atkf:y ks:c nj:n cj:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// Xerxes vs Animals, Tafl Triathlon 2015 (engine/tests/games/), as an archive lists it.
const ARCHIVE_GAME: &str = "[Event \"Tafl Triathlon 2015, Brandub\"]\n\
[Attackers \"Xerxes\"]\n\
[Defenders \"Animals\"]\n\
\n\
1. d2-e2 c4-c5 2. f4-f5 c5-a5 3. d6-a6 xa5 d5-a5xa6\n\
4. f5-d5 d3-a3xa4 5. e2-c2 a5-b5 6. b4-c4 b5-b4 xc4\n\
7. d1-d3 e4-e2 {the king's way opens} 8. d3-d2 Kd4-d3 9. g4-g3 Kd3-f3\n\
10. d2-d1 Kf3-f2 0-1\n";

fn rules() -> Rules {
    Rules::from_opentafl(BRANDUB).unwrap()
}

#[test]
fn an_archive_game_is_replayed_with_its_captures_and_result() {
    let list = move_list::read(ARCHIVE_GAME, rules()).unwrap();
    assert_eq!(list.game.ply(), 20);
    assert_eq!(list.claimed, Some(ClaimedResult::Won(Side::Defenders)));
    assert!(list.game.outcome().is_none(), "the attackers resigned");
    assert!(
        list.tags
            .contains(&("attackers".to_string(), "Xerxes".to_string()))
    );
    assert!(list.tags.contains(&(
        "event".to_string(),
        "Tafl Triathlon 2015, Brandub".to_string()
    )));
    let fifth = &list.game.history()[4];
    assert_eq!(fifth.notation, "d6-a6xa5");
}

#[test]
fn a_chess_style_capture_and_tags_with_colons_are_read() {
    let text = "[attackers:Xerxes]\n1.d2-e2 c4-c5 2.f4-f5 c5-a5 3.d6xa6 *";
    let list = move_list::read(text, rules()).unwrap();
    assert_eq!(list.game.ply(), 5);
    assert_eq!(list.claimed, None);
}

#[test]
fn an_illegal_seventh_move_is_refused_at_that_move() {
    let text = ARCHIVE_GAME.replace("4. f5-d5", "4. d4-d5");
    assert_eq!(
        move_list::read(&text, rules()).unwrap_err(),
        MoveListError::Illegal {
            ply: 7,
            text: "d4-d5".to_string(),
            error: MoveError::NotYourPiece {
                square: Square::parse("d4", 7).unwrap(),
                piece: Piece::King,
                to_move: Side::Attackers,
            },
        }
    );
    let message = move_list::read(&text, rules()).unwrap_err().to_string();
    assert!(
        message.starts_with("move 7 (d4-d5) is illegal: "),
        "{message}"
    );
}

#[test]
fn a_capture_the_referee_did_not_make_is_refused() {
    let text = ARCHIVE_GAME.replace("3. d6-a6 xa5", "3. d6-a6 xb5");
    assert!(matches!(
        move_list::read(&text, rules()),
        Err(MoveListError::Captures { ply: 5, .. })
    ));
}

#[test]
fn a_result_the_rules_contradict_is_refused() {
    let text = "1. d2-e2 c4-c5 2. f4-f5 c5-a5 1-0\n2. d6-a6";
    assert!(matches!(
        move_list::read(text, rules()),
        Err(MoveListError::AfterEnd { ply: 4, .. })
    ));
    assert_eq!(
        move_list::read("", rules()).unwrap_err(),
        MoveListError::Empty
    );
    assert!(matches!(
        move_list::read("1. d2-e2 {never closed", rules()),
        Err(MoveListError::Unclosed { .. })
    ));
}
