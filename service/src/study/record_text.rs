//! The texts an imported record carries (its tags, the players' names among them, its
//! comments, its variations' comments) are stored as the record writes them, so each must be
//! text a database column can hold: the NUL character is the one character no column holds
//! (PostgreSQL refuses it with a 500-worthy error, SQLite would keep it and serve it back).
//! Every import (the API, the web form, the command line) passes through [`check_record_text`]
//! before anything is stored, and the refusal says where the NUL is in the record's terms.

use tafl_engine::{GameRecord, LineOfPlay};

use crate::{Result, ServiceError};

const NUL: char = '\0';

/// Refuses `text`, the record as sent, when it holds a NUL: named by where it is in `record`
/// (a tag, the comment on a move) when the record could be read, else by its line.
pub(super) fn check_record_text(text: &str, record: Option<&GameRecord>) -> Result<()> {
    if !text.contains(NUL) {
        return Ok(());
    }
    let place = record
        .and_then(nul_in_record)
        .unwrap_or_else(|| nul_line(text));
    Err(ServiceError::NulCharacter(place))
}

/// Where in `record` the first NUL is: a tag, or a comment on the principal line or in a
/// variation.
fn nul_in_record(record: &GameRecord) -> Option<String> {
    let tag = record
        .tags
        .iter()
        .find(|(name, value)| name.contains(NUL) || value.contains(NUL));
    if let Some((name, _)) = tag {
        return Some(format!("the [{}] tag", name.replace(NUL, "\\u0000")));
    }
    nul_in_line(&record.main, 1, false)
}

/// The first comment holding a NUL in `line`, whose first move is ply `first_ply`.
fn nul_in_line(line: &LineOfPlay, first_ply: u32, in_variation: bool) -> Option<String> {
    line.moves.iter().zip(first_ply..).find_map(|(m, ply)| {
        if m.comment.as_deref().is_some_and(|c| c.contains(NUL)) {
            let whose = if in_variation { " in a variation" } else { "" };
            return Some(format!(
                "the comment on move {ply} ({}){whose}",
                m.report.notation
            ));
        }
        // A variation is played instead of this move: its first move is this ply again.
        m.variations
            .iter()
            .find_map(|variation| nul_in_line(variation, ply, true))
    })
}

/// The record's line (from 1) holding the first NUL: for a record that could not be read.
fn nul_line(text: &str) -> String {
    let line = text
        .lines()
        .position(|l| l.contains(NUL))
        .map_or(1, |i| i + 1);
    format!("line {line} of the record")
}

#[cfg(test)]
mod tests {
    use tafl_engine::otg;

    use super::*;

    fn brandubh() -> String {
        tafl_engine::variant("brandubh")
            .map(|v| v.rules().to_opentafl())
            .unwrap_or_default()
    }

    fn refusal(text: &str) -> String {
        let record = otg::read_record(text).ok();
        match check_record_text(text, record.as_ref()) {
            Err(ServiceError::NulCharacter(place)) => place,
            other => panic!("not refused for a NUL: {other:?}"),
        }
    }

    #[test]
    fn a_nul_is_named_by_its_tag_comment_or_line() {
        let rules = brandubh();
        let clean = format!("[event:Club]\n[rules:{rules}]\n\n1. d2-e2 c4-c5\n[A comment.|]\n");
        let record = otg::read_record(&clean).unwrap();
        assert!(check_record_text(&clean, Some(&record)).is_ok());
        assert_eq!(
            refusal(&format!(
                "[event:Cl\0ub]\n[rules:{rules}]\n\n1. d2-e2 c4-c5\n"
            )),
            "the [event] tag"
        );
        assert_eq!(
            refusal(&format!(
                "[attackers:X\0]\n[rules:{rules}]\n\n1. d2-e2 c4-c5\n"
            )),
            "the [attackers] tag"
        );
        assert_eq!(
            refusal(&format!(
                "[rules:{rules}]\n\n1. d2-e2 c4-c5\n[|A \0comment.]\n"
            )),
            "the comment on move 2 (c4-c5)"
        );
        assert_eq!(
            refusal(&format!(
                "[rules:{rules}]\n\n1. d2-e2 c4-c5\n1b.1.1a. ..... c4-c6\n[|Qu\0iet.]\n"
            )),
            "the comment on move 2 (c4-c6) in a variation"
        );
        assert_eq!(
            refusal(&format!("[rules:{rules}]\n\n1. d2-e2 c4\0-c5\n")),
            "line 3 of the record"
        );
    }
}
