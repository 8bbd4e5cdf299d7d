//! Property tests over random games in every preset, and parsers fed arbitrary text.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use tafl_engine::otg;
use tafl_engine::{
    Game, Move, MoveReport, Piece, Position, Rules, Side, Square, check_move, legal_moves, variants,
};

/// A small deterministic generator, so a failing case is reproduced from its seed.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game of preset `index`: up to `plies` random legal moves, stopping at the end.
fn random_game(index: usize, seed: u64, plies: usize) -> (Rules, Game, Vec<Position>) {
    let rules = variants()[index % variants().len()].rules();
    let mut rng = SplitMix(seed);
    let mut game = Game::new(rules.clone());
    let mut positions = vec![*game.position()];
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        game.play(mv).unwrap();
        positions.push(*game.position());
    }
    (rules, game, positions)
}

fn sides_count(position: &Position) -> [u32; 3] {
    [Piece::Attacker, Piece::Defender, Piece::King].map(|p| position.count(p))
}

fn check_report(before: &Position, after: &Position, report: &MoveReport) {
    // No capture of one's own pieces: every captured square held an enemy soldier.
    for &sq in &report.captures {
        let victim = before.piece_at(sq).expect("a captured square held a piece");
        assert_ne!(
            victim.side(),
            report.side,
            "{report:?} captured its own piece on {sq}"
        );
        assert_ne!(
            victim,
            Piece::King,
            "the king is never removed as a soldier"
        );
        assert_eq!(after.piece_at(sq), None);
    }
    // Counts never grow, and fall by exactly the captures.
    let (b, a) = (sides_count(before), sides_count(after));
    for i in 0..3 {
        assert!(a[i] <= b[i], "count of kind {i} grew: {b:?} -> {a:?}");
    }
    let lost: u32 = (0..3).map(|i| b[i] - a[i]).sum();
    assert_eq!(lost as usize, report.captures.len());
}

/// The fast generator and the square-by-square checker agree on every from/to pair.
fn generator_matches_checker(rules: &Rules, position: &Position) {
    let dim = position.dim();
    let mut generated = legal_moves(rules, position);
    generated.sort();
    let mut checked = Vec::new();
    for from in 0..dim * dim {
        let from = Square::new(from % dim, from / dim);
        for to in 0..dim * dim {
            let mv = Move::new(from, Square::new(to % dim, to / dim));
            if check_move(rules, position, mv).is_ok() {
                checked.push(mv);
            }
        }
    }
    checked.sort();
    assert_eq!(generated, checked, "{position:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(index in 0usize..64, seed in any::<u64>(), plies in 1usize..160) {
        let (rules, game, positions) = random_game(index, seed, plies);
        // Replaying the moves reproduces every position and report.
        let moves: Vec<Move> = game.history().iter().map(|r| r.mv).collect();
        let replayed = Game::replay(rules.clone(), positions[0], &moves).unwrap();
        prop_assert_eq!(replayed.history(), game.history());
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.outcome(), game.outcome());
        for (i, report) in game.history().iter().enumerate() {
            let (before, after) = (&positions[i], &positions[i + 1]);
            check_report(before, after, report);
            // Move notation round trips, with and without the capture suffix.
            let dim = rules.dim();
            prop_assert_eq!(Move::parse(&report.mv.to_string(), dim).unwrap(), report.mv);
            prop_assert_eq!(Move::parse(&report.notation, dim).unwrap(), report.mv);
            prop_assert_eq!(Square::parse(&report.mv.to.to_string(), dim).unwrap(), report.mv.to);
        }
        for (i, position) in positions.iter().enumerate() {
            // Position records round trip; the from-scratch hash equals the incremental one.
            let record = position.to_opentafl();
            let read = Position::from_opentafl(&record, position.side_to_move()).unwrap();
            if position.king_awaits_rescue() {
                prop_assert_eq!(read.to_opentafl(), record);
            } else {
                prop_assert_eq!(read, *position);
                prop_assert_eq!(read.hash(), position.hash());
            }
            if i % 16 == 0 {
                generator_matches_checker(&rules, position);
            }
        }
        // Rules strings and game records round trip.
        prop_assert_eq!(&Rules::from_opentafl(&rules.to_opentafl()).unwrap(), &rules);
        let text = otg::write(&game, &[("event".to_string(), format!("seed {seed}"))]);
        let (read, tags) = otg::read(&text).unwrap();
        prop_assert_eq!(read.history(), game.history());
        prop_assert_eq!(read.outcome(), game.outcome());
        prop_assert_eq!(&tags[0], &("event".to_string(), format!("seed {seed}")));
    }

    #[test]
    fn generator_matches_checker_in_random_middle_games(index in 0usize..64, seed in any::<u64>(), plies in 0usize..60) {
        let (rules, game, _) = random_game(index, seed, plies);
        if !game.is_over() {
            generator_matches_checker(&rules, game.position());
        }
    }
}

/// Text near the notations: their letters, digits and punctuation.
fn near_notation() -> impl Strategy<Value = String> {
    "[a-sA-S0-9 /:,xX+tTKk\\[\\]\\.\\-|\n]{0,120}"
}

/// A preset's rules string with a slice replaced by arbitrary text.
fn mutated_rules() -> impl Strategy<Value = String> {
    (
        0usize..64,
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        near_notation(),
    )
        .prop_map(|(index, a, b, insert)| {
            let text = variants()[index % variants().len()].rules_string;
            let chars: Vec<char> = text.chars().collect();
            let (mut x, mut y) = (a.index(chars.len() + 1), b.index(chars.len() + 1));
            if x > y {
                std::mem::swap(&mut x, &mut y);
            }
            let mut out: String = chars[..x].iter().collect();
            out.push_str(&insert);
            out.extend(&chars[y..]);
            out
        })
}

fn parse_everything(text: &str, dim: u8) {
    let _ = Move::parse(text, dim);
    let _ = Square::parse(text, dim);
    let _ = Position::from_opentafl(text, Side::Attackers);
    if let Ok(rules) = Rules::from_opentafl(text) {
        // Whatever reads must write back to the same rules.
        assert_eq!(
            Rules::from_opentafl(&rules.to_opentafl()).as_ref(),
            Ok(&rules)
        );
        let _ = Game::new(rules).legal_moves();
    }
    let _ = otg::read(text);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsers_survive_arbitrary_text(text in any::<String>(), dim in 7u8..=19) {
        parse_everything(&text, dim);
    }

    #[test]
    fn parsers_survive_near_notation(text in near_notation(), dim in 7u8..=19) {
        parse_everything(&text, dim);
        parse_everything(&format!("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n{text}"), dim);
    }

    #[test]
    fn rules_parser_survives_mutated_presets(text in mutated_rules()) {
        parse_everything(&text, 11);
        parse_everything(&format!("[rules:{text}]\n\n1. d1-d2 d3-d2\n"), 11);
    }
}

#[test]
fn position_is_cheap_to_copy() {
    // Issue 2: "A position must be cheap to copy (at most 256 bytes up to 15x15)"; ours holds
    // boards up to 19x19 in that size.
    let size = std::mem::size_of::<Position>();
    println!("size_of::<Position>() = {size}");
    assert!(size <= 256, "{size}");
}
