//! The formats a tournament can be played in, and what each needs.

use serde::{Deserialize, Serialize};

use super::standings::TieBreak;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum Format {
    /// Every pair meets once.
    RoundRobin,
    /// Every pair meets twice, once on each side.
    DoubleRoundRobin,
    /// A fixed number of rounds paired by score (see [`super::swiss`]).
    Swiss { rounds: u32 },
    /// Groups by rating, each a double round robin; group winners go on (see
    /// [`super::groups`]).
    GroupsKnockout { group_size: u32 },
}

/// A format's name, as the API and the views write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum FormatKind {
    /// Every pair meets once.
    RoundRobin,
    /// Every pair meets twice, once on each side.
    DoubleRoundRobin,
    /// A fixed number of rounds paired by score.
    Swiss,
    /// Groups by rating, group winners go on.
    GroupsKnockout,
}

/// Why a format cannot be played with the players it has.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("a tournament needs at least {needed} players; it has {players}")]
    TooFewPlayers { needed: usize, players: usize },
    #[error("a Swiss tournament needs 1 to {most} rounds for {players} players; {rounds} asked")]
    SwissRounds {
        rounds: u32,
        players: usize,
        most: usize,
    },
    #[error("groups need at least 2 players each; {group_size} asked")]
    GroupSize { group_size: u32 },
}

impl Format {
    pub fn kind(self) -> FormatKind {
        match self {
            Format::RoundRobin => FormatKind::RoundRobin,
            Format::DoubleRoundRobin => FormatKind::DoubleRoundRobin,
            Format::Swiss { .. } => FormatKind::Swiss,
            Format::GroupsKnockout { .. } => FormatKind::GroupsKnockout,
        }
    }

    /// How many rounds `players` players play: a round robin's `n - 1` (`n` rounded up to
    /// even), twice that for a double one, a Swiss tournament's as asked. Groups then knockout
    /// depend on the play-offs: `None`.
    pub fn planned_rounds(self, players: usize) -> Option<u32> {
        let even = players + players % 2;
        let cycle = u32::try_from(even.saturating_sub(1)).unwrap_or(u32::MAX);
        match self {
            Format::RoundRobin => Some(cycle),
            Format::DoubleRoundRobin => Some(cycle.saturating_mul(2)),
            Format::Swiss { rounds } => Some(rounds),
            Format::GroupsKnockout { .. } => None,
        }
    }

    /// The tie-breaks, in order: Sonneborn-Berger first where everyone meets everyone (as the
    /// World Tafl Federation does), Buchholz first in a Swiss event (where opponents differ).
    pub fn tie_breaks(self) -> &'static [TieBreak] {
        match self {
            Format::RoundRobin | Format::DoubleRoundRobin | Format::GroupsKnockout { .. } => &[
                TieBreak::SonnebornBerger,
                TieBreak::DirectEncounter,
                TieBreak::Wins,
            ],
            Format::Swiss { .. } => &[
                TieBreak::Buchholz,
                TieBreak::SonnebornBerger,
                TieBreak::DirectEncounter,
                TieBreak::Wins,
            ],
        }
    }

    /// Whether `players` can start this format.
    pub fn check(self, players: usize) -> Result<(), FormatError> {
        let needed = match self {
            Format::GroupsKnockout { .. } => 3,
            _ => 2,
        };
        if players < needed {
            return Err(FormatError::TooFewPlayers { needed, players });
        }
        match self {
            Format::Swiss { rounds } => {
                // Each round needs opponents not met before: at most everyone once.
                let most = players - 1 + players % 2;
                if rounds == 0 || rounds as usize > most {
                    return Err(FormatError::SwissRounds {
                        rounds,
                        players,
                        most,
                    });
                }
            }
            Format::GroupsKnockout { group_size } if group_size < 2 => {
                return Err(FormatError::GroupSize { group_size });
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_refuse_what_cannot_be_played_in_the_players_terms() {
        assert_eq!(Format::RoundRobin.check(4), Ok(()));
        assert_eq!(
            Format::RoundRobin.check(1),
            Err(FormatError::TooFewPlayers {
                needed: 2,
                players: 1
            })
        );
        assert_eq!(Format::Swiss { rounds: 5 }.check(5), Ok(()));
        let refused = Format::Swiss { rounds: 4 }
            .check(4)
            .map_err(|e| e.to_string());
        assert_eq!(
            refused,
            Err("a Swiss tournament needs 1 to 3 rounds for 4 players; 4 asked".to_owned())
        );
        assert!(Format::GroupsKnockout { group_size: 1 }.check(8).is_err());
    }

    #[test]
    fn formats_read_as_the_api_writes_them() {
        let swiss: Format = serde_json::from_str(r#"{"format":"swiss","rounds":5}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(swiss, Format::Swiss { rounds: 5 });
        let rr: Format = serde_json::from_str(r#"{"format":"double_round_robin"}"#)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rr, Format::DoubleRoundRobin);
    }
}
