//! Refereed matches: paired games between two players (our levels or external engines), our
//! engine refereeing; a tally of W/L/D with the score's 95% interval, every game written as .otg.

use std::path::PathBuf;

use tafl_engine::ai::Level;
use tafl_engine::{Game, Move, Rules, Side, otg};

use crate::protocol::player::{MoveBudget, Player, PlayerError, PlayerSpec, Verdict};

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
    /// Per-move budget overrides.
    pub budget: MoveBudget,
    /// Games still going after this many plies are scored as draws.
    pub max_plies: u32,
    /// Directory for the .otg records.
    pub out: PathBuf,
}

/// Why a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A player could not be started.
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

/// A game that was played to a score (games reported apart are in the tally only).
#[derive(Debug, Clone)]
pub struct PlayedGame {
    /// Which opening, its moves, and A's side.
    pub label: String,
    /// How it ended, in words.
    pub result: String,
    pub plies: u32,
    /// Its .otg record.
    pub file: PathBuf,
}

/// One finished pairing of two players.
#[derive(Debug, Default)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// A's points per opening pair (0 to 2).
    pub pair_points: Vec<f64>,
    /// Games stopped because an external engine refused a move our referee allowed.
    pub refused: Vec<String>,
    /// Games stopped by a protocol failure.
    pub failed: Vec<String>,
    /// Games an external engine ended by its own house rules (scored by its verdict).
    pub adjudicated: Vec<String>,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    pub fn score(&self) -> f64 {
        let games = self.games();
        if games == 0 {
            return 0.0;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / games as f64
    }

    /// Half-width of the 95% interval of the score, from the spread of the pair scores.
    pub fn interval(&self) -> Option<f64> {
        let n = self.pair_points.len();
        if n < 2 {
            return None;
        }
        let scores: Vec<f64> = self.pair_points.iter().map(|p| p / 2.0).collect();
        let mean = scores.iter().sum::<f64>() / n as f64;
        let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        Some(1.96 * (var / n as f64).sqrt())
    }

    pub fn summary(&self) -> String {
        let interval = self
            .interval()
            .map_or("n/a".to_string(), |h| format!("±{:.1}%", 100.0 * h));
        format!(
            "{} games: {} won, {} lost, {} drawn; score {:.1}% {interval} (95%){}{}{}",
            self.games(),
            self.wins,
            self.losses,
            self.draws,
            100.0 * self.score(),
            if self.refused.is_empty() {
                String::new()
            } else {
                format!("; {} reported apart (refused moves)", self.refused.len())
            },
            if self.failed.is_empty() {
                String::new()
            } else {
                format!("; {} failed", self.failed.len())
            },
            if self.adjudicated.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} of them ended by the engine's own rules",
                    self.adjudicated.len()
                )
            },
        )
    }
}

