//! Refereed matches: paired games between two players (our levels or external engines), our
//! engine refereeing; each player with its own budget; a tally of W/L/D with the score's 95%
//! interval, the results by side and by how games ended; every game written as .otg with each
//! move's think time.
//!
//! - `entrant`: a player with a name and its own budget (`L5@time-ms=250`);
//! - `game`: one game, timed move by move, a failure charged to the side that caused it;
//! - `ending`: how a game ended, and how it is scored;
//! - `tally`: a pairing's results and their summaries;
//! - here: the opening book, a pairing of two players played opening by opening (an external
//!   engine that failed started afresh before the next game), and the records.

mod ending;
mod entrant;
mod game;
mod tally;

pub use ending::Ending;
pub use entrant::{Entrant, ParseEntrantError, SideBudget};
pub use game::{Adjudication, GameRun, play_one};
pub use tally::{EndingCount, GameEntry, Record, Tally};

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tafl_engine::ai::Level;
use tafl_engine::{GameRecord, Move, Rules, Side, otg};

use crate::protocol::player::{MoveBudget, Player, PlayerError, PlayerSpec};

/// How a match is played, apart from who plays it.
#[derive(Debug, Clone)]
pub struct MatchSettings {
    /// Openings (each played twice, once from each side).
    pub openings: usize,
    /// The first openings of the book not played (the book depends only on `seed`,
    /// `openings` and `book_plies`, so a match cut short resumes where it stopped).
    pub skip_openings: usize,
    /// Random plies in each opening.
    pub book_plies: u32,
    /// Seed of the opening book and of the levels' random choices.
    pub seed: u64,
    /// The budget shared by both players (each entrant's own budget goes over it); its
    /// `stop` flag, when set, ends the match after the game in progress is abandoned.
    pub budget: MoveBudget,
    /// Games still going after this many plies are scored as draws.
    pub max_plies: u32,
    /// Directory for the .otg records.
    pub out: PathBuf,
}

