//! Where settings come from, in order: the defaults (`#[serde(default)]`, i.e.
//! `Config::default()`), then the TOML file, then `TAFLBOT_<SECTION>_<KEY>` variables, merged
//! by figment.

use std::path::Path;

use figment::providers::{Format, Toml};
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider};
use serde::{Deserialize, Deserializer};

use super::{Config, ConfigError, ENV_PREFIX};

/// The file (when given; a missing one is an error) under the variables in `env`.
///
/// The defaults are not a figment layer of their own: every section is `#[serde(default)]`,
/// which fills in what neither source sets, and a serialized `Config::default()` would set
/// `games.reminders_before_secs` beside a file's older `reminder_before_secs`, which serde
/// then refuses as one field given twice.
pub(super) fn figment(
    file: Option<&Path>,
    env: impl IntoIterator<Item = (String, String)>,
) -> Result<Figment, ConfigError> {
    let mut figment = Figment::new();
    if let Some(file) = file {
        // `file_exact`: `Toml::file` would quietly skip a missing file, and look for a relative
        // one in every parent directory.
        figment = figment.merge(Toml::file_exact(file));
    }
    Ok(figment.merge(EnvSettings::new(env)?))
}

/// The settings in `TAFLBOT_<SECTION>_<KEY>` variables, each value the text as written.
///
/// Not figment's `Env`: it guesses each value's type from its text, so a token `0123` would
/// arrive as the number 123. Here every value stays text and the setting's own type reads it
/// (`Figment::extract_lossy`: numbers, and booleans as true/false/1/0/yes/no/on/off).
struct EnvSettings {
    settings: Dict,
}

impl EnvSettings {
    fn new(env: impl IntoIterator<Item = (String, String)>) -> Result<Self, ConfigError> {
        let sections = match Value::serialize(Config::default()) {
            Ok(Value::Dict(_, sections)) => sections,
            Ok(_) => Dict::new(),
            Err(e) => return Err(ConfigError::Load(Box::new(e))),
        };
        let mut settings = Dict::new();
        for (name, raw) in env {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            let rest = rest.to_ascii_lowercase();
            // The section ends at the first underscore; the key keeps its own
            // (TAFLBOT_HTTP_RATE_LIMIT_PER_SECOND is http.rate_limit_per_second).
            let Some((section, key)) = rest.split_once('_') else {
                continue;
            };
            if !sections.contains_key(section) {
                // Not a setting (e.g. TAFLBOT_CONFIG, read by the command line).
                continue;
            }
            let table = settings
                .entry(section.to_owned())
                .or_insert_with(|| Value::from(Dict::new()));
            if let Value::Dict(_, table) = table {
                table.insert(key.to_owned(), Value::from(raw));
            }
        }
        Ok(EnvSettings { settings })
    }
}

impl Provider for EnvSettings {
    /// Errors name the variable itself (`for key "TAFLBOT_HTTP_BODY_LIMIT_BYTES"`), not the
    /// setting's path.
    fn metadata(&self) -> Metadata {
        Metadata::named("environment variable").interpolater(|_: &Profile, keys: &[&str]| {
            format!("{ENV_PREFIX}{}", keys.join("_").to_ascii_uppercase())
        })
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        Ok(Profile::Default.collect(self.settings.clone()))
    }
}

/// A list setting: a TOML list, one value, or text with the values comma-separated (how a
/// variable writes a list: `TAFLBOT_WEBHOOKS_ALLOW_PRIVATE="127.0.0.1, 10.0.0.0/8"`).
pub(super) fn list_or_text<'de, D, T>(de: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + std::str::FromStr<Err: std::fmt::Display>,
{
    // Text before one value, so that for a list of strings "a, b" is two entries, not one.
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum ListOrText<T> {
        Many(Vec<T>),
        Text(String),
        One(T),
    }
    match ListOrText::<T>::deserialize(de)? {
        ListOrText::Many(list) => Ok(list),
        ListOrText::One(one) => Ok(vec![one]),
        ListOrText::Text(text) => text
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| {
                item.parse()
                    .map_err(|e| serde::de::Error::custom(format!("{item:?} in {text:?}: {e}")))
            })
            .collect(),
    }
}

/// A fractional setting, read exactly from a variable's text: figment's lossy reading takes
/// short decimal text as an `f32`, so "0.1" would become 0.10000000149.
pub(super) fn exact_f64<'de, D: Deserializer<'de>>(de: D) -> Result<f64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumberOrText {
        Number(f64),
        Text(String),
    }
    match NumberOrText::deserialize(de)? {
        NumberOrText::Number(n) => Ok(n),
        NumberOrText::Text(text) => text
            .trim()
            .parse()
            .map_err(|_| serde::de::Error::custom(format!("{text:?} is not a number"))),
    }
}
