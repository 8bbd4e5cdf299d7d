//! A minimal OpenTafl game record (.otg) writer for match games: tags, the rules tag last,
//! then numbered turns of canonical moves with captures.

use tafl_engine::{Game, Outcome, Side};

pub fn write(game: &Game, tags: &[(String, String)]) -> String {
    let mut out = String::new();
    for (name, value) in tags {
        out.push_str(&format!(
            "[{name}:{}]\n",
            value.replace(['[', ']', '\n'], " ")
        ));
    }
    let result = match game.outcome() {
        Some(Outcome::Win {
            winner: Side::Attackers,
            ..
        }) => "1",
        Some(Outcome::Win {
            winner: Side::Defenders,
            ..
        }) => "-1",
        Some(Outcome::Draw { .. }) => "0",
        None => "?",
    };
    out.push_str(&format!("[result:{result}]\n"));
    if let Some(outcome) = game.outcome() {
        out.push_str(&format!("[termination:{}]\n", outcome.describe()));
    }
    if *game.start_position() != game.rules().start_position() {
        out.push_str(&format!(
            "[position:{}]\n",
            game.start_position().to_opentafl()
        ));
    }
    out.push_str(&format!("[rules:{}]\n\n", game.rules().to_opentafl()));
    for (turn, pair) in game.history().chunks(2).enumerate() {
        let moves: Vec<&str> = pair.iter().map(|r| r.notation.as_str()).collect();
        out.push_str(&format!("{}. {}\n", turn + 1, moves.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_tags_rules_and_numbered_turns() {
        let mut game = Game::new(tafl_engine::variant("brandubh").unwrap().rules());
        for mv in ["a4-a3", "d3-c3", "a3-a4"] {
            game.play_str(mv).unwrap();
        }
        let text = write(&game, &[("attackers".into(), "level 1".into())]);
        assert!(
            text.starts_with("[attackers:level 1]\n[result:?]\n[rules:dim:7"),
            "{text}"
        );
        assert!(text.ends_with("\n\n1. a4-a3 d3-c3\n2. a3-a4\n"), "{text}");
    }
}
