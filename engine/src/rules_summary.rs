//! A readable summary of a rule set, for `taflbot rules` and the `/rules` command.

use crate::piece_set::PieceSet;
use crate::rules::{Escape, KingArmed, KingStrength, Repetition, Rules, Shieldwall, SquareRules};
use crate::side::Piece;

fn who(set: PieceSet) -> String {
    let names: Vec<&str> = [
        (Piece::Attacker, "attackers"),
        (Piece::Defender, "defenders"),
        (Piece::King, "the king"),
    ]
    .into_iter()
    .filter(|(p, _)| set.contains(*p))
    .map(|(_, name)| name)
    .collect();
    match names.len() {
        0 => "nobody".to_string(),
        3 => "everyone".to_string(),
        _ => names.join(" and "),
    }
}

fn square_lines(out: &mut Vec<String>, name: &str, r: &SquareRules, throne: bool) {
    out.push(format!(
        "- {name}: may be passed by {}; stopped on by {}; entered again by {}",
        who(r.pass),
        who(r.stop),
        who(r.reenter)
    ));
    if throne {
        out.push(format!(
            "  hostile to {} while empty, to {} while the king is on it",
            who(r.hostile_empty),
            who(r.hostile)
        ));
    } else {
        out.push(format!("  hostile to {}", who(r.hostile_empty)));
    }
}

impl Rules {
    /// A readable, multi-line summary of these rules.
    pub fn summary(&self) -> String {
        let mut out = Vec::new();
        let start = self.start_position();
        out.push(format!(
            "{}x{} board; {} attackers against {} defenders and the king; the {} move first.",
            self.dim,
            self.dim,
            start.count(Piece::Attacker),
            start.count(Piece::Defender),
            self.first_to_move()
        ));
        out.push(match self.escape {
            Escape::Edge => "The defenders win when the king reaches any edge square.".into(),
            Escape::Corner => "The defenders win when the king reaches a corner square.".into(),
        });
        out.push("Pieces move like rooks and never jump; a piece is captured between two enemies (or an enemy and a hostile square), only by the enemy's move.".into());
        out.push(match self.king_strength {
            KingStrength::Strong => "The king is captured when surrounded on all four sides by attackers or hostile squares.".into(),
            KingStrength::StrongNearThrone => "The king is captured by four on the throne, by three beside it (the throne making the fourth), and between two attackers elsewhere.".into(),
            KingStrength::Middleweight => "The king is captured when every side is an attacker, a hostile square or the board edge.".into(),
            KingStrength::Weak => "The king is captured between two attackers like any piece.".into(),
        });
        if self.king_strong_on_throne && self.king_strength != KingStrength::Strong {
            out.push("On the throne the king is captured only by four attackers.".into());
        }
        out.push(match self.king_armed {
            KingArmed::Yes => "The king is armed: he captures and helps capture.".into(),
            KingArmed::AnvilOnly => {
                "The king helps capture as the anvil but cannot capture by moving.".into()
            }
            KingArmed::HammerOnly => {
                "The king captures by moving but cannot be captured against.".into()
            }
            KingArmed::No => "The king is unarmed: he never takes part in captures.".into(),
        });
        if let Some(limit) = self.speed_limit(Piece::King) {
            out.push(format!("The king moves at most {limit} squares."));
        }
        for piece in [Piece::Attacker, Piece::Defender] {
            if let Some(limit) = self.speed_limit(piece) {
                out.push(format!("A {piece} moves at most {limit} squares."));
            }
        }
        if !self.thrones.is_empty() {
            square_lines(&mut out, "Throne", &self.throne_rules, true);
        }
        if !self.corners.is_empty() {
            square_lines(&mut out, "Corners", &self.corner_rules, false);
        }
        if !self.attacker_fortresses.is_empty() {
            square_lines(
                &mut out,
                "Attacker fortresses",
                &self.attacker_fortress_rules,
                false,
            );
        }
        if !self.defender_fortresses.is_empty() {
            square_lines(
                &mut out,
                "Defender fortresses",
                &self.defender_fortress_rules,
                false,
            );
        }
        if self.linnaean_capture {
            out.push("A defender beside the king on the throne, whose other three sides are held by attackers, can be captured against the throne.".into());
        }
        if self.slavic_capture {
            out.push("A defender between two attackers with the king on its third side is captured by an attacker closing the fourth.".into());
        }
        if self.king_rescue {
            out.push("When the king is captured, the defenders get one move to free him; otherwise the attackers win.".into());
        }
        match self.shieldwall {
            Shieldwall::None => {}
            Shieldwall::Weak => {
                out.push("Shieldwall captures along the edge (corners cannot close them).".into())
            }
            Shieldwall::Strong => {
                out.push("Shieldwall captures along the edge (a corner may close one).".into())
            }
        }
        if self.edge_fort_escape {
            out.push(
                "The defenders also win with an unbreakable edge fort around a king who can move."
                    .into(),
            );
        }
        if self.encirclement {
            out.push("The attackers also win by encircling the king and all his defenders.".into());
        }
        if self.draw_forts {
            out.push("Draw forts are forbidden: if the defenders repeat their arrangement three times with no capture (king plus five men or more), the attackers win.".into());
        }
        out.push(match self.repetition {
            Repetition::Ignore => "Repetitions are allowed.".into(),
            Repetition::Draw => "A position repeated a third time is a draw.".into(),
            Repetition::MoverLoses => "Whoever repeats a position a third time loses.".into(),
            Repetition::MoverWins => "Whoever repeats a position a third time wins.".into(),
            Repetition::DefendersLose => {
                "A position repeated a third time loses for the defenders.".into()
            }
        });
        out.push("A player with no legal move loses.".into());
        out.join("\n")
    }
}
