//! A deliberately ill-behaved OpenTafl Engine Protocol engine, for the host's tests. It
//! misbehaves the three ways OpenTafl's own engine mode does:
//! - it logs lines on stdout before `hello` (`--log-lines N`);
//! - it plans its time from the clock as OpenTafl does (an overtime period less 750 ms, or
//!   without overtime a 200th of the main time) and never answers when that is under 250 ms;
//! - it applies its own move to its board only `--apply-after-ms` after announcing it, and
//!   crashes (says `error -1` and exits) when told anything before then.
//!
//! It plays the first legal move. `--no-hello` makes it log forever instead of greeting.
//! `--hang-once FILE`: the first process to create FILE hangs at its first move and never
//! answers again (as a JVM engine that overran its clock may); later processes play.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tafl_engine::{Game, Move, Rules};

/// Below this planned time OpenTafl sets no stop timer and never answers.
const SMALLEST_PLAN_MS: u64 = 250;

struct Options {
    log_lines: usize,
    apply_after: Duration,
    no_hello: bool,
    hang_once: Option<std::path::PathBuf>,
}

fn options() -> Options {
    let mut options = Options {
        log_lines: 0,
        apply_after: Duration::ZERO,
        no_hello: false,
        hang_once: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut number = || args.next().and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        match arg.as_str() {
            "--log-lines" => options.log_lines = usize::try_from(number()).unwrap_or(0),
            "--apply-after-ms" => options.apply_after = Duration::from_millis(number()),
            "--no-hello" => options.no_hello = true,
            "--hang-once" => options.hang_once = args.next().map(Into::into),
            _ => {}
        }
    }
    options
}

/// The engine's state, shared with the thread that applies its own move late.
#[derive(Default)]
struct State {
    game: Option<Game>,
    /// Its own move, announced but not yet on its board.
    unapplied: Option<Move>,
    /// Asked to play: it moves when the clock that follows `play` says how long it may think.
    to_play: bool,
}

fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// OpenTafl's plan for a move from `clock A B S a d`.
fn plan_ms(rest: &str) -> Option<u64> {
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|f| f.trim_end_matches('*').parse().ok())
        .collect::<Option<_>>()?;
    match fields[..] {
        [main, _, overtime_s, overtimes, _] if overtime_s > 0 && overtimes > 0 => {
            Some((overtime_s * 1000).saturating_sub(750) + main / 20)
        }
        [main, ..] => Some(main / 200),
        _ => None,
    }
}

fn main() {
    let options = options();
    for i in 0..options.log_lines {
        say(&format!("[INFO] starting up, step {i}"));
    }
    if options.no_hello {
        loop {
            say("[INFO] still starting");
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    // Only the process that creates the file hangs.
    let hangs = options.hang_once.as_ref().is_some_and(|path| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .is_ok()
    });
    say("hello");
    let state = Arc::new(Mutex::new(State::default()));
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let (command, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        let mut guard = state.lock().unwrap_or_else(PoisonError::into_inner);
        if guard.unapplied.is_some() && !matches!(command, "goodbye" | "finish") {
            say(&format!(
                "error -1 {command} arrived before my own move was on my board"
            ));
            std::process::exit(1);
        }
        match command {
            "rules" => guard.game = Rules::from_opentafl(rest).ok().map(Game::new),
            "clock" if guard.to_play => {
                guard.to_play = false;
                if hangs {
                    continue;
                }
                if plan_ms(rest).unwrap_or(0) < SMALLEST_PLAN_MS {
                    // OpenTafl's search with no stop timer: it never answers.
                    continue;
                }
                play_first_legal_move(&mut guard, &state, options.apply_after);
            }
            "opponent-move" => {
                let first = rest.split_whitespace().next().unwrap_or("");
                let played = guard.game.as_mut().and_then(|game| {
                    let mv = Move::parse(first, game.rules().dim()).ok()?;
                    game.play(mv).ok()
                });
                if played.is_none() {
                    say(&format!("error -1 cannot play {first}"));
                    std::process::exit(1);
                }
            }
            "play" => guard.to_play = true,
            "goodbye" => break,
            _ => {}
        }
    }
}

/// Announces the first legal move, and puts it on its own board only `apply_after` later.
fn play_first_legal_move(guard: &mut State, state: &Arc<Mutex<State>>, apply_after: Duration) {
    let Some(mv) = guard
        .game
        .as_ref()
        .and_then(|g| g.legal_moves().first().copied())
    else {
        say("error 0 no move");
        return;
    };
    say(&format!("move {mv}"));
    guard.unapplied = Some(mv);
    let state = Arc::clone(state);
    std::thread::spawn(move || {
        std::thread::sleep(apply_after);
        let mut guard = state.lock().unwrap_or_else(PoisonError::into_inner);
        if let (Some(mv), Some(game)) = (guard.unapplied.take(), guard.game.as_mut()) {
            let _ = game.play(mv);
        }
    });
}
