//! `taflbot match`: paired games between two players (our levels or external engines), our
//! engine refereeing; prints W/L/D and the score with a 95% interval, writes every game as .otg.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use tafl_engine::ai::Level;
use tafl_engine::ai::selfplay::opening_book;
use tafl_engine::{Game, Move, Rules, Side};

use super::RulesSource;
use crate::engine_protocol::player::{MoveBudget, Player, PlayerError, PlayerSpec, Verdict};
use tafl_engine::otg;

#[derive(Debug, Args)]
pub struct MatchArgs {
    #[command(flatten)]
    pub rules: RulesSource,
    /// First player: a level (1-5 or its name), otep:COMMAND (OpenTafl engine protocol) or
    /// htp:COMMAND (hnefatafl text protocol).
    #[arg(long, required_unless_present = "ladder")]
    pub a: Option<PlayerSpec>,
    /// Second player, as --a.
    #[arg(long, required_unless_present = "ladder")]
    pub b: Option<PlayerSpec>,
    /// Instead of --a/--b: every level against the one below it, as a table.
    #[arg(long)]
    pub ladder: bool,
    /// Openings (each played twice, once from each side).
    #[arg(long, default_value_t = 4)]
    pub openings: usize,
    /// Skip the first N openings of the book (to resume a match cut short, or to split one
    /// across processes: the book depends only on --seed, --openings and --book-plies).
    #[arg(long, default_value_t = 0)]
    pub skip_openings: usize,
    /// Random plies in each opening.
    #[arg(long, default_value_t = 2)]
    pub book_plies: u32,
    /// Seed of the opening book and of the levels' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fixed time per move (overrides the levels' budgets).
    #[arg(long)]
    pub time_ms: Option<u64>,
    /// Fixed nodes per move (overrides the levels' budgets).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Multiply the levels' own budgets by this factor (quick matches).
    #[arg(long)]
    pub scale: Option<f64>,
    /// Games still going after this many plies are scored as draws.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Directory for the .otg records.
    #[arg(long, default_value = "match-games")]
    pub out: PathBuf,
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

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.load()?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let budget = MoveBudget {
        time: args.time_ms.map(Duration::from_millis),
        nodes: args.nodes,
        scale: args.scale,
    };
    let book = opening_book(&rules, args.book_plies, args.openings, args.seed);
    if book.len() < args.openings {
        eprintln!(
            "note: only {} distinct openings of {} plies",
            book.len(),
            args.book_plies
        );
    }
    if args.ladder {
        super::outln!("| level | against | games | won | lost | drawn | score | 95% interval |");
        super::outln!("|---|---|---|---|---|---|---|---|");
        for level in Level::all().skip(1) {
            let below = Level::from_number(level.number() - 1).context("no level below")?;
            let tally = run_pairing(
                &rules,
                &book,
                &PlayerSpec::Level(level),
                &PlayerSpec::Level(below),
                &budget,
                &args,
            )?;
            super::outln!(
                "| {} | {} | {} | {} | {} | {} | {:.1}% | {} |",
                level.number(),
                below.number(),
                tally.games(),
                tally.wins,
                tally.losses,
                tally.draws,
                100.0 * tally.score(),
                tally
                    .interval()
                    .map_or("n/a".into(), |h| format!("±{:.1}%", 100.0 * h))
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let (Some(a), Some(b)) = (&args.a, &args.b) else {
        anyhow::bail!("say --a and --b, or --ladder");
    };
    let tally = run_pairing(&rules, &book, a, b, &budget, &args)?;
    super::outln!("A = {a}, B = {b}: {}", tally.summary());
    for line in tally.refused.iter().chain(&tally.failed) {
        super::outln!("  apart: {line}");
    }
    for line in &tally.adjudicated {
        super::outln!("  adjudicated: {line}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays every opening twice between `a` and `b`, swapping sides.
pub fn run_pairing(
    rules: &Rules,
    book: &[Vec<Move>],
    a: &PlayerSpec,
    b: &PlayerSpec,
    budget: &MoveBudget,
    args: &MatchArgs,
) -> anyhow::Result<Tally> {
    let mut player_a = a.build(budget, b)?;
    let mut player_b = b.build(budget, a)?;
    let mut tally = Tally::default();
    for (i, opening) in book.iter().enumerate().skip(args.skip_openings) {
        let mut pair = 0.0;
        let mut complete = true;
        for a_side in [Side::Attackers, Side::Defenders] {
            let (attackers, defenders): (&mut dyn Player, &mut dyn Player) = match a_side {
                Side::Attackers => (player_a.as_mut(), player_b.as_mut()),
                Side::Defenders => (player_b.as_mut(), player_a.as_mut()),
            };
            let (names, (game, error, verdict)) = (
                (attackers.name(), defenders.name()),
                play_one(rules, opening, attackers, defenders, args.max_plies),
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
            let file = args.out.join(format!(
                "{}-vs-{}-s{}-o{:02}-a-{}.otg",
                file_name_part(a),
                file_name_part(b),
                args.seed,
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
            std::fs::write(&file, otg::write(&game, &tags))
                .with_context(|| format!("cannot write {}", file.display()))?;
            match error {
                Some(PlayerError::Refused { .. } | PlayerError::Disagrees { .. }) => {
                    complete = false;
                    tally
                        .refused
                        .push(format!("{label}: {}", error_text(error.as_ref())));
                    continue;
                }
                Some(PlayerError::Failed(_) | PlayerError::Resigned { .. }) => {
                    complete = false;
                    tally
                        .failed
                        .push(format!("{label}: {}", error_text(error.as_ref())));
                    continue;
                }
                None => {}
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
            eprintln!(
                "{label}: {result} after {} plies -> {}",
                game.ply(),
                file.display()
            );
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
        PlayerSpec::Otep(_) => "otep".to_string(),
        PlayerSpec::Htp(_) => "htp".to_string(),
    }
}

fn error_text(error: Option<&PlayerError>) -> String {
    error.map_or(String::new(), ToString::to_string)
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
            if let Err(e) = game.play(mv) {
                return Err(PlayerError::Failed(anyhow::anyhow!(
                    "{} played an illegal move {mv}: {e}",
                    mover.name()
                )));
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