impl MatchSettings {
    /// Has the match been told to stop?
    pub fn stopped(&self) -> bool {
        self.budget
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A player could not be started (or restarted).
    #[error(transparent)]
    Player(#[from] PlayerError),
    #[error("cannot create {}: {source}", path.display())]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    WriteRecord {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The match's openings: `settings.openings` distinct ones if there are that many.
pub fn opening_book(rules: &Rules, settings: &MatchSettings) -> Vec<Vec<Move>> {
    tafl_engine::ai::selfplay::opening_book(
        rules,
        settings.book_plies,
        settings.openings,
        settings.seed,
    )
}

/// The pairings of a ladder: every level against the one below it.
pub fn ladder_pairings() -> impl Iterator<Item = (Level, Level)> {
    Level::all().filter_map(|level| {
        let below = Level::from_number(level.number().checked_sub(1)?)?;
        Some((level, below))
    })
}

/// A game that was played (scored or not), as it is reported while the match goes on.
#[derive(Debug, Clone)]
pub struct PlayedGame {
    /// Which opening, its moves, and A's side.
    pub label: String,
    /// How it ended, in words.
    pub result: String,
    pub ending: Ending,
    pub plies: u32,
    /// Its .otg record.
    pub file: PathBuf,
    /// The side A played.
    pub a_side: Side,
    /// Who made each move after the opening, and its think time, in order.
    pub think: Vec<(Side, Duration)>,
    /// External engines started afresh after this game.
    pub restarted: Vec<String>,
}

/// Two entrants playing openings, each twice with sides swapped.
pub struct Pairing<'a> {
    rules: &'a Rules,
    a: &'a Entrant,
    b: &'a Entrant,
    settings: &'a MatchSettings,
    player_a: Box<dyn Player>,
    player_b: Box<dyn Player>,
}

impl<'a> Pairing<'a> {
    /// Starts both players.
    pub fn new(
        rules: &'a Rules,
        a: &'a Entrant,
        b: &'a Entrant,
        settings: &'a MatchSettings,
    ) -> Result<Pairing<'a>, MatchError> {
        std::fs::create_dir_all(&settings.out).map_err(|source| MatchError::CreateDir {
            path: settings.out.clone(),
            source,
        })?;
        Ok(Pairing {
            rules,
            a,
            b,
            settings,
            player_a: build(a, b, settings)?,
            player_b: build(b, a, settings)?,
        })
    }

    /// Plays opening `index` (0-based) of the book twice, A first as attackers; adds both
    /// games (and the pair, when both were scored) to `tally`. Stops early when the match is
    /// stopped (`tally.interrupted`).
    pub fn play_opening(
        &mut self,
        index: usize,
        opening: &[Move],
        tally: &mut Tally,
        on_game: &mut dyn FnMut(&PlayedGame),
    ) -> Result<(), MatchError> {
        let mut pair = Some(0.0);
        for a_side in [Side::Attackers, Side::Defenders] {
            if self.settings.stopped() {
                tally.interrupted = true;
                return Ok(());
            }
            let (attackers, defenders): (&mut dyn Player, &mut dyn Player) = match a_side {
                Side::Attackers => (self.player_a.as_mut(), self.player_b.as_mut()),
                Side::Defenders => (self.player_b.as_mut(), self.player_a.as_mut()),
            };
            let names = (attackers.name(), defenders.name());
            let run = play_one(
                self.rules,
                opening,
                attackers,
                defenders,
                self.settings.max_plies,
                self.settings.budget.stop.as_deref(),
            );
            let ending = Ending::of(
                &run.game,
                run.failure.as_ref(),
                run.adjudication.as_ref().map(|(_, verdict)| verdict),
                run.interrupted,
            );
            let label = format!(
                "opening {} ({}), A as {a_side}",
                index + 1,
                opening
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            let file = self.write_record(index, a_side, &run, ending, names)?;
            tally.add(&label, a_side, ending, &run);
            pair = pair.zip(ending.points(a_side)).map(|(sum, p)| sum + p);
            let restarted = if ending.calls_for_restart() && !self.settings.stopped() {
                self.restart_engines()?
            } else {
                Vec::new()
            };
            tally.restarts.extend(restarted.iter().cloned());
            on_game(&PlayedGame {
                label,
                result: describe(&run, ending),
                ending,
                plies: run.game.ply(),
                file,
                a_side,
                think: run.think,
                restarted,
            });
        }
        if let Some(points) = pair {
            tally.pair_points.push(points);
        }
        Ok(())
    }

    /// Starts every external engine afresh (a process that timed out may still answer, or
    /// have a board out of step with ours); returns their names.
    fn restart_engines(&mut self) -> Result<Vec<String>, MatchError> {
        let mut restarted = Vec::new();
        if self.a.spec.is_external() {
            self.player_a = build(self.a, self.b, self.settings)?;
            restarted.push(self.a.name.clone());
        }
        if self.b.spec.is_external() {
            self.player_b = build(self.b, self.a, self.settings)?;
            restarted.push(self.b.name.clone());
        }
        Ok(restarted)
    }

    /// Writes the game's record: tags (players, budgets, ending), then the moves, each move
    /// after the opening with its think time as a comment.
    fn write_record(
        &self,
        index: usize,
        a_side: Side,
        run: &GameRun,
        ending: Ending,
        names: (String, String),
    ) -> Result<PathBuf, MatchError> {
        let file = self.settings.out.join(format!(
            "{}-vs-{}-s{}-o{:02}-a-{}.otg",
            file_name_part(&self.a.name),
            file_name_part(&self.b.name),
            self.settings.seed,
            index + 1,
            a_side
        ));
        let (attacker, defender) = match a_side {
            Side::Attackers => (self.a, self.b),
            Side::Defenders => (self.b, self.a),
        };
        let mut tags = vec![
            ("event".to_string(), "taflbot match".to_string()),
            ("attackers".to_string(), names.0),
            ("defenders".to_string(), names.1),
            (
                "attackers-budget".to_string(),
                attacker.budget(&self.settings.budget).describe(),
            ),
            (
                "defenders-budget".to_string(),
                defender.budget(&self.settings.budget).describe(),
            ),
            ("ending".to_string(), ending.tag()),
        ];
        if let Some((engine, verdict)) = &run.adjudication {
            tags.push((
                "adjudication".to_string(),
                format!("{engine}: {}", verdict.said),
            ));
        }
        let mut record = GameRecord::from_game(run.game.clone(), tags);
        let first_timed = record.main.moves.len().saturating_sub(run.think.len());
        for (recorded, think) in record.main.moves[first_timed..].iter_mut().zip(&run.think) {
            recorded.comment = Some(format!("{:.3}s", think.1.as_secs_f64()));
        }
        std::fs::write(&file, otg::write_record(&record)).map_err(|source| {
            MatchError::WriteRecord {
                path: file.clone(),
                source,
            }
        })?;
        Ok(file)
    }
}

fn build(
    entrant: &Entrant,
    opponent: &Entrant,
    settings: &MatchSettings,
) -> Result<Box<dyn Player>, MatchError> {
    Ok(entrant
        .spec
        .build(&entrant.budget(&settings.budget), &opponent.spec)?)
}

/// How a game ended, in words.
fn describe(run: &GameRun, ending: Ending) -> String {
    match (&run.failure, &run.adjudication, run.game.outcome()) {
        (Some((_, error)), _, _) => format!("{}: {error}", ending.kind()),
        (None, Some((engine, verdict)), _) => format!("{engine} said {}", verdict.said),
        (None, None, Some(outcome)) => outcome.describe(),
        (None, None, None) => ending.kind().to_string(),
    }
}

/// Plays every opening of `book` (after the skipped ones) twice between `a` and `b`,
/// swapping sides; writes each game's record and tells `on_game` of each game. A failure
/// after the start (an engine that cannot be restarted, a record not written) ends the
/// pairing with what was played (`tally.aborted`).
pub fn run_pairing(
    rules: &Rules,
    book: &[Vec<Move>],
    a: &Entrant,
    b: &Entrant,
    settings: &MatchSettings,
    on_game: &mut dyn FnMut(&PlayedGame),
) -> Result<Tally, MatchError> {
    let mut pairing = Pairing::new(rules, a, b, settings)?;
    let mut tally = Tally::default();
    for (i, opening) in book.iter().enumerate().skip(settings.skip_openings) {
        if let Err(error) = pairing.play_opening(i, opening, &mut tally, on_game) {
            tally.aborted = Some(error.to_string());
            break;
        }
        if tally.interrupted {
            break;
        }
    }
    Ok(tally)
}

/// A file-name-safe form of a player's name.
fn file_name_part(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A level as an entrant (for ladders).
pub fn level_entrant(level: Level) -> Entrant {
    Entrant {
        name: format!("L{}", level.number()),
        spec: PlayerSpec::Level(level),
        own: SideBudget::default(),
    }
}
