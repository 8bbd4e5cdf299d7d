//! Migrations 31's, 35's and 37's Rust: the games finished before the explorer (31) and the
//! variant balance (35) existed are counted into them, and counted again (37) once only public
//! games played here were to count. They read only the columns they need by name, so later
//! migrations may add to `games`.

use crate::domain::{GameId, PlayerId, SideColumn};
use crate::rows::{
    FinishedGame, average, players_average_rating, rating, rating_before_game, record_balance_game,
    record_finished_explorer_game,
};
use crate::{Conn, StoreError, params};

/// Counts every finished game of a preset into the new explorer tables, in id order.
pub(super) fn record_finished_games(c: &Conn<'_>) -> Result<(), StoreError> {
    for_each_finished_game(c, |game| {
        let average_rating = players_average_rating(c, game)?;
        record_finished_explorer_game(c, game, average_rating)
    })
}

/// Counts every finished game of a preset into the variant balance, each in the band of its
/// players' ratings before it was rated (a game that was not: their present ratings).
pub(super) fn count_balance_of_finished_games(c: &Conn<'_>) -> Result<(), StoreError> {
    for_each_finished_game(c, |game| {
        let rating = |player: Option<PlayerId>| -> Result<Option<f64>, StoreError> {
            let Some(p) = player else {
                return Ok(None);
            };
            Ok(match rating_before_game(c, p, game.id)? {
                Some(before) => Some(before),
                None => rating(c, p, game.variant)?.map(|r| r.glicko.rating),
            })
        };
        let average_rating = average(rating(game.attackers)?, rating(game.defenders)?);
        record_balance_game(c, game.variant, game.winner, average_rating)
    })
}

/// Counts, into emptied explorer and balance tables, every public finished game of a preset
/// played here.
pub(super) fn count_public_games_played_here(c: &Conn<'_>) -> Result<(), StoreError> {
    record_finished_games(c)?;
    count_balance_of_finished_games(c)
}

/// Runs `count` on every public finished game of a preset played here (not imported), in id
/// order: what the explorer and the balance show everyone.
fn for_each_finished_game(
    c: &Conn<'_>,
    mut count: impl FnMut(&FinishedGame<'_>) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    type Stored = (
        GameId,
        String,
        String,
        Option<SideColumn>,
        Option<PlayerId>,
        Option<PlayerId>,
    );
    let finished: Vec<Stored> = c.query_all(
        "SELECT id, variant, rules, winner, attackers_player, defenders_player FROM games \
         WHERE status = 'finished' AND variant IS NOT NULL AND private = FALSE \
         AND NOT EXISTS (SELECT 1 FROM imported_games i WHERE i.game_id = games.id) \
         ORDER BY id",
        params![],
        |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        },
    )?;
    for (id, variant, rules, winner, attackers, defenders) in finished {
        count(&FinishedGame {
            id,
            variant: &variant,
            rules: &rules,
            winner: winner.map(|w| w.0),
            attackers,
            defenders,
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::Store;
    use crate::domain::{GameStatus, Side};
    use crate::rows::{self, GameRow, Glicko, RatingChangeRow, RatingRow};
    use crate::tests::handle;

    fn glicko(rating: f64) -> Glicko {
        Glicko {
            rating,
            deviation: 100.0,
            volatility: 0.06,
        }
    }

    /// Migration 35's Rust counts a rated game in the band of its players' ratings before it
    /// (from the rating history), an unrated one with their present ratings, and leaves out
    /// games not finished or of a rules string of their own.
    #[tokio::test]
    async fn the_balance_backfill_bands_each_finished_game_by_its_players_ratings_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db"), 1, Duration::from_secs(5), 8).unwrap();
        let counted = store
            .write(|c| {
                let ann = rows::insert_player(c, "Ann", &handle("ann"), None, 0)?;
                let bob = rows::insert_player(c, "Bob", &handle("bob"), None, 0)?;
                for p in [ann.id, bob.id] {
                    rows::put_rating(
                        c,
                        &RatingRow {
                            player_id: p,
                            pool: "brandubh".into(),
                            glicko: glicko(1700.0),
                            games: 1,
                            updated_at: 0,
                        },
                    )?;
                }
                let game = |status, winner, variant: Option<&str>| {
                    let mut row = GameRow::sample(ann.id, bob.id, 0);
                    row.variant = variant.map(str::to_owned);
                    row.status = status;
                    row.winner = winner;
                    rows::insert_game(c, &row)
                };
                // Rated: 1500 and 1400 before it (band 1400), 1700 each now.
                let rated = game(
                    GameStatus::Finished,
                    Some(Side::Defenders),
                    Some("brandubh"),
                )?;
                for (p, before) in [(ann.id, 1500.0), (bob.id, 1400.0)] {
                    rows::insert_rating_change(
                        c,
                        &RatingChangeRow {
                            player_id: p,
                            pool: "brandubh".into(),
                            game_id: rated,
                            before: glicko(before),
                            after: glicko(1700.0),
                            created_at: 0,
                        },
                    )?;
                }
                // Casual, drawn: their present ratings (band 1600).
                game(GameStatus::Finished, None, Some("brandubh"))?;
                game(GameStatus::Active, None, Some("brandubh"))?;
                game(GameStatus::Finished, Some(Side::Attackers), None)?;
                count_balance_of_finished_games(c)?;
                rows::explorer_balance(c, None)
            })
            .await
            .unwrap();
        let bands: Vec<(String, i64, [u64; 4])> = counted
            .into_iter()
            .map(|r| {
                let n = r.counts;
                (
                    r.variant,
                    r.band,
                    [n.games, n.attackers_won, n.defenders_won, n.draws],
                )
            })
            .collect();
        assert_eq!(
            bands,
            [
                ("brandubh".to_owned(), 1400, [1, 0, 1, 0]),
                ("brandubh".to_owned(), 1600, [1, 0, 0, 1]),
            ]
        );
    }
}
