//! OpenTafl rules strings (notation spec section 3): `dim:11 esc:c ... start:/.../`, read and
//! written so that a written string reads back to the same rules. Keys this engine adds for
//! rules OpenTafl lacks start with `x`: `xslc` (Slavic special capture), `xres` (Slavic king
//! rescue move), `xdf` (draw forts forbidden), `xkt` (the
//! king strong on the throne, whatever `ks` says of him elsewhere), `xrdl`
//! (a threefold repetition loses for the defenders, whoever made it: Copenhagen).

use crate::bitboard::Bitboard;
use crate::error::RulesParseError;
use crate::piece_set::PieceSet;
use crate::position::Position;
use crate::rules::{Escape, KingArmed, KingStrength, Repetition, Rules, Shieldwall, SquareRules};
use crate::side::{Piece, Side};
use crate::square::{MAX_DIM, MIN_DIM, Square};

impl Rules {
    /// Rules with OpenTafl's defaults for every entry, on `start`'s board.
    pub fn opentafl_defaults(start: Position) -> Rules {
        let dim = start.dim();
        let mut rules = Rules::new_unbuilt(dim, start);
        rules.corners = physical_corners(dim);
        rules.thrones = physical_centre(dim);
        rules.corner_rules = SquareRules {
            hostile: PieceSet::ALL,
            hostile_empty: PieceSet::ALL,
            pass: PieceSet::KING,
            stop: PieceSet::KING,
            reenter: PieceSet::ALL,
        };
        rules.throne_rules = SquareRules {
            hostile: PieceSet::ATTACKERS,
            hostile_empty: PieceSet::ALL,
            pass: PieceSet::ALL,
            stop: PieceSet::KING,
            reenter: PieceSet::ALL,
        };
        rules.attacker_fortress_rules = SquareRules {
            hostile: PieceSet::DEFENDERS,
            hostile_empty: PieceSet::DEFENDERS,
            pass: PieceSet::ALL,
            stop: PieceSet::ALL,
            reenter: PieceSet::ALL,
        };
        rules.defender_fortress_rules = SquareRules {
            hostile: PieceSet::ATTACKERS,
            hostile_empty: PieceSet::ATTACKERS,
            pass: PieceSet::DEFENDERS,
            stop: PieceSet::DEFENDERS,
            reenter: PieceSet::ALL,
        };
        rules.rebuild();
        rules
    }

    /// Reads an OpenTafl rules string.
    pub fn from_opentafl(text: &str) -> Result<Rules, RulesParseError> {
        let entries: Vec<&str> = text.split_whitespace().collect();
        let first = entries.first().ok_or(RulesParseError::MissingDim)?;
        let dim_text = first
            .strip_prefix("dim:")
            .ok_or(RulesParseError::MissingDim)?;
        let dim: u32 = dim_text.parse().map_err(|_| RulesParseError::BadValue {
            key: "dim".into(),
            value: dim_text.into(),
            expected: "a whole number from 7 to 19",
        })?;
        if dim < MIN_DIM as u32 || dim > MAX_DIM as u32 {
            return Err(RulesParseError::BadDim(dim));
        }
        let dim = dim as u8;
        let last = entries.last().ok_or(RulesParseError::MissingStart)?;
        let start = if let Some(record) = last.strip_prefix("start:") {
            Position::from_opentafl(record, Side::Attackers)?
        } else if let Some(record) = last.strip_prefix("starti:") {
            let inverted: Vec<&str> = record.trim_matches('/').split('/').rev().collect();
            Position::from_opentafl(&format!("/{}/", inverted.join("/")), Side::Attackers)?
        } else {
            return Err(RulesParseError::MissingStart);
        };
        if start.dim() != dim {
            return Err(RulesParseError::DimMismatch {
                dim,
                found: start.dim(),
            });
        }
        let mut rules = Rules::opentafl_defaults(start);
        let mut seen: Vec<&str> = Vec::new();
        for entry in &entries[1..entries.len() - 1] {
            let (key, value) = entry
                .split_once(':')
                .ok_or_else(|| RulesParseError::BadEntry(entry.to_string()))?;
            if seen.contains(&key) {
                return Err(RulesParseError::RepeatedKey(key.to_string()));
            }
            seen.push(key);
            apply_entry(&mut rules, key, value)?;
        }
        rules.rebuild();
        Ok(rules)
    }

