//! The gateway close codes after which connecting again cannot help (Discord's "Gateway Close
//! Event Codes" whose `Reconnect` is false), and what the operator must do about each. serenity
//! 0.12 restarts a shard for ever after 4010 and 4011 (and 4012), each time spending one of
//! the day's 1,000 session starts: the relay stops there instead.

/// How much of the front end a fatal close stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Only the shard that was closed (its shard number or count is wrong).
    Shard,
    /// Every shard: the token, the API version or the intents are wrong for all of them.
    FrontEnd,
}

/// A fatal close: how far it reaches and the sentence for the log and `/health`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FatalClose {
    pub scope: Scope,
    pub reason: String,
}

/// The fatal close `code` received by `shard` (of `count`), if it is one.
pub fn fatal(code: u16, shard: Option<[u16; 2]>) -> Option<FatalClose> {
    let which = match shard {
        Some([id, count]) => format!("shard {id} of {count}"),
        None => "a shard".to_owned(),
    };
    let (scope, what) = match code {
        4004 => (
            Scope::FrontEnd,
            "authentication failed: Discord refused the bot token; set a valid discord.token \
             and restart",
        ),
        4010 => (
            Scope::Shard,
            "invalid shard: the shard number is not below the shard count; check \
             discord.shard_count and discord.shards (the same count on every instance) and \
             restart",
        ),
        4011 => (
            Scope::Shard,
            "sharding required: the bot is in too many servers for this shard count; set \
             discord.shard_count = \"auto\" (or a larger count on every instance) and restart",
        ),
        4012 => (
            Scope::FrontEnd,
            "invalid API version: this build speaks a gateway version Discord no longer \
             accepts; upgrade taflbot",
        ),
        4013 => (
            Scope::FrontEnd,
            "invalid intents: Discord refused the gateway intents this build asks for; \
             upgrade taflbot",
        ),
        4014 => (
            Scope::FrontEnd,
            "disallowed intents: the bot asks for a privileged intent that is not enabled; \
             enable it for the application in Discord's developer portal (Bot, Privileged \
             Gateway Intents) and restart",
        ),
        _ => return None,
    };
    Some(FatalClose {
        scope,
        reason: format!("gateway close {code} on {which}, {what}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closes_that_forbid_reconnecting_are_fatal_and_name_their_code() {
        for (code, scope) in [
            (4004, Scope::FrontEnd),
            (4010, Scope::Shard),
            (4011, Scope::Shard),
            (4012, Scope::FrontEnd),
            (4013, Scope::FrontEnd),
            (4014, Scope::FrontEnd),
        ] {
            let fatal = fatal(code, Some([1, 2])).unwrap_or_else(|| panic!("{code}"));
            assert_eq!(fatal.scope, scope, "{code}");
            assert!(fatal.reason.contains(&code.to_string()), "{}", fatal.reason);
            assert!(fatal.reason.contains("shard 1 of 2"), "{}", fatal.reason);
        }
        for code in [1000, 1001, 4000, 4001, 4002, 4003, 4005, 4007, 4008, 4009] {
            assert_eq!(fatal(code, None), None, "{code} is worth a reconnect");
        }
    }
}
