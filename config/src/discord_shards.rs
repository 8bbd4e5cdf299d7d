//! Which Discord gateway shards this instance runs: `discord.shard_count` (how many the bot
//! has in all) and `discord.shards` (this instance's range of them, `"0-3"` or `"5"`; empty:
//! all). Discord sends each server's events and interactions to shard
//! `(guild_id >> 22) % shard_count` only, so instances that split the shards between them
//! each serve their own servers, and every server exactly one instance. Without either
//! setting (or with `shard_count = "auto"`) the bot runs the count Discord recommends
//! (`GET /gateway/bot`), read again at each start of the gateway, so a bot that grew past its
//! shards' servers never meets close 4011.

use std::ops::Range;

use serde::{Deserialize, Deserializer};

use super::{ConfigError, DiscordConfig};

/// `discord.shard_count`: a number of shards, or `"auto"` (the same as leaving it out: the
/// count Discord recommends). Anything else is refused in the setting's words.
pub(super) fn count_or_auto<'de, D: Deserializer<'de>>(de: D) -> Result<Option<u16>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum CountOrText {
        Count(i64),
        Fraction(f64),
        Text(String),
    }
    let refuse = |what: &dyn std::fmt::Display| {
        serde::de::Error::custom(format!(
            "discord.shard_count must be \"auto\" or a number of shards from 1 to {}, got {what}",
            u16::MAX
        ))
    };
    let count = match Option::<CountOrText>::deserialize(de)? {
        None => return Ok(None),
        Some(CountOrText::Count(n)) => n,
        Some(CountOrText::Fraction(x)) => return Err(refuse(&x)),
        Some(CountOrText::Text(text)) => {
            let trimmed = text.trim();
            if trimmed.eq_ignore_ascii_case("auto") || trimmed.is_empty() {
                return Ok(None);
            }
            trimmed
                .parse::<i64>()
                .map_err(|_| refuse(&format_args!("{text:?}")))?
        }
    };
    match u16::try_from(count) {
        // 0 is refused by `shard_plan`, with the other shard mistakes.
        Ok(count) => Ok(Some(count)),
        Err(_) => Err(refuse(&count)),
    }
}

/// The shards to start: `range` of `0..total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardPlan {
    pub range: Range<u16>,
    pub total: u16,
}

impl DiscordConfig {
    /// Whether the shard count is Discord's recommendation (`GET /gateway/bot`), read at each
    /// start of the gateway: when neither `shard_count` nor `shards` is set. An instance that
    /// runs a part of the shards needs the count all instances agree on.
    pub fn shard_count_from_discord(&self) -> bool {
        self.shard_count.is_none() && self.shards.trim().is_empty()
    }

    /// Whether `serve` registers the slash commands: as `register_commands` says, or, when
    /// absent, if this instance runs shard 0 (one writer among several instances; a single
    /// instance runs every shard).
    pub fn registers_commands(&self) -> Result<bool, ConfigError> {
        match self.register_commands {
            Some(registers) => Ok(registers),
            None => Ok(self.shard_plan()?.range.start == 0),
        }
    }

    /// This instance's shards, or what is wrong with the two settings, in their words.
    pub fn shard_plan(&self) -> Result<ShardPlan, ConfigError> {
        let text = self.shards.trim();
        let total = match self.shard_count {
            Some(0) => {
                return Err(ConfigError::Invalid(
                    "discord.shard_count must be at least 1".into(),
                ));
            }
            Some(n) => n,
            None if text.is_empty() => 1,
            None => {
                return Err(ConfigError::Invalid(format!(
                    "discord.shards = {text:?} needs discord.shard_count, the number of shards \
                     of the whole bot"
                )));
            }
        };
        if text.is_empty() {
            return Ok(ShardPlan {
                range: 0..total,
                total,
            });
        }
        let number = |part: &str| {
            part.trim().parse::<u16>().map_err(|_| {
                ConfigError::Invalid(format!(
                    "discord.shards = {text:?}: write a shard number or a range such as \"0-3\""
                ))
            })
        };
        let (first, last) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(text)?;
                (n, n)
            }
        };
        if last < first {
            return Err(ConfigError::Invalid(format!(
                "discord.shards = {text:?} ends before it starts"
            )));
        }
        if last >= total {
            return Err(ConfigError::Invalid(format!(
                "discord.shards = {text:?} goes beyond the bot's {total} shards (numbered 0 to {})",
                total - 1
            )));
        }
        Ok(ShardPlan {
            range: first..last + 1,
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(shards: &str, count: Option<u16>) -> Result<ShardPlan, String> {
        DiscordConfig {
            shards: shards.into(),
            shard_count: count,
            ..DiscordConfig::default()
        }
        .shard_plan()
        .map_err(|e| e.to_string())
    }

    #[test]
    fn a_range_a_single_shard_and_all_of_them() {
        assert_eq!(
            plan("", None),
            Ok(ShardPlan {
                range: 0..1,
                total: 1
            })
        );
        assert_eq!(
            plan("", Some(8)),
            Ok(ShardPlan {
                range: 0..8,
                total: 8
            })
        );
        assert_eq!(
            plan("0-3", Some(8)),
            Ok(ShardPlan {
                range: 0..4,
                total: 8
            })
        );
        assert_eq!(
            plan(" 4 - 7 ", Some(8)),
            Ok(ShardPlan {
                range: 4..8,
                total: 8
            })
        );
        assert_eq!(
            plan("5", Some(8)),
            Ok(ShardPlan {
                range: 5..6,
                total: 8
            })
        );
    }

    fn read(toml: &str) -> Result<Option<u16>, String> {
        #[derive(Deserialize)]
        struct Discord {
            #[serde(default, deserialize_with = "count_or_auto")]
            shard_count: Option<u16>,
        }
        toml::from_str::<Discord>(toml)
            .map(|d| d.shard_count)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn the_shard_count_is_a_number_or_auto() {
        assert_eq!(read(""), Ok(None));
        assert_eq!(read("shard_count = \"auto\""), Ok(None));
        assert_eq!(read("shard_count = \" AUTO \""), Ok(None));
        assert_eq!(read("shard_count = 8"), Ok(Some(8)));
        assert_eq!(read("shard_count = \"8\""), Ok(Some(8)));
        for bad in ["\"many\"", "-1", "70000", "2.5"] {
            let error = read(&format!("shard_count = {bad}")).expect_err(bad);
            assert!(
                error.contains("must be \"auto\" or a number of shards"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn each_mistake_is_said_in_the_settings_words() {
        let said = |shards: &str, count: Option<u16>, words: &str| {
            let error = plan(shards, count).expect_err(shards);
            assert!(error.contains(words), "{shards:?}: {error}");
        };
        said("3-1", Some(8), "ends before it starts");
        said(
            "0-8",
            Some(8),
            "beyond the bot's 8 shards (numbered 0 to 7)",
        );
        said("2", None, "needs discord.shard_count");
        said("", Some(0), "at least 1");
        said("a-b", Some(8), "a shard number or a range");
        said("-1", Some(8), "a shard number or a range");
    }
}
