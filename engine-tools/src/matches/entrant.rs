//! A player entered in a match, a test or a rating list: a name, what plays (a level or an
//! external engine) and its own budget, `[NAME=]SPEC[@time-ms=N,nodes=N,threads=N]`.

use std::time::Duration;

use tafl_engine::ai::SearchLimits;

use crate::protocol::player::{MoveBudget, ParsePlayerSpecError, PlayerSpec};

/// A player's own budget; what it leaves unset comes from the match's shared budget.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideBudget {
    pub time_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub threads: Option<usize>,
}

impl SideBudget {
    /// This budget over the match's `shared` one: a time or node budget of its own replaces
    /// both of the shared ones (so `--a-nodes` is not also held to a shared `--time-ms`).
    pub fn over(&self, shared: &MoveBudget) -> MoveBudget {
        let mut budget = shared.clone();
        if self.time_ms.is_some() || self.nodes.is_some() {
            budget.time = self.time_ms.map(Duration::from_millis);
            budget.nodes = self.nodes;
        }
        if self.threads.is_some() {
            budget.threads = self.threads;
        }
        budget
    }

    /// `other`'s settings where it has them, ours elsewhere.
    pub fn overridden_by(&self, other: &SideBudget) -> SideBudget {
        SideBudget {
            time_ms: other.time_ms.or(self.time_ms),
            nodes: other.nodes.or(self.nodes),
            threads: other.threads.or(self.threads),
        }
    }

    /// `@time-ms=250,threads=2`, or nothing.
    fn suffix(&self) -> String {
        let mut parts = Vec::new();
        if let Some(ms) = self.time_ms {
            parts.push(format!("time-ms={ms}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        if let Some(threads) = self.threads {
            parts.push(format!("threads={threads}"));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("@{}", parts.join(","))
        }
    }
}

/// A player with a name and its own budget.
#[derive(Debug, Clone)]
pub struct Entrant {
    pub name: String,
    pub spec: PlayerSpec,
    pub own: SideBudget,
}

/// Why an entrant's text cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ParseEntrantError {
    #[error(transparent)]
    Spec(#[from] ParsePlayerSpecError),
    #[error(
        "budget {text:?}: expected time-ms=N, nodes=N or threads=N (1 to {}), separated by commas",
        SearchLimits::MAX_THREADS
    )]
    Budget { text: String },
    #[error(
        "{spec}: an external engine is given only a time per move (its nodes and threads are its own command's options)"
    )]
    ExternalBudget { spec: String },
}

impl Entrant {
    /// An entrant with a name made from what it is.
    pub fn new(spec: PlayerSpec, own: SideBudget) -> Result<Entrant, ParseEntrantError> {
        let entrant = Entrant {
            name: String::new(),
            spec,
            own,
        };
        entrant.checked().map(|mut entrant| {
            entrant.name = entrant.default_name();
            entrant
        })
    }

    /// The same entrant with some of its budget replaced (a side's command-line flags).
    pub fn with_budget(&self, own: &SideBudget) -> Result<Entrant, ParseEntrantError> {
        let renamed = self.name == self.default_name();
        let mut entrant = Entrant {
            name: self.name.clone(),
            spec: self.spec.clone(),
            own: self.own.overridden_by(own),
        }
        .checked()?;
        if renamed {
            entrant.name = entrant.default_name();
        }
        Ok(entrant)
    }

    fn checked(self) -> Result<Entrant, ParseEntrantError> {
        if self.spec.is_external() && (self.own.nodes.is_some() || self.own.threads.is_some()) {
            return Err(ParseEntrantError::ExternalBudget {
                spec: self.spec.to_string(),
            });
        }
        Ok(self)
    }

    /// The budget it plays with under the match's `shared` one.
    pub fn budget(&self, shared: &MoveBudget) -> MoveBudget {
        self.own.over(shared)
    }

    /// A short name: `L5`, `L5t2@time-ms=250`, `otep:tafl`.
    fn default_name(&self) -> String {
        let what = match &self.spec {
            PlayerSpec::Level(level) => format!("L{}", level.number()),
            PlayerSpec::LevelThreads(level, threads) => format!("L{}t{threads}", level.number()),
            PlayerSpec::Otep(command) => format!("otep:{}", program(command)),
            PlayerSpec::Htp(command) => format!("htp:{}", program(command)),
        };
        format!("{what}{}", self.own.suffix())
    }

