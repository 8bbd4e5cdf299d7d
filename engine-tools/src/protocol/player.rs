//! A player in a refereed match: one of our levels, or an external engine.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tafl_engine::ai::{Level, ParseLevelError, SearchLimits, Searcher};
use tafl_engine::{Game, Move, MoveError, Side};

use super::htp_client::HtpPlayer;
use super::otep_client::OtepPlayer;
use super::process::ProcessError;

/// Why a game with an external engine could not go on.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// The engine refused a move that our referee allowed (house rules differ).
    #[error("{engine} refused {mv}, which our referee allows: {reply}")]
    Refused {
        engine: String,
        mv: Move,
        reply: String,
    },
    /// The engine's board differs from our referee's after a ply (house rules differ).
    #[error("{engine}'s board differs from ours after ply {ply}: {theirs} (ours {ours})")]
    Disagrees {
        engine: String,
        ply: u32,
        theirs: String,
        ours: String,
    },
    /// The engine resigned instead of moving.
    #[error("{engine} resigned")]
    Resigned { engine: String },
    /// The engine could not be started, crashed, stopped reading or timed out.
    #[error(transparent)]
    Process(#[from] ProcessError),
    /// The engine broke the protocol: an answer we cannot read, or an error it reported.
    #[error("{engine}: {detail}")]
    Protocol { engine: String, detail: String },
    /// The player chose a move our referee refuses.
    #[error("{player} played an illegal move {mv}: {source}")]
    Illegal {
        player: String,
        mv: Move,
        source: MoveError,
    },
    /// The player was asked for a move in a game that is over.
    #[error("{player} has no move: the game is over")]
    NoMove { player: String },
}

impl PlayerError {
    /// Did the game stop because the engine's house rules differ from our referee's (the game
    /// is reported apart), rather than because a player failed?
    pub fn is_rules_difference(&self) -> bool {
        matches!(
            self,
            PlayerError::Refused { .. } | PlayerError::Disagrees { .. }
        )
    }
}

/// A player on the command line that is neither a level nor an engine command.
#[derive(Debug, thiserror::Error)]
#[error(
    "player {text:?}: expected a level (1-5), a level on N search threads (5t2, N from 1 to {}), otep:COMMAND or htp:COMMAND",
    SearchLimits::MAX_THREADS
)]
pub struct ParsePlayerSpecError {
    pub text: String,
}

/// A result an external engine reached by its own house rules where our referee plays on
/// (hnefatafl-copenhagen adjudicates trapped kings and draws after 140 plies).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// None: a draw.
    pub winner: Option<Side>,
    /// The engine's own words.
    pub said: String,
}

pub trait Player {
    fn name(&self) -> String;
    /// A game starts from `game` (its opening already played).
    fn start(&mut self, game: &Game) -> Result<(), PlayerError>;
    /// The opponent's move `mv`, already played in `game`.
    fn opponent_moved(&mut self, game: &Game, mv: Move) -> Result<(), PlayerError>;
    /// Our move in `game`.
    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError>;
    /// How long the last `choose` thought, when the player knows better than the host's
    /// clock around it (an engine client that first waits out a pause of its own).
    fn last_think(&self) -> Option<Duration> {
        None
    }
    /// Our move was accepted; `game` is after it.
    fn accepted(&mut self, _game: &Game) -> Result<(), PlayerError> {
        Ok(())
    }
    /// Has the player's own referee ended the game that ours still plays? Asked after every
    /// ply; also where an engine's board is found to differ from ours.
    fn verdict(&mut self, _game: &Game) -> Result<Option<Verdict>, PlayerError> {
        Ok(None)
    }
    /// The game is over (or abandoned).
    fn finish(&mut self, _game: &Game) {}
}

/// What a player is, from the command line: `3`, `level:3`, `5t2` (level 5 on two search
/// threads), `otep:COMMAND` or `htp:COMMAND`.
#[derive(Debug, Clone)]
pub enum PlayerSpec {
    /// One of our levels, on the level's own threads (level 5: every core; the others: one).
    Level(Level),
    /// One of our levels on this many search threads (to measure what threads are worth).
    LevelThreads(Level, usize),
    Otep(String),
    Htp(String),
}

impl std::fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerSpec::Level(level) => write!(f, "level {level}"),
            PlayerSpec::LevelThreads(level, threads) => {
                write!(f, "level {level} on {threads} thread(s)")
            }
            PlayerSpec::Otep(command) => write!(f, "otep:{command}"),
            PlayerSpec::Htp(command) => write!(f, "htp:{command}"),
        }
    }
}

impl std::str::FromStr for PlayerSpec {
    type Err = ParsePlayerSpecError;

