//! Titles by rating, as the World Tafl Federation gives them: a player's title in a variant is
//! the highest whose threshold their (non-provisional) rating reaches. The thresholds are
//! configured (`games.titles`); the defaults are the WTF's.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A title, highest first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
pub enum Title {
    /// Grandmaster.
    #[serde(rename = "GM")]
    Gm,
    /// International Master.
    #[serde(rename = "IM")]
    Im,
    /// Federation Master.
    #[serde(rename = "FM")]
    Fm,
    /// Candidate Master.
    #[serde(rename = "CM")]
    Cm,
    /// Arena Master.
    #[serde(rename = "AM")]
    Am,
}

impl Title {
    pub const ALL: [Title; 5] = [Title::Gm, Title::Im, Title::Fm, Title::Cm, Title::Am];

    /// "GM", as titles are written before a name.
    pub fn abbreviation(self) -> &'static str {
        match self {
            Title::Gm => "GM",
            Title::Im => "IM",
            Title::Fm => "FM",
            Title::Cm => "CM",
            Title::Am => "AM",
        }
    }

    /// "Grandmaster", in words.
    pub fn words(self) -> &'static str {
        match self {
            Title::Gm => "Grandmaster",
            Title::Im => "International Master",
            Title::Fm => "Federation Master",
            Title::Cm => "Candidate Master",
            Title::Am => "Arena Master",
        }
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.abbreviation())
    }
}

/// A title and the rating it takes, written `GM:2200` in the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TitleThreshold {
    pub title: Title,
    pub min_rating: u32,
}

impl TitleThreshold {
    /// The World Tafl Federation's: GM 2200, IM 2000, FM 1800, CM 1600, AM 1400.
    pub fn defaults() -> Vec<TitleThreshold> {
        [2200, 2000, 1800, 1600, 1400]
            .into_iter()
            .zip(Title::ALL)
            .map(|(min_rating, title)| TitleThreshold { title, min_rating })
            .collect()
    }
}

impl FromStr for TitleThreshold {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let wrong = || format!("a title threshold is written like GM:2200 (got {text:?})");
        let (title, rating) = text.trim().split_once(':').ok_or_else(wrong)?;
        let title = Title::ALL
            .into_iter()
            .find(|t| t.abbreviation().eq_ignore_ascii_case(title.trim()))
            .ok_or_else(|| {
                format!("unknown title {title:?}: the titles are GM, IM, FM, CM and AM")
            })?;
        let min_rating = rating.trim().parse().map_err(|_| wrong())?;
        Ok(TitleThreshold { title, min_rating })
    }
}

impl TryFrom<String> for TitleThreshold {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        text.parse()
    }
}

impl From<TitleThreshold> for String {
    fn from(t: TitleThreshold) -> String {
        format!("{}:{}", t.title, t.min_rating)
    }
}

/// The title a rating earns: the highest whose threshold it reaches; none while the rating is
/// provisional (it says too little yet).
pub fn title_for(rating: f64, provisional: bool, thresholds: &[TitleThreshold]) -> Option<Title> {
    if provisional {
        return None;
    }
    thresholds
        .iter()
        .filter(|t| rating >= f64::from(t.min_rating))
        .map(|t| t.title)
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wtf_thresholds_give_each_title_from_its_rating_up() {
        let wtf = TitleThreshold::defaults();
        let cases = [
            (2450.0, Some(Title::Gm)),
            (2200.0, Some(Title::Gm)),
            (2199.9, Some(Title::Im)),
            (2000.0, Some(Title::Im)),
            (1999.0, Some(Title::Fm)),
            (1800.0, Some(Title::Fm)),
            (1600.0, Some(Title::Cm)),
            (1400.0, Some(Title::Am)),
            (1399.5, None),
            (1500.0, Some(Title::Am)),
        ];
        for (rating, title) in cases {
            assert_eq!(title_for(rating, false, &wtf), title, "{rating}");
        }
    }

    #[test]
    fn a_provisional_rating_has_no_title() {
        assert_eq!(title_for(2500.0, true, &TitleThreshold::defaults()), None);
    }

    #[test]
    fn thresholds_read_as_configured_in_any_order_and_refuse_nonsense() {
        let mine: Vec<TitleThreshold> = ["im:1900", " GM : 2100 "]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(title_for(2150.0, false, &mine), Some(Title::Gm));
        assert_eq!(title_for(1950.0, false, &mine), Some(Title::Im));
        assert_eq!(title_for(1850.0, false, &mine), None);
        assert!(
            "XM:2000"
                .parse::<TitleThreshold>()
                .unwrap_err()
                .contains("unknown title")
        );
        assert!("GM".parse::<TitleThreshold>().is_err());
        assert!("GM:high".parse::<TitleThreshold>().is_err());
        assert_eq!(String::from(mine[1]), "GM:2100");
    }
}
