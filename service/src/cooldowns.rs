//! How often a player may ask for engine work (a new game against the AI, a hint, a new
//! analysis, the refutation of a wrong puzzle move): each has a cooldown, the same through every front end. Kept per instance:
//! with several instances, a player could ask once on each within one cooldown.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::domain::PlayerId;

use super::{GamesService, Result, ServiceError};

/// Past this many remembered requests, the ones whose cooldown is over are forgotten.
const REMEMBERED: usize = 10_000;

/// What a cooldown is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Asked {
    AiGame,
    Hint,
    Analysis,
    /// The engine's answer to a wrong puzzle move: a search as quick as a hint's, so it has
    /// the hint's cooldown (`hint_cooldown_secs`).
    Refutation,
}

impl Asked {
    fn what(self) -> &'static str {
        match self {
            Asked::AiGame => "a new game against the AI",
            Asked::Hint => "another hint",
            Asked::Analysis => "another analysis",
            Asked::Refutation => "another refutation",
        }
    }
}

/// When each player may next ask for each kind of engine work.
#[derive(Default)]
pub(crate) struct Cooldowns {
    free_at: Mutex<HashMap<(PlayerId, Asked), i64>>,
}

impl Cooldowns {
    /// Notes that `player` asks for `asked` at `now_ms`, or refuses when they asked less than
    /// `cooldown_ms` ago, saying when to try again.
    pub fn ask(&self, player: PlayerId, asked: Asked, now_ms: i64, cooldown_ms: i64) -> Result<()> {
        if cooldown_ms <= 0 {
            return Ok(());
        }
        // Counts and times only: a panic elsewhere while the lock was held leaves them whole.
        let mut free_at = self
            .free_at
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&at) = free_at.get(&(player, asked)) {
            let wait_ms = at.saturating_sub(now_ms);
            if wait_ms > 0 {
                let secs = wait_ms.div_euclid(1000) + i64::from(wait_ms.rem_euclid(1000) > 0);
                return Err(ServiceError::Limited {
                    message: format!("you can ask for {} in {secs} s", asked.what()),
                    retry_after_secs: u64::try_from(secs).unwrap_or(u64::MAX),
                });
            }
        }
        if free_at.len() >= REMEMBERED {
            free_at.retain(|_, at| *at > now_ms);
        }
        free_at.insert((player, asked), now_ms.saturating_add(cooldown_ms));
        Ok(())
    }
}

impl GamesService {
    /// Notes that `player` asks for `asked` now, or refuses while its cooldown runs.
    pub fn ask_engine(&self, player: PlayerId, asked: Asked) -> Result<()> {
        let config = &self.inner.config;
        let secs = match asked {
            Asked::AiGame => config.ai_game_cooldown_secs,
            Asked::Hint | Asked::Refutation => config.hint_cooldown_secs,
            Asked::Analysis => config.analysis_cooldown_secs,
        };
        let cooldown_ms = i64::try_from(secs.saturating_mul(1000)).unwrap_or(i64::MAX);
        self.inner
            .cooldowns
            .ask(player, asked, self.now_ms(), cooldown_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_ask_within_the_cooldown_is_refused_with_the_wait() {
        let cooldowns = Cooldowns::default();
        let p = PlayerId(1);
        cooldowns.ask(p, Asked::Hint, 10_000, 5_000).unwrap();
        match cooldowns.ask(p, Asked::Hint, 11_200, 5_000) {
            Err(ServiceError::Limited {
                message,
                retry_after_secs,
            }) => {
                assert_eq!(retry_after_secs, 4, "3.8 s left, rounded up");
                assert_eq!(message, "you can ask for another hint in 4 s");
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
        // Another kind, and another player, are not held back.
        cooldowns.ask(p, Asked::Analysis, 11_200, 5_000).unwrap();
        cooldowns
            .ask(PlayerId(2), Asked::Hint, 11_200, 5_000)
            .unwrap();
        // Once the cooldown is over, asking works again.
        cooldowns.ask(p, Asked::Hint, 15_000, 5_000).unwrap();
    }

    #[test]
    fn no_cooldown_never_refuses_and_the_memory_stays_bounded() {
        let cooldowns = Cooldowns::default();
        for i in 0..3 {
            cooldowns.ask(PlayerId(1), Asked::AiGame, i, 0).unwrap();
        }
        for i in 0..(REMEMBERED as i64 + 10) {
            cooldowns.ask(PlayerId(i), Asked::Hint, i * 10, 5).unwrap();
        }
        let remembered = cooldowns.free_at.lock().unwrap().len();
        assert!(remembered <= REMEMBERED, "{remembered} remembered");
    }
}