    fn from_str(text: &str) -> Result<PlayerSpec, ParsePlayerSpecError> {
        let text = text.trim();
        if let Some(command) = text.strip_prefix("otep:") {
            return Ok(PlayerSpec::Otep(command.to_string()));
        }
        if let Some(command) = text.strip_prefix("htp:") {
            return Ok(PlayerSpec::Htp(command.to_string()));
        }
        let error = || ParsePlayerSpecError {
            text: text.to_string(),
        };
        let level = text.strip_prefix("level:").unwrap_or(text);
        // `5t2`: a level, `t`, a thread count (level names end in letters, never in digits).
        if let Some((level, threads)) = level.rsplit_once('t')
            && !threads.is_empty()
            && threads.bytes().all(|b| b.is_ascii_digit())
        {
            let threads: usize = threads.parse().map_err(|_| error())?;
            if !(1..=SearchLimits::MAX_THREADS).contains(&threads) {
                return Err(error());
            }
            let level: Level = level.parse().map_err(|_: ParseLevelError| error())?;
            return Ok(PlayerSpec::LevelThreads(level, threads));
        }
        level
            .parse()
            .map(PlayerSpec::Level)
            .map_err(|_: ParseLevelError| error())
    }
}

/// Per-move budget overrides for a match.
#[derive(Debug, Clone, Default)]
pub struct MoveBudget {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// Search threads of one of our levels (overrides the level's own and a `5t2` spec's).
    pub threads: Option<usize>,
    /// Multiplies a level's own node and time budgets (when no override is given).
    pub scale: Option<f64>,
    /// How long an external OpenTafl-protocol engine is left alone after it moves (default
    /// `otep_client::DEFAULT_SETTLE`).
    pub engine_settle: Option<Duration>,
    /// How long the host waits for an external engine's move before it counts as lost on time
    /// (default: ten move times and 5 s for an OpenTafl-protocol engine, at least 30 minutes
    /// for an hnefatafl-text-protocol engine, which has no clock).
    pub engine_timeout: Option<Duration>,
    /// When set, our levels' searches end at once (a match being stopped).
    pub stop: Option<Arc<AtomicBool>>,
}

impl MoveBudget {
    /// The budget in words, for records and reports: "250 ms", "10000 nodes, 2 threads".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(time) = self.time {
            parts.push(format!("{} ms", time.as_millis()));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("{nodes} nodes"));
        }
        if let Some(threads) = self.threads {
            parts.push(format!("{threads} thread(s)"));
        }
        if parts.is_empty()
            && let Some(scale) = self.scale
        {
            parts.push(format!("own budget x{scale}"));
        }
        if parts.is_empty() {
            "own budget".to_string()
        } else {
            parts.join(", ")
        }
    }
}

impl PlayerSpec {
    /// Does this player's referee forbid the defenders to recreate any earlier board?
    /// (hnefatafl-copenhagen refuses such a move where Copenhagen rules only count repeats.)
    fn forbids_defender_repeats(&self) -> bool {
        matches!(self, PlayerSpec::Htp(_))
    }

    /// Is this an external engine (a process of its own) rather than one of our levels?
    pub fn is_external(&self) -> bool {
        matches!(self, PlayerSpec::Otep(_) | PlayerSpec::Htp(_))
    }

    /// The player, told what it needs of its `opponent`'s house rules.
    pub fn build(
        &self,
        budget: &MoveBudget,
        opponent: &PlayerSpec,
    ) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Level(level) => {
                let mut player = LevelPlayer::new(*level, budget);
                player.avoid_defender_repeats = opponent.forbids_defender_repeats();
                Box::new(player)
            }
            PlayerSpec::LevelThreads(level, threads) => {
                let threads = budget.threads.unwrap_or(*threads);
                let mut player = LevelPlayer::new(*level, budget).with_threads(threads);
                player.avoid_defender_repeats = opponent.forbids_defender_repeats();
                Box::new(player)
            }
            PlayerSpec::Otep(command) => Box::new(
                OtepPlayer::spawn(command, budget.time, budget.engine_settle)?
                    .with_timeout(budget.engine_timeout),
            ),
            PlayerSpec::Htp(command) => Box::new(
                HtpPlayer::spawn(command, budget.time)?.with_timeout(budget.engine_timeout),
            ),
        })
    }
}

/// One of our levels.
pub struct LevelPlayer {
    level: Level,
    limits: SearchLimits,
    searcher: Searcher,
    seed: u64,
    /// As defenders, never recreate a board seen earlier in the game (the opponent's rule).
    pub avoid_defender_repeats: bool,
}

