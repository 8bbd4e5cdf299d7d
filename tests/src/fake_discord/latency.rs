//! Latency a test injects, as the network and Discord's load add it: per kind of REST route
//! (the answer is sent that much later; the request was counted as it arrived) and for
//! gateway dispatches (each event reaches the bot that much later, in order). None by default.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use super::locked;
use super::rate_limits::RouteGroup;

/// A delay of `base` give or take up to `jitter`, drawn evenly each time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Latency {
    pub base: Duration,
    pub jitter: Duration,
}

impl Latency {
    /// `base_ms` ± `jitter_ms` milliseconds, e.g. `Latency::ms(100, 50)`.
    pub fn ms(base_ms: u64, jitter_ms: u64) -> Latency {
        Latency {
            base: Duration::from_millis(base_ms),
            jitter: Duration::from_millis(jitter_ms),
        }
    }
}

/// What a latency applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Delayed {
    /// The answers of the routes of one group.
    Route(RouteGroup),
    /// Every REST answer without a latency of its own group.
    AnyRoute,
    /// Gateway dispatches (interactions and other events).
    GatewayDispatch,
}

/// The latencies set, and the source of their jitter.
pub(crate) struct Latencies {
    set: Mutex<HashMap<Delayed, Latency>>,
    /// SplitMix64 state: the jitter needs to be spread, not unpredictable.
    seed: Mutex<u64>,
}

impl Default for Latencies {
    fn default() -> Self {
        Latencies {
            set: Mutex::new(HashMap::new()),
            seed: Mutex::new(0x5eed_d15c_0bd0_0001),
        }
    }
}

impl Latencies {
    pub fn set(&self, what: Delayed, latency: Latency) {
        locked(&self.set).insert(what, latency);
    }

    /// How long the answer of a route of `group` waits.
    pub fn of_route(&self, group: RouteGroup) -> Duration {
        let latency = {
            let set = locked(&self.set);
            set.get(&Delayed::Route(group))
                .or_else(|| set.get(&Delayed::AnyRoute))
                .copied()
        };
        latency.map_or(Duration::ZERO, |l| self.draw(l))
    }

    /// How long a gateway dispatch takes to reach the bot.
    pub fn of_dispatch(&self) -> Duration {
        let latency = locked(&self.set).get(&Delayed::GatewayDispatch).copied();
        latency.map_or(Duration::ZERO, |l| self.draw(l))
    }

    fn draw(&self, latency: Latency) -> Duration {
        let jitter_ms = u64::try_from(latency.jitter.as_millis()).unwrap_or(u64::MAX);
        if jitter_ms == 0 {
            return latency.base;
        }
        let random = {
            let mut seed = locked(&self.seed);
            *seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = *seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        // Evenly in [base - jitter, base + jitter].
        let offset = random % (2 * jitter_ms + 1);
        (latency.base + Duration::from_millis(offset)).saturating_sub(latency.jitter)
    }
}

impl super::FakeDiscord {
    /// Delays the answers of a group of routes, any route, or gateway dispatches from now on.
    pub fn set_latency(&self, what: Delayed, latency: Latency) {
        self.state.latency.set(what, latency);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_within_the_jitter_and_spread() {
        let latencies = Latencies::default();
        latencies.set(Delayed::GatewayDispatch, Latency::ms(100, 50));
        let draws: Vec<Duration> = (0..200).map(|_| latencies.of_dispatch()).collect();
        assert!(draws.iter().all(|d| (50..=150).contains(&d.as_millis())));
        assert!(draws.iter().any(|d| d.as_millis() < 75));
        assert!(draws.iter().any(|d| d.as_millis() > 125));
        assert_eq!(latencies.of_route(RouteGroup::Other), Duration::ZERO);
    }
}
