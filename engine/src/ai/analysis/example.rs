//! The example game an analysis is shown and tested with, from the engine to the web page: a
//! made-up Brandubh position where the attackers' soldier on a2 keeps the king on a3 from
//! the corner a1 (and the defender on a5 keeps every attacker off a4). Ply 1 (attackers)
//! a2-b2 lets him through: a blunder. Ply 2 (defenders) a3-b3 walks away from the escape and
//! into a capture: a missed win. Ply 3 (attackers) b6-b4 takes the king.

/// The start, as an OpenTafl position record (first row = rank 1, as the notation has it).
pub const START: &str = "/7/t4t1/K2t3/7/T6/1t2t2/7/";

/// The game's moves from [`START`], attackers first.
pub const MOVES: [&str; 3] = ["a2-b2", "a3-b3", "b6-b4"];

/// Brandubh's rules from [`START`] with the attackers first, as an OpenTafl rules string (what
/// a challenge's custom rules take).
pub fn rules_string() -> String {
    let Some(brandubh) = crate::variant("brandubh") else {
        return String::new();
    };
    let rules = brandubh.rules().to_opentafl();
    let mut tokens: Vec<&str> = rules
        .split_whitespace()
        .filter(|t| !t.starts_with("start:") && !t.starts_with("atkf:"))
        .collect();
    let start = format!("start:{START}");
    tokens.push("atkf:y");
    tokens.push(&start);
    tokens.join(" ")
}
