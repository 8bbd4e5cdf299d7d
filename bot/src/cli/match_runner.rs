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
use crate::engine_protocol::player::{MoveBudget, Player, PlayerError, PlayerSpec};
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
            "{} games: {} won, {} lost, {} drawn; score {:.1}% {interval} (95%){}{}",
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
    let mut player_a = a.build(budget)?;
    let mut player_b = b.build(budget)?;
    let mut tally = Tally::default();
    for (i, opening) in book.iter().enumerate() {
        let mut pair = 0.0;
        let mut complete = true;
        for a_side in [Side::Attackers, Side::Defenders] {
            let (attackers, defenders): (&mut dyn Player, &mut dyn Player) = match a_side {
                Side::Attackers => (player_a.as_mut(), player_b.as_mut()),
                Side::Defenders => (player_b.as_mut(), player_a.as_mut()),
            };
            let (names, (game, error)) = (
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
            let tags = vec![
                ("event".to_string(), "taflbot match".to_string()),
                ("attackers".to_string(), names.0),
                ("defenders".to_string(), names.1),
            ];
            std::fs::write(&file, otg::write(&game, &tags))
                .with_context(|| format!("cannot write {}", file.display()))?;
            match error {
                Some(PlayerError::Refused { .. }) => {
                    complete = false;
                    tally
                        .refused
                        .push(format!("{label}: {}", error_text(error.as_ref())));
                    continue;
                }
                Some(PlayerError::Failed(_)) => {
                    complete = false;
                    tally
                        .failed
                        .push(format!("{label}: {}", error_text(error.as_ref())));
                    continue;
                }
                None => {}
            }
            let points = tafl_engine::ai::selfplay::points(&game, a_side);
            pair += points;
            match points {
                p if p > 0.75 => tally.wins += 1,
                p if p < 0.25 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            eprintln!(
                "{label}: {} after {} plies -> {}",
                game.outcome()
                    .map_or("unfinished (draw)".to_string(), |o| o.describe()),
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

/// One game; an illegal move loses for the player who made it.
fn play_one(
    rules: &Rules,
    opening: &[Move],
    attackers: &mut dyn Player,
    defenders: &mut dyn Player,
    max_plies: u32,
) -> (Game, Option<PlayerError>) {
    let mut game = Game::new(rules.clone());
    for &mv in opening {
        if game.play(mv).is_err() {
            break;
        }
    }
    let result = (|| -> Result<(), PlayerError> {
        attackers.start(&game)?;
        defenders.start(&game)?;
        while !game.is_over() && game.ply() < max_plies {
            let side = game.side_to_move();
            let (mover, other): (&mut dyn Player, &mut dyn Player) = match side {
                Side::Attackers => (&mut *attackers, &mut *defenders),
                Side::Defenders => (&mut *defenders, &mut *attackers),
            };
            let mv = mover.choose(&game)?;
            if let Err(e) = game.play(mv) {
                return Err(PlayerError::Failed(anyhow::anyhow!(
                    "{} played an illegal move {mv}: {e}",
                    mover.name()
                )));
            }
            mover.accepted(&game)?;
            if !game.is_over() {
                other.opponent_moved(&game, mv)?;
            }
        }
        Ok(())
    })();
    attackers.finish(&game);
    defenders.finish(&game);
    (game, result.err())
}
