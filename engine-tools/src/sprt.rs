//! Testing an engine change against a baseline by SPRT (`tafl sprt`): game pairs (each
//! opening played once from each side) between A, the change, and B, the baseline, until the
//! log-likelihood ratio of the pairs' results (pentanomial) crosses a bound of the test
//! (`stats::Sprt`), the games run out, or the run is stopped.

use tafl_engine::{Move, Rules};

use crate::matches::{Entrant, MatchError, MatchSettings, Pairing, PlayedGame, Tally};
use crate::stats::{EloEstimate, Results, Sprt, SprtStatus};

/// Where a test stands after a pair.
#[derive(Debug, Clone, Copy)]
pub struct SprtProgress {
    /// Complete pairs (both games scored) and games played.
    pub pairs: usize,
    pub games: usize,
    pub pentanomial: Results,
    pub llr: f64,
    pub status: SprtStatus,
}

/// What a test reports as it goes.
#[derive(Debug, Clone, Copy)]
pub enum SprtEvent<'a> {
    /// A game ended.
    Game(&'a PlayedGame),
    /// A pair ended: where the test stands.
    Pair(&'a SprtProgress),
}

/// The test and its limit.
#[derive(Debug, Clone, Copy)]
pub struct SprtPlan {
    pub test: Sprt,
    /// Games after which the test stops undecided.
    pub max_games: usize,
}

/// How a test ended.
#[derive(Debug)]
pub struct SprtOutcome {
    pub tally: Tally,
    pub progress: SprtProgress,
    /// The Elo of A over B from the pairs, with its 95% interval.
    pub estimate: Option<EloEstimate>,
}

/// Plays pairs of `book`'s openings (in order, round again if the book is shorter) until
/// the test decides, `plan.max_games` are played, or the settings' stop flag is set; tells
/// `on_event` of each game and of where the test stands after each pair. A failure after the
/// start ends the test with what was played (`tally.aborted`).
pub fn run_sprt(
    rules: &Rules,
    book: &[Vec<Move>],
    a: &Entrant,
    b: &Entrant,
    settings: &MatchSettings,
    plan: &SprtPlan,
    on_event: &mut dyn FnMut(SprtEvent<'_>),
) -> Result<SprtOutcome, MatchError> {
    let (test, max_games) = (&plan.test, plan.max_games);
    let mut pairing = Pairing::new(rules, a, b, settings)?;
    let mut tally = Tally::default();
    let mut progress = standing(&tally, test);
    for index in 0.. {
        if book.is_empty() || tally.games.len() + 2 > max_games.max(2) {
            break;
        }
        let opening = &book[index % book.len()];
        let mut on_game = |game: &PlayedGame| on_event(SprtEvent::Game(game));
        if let Err(error) = pairing.play_opening(index, opening, &mut tally, &mut on_game) {
            tally.aborted = Some(error.to_string());
            break;
        }
        if tally.interrupted {
            break;
        }
        progress = standing(&tally, test);
        on_event(SprtEvent::Pair(&progress));
        if progress.status != SprtStatus::Continue {
            break;
        }
    }
    Ok(SprtOutcome {
        estimate: tally.pentanomial().elo(),
        tally,
        progress,
    })
}

fn standing(tally: &Tally, test: &Sprt) -> SprtProgress {
    let pentanomial = tally.pentanomial();
    let llr = test.llr(&pentanomial);
    SprtProgress {
        pairs: tally.pair_points.len(),
        games: tally.games.len(),
        pentanomial,
        llr,
        status: test.status(llr),
    }
}
