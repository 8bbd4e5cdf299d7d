//! The description (alt text) of every board image the bot sends, for screen readers: the
//! board, the last move and its captures, the king's open roads, whose turn or the result.
//! Discord takes at most 1,024 characters.

use tafl_engine::{Piece, WarningKind};

use crate::service::BoardSnapshot;

use super::posts::side_title;

/// The most characters Discord keeps in an attachment's description.
pub const MAX_ALT_CHARS: usize = 1024;

fn squares<T: ToString>(list: &[T]) -> String {
    list.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The alt text of the board drawn from `snapshot` (turned half a turn when `flipped`).
pub fn describe(snapshot: &BoardSnapshot, flipped: bool) -> String {
    let dim = snapshot.rules.dim();
    let position = &snapshot.position;
    let mut sentences = Vec::new();
    if flipped {
        sentences.push("Seen from the other edge (flipped).".to_owned());
    }
    sentences.push(format!(
        "Tafl board, {dim} by {dim}, game #{} ({}), after {} moves.",
        snapshot.game_id, snapshot.players, snapshot.ply
    ));
    let king = position
        .king()
        .map(|sq| format!(", the king on {sq}"))
        .unwrap_or_default();
    sentences.push(format!(
        "Attackers: {} pieces. Defenders: {} pieces{king}.",
        position.count(Piece::Attacker),
        position.count(Piece::Defender),
    ));
    if let (Some(mv), Some(side)) = (snapshot.last_move, snapshot.moved) {
        let mut last = format!("Last move: {side} played {mv}");
        if !snapshot.captures.is_empty() {
            last.push_str(&format!(", capturing {}", squares(&snapshot.captures)));
        }
        if let Some(king) = snapshot.king_captured {
            last.push_str(&format!(", capturing the king on {king}"));
        }
        sentences.push(format!("{last}."));
    }
    if let Some(warning) = &snapshot.warning {
        let roads = match warning.kind {
            WarningKind::Raichi => "Raichi: the king has an open road to",
            WarningKind::Tuichu => "Tuichu: the king has open roads to",
        };
        let ends: Vec<String> = warning
            .paths
            .iter()
            .filter_map(|path| path.last().map(ToString::to_string))
            .collect();
        sentences.push(format!("{roads} {}.", ends.join(" and ")));
    }
    match (&snapshot.result, snapshot.to_move) {
        (Some(result), _) => sentences.push(format!(
            "Game over: {} ({}).",
            result.badge(),
            result.reason.describe()
        )),
        (None, Some(side)) => sentences.push(format!("{} to move.", side_title(side))),
        (None, None) => sentences.push("Game over.".to_owned()),
    }
    fit(sentences.join(" "))
}

/// The alt text of a variant's start position (for /rules).
pub fn describe_start(name: &str, rules: &tafl_engine::Rules) -> String {
    let dim = rules.dim();
    let start = rules.start_position();
    fit(format!(
        "Start position of {name}, {dim} by {dim}: {} attackers, {} defenders and the king{}. {} move first.",
        start.count(Piece::Attacker),
        start.count(Piece::Defender),
        start
            .king()
            .map(|sq| format!(" on {sq}"))
            .unwrap_or_default(),
        side_title(rules.first_to_move())
    ))
}

fn fit(text: String) -> String {
    if text.chars().count() <= MAX_ALT_CHARS {
        return text;
    }
    let cut: String = text.chars().take(MAX_ALT_CHARS - 1).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_descriptions_are_cut_to_discords_limit() {
        let long = fit("x".repeat(5000));
        assert_eq!(long.chars().count(), MAX_ALT_CHARS);
        assert_eq!(fit("short".into()), "short");
    }

    #[test]
    fn the_start_of_a_variant_is_described() {
        let rules = tafl_engine::variant("brandubh").map(|v| v.rules());
        let text = describe_start("Brandubh", &rules.unwrap_or_else(|| panic!("brandubh")));
        assert!(text.contains("7 by 7"), "{text}");
        assert!(
            text.contains("8 attackers, 4 defenders and the king on d4"),
            "{text}"
        );
    }
}