    /// How it is written on a command line.
    pub fn to_arg(&self) -> String {
        let spec = self.spec.to_string();
        let spec = match &self.spec {
            PlayerSpec::Level(level) => level.number().to_string(),
            PlayerSpec::LevelThreads(level, threads) => format!("{}t{threads}", level.number()),
            _ => spec,
        };
        let named = if self.name == self.default_name() {
            String::new()
        } else {
            format!("{}=", self.name)
        };
        format!("{named}{spec}{}", self.own.suffix())
    }
}

/// The program's file name, without its directory and arguments.
fn program(command: &str) -> String {
    let first = command.split_whitespace().next().unwrap_or(command);
    first.rsplit('/').next().unwrap_or(first).to_string()
}

impl std::fmt::Display for Entrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name)
    }
}

fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+'))
}

impl std::str::FromStr for Entrant {
    type Err = ParseEntrantError;

    fn from_str(text: &str) -> Result<Entrant, ParseEntrantError> {
        let text = text.trim();
        let (name, rest) = match text.split_once('=') {
            Some((name, rest)) if is_name(name) => (Some(name), rest),
            _ => (None, text),
        };
        // The budget follows the last `@` when it reads as one (a command may hold an `@`).
        let (spec, own) = match rest.rsplit_once('@') {
            Some((spec, budget)) if budget.contains('=') && !budget.contains(' ') => {
                (spec, parse_budget(budget)?)
            }
            _ => (rest, SideBudget::default()),
        };
        let mut entrant = Entrant::new(spec.parse()?, own)?;
        if let Some(name) = name {
            entrant.name = name.to_string();
        }
        Ok(entrant)
    }
}

fn parse_budget(text: &str) -> Result<SideBudget, ParseEntrantError> {
    let error = || ParseEntrantError::Budget {
        text: text.to_string(),
    };
    let mut own = SideBudget::default();
    for part in text.split(',') {
        let (key, value) = part.split_once('=').ok_or_else(error)?;
        let number: u64 = value.trim().parse().map_err(|_| error())?;
        match key.trim() {
            "time-ms" if number > 0 => own.time_ms = Some(number),
            "nodes" if number > 0 => own.nodes = Some(number),
            "threads" if (1..=SearchLimits::MAX_THREADS as u64).contains(&number) => {
                own.threads = Some(number as usize);
            }
            _ => return Err(error()),
        }
    }
    Ok(own)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn an_entrant_is_a_spec_with_an_optional_name_and_budget() {
        let plain: Entrant = "5".parse().unwrap();
        assert_eq!(plain.name, "L5");
        assert_eq!(plain.own, SideBudget::default());
        let quick: Entrant = "fast=5t2@time-ms=250,nodes=9000".parse().unwrap();
        assert_eq!(quick.name, "fast");
        assert!(matches!(quick.spec, PlayerSpec::LevelThreads(_, 2)));
        assert_eq!(
            quick.own,
            SideBudget {
                time_ms: Some(250),
                nodes: Some(9000),
                threads: None
            }
        );
        assert_eq!(quick.to_arg(), "fast=5t2@time-ms=250,nodes=9000");
        let engine: Entrant = "otep:/opt/old/tafl engine --move-time-ms=500@time-ms=500"
            .parse()
            .unwrap();
        assert_eq!(engine.name, "otep:tafl@time-ms=500");
        assert!(
            matches!(&engine.spec, PlayerSpec::Otep(c) if c == "/opt/old/tafl engine --move-time-ms=500")
        );
        let mail: Entrant = "otep:engine --user a@b".parse().unwrap();
        assert!(matches!(&mail.spec, PlayerSpec::Otep(c) if c == "engine --user a@b"));
        for bad in ["5@time-ms=0", "5@depth=3", "5@threads=99", "otep:x@nodes=5"] {
            assert!(bad.parse::<Entrant>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_sides_own_budget_replaces_the_shared_time_and_nodes() {
        let shared = MoveBudget {
            time: Some(Duration::from_millis(1000)),
            ..MoveBudget::default()
        };
        let plain: Entrant = "5".parse().unwrap();
        assert_eq!(
            plain.budget(&shared).time,
            Some(Duration::from_millis(1000))
        );
        let nodes = plain
            .with_budget(&SideBudget {
                nodes: Some(5000),
                threads: Some(1),
                ..SideBudget::default()
            })
            .unwrap();
        let budget = nodes.budget(&shared);
        assert_eq!(
            (budget.time, budget.nodes, budget.threads),
            (None, Some(5000), Some(1))
        );
        assert_eq!(nodes.name, "L5@nodes=5000,threads=1");
    }
}
