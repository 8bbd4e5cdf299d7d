//! The variant balance: how finished games of each preset ended, per rating band of their
//! players' average rating. Counted beside the explorer as games end; read whole (a few rows
//! per variant).

use crate::{Conn, params};

use super::*;

/// Width of a rating band: band 1400 holds averages 1400 to 1599.
pub const BALANCE_BAND_WIDTH: i64 = 200;
/// The band of the games where a side had no rating (the AI, an imported name, a player not
/// rated in the variant yet).
pub const UNRATED_BAND: i64 = -1;

/// The band a game of players' average rating `average` falls in.
pub fn balance_band(average: Option<i64>) -> i64 {
    match average {
        Some(r) => r.max(0).div_euclid(BALANCE_BAND_WIDTH) * BALANCE_BAND_WIDTH,
        None => UNRATED_BAND,
    }
}

/// One variant's games in one band.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BalanceRow {
    pub variant: String,
    pub band: i64,
    pub counts: ExplorerCounts,
}

/// Adds a finished game of `variant`, won by `winner` (`None`: drawn), whose players'
/// average rating was `average_rating`.
pub fn record_balance_game(
    c: &Conn<'_>,
    variant: &str,
    winner: Option<Side>,
    average_rating: Option<i64>,
) -> Result<()> {
    let (attackers, defenders, draw) = match winner {
        Some(Side::Attackers) => (1, 0, 0),
        Some(Side::Defenders) => (0, 1, 0),
        None => (0, 0, 1),
    };
    c.execute(
        "INSERT INTO explorer_balance (variant, band, games, attackers_won, defenders_won, \
         draws) VALUES (?1, ?2, 1, ?3, ?4, ?5) \
         ON CONFLICT (variant, band) DO UPDATE SET games = explorer_balance.games + 1, \
         attackers_won = explorer_balance.attackers_won + excluded.attackers_won, \
         defenders_won = explorer_balance.defenders_won + excluded.defenders_won, \
         draws = explorer_balance.draws + excluded.draws",
        params![
            variant,
            balance_band(average_rating),
            attackers,
            defenders,
            draw
        ],
    )?;
    Ok(())
}

/// Every variant's bands (or `variant`'s only), by variant then band.
pub fn explorer_balance(c: &Conn<'_>, variant: Option<&str>) -> Result<Vec<BalanceRow>> {
    c.query_all(
        "SELECT variant, band, games, attackers_won, defenders_won, draws \
         FROM explorer_balance WHERE CAST(?1 AS TEXT) IS NULL OR variant = ?1 ORDER BY variant, band",
        params![variant],
        |r| {
            Ok(BalanceRow {
                variant: r.get(0)?,
                band: r.get(1)?,
                counts: ExplorerCounts {
                    games: r.get::<i64>(2)? as u64,
                    attackers_won: r.get::<i64>(3)? as u64,
                    defenders_won: r.get::<i64>(4)? as u64,
                    draws: r.get::<i64>(5)? as u64,
                },
            })
        },
    )
}

/// A player's rating before game `game` rated it, when it did.
pub fn rating_before_game(c: &Conn<'_>, player: PlayerId, game: GameId) -> Result<Option<f64>> {
    c.query_opt(
        "SELECT rating_before FROM rating_history WHERE player_id = ?1 AND game_id = ?2",
        params![player, game],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_band_is_two_hundred_wide_and_games_without_a_rating_have_their_own() {
        assert_eq!(balance_band(Some(1399)), 1200);
        assert_eq!(balance_band(Some(1400)), 1400);
        assert_eq!(balance_band(Some(1599)), 1400);
        assert_eq!(balance_band(Some(-5)), 0);
        assert_eq!(balance_band(None), UNRATED_BAND);
    }
}
