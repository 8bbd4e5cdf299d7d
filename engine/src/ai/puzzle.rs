//! Puzzles: a position where the side to move has exactly one winning first move, proved by
//! search, with the line that follows it (the loser's most stubborn replies included).
//!
//! A candidate is a position of a real game. [`find_puzzle`] searches it to the bound
//! ([`PuzzleBounds::max_plies`]); a forced win whose line ends with the king escaping or
//! captured is an escape or capture puzzle. Otherwise a line that wins at least
//! [`PuzzleBounds::material_gain`] pieces net, with every other first move at least
//! [`PuzzleBounds::material_margin`] worse, is a material puzzle. Either way the first move must
//! be the only one: the position is searched again without it, and any other first move that
//! wins as fast (a forced win in no more plies than the line's: the puzzle asks for the
//! fastest win, as "escape in 2" does) or, for material, comes within the margin at the bound's
//! depth, rejects the position. A slower win elsewhere does not: the solver is asked for the
//! fastest one. A search that ran out of nodes before the bound proves nothing and rejects it
//! too, so a puzzle is never kept on a guess.

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::moves::Move;
use crate::outcome::{Outcome, WinReason};
use crate::side::Side;

use super::{MATE_BOUND, SearchLimits, SearchResult, Searcher};

/// What the solver achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PuzzleTheme {
    /// The king escapes.
    Escape,
    /// The king is captured.
    CaptureKing,
    /// The solver wins pieces.
    Material,
}

impl PuzzleTheme {
    pub const ALL: [PuzzleTheme; 3] = [
        PuzzleTheme::Escape,
        PuzzleTheme::CaptureKing,
        PuzzleTheme::Material,
    ];

    /// The word stored and shown: `escape`, `capture_king`, `material`.
    pub fn as_str(self) -> &'static str {
        match self {
            PuzzleTheme::Escape => "escape",
            PuzzleTheme::CaptureKing => "capture_king",
            PuzzleTheme::Material => "material",
        }
    }

    pub fn parse(word: &str) -> Option<PuzzleTheme> {
        PuzzleTheme::ALL.into_iter().find(|t| t.as_str() == word)
    }
}

/// How far and how hard a candidate is searched.
#[derive(Clone, Debug)]
pub struct PuzzleBounds {
    /// The longest solution, in plies (the solver's moves and the replies between them).
    pub max_plies: u32,
    /// Nodes each search may visit; a search stopped by this proves nothing.
    pub nodes: u64,
    /// Transposition table of the searcher, in MiB.
    pub table_mib: usize,
    /// Pieces a material puzzle's line must win, net of the solver's own losses.
    pub material_gain: i32,
    /// How much worse (evaluation units, 100 = a soldier) every other first move of a material
    /// puzzle must be.
    pub material_margin: i32,
}

impl Default for PuzzleBounds {
    fn default() -> Self {
        PuzzleBounds {
            max_plies: 7,
            nodes: 2_000_000,
            table_mib: 16,
            material_gain: 2,
            material_margin: 200,
        }
    }
}

/// A position with one winning line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PuzzleLine {
    pub theme: PuzzleTheme,
    /// Who solves it: the side to move in the position.
    pub solver: Side,
    /// The solver's moves and the replies between them, starting with the solver's only
    /// winning first move and ending with the solver's last move.
    pub moves: Vec<Move>,
}

impl PuzzleLine {
    /// The solver's moves in the line.
    pub fn solver_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }
}

/// The puzzle in `game`'s current position, if the side to move has exactly one winning first
/// move within `bounds`.
pub fn find_puzzle(game: &Game, bounds: &PuzzleBounds) -> Option<PuzzleLine> {
    if game.is_over() || game.legal_moves().len() < 2 {
        return None;
    }
    let mut searcher = Searcher::new(bounds.table_mib);
    let limits = bounded(bounds, Vec::new());
    let best = searcher.search(game, &limits)?;
    if let Some(plies) = best.mate_in {
        return forced_puzzle(&mut searcher, game, bounds, &best, plies);
    }
    material_puzzle(&mut searcher, game, bounds, &best)
}