    /// Writes the rules as an OpenTafl rules string that reads back to the same rules.
    pub fn to_opentafl(&self) -> String {
        let yn = |b: bool| if b { "y" } else { "n" };
        let mut parts = vec![format!("dim:{}", self.dim)];
        parts.push(format!(
            "esc:{}",
            match self.escape {
                Escape::Corner => "c",
                Escape::Edge => "e",
            }
        ));
        parts.push(format!("surf:{}", yn(self.encirclement)));
        parts.push(format!("atkf:{}", yn(self.attackers_first)));
        parts.push(format!(
            "tfr:{}",
            match self.repetition {
                Repetition::Ignore => "i",
                Repetition::Draw => "d",
                Repetition::MoverWins => "w",
                Repetition::MoverLoses | Repetition::DefendersLose => "l",
            }
        ));
        parts.push(format!(
            "ka:{}",
            match self.king_armed {
                KingArmed::Yes => "y",
                KingArmed::No => "n",
                KingArmed::AnvilOnly => "a",
                KingArmed::HammerOnly => "h",
            }
        ));
        parts.push(format!(
            "ks:{}",
            match self.king_strength {
                KingStrength::Strong => "s",
                KingStrength::StrongNearThrone => "c",
                KingStrength::Middleweight => "m",
                KingStrength::Weak => "w",
            }
        ));
        if self.speed_limits.iter().any(Option::is_some) {
            let limit =
                |p: Piece| self.speed_limits[p.index()].map_or("-1".to_string(), |l| l.to_string());
            // tcnkm TCNKM order: attackers' kinds, then defenders' with the king fourth.
            let a = limit(Piece::Attacker);
            let d = limit(Piece::Defender);
            let k = limit(Piece::King);
            parts.push(format!("spd:{a},{a},{a},-1,{a},{d},{d},{d},{k},{d}"));
        }
        parts.push(format!("cor:{}", space_list(&self.corners)));
        parts.push(format!("cen:{}", space_list(&self.thrones)));
        parts.push(format!("afor:{}", space_list(&self.attacker_fortresses)));
        parts.push(format!("dfor:{}", space_list(&self.defender_fortresses)));
        for (prefix, r) in [
            ("cor", &self.corner_rules),
            ("cen", &self.throne_rules),
            ("afor", &self.attacker_fortress_rules),
            ("dfor", &self.defender_fortress_rules),
        ] {
            parts.push(format!("{prefix}h:{}", r.hostile.to_opentafl()));
            if prefix == "cen" {
                parts.push(format!("cenhe:{}", r.hostile_empty.to_opentafl()));
            }
            parts.push(format!("{prefix}p:{}", r.pass.to_opentafl()));
            parts.push(format!("{prefix}s:{}", r.stop.to_opentafl()));
            parts.push(format!("{prefix}re:{}", r.reenter.to_opentafl()));
        }
        parts.push(format!(
            "sw:{}",
            match self.shieldwall {
                Shieldwall::None => "n",
                Shieldwall::Weak => "w",
                Shieldwall::Strong => "s",
            }
        ));
        parts.push(format!("swf:{}", yn(self.shieldwall_flank_required)));
        parts.push(format!("efe:{}", yn(self.edge_fort_escape)));
        parts.push(format!("linc:{}", yn(self.linnaean_capture)));
        if self.slavic_capture {
            parts.push("xslc:y".into());
        }
        if self.king_rescue {
            parts.push("xres:y".into());
        }
        if self.king_strong_on_throne {
            parts.push("xkt:y".into());
        }
        if self.draw_forts {
            parts.push("xdf:y".into());
        }
        if self.repetition == Repetition::DefendersLose {
            parts.push("xrdl:y".into());
        }
        parts.push(format!("start:{}", self.start.to_opentafl()));
        parts.join(" ")
    }
}

