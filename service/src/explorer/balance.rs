//! The variant balance: how often each side wins each preset, over every finished game and
//! per rating band (the players' average rating before the game was rated, in bands of
//! [`BALANCE_BAND_WIDTH`]); games where a side had no rating (the AI, an imported name, a
//! player not rated in the variant yet) in a band of their own. Counted as games end, beside
//! the explorer (`store/src/rows/explorer_balance.rs`); read in one query of a few rows a variant.

use serde::Serialize;
use utoipa::ToSchema;

use crate::Result;
use crate::ratings::preset;
use crate::store::rows::{self, BALANCE_BAND_WIDTH, BalanceRow, ExplorerCounts, UNRATED_BAND};

use super::Explorer;

/// Every variant's balance (those with finished games), by variant id.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BalanceView {
    pub variants: Vec<VariantBalance>,
    /// The width of a rating band.
    pub band_width: u32,
}

/// One variant's results: over all its finished games, then per rating band.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct VariantBalance {
    pub variant: String,
    /// Over every finished game of the variant.
    pub overall: BalanceResults,
    /// Rated bands from the lowest, then the games without a rating (`rating_from` null).
    pub bands: Vec<BalanceBand>,
}

/// The games of one rating band.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BalanceBand {
    /// The lowest average rating in the band (`null`: games where a side had no rating).
    pub rating_from: Option<u32>,
    /// The highest average rating in the band.
    pub rating_to: Option<u32>,
    pub results: BalanceResults,
}

/// How a set of games ended, counted and in percent (one decimal).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct BalanceResults {
    pub games: u64,
    pub attackers_won: u64,
    pub defenders_won: u64,
    pub draws: u64,
    pub attackers_percent: f64,
    pub defenders_percent: f64,
    pub draws_percent: f64,
}

impl BalanceResults {
    fn of(c: ExplorerCounts) -> BalanceResults {
        let percent = |n: u64| {
            if c.games == 0 {
                0.0
            } else {
                (n as f64 * 1000.0 / c.games as f64).round() / 10.0
            }
        };
        BalanceResults {
            games: c.games,
            attackers_won: c.attackers_won,
            defenders_won: c.defenders_won,
            draws: c.draws,
            attackers_percent: percent(c.attackers_won),
            defenders_percent: percent(c.defenders_won),
            draws_percent: percent(c.draws),
        }
    }
}

impl Explorer<'_> {
    /// The balance of `variant` (a preset), or of every variant with finished games.
    pub async fn balance(self, variant: Option<&str>) -> Result<BalanceView> {
        let variant = variant.map(preset).transpose()?;
        let rows = self
            .service
            .read(move |c| Ok(rows::explorer_balance(c, variant)?))
            .await?;
        Ok(balance_of(rows))
    }
}

/// The view of `rows` (by variant, then band).
fn balance_of(rows: Vec<BalanceRow>) -> BalanceView {
    let mut variants: Vec<(String, Vec<BalanceRow>)> = Vec::new();
    for row in rows {
        match variants.last_mut() {
            Some((v, of_variant)) if *v == row.variant => of_variant.push(row),
            _ => variants.push((row.variant.clone(), vec![row])),
        }
    }
    let variants = variants
        .into_iter()
        .map(|(variant, mut of_variant)| {
            // The games without a rating last, after the rated bands from the lowest.
            of_variant.sort_by_key(|r| (r.band == UNRATED_BAND, r.band));
            let total = of_variant
                .iter()
                .fold(ExplorerCounts::default(), |t, r| ExplorerCounts {
                    games: t.games + r.counts.games,
                    attackers_won: t.attackers_won + r.counts.attackers_won,
                    defenders_won: t.defenders_won + r.counts.defenders_won,
                    draws: t.draws + r.counts.draws,
                });
            let bands = of_variant
                .into_iter()
                .map(|r| {
                    let from = u32::try_from(r.band).ok();
                    BalanceBand {
                        rating_from: from,
                        rating_to: from.map(|f| f + BALANCE_BAND_WIDTH as u32 - 1),
                        results: BalanceResults::of(r.counts),
                    }
                })
                .collect();
            VariantBalance {
                variant,
                overall: BalanceResults::of(total),
                bands,
            }
        })
        .collect();
    BalanceView {
        variants,
        band_width: BALANCE_BAND_WIDTH as u32,
    }
}