/// A search of at most the bound's depth and nodes, without the `excluded` first moves.
fn bounded(bounds: &PuzzleBounds, excluded: Vec<Move>) -> SearchLimits {
    SearchLimits {
        time: None,
        nodes: Some(bounds.nodes),
        depth: Some(bounds.max_plies),
        excluded,
        table_mib: bounds.table_mib,
        ..SearchLimits::default()
    }
}

fn forced_puzzle(
    searcher: &mut Searcher,
    game: &Game,
    bounds: &PuzzleBounds,
    best: &SearchResult,
    plies: i32,
) -> Option<PuzzleLine> {
    let plies = u32::try_from(plies)
        .ok()
        .filter(|&p| p <= bounds.max_plies)?;
    let as_fast = |other: &SearchResult| {
        other.score > MATE_BOUND && other.mate_in.is_some_and(|m| m <= plies as i32)
    };
    if !others_fall_short(searcher, game, bounds, best.best_move, plies, as_fast) {
        return None;
    }
    let solver = game.side_to_move();
    let moves = winning_line(searcher, game, bounds, best.best_move, plies)?;
    let mut end = game.clone();
    for &mv in &moves {
        end.play(mv).ok()?;
    }
    let theme = match end.outcome() {
        Some(Outcome::Win {
            winner,
            reason: WinReason::KingEscaped,
        }) if *winner == solver => PuzzleTheme::Escape,
        Some(Outcome::Win {
            winner,
            reason: WinReason::KingCaptured,
        }) if *winner == solver => PuzzleTheme::CaptureKing,
        // Encirclement, edge forts and the like: proved, but not what these puzzles train.
        _ => return None,
    };
    Some(PuzzleLine {
        theme,
        solver,
        moves,
    })
}

/// Whether every first move but `best` fails `wins` when searched `depth` plies deep (a search
/// cut short by its node budget proves nothing, so it counts as not falling short).
fn others_fall_short(
    searcher: &mut Searcher,
    game: &Game,
    bounds: &PuzzleBounds,
    best: Move,
    depth: u32,
    wins: impl Fn(&SearchResult) -> bool,
) -> bool {
    let limits = SearchLimits {
        depth: Some(depth),
        ..bounded(bounds, vec![best])
    };
    match searcher.search(game, &limits) {
        None => true,
        Some(other) if other.best_move == best => false,
        Some(other) if wins(&other) => false,
        // A proved result ends the search early: one that does not win as fast is no rival.
        Some(other) if other.score.abs() > MATE_BOUND => true,
        Some(other) => other.depth >= depth,
    }
}

/// The forced line from `first`: after each solver move the reply the search finds most
/// stubborn, then the solver's winning move, until the game ends within `plies`.
fn winning_line(
    searcher: &mut Searcher,
    game: &Game,
    bounds: &PuzzleBounds,
    first: Move,
    plies: u32,
) -> Option<Vec<Move>> {
    let solver = game.side_to_move();
    let mut line = game.clone();
    let mut moves = Vec::new();
    let mut next = first;
    loop {
        line.play(next).ok()?;
        moves.push(next);
        if let Some(outcome) = line.outcome() {
            return (outcome.winner() == Some(solver)).then_some(moves);
        }
        if moves.len() as u32 >= plies {
            return None;
        }
        let reply = searcher.search(&line, &bounded(bounds, Vec::new()))?;
        line.play(reply.best_move).ok()?;
        moves.push(reply.best_move);
        if line.is_over() {
            return None;
        }
        let answer = searcher.search(&line, &bounded(bounds, Vec::new()))?;
        if answer.score <= MATE_BOUND {
            return None;
        }
        next = answer.best_move;
    }
}