fn physical_corners(dim: u8) -> Bitboard {
    let last = dim - 1;
    [(0, 0), (0, last), (last, 0), (last, last)]
        .into_iter()
        .map(|(f, r)| Square::new(f, r))
        .collect()
}

fn physical_centre(dim: u8) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    if dim % 2 == 1 {
        set.insert(Square::new(dim / 2, dim / 2));
    }
    set
}

fn space_list(squares: &Bitboard) -> String {
    squares.squares().map(|sq| format!("{sq},")).collect()
}

fn bad(key: &str, value: &str, expected: &'static str) -> RulesParseError {
    RulesParseError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        expected,
    }
}

fn yes_no(key: &str, value: &str) -> Result<bool, RulesParseError> {
    match value {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(bad(key, value, "y or n")),
    }
}

fn pieces(key: &str, value: &str) -> Result<PieceSet, RulesParseError> {
    PieceSet::from_opentafl(value).ok_or_else(|| bad(key, value, "piece letters from tcnkmgTCNKMG"))
}

fn squares(key: &str, value: &str, dim: u8) -> Result<Bitboard, RulesParseError> {
    let mut set = Bitboard::EMPTY;
    for item in value.split(',').filter(|s| !s.is_empty()) {
        let sq = Square::parse(item, dim)
            .map_err(|_| bad(key, value, "a comma-separated list of squares, like a1,a2,"))?;
        set.insert(sq);
    }
    Ok(set)
}

