//! `taflbot render`: a position as a PNG board image.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Args;
use tafl_engine::{Game, Move, Outcome, Side, WinReason};
use tafl_render::{Caption, CaptionSide, RenderOptions, Style, Theme, render};

use super::GameSource;

#[derive(Debug, Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub game: GameSource,
    /// The last move, highlighted with an arrow (e.g. e5-e8). If --position is the position
    /// before it, the move is played first and its captures are drawn; if the moved piece
    /// already stands on the destination, the move is only highlighted.
    #[arg(long)]
    pub last: Option<String>,
    /// Turn the board half around, so that the top side (usually the defenders') sits at the bottom.
    #[arg(long)]
    pub flip: bool,
    /// Colour theme: light or dark.
    #[arg(long, default_value = "light")]
    pub theme: String,
    /// Image width in pixels (160 to 4096).
    #[arg(long, default_value_t = tafl_render::DEFAULT_SIZE)]
    pub size: u32,
    /// Add a caption strip above the board with these players, whose turn it is and any escape warning.
    #[arg(long)]
    pub players: Option<String>,
    /// Add the caption strip (whose turn, escape warning) even without --players.
    #[arg(long)]
    pub caption: bool,
    /// Where to write the PNG.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

fn short_result(outcome: &Outcome) -> String {
    match outcome.winner() {
        Some(Side::Attackers) => "Attackers win".to_string(),
        Some(Side::Defenders) => "Defenders win".to_string(),
        None => "Draw".to_string(),
    }
}

/// The position to draw (after --last, if it was played) and how to draw it.
fn prepare(args: &RenderArgs) -> anyhow::Result<(Game, RenderOptions)> {
    let (rules, position) = args.game.load()?;
    let theme: Theme = args.theme.parse().context("bad --theme")?;
    let dim = rules.dim();
    let mut game = Game::from_position(rules, position);
    let mut options = RenderOptions {
        style: Style {
            size: args.size,
            theme,
            flip: args.flip,
        },
        ..RenderOptions::default()
    };
    if let Some(text) = &args.last {
        let mv = Move::parse(text, dim).context("bad --last")?;
        let position = game.position();
        let already_played =
            position.piece_at(mv.from).is_none() && position.piece_at(mv.to).is_some();
        if !already_played {
            let report = game
                .play(mv)
                .with_context(|| format!("--last {mv} cannot be played from --position"))?;
            options.captured = report.captures;
            // The captured king stays on the board; cross him out too.
            if let Some(Outcome::Win {
                reason: WinReason::KingCaptured,
                ..
            }) = report.outcome
                && let Some(king) = game.position().king()
            {
                options.captured.push(king);
            }
        }
        options.last_move = Some(mv);
    }
    options.warning = game.warning();
    if args.caption || args.players.is_some() {
        options.caption = Some(Caption {
            players: args.players.clone(),
            move_number: None,
            moved: None,
            to_move: match game.outcome() {
                Some(_) => None,
                None => Some(match game.side_to_move() {
                    Side::Attackers => CaptionSide::Attackers,
                    Side::Defenders => CaptionSide::Defenders,
                }),
            },
            // A finished game says how it ended where the escape warning would be.
            warning: game.outcome().map(short_result),
        });
    }
    Ok((game, options))
}

pub fn run(args: RenderArgs) -> anyhow::Result<ExitCode> {
    let (game, options) = prepare(&args)?;
    let png = render(game.position(), game.rules(), &options)?;
    if png.is_empty() {
        bail!("the renderer produced no image");
    }
    std::fs::write(&args.output, &png)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    super::outln!(
        "wrote {} ({:.1} KB)",
        args.output.display(),
        png.len() as f64 / 1024.0
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::{Cli, Command};

    fn args(extra: &[&str], output: &std::path::Path) -> RenderArgs {
        let mut argv = vec!["taflbot", "render"];
        argv.extend_from_slice(extra);
        let output = output.display().to_string();
        argv.extend_from_slice(&["-o", &output]);
        match Cli::try_parse_from(argv).unwrap().command {
            Some(Command::Render(args)) => args,
            other => panic!("parsed as {other:?}"),
        }
    }

    fn temp_png(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("taflbot-render-{}-{name}.png", std::process::id()))
    }

    #[test]
    fn writes_a_png_of_the_position_after_the_last_move() {
        let out = temp_png("after-move");
        let position = "/3ttttt3/5t5/4T6/t4T4t/t4TT3t/tt1TTKTT1tt/t3TTT3t/4tT4t/11/5t5/3ttttt3/";
        let given = args(
            &[
                "--variant",
                "copenhagen",
                "--position",
                position,
                "--to-move",
                "attackers",
                "--last",
                "k8-g8",
                "--theme",
                "dark",
                "--players",
                "A vs B",
            ],
            &out,
        );
        assert_eq!(run(given).unwrap(), ExitCode::SUCCESS);
        let png = std::fs::read(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        // IHDR: width 800, and a caption strip makes it taller than wide.
        let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
        let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
        assert_eq!(width, 800);
        assert!(height > 800);
    }

    #[test]
    fn a_king_capture_crosses_the_king_out_and_names_the_winner() {
        let given = args(
            &[
                "--variant",
                "brandubh",
                "--position",
                "/2t4/7/7/7/7/tK5/7/",
                "--to-move",
                "attackers",
                "--last",
                "c1-c6",
                "--caption",
            ],
            &temp_png("unused"),
        );
        let (game, options) = prepare(&given).unwrap();
        let king = game.position().king().unwrap();
        assert_eq!(options.captured, vec![king]);
        let caption = options.caption.unwrap();
        assert_eq!(caption.warning.as_deref(), Some("Attackers win"));
        assert_eq!(caption.to_move, None);
    }

    #[test]
    fn a_move_already_on_the_board_is_only_highlighted() {
        // After a8-e8 from the Copenhagen start: e8 holds the attacker, a8 is empty.
        let position = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/4tT4t/11/5t5/3ttttt3/";
        let given = args(
            &[
                "--variant",
                "copenhagen",
                "--position",
                position,
                "--to-move",
                "defenders",
                "--last",
                "a8-e8",
            ],
            &temp_png("unused"),
        );
        let (game, options) = prepare(&given).unwrap();
        assert_eq!(game.ply(), 0);
        assert_eq!(
            options.last_move.map(|mv| mv.to_string()),
            Some("a8-e8".into())
        );
        assert!(options.captured.is_empty());
        assert!(options.caption.is_none());
    }

    #[test]
    fn bad_options_are_named_in_the_error() {
        let out = temp_png("bad");
        let cases: [(&[&str], &str); 4] = [
            (&["--variant", "brandubh", "--theme", "sepia"], "--theme"),
            (&["--variant", "brandubh", "--last", "d7-e8"], "--last"),
            (&["--variant", "brandubh", "--last", "nonsense"], "--last"),
            (&["--variant", "brandubh", "--size", "5"], "size 5"),
        ];
        for (extra, expected) in cases {
            let error = run(args(extra, &out)).unwrap_err();
            assert!(
                format!("{error:#}").contains(expected),
                "{extra:?}: {error:#}"
            );
        }
        assert!(!out.exists());
    }
}
