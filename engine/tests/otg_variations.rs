//! OpenTafl records with variations and comments: read into a tree whose every line the
//! referee replayed, and written back to the same tree.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use tafl_engine::otg::{self, OtgError};
use tafl_engine::{GameRecord, LineOfPlay};

const BRANDUB: &str = "[rules:dim:7 name:Brandub_Strong_Center_King surf:n atkf:y ks:c nj:n cj:n cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]";

/// An annotated game: comments on both sides' moves, a variation off the defenders' second
/// move (so its first turn opens with a placeholder) and a variation inside that variation.
fn annotated() -> String {
    format!(
        "[event:Brandub club evening]\n[attackers:Xerxes]\n[defenders:Animals]\n[annotator:Ann]\n{BRANDUB}\n\n\
1. d2-e2 c4-c5\n\
[The attackers open to the east.|]\n\
2. f4-f5 c5-a5\n\
2b.1.1a. ..... c5-c6\n\
[|Quieter, and\nperhaps better.]\n\
2b.1.2a. f5-f6 d5-b5\n\
2b.1.2a.1.1a. f5-e5\n\
3. d6-a6xa5 d5-a5xa6\n\
[|Trading back.]\n\
4. f5-d5\n"
    )
}

fn moves(line: &LineOfPlay) -> Vec<String> {
    line.moves.iter().map(|m| m.report.mv.to_string()).collect()
}

#[test]
fn variations_and_comments_are_read_into_the_tree() {
    let record = otg::read_record(&annotated()).unwrap();
    assert_eq!(record.game.ply(), 7);
    assert_eq!(record.main.moves.len(), 7);
    assert!(
        record
            .tags
            .contains(&("annotator".to_string(), "Ann".to_string()))
    );
    assert_eq!(
        record.main.moves[0].comment.as_deref(),
        Some("The attackers open to the east.")
    );
    assert_eq!(record.main.moves[1].comment, None);
    assert_eq!(
        record.main.moves[5].comment.as_deref(),
        Some("Trading back.")
    );

    let side = &record.main.moves[3].variations;
    assert_eq!(side.len(), 1, "one variation instead of 2b (c5-a5)");
    assert_eq!(moves(&side[0]), ["c5-c6", "f5-f6", "d5-b5"]);
    assert_eq!(
        side[0].moves[0].report.ply, 4,
        "the variation replaces ply 4"
    );
    assert_eq!(
        side[0].moves[0].comment.as_deref(),
        Some("Quieter, and\nperhaps better.")
    );
    let nested = &side[0].moves[1].variations;
    assert_eq!(nested.len(), 1);
    assert_eq!(moves(&nested[0]), ["f5-e5"]);
    assert_eq!(nested[0].moves[0].report.ply, 5);
}

#[test]
fn a_written_tree_reads_back_the_same() {
    let record = otg::read_record(&annotated()).unwrap();
    let written = otg::write_record(&record);
    assert!(written.contains("2b.1.1a. ..... c5-c6\n"), "{written}");
    assert!(written.contains("2b.1.2a.1.1a. f5-e5\n"), "{written}");
    let again = otg::read_record(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(again.main, record.main, "{written}");
    assert_eq!(again.tags, record.tags);
    assert_eq!(otg::write_record(&again), written);
}

#[test]
fn comments_cannot_break_the_record_they_are_written_into() {
    let mut record = otg::read_record(&annotated()).unwrap();
    record.main.moves[2].comment = Some("a [bracketed] aside | with a bar".to_string());
    let written = otg::write_record(&record);
    let again = otg::read_record(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(
        again.main.moves[2].comment.as_deref(),
        Some("a (bracketed) aside / with a bar")
    );
}

#[test]
fn an_illegal_move_in_a_variation_is_refused_with_its_ply() {
    let text = annotated().replace("2b.1.2a. f5-f6 d5-b5", "2b.1.2a. f5-f6 d5-d7");
    match otg::read_record(&text) {
        Err(OtgError::Illegal { ply, text, .. }) => {
            assert_eq!((ply, text.as_str()), (6, "d5-d7"));
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

#[test]
fn a_variation_off_a_move_that_is_not_there_is_refused() {
    let text = annotated().replace("2b.1.2a.1.1a. f5-e5", "2b.1.5a.1.1a. f5-e5");
    let error = otg::read_record(&text).unwrap_err();
    assert!(
        matches!(error, OtgError::BadAddress { line: 14, .. }),
        "{error:?}"
    );
    let text = annotated().replace("2b.1.2a. f5-f6 d5-b5", "2b.1.3a. f5-f6 d5-b5");
    let error = otg::read_record(&text).unwrap_err();
    assert!(
        matches!(error, OtgError::OutOfOrder { line: 13, .. }),
        "{error:?}"
    );
}

#[test]
fn a_plain_game_is_a_tree_without_branches() {
    let (game, tags) = otg::read(&annotated()).unwrap();
    let record = GameRecord::from_game(game, tags);
    assert!(record.main.moves.iter().all(|m| m.variations.is_empty()));
    let before = record.game_before(4).unwrap();
    assert_eq!(before.ply(), 3);
    assert!(record.game_before(9).is_none());
}