fn apply_entry(rules: &mut Rules, key: &str, value: &str) -> Result<(), RulesParseError> {
    let dim = rules.dim;
    match key {
        "name" => {}
        "esc" => {
            rules.escape = match value {
                "c" => Escape::Corner,
                "e" => Escape::Edge,
                _ => return Err(bad(key, value, "c (corner) or e (edge)")),
            }
        }
        "surf" => rules.encirclement = yes_no(key, value)?,
        "atkf" => rules.attackers_first = yes_no(key, value)?,
        "tfr" => {
            rules.repetition = match value {
                "i" => Repetition::Ignore,
                "d" => Repetition::Draw,
                "w" => Repetition::MoverWins,
                "l" => Repetition::MoverLoses,
                _ => return Err(bad(key, value, "i, d, w or l")),
            }
        }
        "ka" => {
            rules.king_armed = match value {
                "y" => KingArmed::Yes,
                "n" => KingArmed::No,
                "a" => KingArmed::AnvilOnly,
                "h" => KingArmed::HammerOnly,
                _ => return Err(bad(key, value, "y, n, a (anvil only) or h (hammer only)")),
            }
        }
        "ks" => {
            rules.king_strength = match value {
                "s" | "y" => KingStrength::Strong,
                "w" | "n" => KingStrength::Weak,
                "c" => KingStrength::StrongNearThrone,
                "m" => KingStrength::Middleweight,
                _ => return Err(bad(key, value, "s, c, m or w")),
            }
        }
        "kj" => {
            if value != "n" {
                return Err(RulesParseError::Unsupported("king jumps (kj)".into()));
            }
        }
        "nj" | "cj" | "mj" | "gj" => {
            if !matches!(value, "n" | "r" | "j" | "c") {
                return Err(bad(key, value, "n, r, j or c"));
            }
        }
        "ber" => {
            if value != "n" {
                return Err(RulesParseError::Unsupported("berserk moves (ber)".into()));
            }
        }
        "spd" => rules.speed_limits = speed_limits(value)?,
        "cor" => rules.corners = squares(key, value, dim)?,
        "cen" => rules.thrones = squares(key, value, dim)?,
        "afor" => rules.attacker_fortresses = squares(key, value, dim)?,
        "dfor" => rules.defender_fortresses = squares(key, value, dim)?,
        "corh" => {
            let set = pieces(key, value)?;
            rules.corner_rules.hostile = set;
            rules.corner_rules.hostile_empty = set;
        }
        "cenh" => rules.throne_rules.hostile = pieces(key, value)?,
        "cenhe" => rules.throne_rules.hostile_empty = pieces(key, value)?,
        "aforh" => {
            let set = pieces(key, value)?;
            rules.attacker_fortress_rules.hostile = set;
            rules.attacker_fortress_rules.hostile_empty = set;
        }
        "dforh" => {
            let set = pieces(key, value)?;
            rules.defender_fortress_rules.hostile = set;
            rules.defender_fortress_rules.hostile_empty = set;
        }
        "corp" => rules.corner_rules.pass = pieces(key, value)?,
        "cenp" => rules.throne_rules.pass = pieces(key, value)?,
        "aforp" => rules.attacker_fortress_rules.pass = pieces(key, value)?,
        "dforp" => rules.defender_fortress_rules.pass = pieces(key, value)?,
        "cors" => rules.corner_rules.stop = pieces(key, value)?,
        "cens" => rules.throne_rules.stop = pieces(key, value)?,
        "afors" => rules.attacker_fortress_rules.stop = pieces(key, value)?,
        "dfors" => rules.defender_fortress_rules.stop = pieces(key, value)?,
        "corre" => rules.corner_rules.reenter = pieces(key, value)?,
        "cenre" => rules.throne_rules.reenter = pieces(key, value)?,
        "aforre" => rules.attacker_fortress_rules.reenter = pieces(key, value)?,
        "dforre" => rules.defender_fortress_rules.reenter = pieces(key, value)?,
        "sw" => {
            rules.shieldwall = match value {
                "n" => Shieldwall::None,
                "w" => Shieldwall::Weak,
                "s" => Shieldwall::Strong,
                _ => return Err(bad(key, value, "n, w or s")),
            }
        }
        "swf" => rules.shieldwall_flank_required = yes_no(key, value)?,
        "efe" => rules.edge_fort_escape = yes_no(key, value)?,
        "linc" => rules.linnaean_capture = yes_no(key, value)?,
        "xslc" => rules.slavic_capture = yes_no(key, value)?,
        "xres" => rules.king_rescue = yes_no(key, value)?,
        "xdf" => rules.draw_forts = yes_no(key, value)?,
        "xkt" => rules.king_strong_on_throne = yes_no(key, value)?,
        "xrdl" => {
            if yes_no(key, value)? {
                rules.repetition = Repetition::DefendersLose;
            }
        }
        "dim" | "start" | "starti" => {
            return Err(RulesParseError::BadEntry(format!(
                "{key}:{value} (dim comes first and start last)"
            )));
        }
        _ => return Err(RulesParseError::UnknownKey(key.to_string())),
    }
    Ok(())
}

/// `spd:-1`, `spd:N`, `spd:A,D`, or per-kind lists of 8, 10 or 12 in `tcnk[m[g]]TCNK[M[G]]` order.
fn speed_limits(value: &str) -> Result<[Option<u8>; 3], RulesParseError> {
    let expected = "-1, one limit, two (attackers,defenders), or 8, 10 or 12 per-kind limits";
    let numbers: Vec<i32> = value
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().parse::<i32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad("spd", value, expected))?;
    let limit = |n: i32| -> Result<Option<u8>, RulesParseError> {
        match n {
            -1 => Ok(None),
            1..=18 => Ok(Some(n as u8)),
            _ => Err(bad("spd", value, "limits from 1 to 18, or -1 for none")),
        }
    };
    let per_side = numbers.len() / 2;
    let (a, d, k) = match numbers.len() {
        1 => (numbers[0], numbers[0], numbers[0]),
        2 => (numbers[0], numbers[1], numbers[1]),
        8 | 10 | 12 => (numbers[0], numbers[per_side], numbers[per_side + 3]),
        _ => return Err(bad("spd", value, expected)),
    };
    Ok([limit(a)?, limit(d)?, limit(k)?])
}
