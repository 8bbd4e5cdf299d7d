//! Playing levels, from 1 (beginner) to 5 (strongest): budgets and a random margin.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::limits::{SearchLimits, available_threads};

/// A playing level. Weaker levels search less and choose at random among the moves that
/// score within a margin of the best one (seeded, so a game can be replayed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// One row of the levels table: budget and margin.
struct Profile {
    name: &'static str,
    depth: Option<u32>,
    nodes: Option<u64>,
    time_ms: u64,
    margin: i32,
    table_mib: usize,
    /// Level 5 searches on every core; the others on one, so that many games can think at
    /// once and their node-limited searches replay the same.
    all_cores: bool,
}

// Each level searches about ten times the nodes of the one below (a few plies deeper), and
// the lower ones also pick at random among moves within their margin of the best.
const PROFILES: [Profile; 5] = [
    Profile {
        name: "beginner",
        depth: Some(1),
        nodes: Some(2_000),
        time_ms: 200,
        margin: 250,
        table_mib: 1,
        all_cores: false,
    },
    Profile {
        name: "casual",
        depth: None,
        nodes: Some(10_000),
        time_ms: 300,
        margin: 60,
        table_mib: 4,
        all_cores: false,
    },
    Profile {
        name: "club",
        depth: None,
        nodes: Some(100_000),
        time_ms: 1_000,
        margin: 15,
        table_mib: 16,
        all_cores: false,
    },
    Profile {
        name: "expert",
        depth: None,
        nodes: Some(1_000_000),
        time_ms: 3_000,
        margin: 0,
        table_mib: 64,
        all_cores: false,
    },
    Profile {
        name: "strongest",
        depth: None,
        nodes: None,
        time_ms: 10_000,
        margin: 0,
        table_mib: 64,
        all_cores: true,
    },
];

impl Level {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = PROFILES.len() as u8;

    /// Level `n`, 1 to 5.
    pub fn from_number(n: u8) -> Option<Level> {
        (Level::MIN..=Level::MAX).contains(&n).then_some(Level(n))
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Level::MIN..=Level::MAX).map(Level)
    }

    pub fn number(self) -> u8 {
        self.0
    }

    fn profile(self) -> &'static Profile {
        &PROFILES[(self.0 - 1) as usize]
    }

    pub fn name(self) -> &'static str {
        self.profile().name
    }

    /// Whether this level's strength is fixed: it stops after so many nodes, whatever the
    /// machine's load (its time is only a cap far above what those nodes take). The strongest
    /// level thinks for a time on every core instead, so it plays better on a quiet machine.
    pub fn fixed_strength(self) -> bool {
        self.profile().nodes.is_some()
    }

    /// The search limits of this level (seed 0; set another with [`SearchLimits::with_seed`]).
    /// Level 5 searches on every core ([`available_threads`]), the others on one thread.
    pub fn limits(self) -> SearchLimits {
        let p = self.profile();
        SearchLimits {
            time: Some(Duration::from_millis(p.time_ms)),
            nodes: p.nodes,
            depth: p.depth,
            stop: None,
            random_margin: p.margin,
            seed: 0,
            table_mib: p.table_mib,
            weights: None,
            excluded: Vec::new(),
            threads: if p.all_cores { available_threads() } else { 1 },
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

/// The text was not a level.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {0:?}: expected 1 to 5 or beginner, casual, club, expert, strongest")]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let t = text.trim().to_ascii_lowercase();
        if let Ok(n) = t.parse::<u8>() {
            return Level::from_number(n).ok_or_else(|| ParseLevelError(text.to_string()));
        }
        Level::all()
            .find(|l| l.name() == t)
            .ok_or_else(|| ParseLevelError(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_one_to_four_have_a_fixed_strength_and_five_thinks_for_a_time() {
        let fixed: Vec<bool> = Level::all().map(Level::fixed_strength).collect();
        assert_eq!(fixed, [true, true, true, true, false]);
    }

    #[test]
    fn levels_parse_and_grow_stronger() {
        assert_eq!("3".parse::<Level>().unwrap().number(), 3);
        assert_eq!("Expert".parse::<Level>().unwrap().number(), 4);
        assert!("0".parse::<Level>().is_err());
        assert!("6".parse::<Level>().is_err());
        assert!("grandmaster".parse::<Level>().is_err());
        let limits: Vec<SearchLimits> = Level::all().map(Level::limits).collect();
        for pair in limits.windows(2) {
            assert!(pair[0].random_margin >= pair[1].random_margin);
            assert!(pair[0].time <= pair[1].time);
            assert!(pair[0].nodes.unwrap_or(u64::MAX) < pair[1].nodes.unwrap_or(u64::MAX));
        }
        // Levels 1 to 4 replay the same (one thread, node budgets); level 5 uses every core.
        for (level, limits) in Level::all().zip(&limits) {
            let expected = if level.number() == 5 {
                available_threads()
            } else {
                1
            };
            assert_eq!(limits.threads, expected, "level {level}");
        }
    }
}