fn material_puzzle(
    searcher: &mut Searcher,
    game: &Game,
    bounds: &PuzzleBounds,
    best: &SearchResult,
) -> Option<PuzzleLine> {
    if best.score.abs() > MATE_BOUND || best.depth < bounds.max_plies {
        return None;
    }
    let solver = game.side_to_move();
    // The line up to the solver's last capture in it, replies included.
    let mut line = game.clone();
    let mut net = 0i32;
    let mut kept = 0;
    let mut best_net = 0;
    for (i, &mv) in best.pv.iter().enumerate() {
        let Ok(report) = line.play(mv) else {
            break;
        };
        let taken = report.captures.len() as i32;
        net += if report.side == solver { taken } else { -taken };
        if report.side == solver && net > best_net {
            best_net = net;
            kept = i + 1;
        }
        if line.is_over() {
            break;
        }
    }
    if best_net < bounds.material_gain {
        return None;
    }
    let threshold = best.score - bounds.material_margin;
    if !others_fall_short(
        searcher,
        game,
        bounds,
        best.best_move,
        bounds.max_plies,
        |other| other.score > threshold,
    ) {
        return None;
    }
    Some(PuzzleLine {
        theme: PuzzleTheme::Material,
        solver,
        moves: best.pv[..kept].to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::analysis::example;
    use crate::position::Position;
    use crate::rules::Rules;

    fn game_from(position: &str, to_move: Side) -> Game {
        let rules = Rules::from_opentafl(&example::rules_string()).unwrap();
        let position = Position::from_opentafl(position, to_move).unwrap();
        Game::from_position(rules, position)
    }

    #[test]
    fn a_forced_escape_with_one_way_out_is_a_puzzle_with_that_first_move() {
        // The example game after a2-b2: the king on a3 has the corner a1, and only it (the
        // defender on a5 closes the way to a7).
        let mut game = game_from(example::START, Side::Attackers);
        game.play_str(example::MOVES[0]).unwrap();
        let line = find_puzzle(&game, &PuzzleBounds::default()).expect("a puzzle");
        assert_eq!(line.theme, PuzzleTheme::Escape);
        assert_eq!(line.solver, Side::Defenders);
        assert_eq!(line.moves[0].to_string(), "a3-a1");
        // Every other first move wins more slowly, if at all (a5-b5 opens a7 as well: escape
        // in 2 at best).
        let others = SearchLimits {
            excluded: vec![line.moves[0]],
            ..bounded(&PuzzleBounds::default(), Vec::new())
        };
        let other = crate::ai::search(&game, &others).unwrap();
        assert!(other.mate_in.is_none_or(|m| m > 1), "{other:?}");
    }

    #[test]
    fn a_position_with_two_winning_first_moves_is_no_puzzle() {
        // The king on a3 with both corners of the a-file open: a3-a1 and a3-a7 both escape.
        let game = game_from("/7/5t1/K2t3/7/7/1t2t2/7/", Side::Defenders);
        let best = crate::ai::search(&game, &bounded(&PuzzleBounds::default(), Vec::new()));
        assert_eq!(best.and_then(|b| b.mate_in), Some(1));
        assert_eq!(find_puzzle(&game, &PuzzleBounds::default()), None);
    }

    #[test]
    fn the_king_taken_in_one_is_a_capture_puzzle() {
        // The example game after a2-b2 a3-b3: b6-b4 takes the king between b4 and b2.
        let mut game = game_from(example::START, Side::Attackers);
        game.play_str(example::MOVES[0]).unwrap();
        game.play_str(example::MOVES[1]).unwrap();
        let line = find_puzzle(&game, &PuzzleBounds::default()).expect("a puzzle");
        assert_eq!(line.theme, PuzzleTheme::CaptureKing);
        assert_eq!(line.moves.len(), 1);
    }

    /// Whether some first move but `first` forces a win in `plies` or fewer.
    fn another_wins_as_fast(game: &Game, first: Move, plies: usize) -> bool {
        let others = SearchLimits {
            excluded: vec![first],
            ..bounded(&PuzzleBounds::default(), Vec::new())
        };
        crate::ai::search(game, &others)
            .is_some_and(|o| o.score > MATE_BOUND && o.mate_in.is_some_and(|m| m as usize <= plies))
    }

    #[test]
    fn an_escape_in_two_is_the_only_fork_and_the_line_holds_the_reply() {
        // The king on b3 reaches b7, beside the corner a7 with the whole top edge open to
        // g7: two ways out, one attacker move blocks at most one. Nothing escapes at once.
        let game = game_from("/1t5/7/tK4t/7/7/7/7/", Side::Defenders);
        let line = find_puzzle(&game, &PuzzleBounds::default()).expect("a puzzle");
        assert_eq!(line.theme, PuzzleTheme::Escape);
        assert_eq!(line.solver, Side::Defenders);
        let moves: Vec<String> = line.moves.iter().map(ToString::to_string).collect();
        assert_eq!(
            moves.len(),
            3,
            "the solver's two moves and the reply: {moves:?}"
        );
        assert_eq!(line.solver_moves(), 2);
        assert_eq!(moves[0], "b3-b7");
        assert!(!another_wins_as_fast(&game, line.moves[0], 3), "{moves:?}");
        // The line is played as stored: the reply is the attackers', the last move escapes.
        let mut end = game.clone();
        for (i, &mv) in line.moves.iter().enumerate() {
            let report = end.play(mv).unwrap();
            let mover = if i % 2 == 0 {
                Side::Defenders
            } else {
                Side::Attackers
            };
            assert_eq!(report.side, mover, "move {i} of {moves:?}");
        }
        assert!(matches!(
            end.outcome(),
            Some(Outcome::Win {
                winner: Side::Defenders,
                reason: WinReason::KingEscaped
            })
        ));
    }

    #[test]
    fn the_king_taken_in_two_is_a_capture_puzzle_with_the_defenders_reply() {
        let game = game_from("/5t1/1t4t/2t4/7/4t2/4K1t/4t2/", Side::Attackers);
        let line = find_puzzle(&game, &PuzzleBounds::default()).expect("a puzzle");
        assert_eq!(line.theme, PuzzleTheme::CaptureKing);
        assert_eq!(line.solver, Side::Attackers);
        assert_eq!(line.moves.len(), 3, "{:?}", line.moves);
        assert!(!another_wins_as_fast(&game, line.moves[0], 3));
        let mut end = game.clone();
        for &mv in &line.moves {
            end.play(mv).unwrap();
        }
        assert!(matches!(
            end.outcome(),
            Some(Outcome::Win {
                winner: Side::Attackers,
                reason: WinReason::KingCaptured
            })
        ));
    }

    #[test]
    fn a_line_that_wins_two_soldiers_with_one_good_first_move_is_a_material_puzzle() {
        // No forced end within the bound, but d5-c5 wins soldiers: the line ends with the
        // defenders' last capture, at least two up, every other first move well short of it.
        let game = game_from("/7/3t3/5T1/1t2t2/3T3/2t4/1tKt3/", Side::Defenders);
        let line = find_puzzle(&game, &PuzzleBounds::default()).expect("a puzzle");
        assert_eq!(line.theme, PuzzleTheme::Material);
        assert_eq!(line.solver, Side::Defenders);
        assert_eq!(line.moves[0].to_string(), "d5-c5");
        let mut end = game.clone();
        let mut net = 0i32;
        for &mv in &line.moves {
            let report = end.play(mv).unwrap();
            let taken = report.captures.len() as i32;
            net += if report.side == Side::Defenders {
                taken
            } else {
                -taken
            };
        }
        assert!(
            net >= PuzzleBounds::default().material_gain,
            "{net} in {:?}",
            line.moves
        );
        assert!(
            !end.is_over(),
            "a material puzzle's line does not end the game"
        );
        // The line ends with a move of the solver's.
        assert_eq!(line.moves.len() % 2, 1);
    }

    #[test]
    fn themes_read_back_from_their_words() {
        for theme in PuzzleTheme::ALL {
            assert_eq!(PuzzleTheme::parse(theme.as_str()), Some(theme));
        }
        assert_eq!(PuzzleTheme::parse("mate"), None);
    }
}