/// Plays every opening of `book` (after the skipped ones) twice between `a` and `b`,
/// swapping sides; writes each game's record and tells `on_game` of each scored game.
pub fn run_pairing(
    rules: &Rules,
    book: &[Vec<Move>],
    a: &PlayerSpec,
    b: &PlayerSpec,
    settings: &MatchSettings,
    on_game: &mut dyn FnMut(&PlayedGame),
) -> Result<Tally, MatchError> {
    std::fs::create_dir_all(&settings.out).map_err(|source| MatchError::CreateDir {
        path: settings.out.clone(),
        source,
    })?;
    let mut player_a = a.build(&settings.budget, b)?;
    let mut player_b = b.build(&settings.budget, a)?;
    let mut tally = Tally::default();
    for (i, opening) in book.iter().enumerate().skip(settings.skip_openings) {
        let mut pair = 0.0;
        let mut complete = true;
        for a_side in [Side::Attackers, Side::Defenders] {
            let (attackers, defenders): (&mut dyn Player, &mut dyn Player) = match a_side {
                Side::Attackers => (player_a.as_mut(), player_b.as_mut()),
                Side::Defenders => (player_b.as_mut(), player_a.as_mut()),
            };
            let (names, (game, error, verdict)) = (
                (attackers.name(), defenders.name()),
                play_one(rules, opening, attackers, defenders, settings.max_plies),
            );
            let label = format!(
                "opening {} ({}), A as {a_side}",
                i + 1,
                opening
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            let file = settings.out.join(format!(
                "{}-vs-{}-s{}-o{:02}-a-{}.otg",
                file_name_part(a),
                file_name_part(b),
                settings.seed,
                i + 1,
                a_side
            ));
            let mut tags = vec![
                ("event".to_string(), "taflbot match".to_string()),
                ("attackers".to_string(), names.0),
                ("defenders".to_string(), names.1),
            ];
            if let Some((engine, verdict)) = &verdict {
                tags.push((
                    "adjudication".to_string(),
                    format!("{engine}: {}", verdict.said),
                ));
            }
            std::fs::write(&file, otg::write(&game, &tags)).map_err(|source| {
                MatchError::WriteRecord {
                    path: file.clone(),
                    source,
                }
            })?;
            if let Some(error) = error {
                complete = false;
                let apart = if error.is_rules_difference() {
                    &mut tally.refused
                } else {
                    &mut tally.failed
                };
                apart.push(format!("{label}: {error}"));
                continue;
            }
            let points = match &verdict {
                Some((engine, verdict)) => {
                    tally.adjudicated.push(format!(
                        "{label}: {engine} said {} after {} plies",
                        verdict.said,
                        game.ply()
                    ));
                    match verdict.winner {
                        Some(winner) if winner == a_side => 1.0,
                        Some(_) => 0.0,
                        None => 0.5,
                    }
                }
                None => tafl_engine::ai::selfplay::points(&game, a_side),
            };
            pair += points;
            match points {
                p if p > 0.75 => tally.wins += 1,
                p if p < 0.25 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            let result = match (&verdict, game.outcome()) {
                (Some((engine, verdict)), _) => format!("{engine} said {}", verdict.said),
                (None, Some(outcome)) => outcome.describe(),
                (None, None) => "unfinished (draw)".to_string(),
            };
            on_game(&PlayedGame {
                label,
                result,
                plies: game.ply(),
                file,
            });
        }
        if complete {
            tally.pair_points.push(pair);
        }
    }
    Ok(tally)
}

/// A short, file-name-safe form of a player.
fn file_name_part(spec: &PlayerSpec) -> String {
    match spec {
        PlayerSpec::Level(level) => format!("level{}", level.number()),
        PlayerSpec::LevelThreads(level, threads) => format!("level{}t{threads}", level.number()),
        PlayerSpec::Otep(_) => "otep".to_string(),
        PlayerSpec::Htp(_) => "htp".to_string(),
    }
}

/// A game ended by a player's own referee: the player's name and its verdict.
type Adjudication = (String, Verdict);

/// One game; an illegal move loses for the player who made it.
fn play_one(
    rules: &Rules,
    opening: &[Move],
    attackers: &mut dyn Player,
    defenders: &mut dyn Player,
    max_plies: u32,
) -> (Game, Option<PlayerError>, Option<Adjudication>) {
    let mut game = Game::new(rules.clone());
    for &mv in opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    let mut adjudication = None;
    let result = (|| -> Result<(), PlayerError> {
        attackers.start(&game)?;
        defenders.start(&game)?;
        while !game.is_over() && game.ply() < max_plies {
            let side = game.side_to_move();
            let (mover, other): (&mut dyn Player, &mut dyn Player) = match side {
                Side::Attackers => (&mut *attackers, &mut *defenders),
                Side::Defenders => (&mut *defenders, &mut *attackers),
            };
            let mv = match mover.choose(&game) {
                Err(PlayerError::Resigned { engine }) => {
                    let verdict = Verdict {
                        winner: Some(side.opponent()),
                        said: format!("{side} resign"),
                    };
                    adjudication = Some((engine, verdict));
                    return Ok(());
                }
                other => other?,
            };
            if let Err(source) = game.play(mv) {
                return Err(PlayerError::Illegal {
                    player: mover.name(),
                    mv,
                    source,
                });
            }
            mover.accepted(&game)?;
            if game.is_over() {
                break;
            }
            other.opponent_moved(&game, mv)?;
            for player in [&mut *mover, &mut *other] {
                if let Some(verdict) = player.verdict(&game)? {
                    adjudication = Some((player.name(), verdict));
                    return Ok(());
                }
            }
        }
        Ok(())
    })();
    attackers.finish(&game);
    defenders.finish(&game);
    (game, result.err(), adjudication)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// Plays the first legal move; resigns at its first turn, or ends the game as a draw by
    /// its own rules once `draw_at` plies are played.
    struct FakeEngine {
        resigns: bool,
        draw_at: Option<u32>,
    }

    impl Player for FakeEngine {
        fn name(&self) -> String {
            "fake".into()
        }
        fn start(&mut self, _game: &Game) -> Result<(), PlayerError> {
            Ok(())
        }
        fn opponent_moved(&mut self, _game: &Game, _mv: Move) -> Result<(), PlayerError> {
            Ok(())
        }
        fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
            if self.resigns {
                return Err(PlayerError::Resigned {
                    engine: self.name(),
                });
            }
            Ok(game.legal_moves()[0])
        }
        fn verdict(&mut self, game: &Game) -> Result<Option<Verdict>, PlayerError> {
            Ok(self.draw_at.filter(|&n| game.ply() >= n).map(|_| Verdict {
                winner: None,
                said: "draw".into(),
            }))
        }
    }

    fn level_one() -> Box<dyn Player> {
        PlayerSpec::Level(Level::from_number(1).unwrap())
            .build(&MoveBudget::default(), &PlayerSpec::Htp("fake".into()))
            .unwrap()
    }

    #[test]
    fn a_resignation_ends_the_game_for_the_other_side() {
        let rules = tafl_engine::variant("brandubh").unwrap().rules();
        let mut attackers = level_one();
        let mut defenders = FakeEngine {
            resigns: true,
            draw_at: None,
        };
        let (game, error, adjudication) =
            play_one(&rules, &[], attackers.as_mut(), &mut defenders, 100);
        assert!(error.is_none());
        assert_eq!(
            game.ply(),
            1,
            "the attackers moved, then the defenders resigned"
        );
        let (engine, verdict) = adjudication.unwrap();
        assert_eq!(engine, "fake");
        assert_eq!(verdict.winner, Some(Side::Attackers));
    }

    #[test]
    fn an_engines_own_verdict_ends_the_game_where_it_says() {
        let rules = tafl_engine::variant("copenhagen").unwrap().rules();
        let mut attackers = FakeEngine {
            resigns: false,
            draw_at: Some(4),
        };
        let mut defenders = level_one();
        let (game, error, adjudication) =
            play_one(&rules, &[], &mut attackers, defenders.as_mut(), 100);
        assert!(error.is_none());
        assert!(!game.is_over(), "our referee plays on");
        assert_eq!(game.ply(), 4);
        assert_eq!(adjudication.unwrap().1.winner, None);
    }
}
