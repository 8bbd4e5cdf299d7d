//! The side a challenger asks for.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The challenger's side: `attackers`, `defenders`, or `random` (drawn when the game starts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum SideChoice {
    Attackers,
    Defenders,
    #[default]
    Random,
}

impl SideChoice {
    pub fn as_str(self) -> &'static str {
        match self {
            SideChoice::Attackers => "attackers",
            SideChoice::Defenders => "defenders",
            SideChoice::Random => "random",
        }
    }
}

impl std::str::FromStr for SideChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "attackers" | "attacker" | "a" => Ok(SideChoice::Attackers),
            "defenders" | "defender" | "d" => Ok(SideChoice::Defenders),
            "random" | "r" | "" => Ok(SideChoice::Random),
            other => Err(format!(
                "side {other:?}: say attackers, defenders or random"
            )),
        }
    }
}