impl LevelPlayer {
    pub fn new(level: Level, budget: &MoveBudget) -> LevelPlayer {
        let mut limits = level.limits();
        if budget.time.is_some() || budget.nodes.is_some() {
            limits.time = budget.time;
            limits.nodes = budget.nodes;
            limits.depth = None;
        } else if let Some(scale) = budget.scale {
            limits.time = limits.time.map(|t| t.mul_f64(scale));
            limits.nodes = limits.nodes.map(|n| ((n as f64) * scale).max(100.0) as u64);
        }
        if let Some(threads) = budget.threads {
            limits.threads = threads;
        }
        limits.stop = budget.stop.clone();
        LevelPlayer {
            level,
            searcher: Searcher::new(limits.table_mib),
            limits,
            seed: 0,
            avoid_defender_repeats: false,
        }
    }

    /// Searches on `threads` threads instead of the level's own count.
    pub fn with_threads(mut self, threads: usize) -> LevelPlayer {
        self.limits.threads = threads;
        self
    }

    pub fn set_seed(&mut self, seed: u64) {
        self.seed = seed;
    }

    /// The search limits for a move in `game`.
    fn limits_for(&self, game: &Game) -> SearchLimits {
        let mut limits = self
            .limits
            .clone()
            .with_seed(self.seed ^ u64::from(game.ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if self.avoid_defender_repeats && game.side_to_move() == Side::Defenders {
            limits.excluded = game.moves_recreating_a_board();
        }
        limits
    }
}

impl Player for LevelPlayer {
    fn name(&self) -> String {
        match self.limits.thread_count() {
            1 => format!("taflbot level {}", self.level),
            threads => format!("taflbot level {} on {threads} threads", self.level),
        }
    }

    fn start(&mut self, game: &Game) -> Result<(), PlayerError> {
        self.searcher.clear();
        self.seed = self.seed.wrapping_add(u64::from(game.ply()) + 1);
        Ok(())
    }

    fn opponent_moved(&mut self, _game: &Game, _mv: Move) -> Result<(), PlayerError> {
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Move, PlayerError> {
        let limits = self.limits_for(game);
        match self.searcher.search(game, &limits) {
            Some(result) => Ok(result.best_move),
            None => Err(PlayerError::NoMove {
                player: self.name(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use tafl_engine::Position;

    use super::*;

    /// Against an htp engine our defenders are kept from recreating an earlier board.
    #[test]
    fn against_an_htp_engine_the_defenders_never_recreate_a_board() {
        let rules = tafl_engine::variant("brandubh-hnefatafl-org")
            .unwrap()
            .rules();
        let start = Position::from_opentafl("/7/1t5/7/3K3/2T4/5t1/7/", Side::Defenders).unwrap();
        let mut game = Game::from_position(rules, start);
        for mv in ["c5-c6", "b2-b3", "c6-c5", "b3-b2"] {
            game.play_str(mv).unwrap();
        }
        let repeat = game.moves_recreating_a_board();
        assert_eq!(repeat.len(), 1);
        let budget = MoveBudget::default();
        let level = Level::from_number(3).unwrap();
        let mut player = LevelPlayer::new(level, &budget);
        assert!(player.limits_for(&game).excluded.is_empty());
        player.avoid_defender_repeats = true;
        assert_eq!(player.limits_for(&game).excluded, repeat);
        game.play_str("d4-d3").unwrap();
        assert!(
            player.limits_for(&game).excluded.is_empty(),
            "the attackers may repeat"
        );
        // `build` sets it from what the opponent forbids.
        let spec = PlayerSpec::Level(level);
        for (opponent, expected) in [(PlayerSpec::Htp("x".into()), true), (spec.clone(), false)] {
            assert_eq!(opponent.forbids_defender_repeats(), expected);
        }
    }

    #[test]
    fn a_level_may_be_given_its_search_threads() {
        for (text, level, threads) in [("5t2", 5, 2), ("level:3t1", 3, 1), ("strongestt4", 5, 4)] {
            match text.parse::<PlayerSpec>() {
                Ok(PlayerSpec::LevelThreads(l, t)) => {
                    assert_eq!((l.number(), t), (level, threads), "{text}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
        assert!(
            matches!("expert".parse::<PlayerSpec>(), Ok(PlayerSpec::Level(l)) if l.number() == 4)
        );
        for bad in ["5t0", "5t65", "6t2", "t2", "5t99999999999999999999999"] {
            let error = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(error.contains("5t2"), "{bad}: {error}");
        }
        let budget = MoveBudget {
            time: Some(Duration::from_millis(10)),
            ..MoveBudget::default()
        };
        let level = Level::from_number(5).unwrap();
        let player = LevelPlayer::new(level, &budget).with_threads(2);
        assert_eq!(player.limits.threads, 2);
        assert!(player.name().contains("2 threads"), "{}", player.name());
        let one = LevelPlayer::new(level, &budget).with_threads(1);
        assert_eq!(one.name(), "taflbot level 5 (strongest)");
    }
}
