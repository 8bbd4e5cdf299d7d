//! Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012), computed by the
//! `skillratings` crate. One rating per player and pool; each preset variant is its own pool,
//! and games on a custom rules string are never rated, nor imported games, nor aborted ones.
//! A rated game against the AI rates the level's player row ([`super::ai_players`]) like a
//! person: the level's rating is measured from its rated games against people.
//!
//! The constants, as correspondence sites use them:
//! - a new player starts at rating 1500, deviation (RD) 350, volatility 0.06;
//! - the system constant tau is 0.5 (Glickman suggests 0.3 to 1.2; smaller keeps volatility
//!   steadier);
//! - the rating period is one game: both players' ratings are updated when a rated game ends,
//!   in the same transaction that ends it;
//! - time away counts as empty rating periods, one per [`IDLE_PERIOD_DAYS`] since the pool's
//!   last rated game: each grows RD as Glicko-2 grows it for a period without games
//!   (φ² + σ², at most 350), so a settled rating (RD 60) becomes provisional again after about
//!   a year away, as on lichess. A rating is shown, ranked and used in a new game's update as
//!   of now; the store keeps it as of its last game;
//! - a rating is provisional while its RD is above 110: it is marked so, and left off the
//!   leaderboards.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use tafl_engine::Side;

use crate::domain::{GameStatus, PlayerId, Seat};
use crate::store::Conn;
use crate::store::rows::{self, GameRow, Glicko, RatingChangeRow, RatingRow};

use super::ai_players::rated_player;
use crate::Result;
use crate::games::game_ended::{EndedGame, GameEndedSubscriber, Settlement};
use crate::views::{GameRatings, RatingChange};

pub const INITIAL_RATING: f64 = 1500.0;
pub const INITIAL_DEVIATION: f64 = 350.0;
pub const INITIAL_VOLATILITY: f64 = 0.06;
pub const TAU: f64 = 0.5;
/// A rating whose deviation is above this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Days away that count as one rating period without games.
pub const IDLE_PERIOD_DAYS: i64 = 5;
pub const IDLE_PERIOD_MS: i64 = IDLE_PERIOD_DAYS * 24 * 3600 * 1000;
/// Glicko-2's scale factor between a rating's deviation and its φ (400 / ln 10).
pub const GLICKO2_SCALE: f64 = 173.7178;

/// The rating of a player who has never played in a pool.
pub const INITIAL: Glicko = Glicko {
    rating: INITIAL_RATING,
    deviation: INITIAL_DEVIATION,
    volatility: INITIAL_VOLATILITY,
};

pub fn is_provisional(g: &Glicko) -> bool {
    g.deviation > PROVISIONAL_DEVIATION
}

/// Whole rating periods without games between `since` and `now` (none when the clock went
/// back).
pub fn idle_periods(since: i64, now: i64) -> i64 {
    (now - since).max(0) / IDLE_PERIOD_MS
}

/// Rating `g`, last updated at `since`, as of `now`: its deviation grown by the empty periods
/// between (Glickman's step 6 for each, in closed form: σ stays the same while nobody plays).
pub fn as_of(g: &Glicko, since: i64, now: i64) -> Glicko {
    let periods = idle_periods(since, now);
    if periods == 0 {
        return *g;
    }
    let phi = g.deviation / GLICKO2_SCALE;
    let grown = (phi * phi + periods as f64 * g.volatility * g.volatility).sqrt();
    Glicko {
        deviation: (grown * GLICKO2_SCALE).min(INITIAL_DEVIATION),
        ..*g
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::default()
    }
}

fn to_skill(g: &Glicko) -> Glicko2Rating {
    Glicko2Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
    }
}

fn from_skill(r: &Glicko2Rating) -> Glicko {
    Glicko {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Both players' ratings after one game between them (a rating period of one game).
pub fn after_game(
    attackers: &Glicko,
    defenders: &Glicko,
    winner: Option<Side>,
) -> (Glicko, Glicko) {
    let outcome = match winner {
        Some(Side::Attackers) => Outcomes::WIN,
        Some(Side::Defenders) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (a, d) = glicko2(
        &to_skill(attackers),
        &to_skill(defenders),
        &outcome,
        &config(),
    );
    (from_skill(&a), from_skill(&d))
}

/// A player's rating after a rating period of several games, as Glickman's paper computes it
/// (this service rates one game per period; kept to check the maths against the paper).
pub fn after_period(player: &Glicko, results: &[(Glicko, f64)]) -> Glicko {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(opponent, score)| {
            let outcome = if *score >= 1.0 {
                Outcomes::WIN
            } else if *score <= 0.0 {
                Outcomes::LOSS
            } else {
                Outcomes::DRAW
            };
            (to_skill(opponent), outcome)
        })
        .collect();
    from_skill(&skillratings::glicko2::glicko2_rating_period(
        &to_skill(player),
        &results,
        &config(),
    ))
}

/// The pool a game is rated in, if it is rated at all: a rated game on a preset that ended
/// with a result, between two people or a person and an AI level. `create_at`: make the AI
/// level's player row if it has none (when the game is rated), or only look (when it is read).
fn rated_pool<'r>(
    c: &Conn<'_>,
    row: &'r GameRow,
    create_at: Option<i64>,
) -> Result<Option<(&'r str, PlayerId, PlayerId)>> {
    let (true, GameStatus::Finished, Some(pool)) = (row.rated, row.status, &row.variant) else {
        return Ok(None);
    };
    if !matches!(
        (row.attackers, row.defenders),
        (Seat::Player(_), _) | (_, Seat::Player(_))
    ) {
        return Ok(None);
    }
    let attacker = rated_player(c, row.attackers, create_at)?;
    let defender = rated_player(c, row.defenders, create_at)?;
    Ok(attacker.zip(defender).map(|(a, d)| (pool.as_str(), a, d)))
}

/// A player's rating in `pool` as of `now`, and their rated games there.
fn current(c: &Conn<'_>, player: PlayerId, pool: &str, now: i64) -> Result<(Glicko, u32)> {
    Ok(rows::rating(c, player, pool)?.map_or((INITIAL, 0), |r| {
        (as_of(&r.glicko, r.updated_at, now), r.games)
    }))
}

/// Rates a rated game when it ends, private or public: the players agreed to a rated game,
/// and privacy is about who may watch it, not whether it counts. Its rating change is shown
/// to others without naming it (`rating_history`).
pub(crate) struct RateEndedGame;

impl GameEndedSubscriber for RateEndedGame {
    fn settle(&self, c: &Conn<'_>, ended: &EndedGame<'_>, settled: &mut Settlement) -> Result<()> {
        // A record played elsewhere says nothing of how its names play here.
        if ended.origin.played_here() {
            settled.ratings = rate_ended_game(c, ended.row, ended.at)?;
        }
        Ok(())
    }
}

/// Rates a game that just ended (`row` as written back), inside the transaction that ends it:
/// both players' new ratings and their history rows. `None` for a game that is not rated.
pub(crate) fn rate_ended_game(
    c: &Conn<'_>,
    row: &GameRow,
    now: i64,
) -> Result<Option<GameRatings>> {
    let Some((pool, attacker, defender)) = rated_pool(c, row, Some(now))? else {
        return Ok(None);
    };
    let (a_before, a_games) = current(c, attacker, pool, now)?;
    let (d_before, d_games) = current(c, defender, pool, now)?;
    let (a_after, d_after) = after_game(&a_before, &d_before, row.winner);
    for (player, before, after, games) in [
        (attacker, a_before, a_after, a_games),
        (defender, d_before, d_after, d_games),
    ] {
        rows::put_rating(
            c,
            &RatingRow {
                player_id: player,
                pool: pool.to_owned(),
                glicko: after,
                games: games + 1,
                updated_at: now,
            },
        )?;
        rows::insert_rating_change(
            c,
            &RatingChangeRow {
                player_id: player,
                pool: pool.to_owned(),
                game_id: row.id,
                before,
                after,
                created_at: now,
            },
        )?;
    }
    Ok(Some(GameRatings {
        pool: pool.to_owned(),
        attackers: change_view(attacker, &a_before, &a_after),
        defenders: change_view(defender, &d_before, &d_after),
    }))
}

/// The rating changes an ended game made, read back (for its view).
pub(crate) fn ratings_of_game(c: &Conn<'_>, row: &GameRow) -> Result<Option<GameRatings>> {
    let Some((pool, attacker, defender)) = rated_pool(c, row, None)? else {
        return Ok(None);
    };
    let changes = rows::rating_changes_of_game(c, row.id)?;
    let of = |player: PlayerId| {
        changes
            .iter()
            .find(|ch| ch.player_id == player)
            .map(|ch| change_view(player, &ch.before, &ch.after))
    };
    Ok(match (of(attacker), of(defender)) {
        (Some(attackers), Some(defenders)) => Some(GameRatings {
            pool: pool.to_owned(),
            attackers,
            defenders,
        }),
        _ => None,
    })
}

/// Rounded to two decimals: what the API shows (the store keeps the exact numbers).
pub fn shown(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn change_view(player: PlayerId, before: &Glicko, after: &Glicko) -> RatingChange {
    RatingChange {
        player_id: player,
        before: shown(before.rating),
        after: shown(after.rating),
        change: shown(after.rating - before.rating),
        deviation: shown(after.deviation),
        provisional: is_provisional(after),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(rating: f64, deviation: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn the_worked_example_of_glickmans_glicko2_paper() {
        // Player 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300, in one period.
        let after = after_period(
            &g(1500.0, 200.0),
            &[
                (g(1400.0, 30.0), 1.0),
                (g(1550.0, 100.0), 0.0),
                (g(1700.0, 300.0), 0.0),
            ],
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn time_away_grows_the_deviation_as_glicko2s_empty_periods_do() {
        let settled = g(1620.0, 60.0);
        let day = 24 * 3600 * 1000;
        assert_eq!(
            as_of(&settled, 0, IDLE_PERIOD_MS - 1),
            settled,
            "no whole period yet"
        );
        assert_eq!(
            as_of(&settled, 10 * day, 0),
            settled,
            "a clock gone back changes nothing"
        );
        // Twenty periods in closed form are twenty of skillratings' own decays.
        let mut decayed = to_skill(&settled);
        for _ in 0..20 {
            decayed = skillratings::glicko2::decay_deviation(&decayed);
        }
        let grown = as_of(&settled, 0, 20 * IDLE_PERIOD_MS);
        assert!(
            (grown.deviation - decayed.deviation).abs() < 1e-9,
            "{grown:?}"
        );
        assert_eq!((grown.rating, grown.volatility), (1620.0, 0.06));
        // Settled after a month away; provisional again after about a year; never above 350.
        assert!(!is_provisional(&as_of(&settled, 0, 30 * day)));
        assert!(!is_provisional(&as_of(&settled, 0, 300 * day)));
        assert!(is_provisional(&as_of(&settled, 0, 420 * day)));
        assert_eq!(
            as_of(&settled, 0, 100_000 * day).deviation,
            INITIAL_DEVIATION
        );
    }

    #[test]
    fn one_game_moves_both_ratings_the_opposite_way_and_lowers_their_deviation() {
        let (a, d) = after_game(&INITIAL, &INITIAL, Some(Side::Attackers));
        // Two new players: the winner gains what the loser drops (skillratings' own example).
        assert_eq!(a.rating.round(), 1662.0);
        assert_eq!(d.rating.round(), 1338.0);
        assert!(a.deviation < INITIAL_DEVIATION && is_provisional(&a));
        let (a, d) = after_game(&INITIAL, &INITIAL, None);
        assert_eq!((a.rating, d.rating), (INITIAL_RATING, INITIAL_RATING));
        let settled = g(1500.0, 60.0);
        assert!(!is_provisional(&settled));
    }
}

/// Rating changes live and die with the transaction that ends the game.
#[cfg(test)]
mod in_the_games_transaction {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;
    use crate::config::GamesConfig;
    use crate::domain::{GameId, ResultReason};
    use crate::games::moves::finish;
    use crate::store::{Store, params};
    use crate::webhook_target::TargetPolicy;
    use crate::{
        ClockSpec, EventPayload, GamesService, ManualClock, NewChallenge, Opponent, RulesChoice,
        ServiceError, SideChoice,
    };

    async fn rated_game() -> (tempfile::TempDir, GamesService, PlayerId, PlayerId, GameId) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 8).unwrap();
        let service = GamesService::new(
            store,
            Arc::new(ManualClock::new(1_000)),
            GamesConfig::default(),
            TargetPolicy::new(&[]).unwrap(),
            None,
        );
        let a = service
            .accounts()
            .register("a", None)
            .await
            .unwrap()
            .player
            .id;
        let b = service
            .accounts()
            .register("b", None)
            .await
            .unwrap()
            .player
            .id;
        let created = service
            .challenges()
            .create(
                a,
                NewChallenge {
                    opponent: Opponent::Player(b),
                    rules: RulesChoice::Variant("brandubh".into()),
                    side: SideChoice::Attackers,
                    clock: ClockSpec::PerMove { seconds: 86_400 },
                    context: None,
                    rated: None,
                    private: false,
                },
            )
            .await
            .unwrap();
        assert!(
            created.challenge.rated,
            "timed preset games are rated by default"
        );
        let game = service
            .challenges()
            .accept(b, created.challenge.id)
            .await
            .unwrap();
        (dir, service, a, b, game.id)
    }

    async fn rating_rows(service: &GamesService) -> i64 {
        service
            .read(|c| {
                Ok(c.query_one(
                    "SELECT (SELECT COUNT(*) FROM ratings) + (SELECT COUNT(*) FROM rating_history)",
                    params![],
                    |r| r.get(0),
                )?)
            })
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn a_failure_after_the_game_ended_rolls_back_its_ratings_too() {
        let (_dir, service, _a, _b, game) = rated_game().await;
        let failed = service
            .commit(move |c, e| {
                let mut row = crate::games::game_state::load(c, game)?;
                finish(
                    c,
                    e,
                    &mut row,
                    Some(Side::Attackers),
                    ResultReason::Resignation,
                )?;
                // What ran so far wrote the ratings; this failure must take them back.
                assert_eq!(
                    c.query_one("SELECT COUNT(*) FROM ratings", params![], |r| r
                        .get::<i64>(0))?,
                    2
                );
                Err::<(), _>(ServiceError::internal("a later step failed"))
            })
            .await;
        assert!(failed.is_err());
        assert_eq!(rating_rows(&service).await, 0, "no rating moved");
        let view = service.games().game(None, game).await.unwrap();
        assert!(view.status.is_active() && view.ratings.is_none());
    }

    #[tokio::test]
    async fn a_rated_games_end_moves_both_ratings_and_says_so_in_its_event() {
        let (_dir, service, a, b, game) = rated_game().await;
        let mut events = service.events().subscribe();
        service.games().resign(b, game).await.unwrap();
        let ended = loop {
            let event = events.recv().await.unwrap();
            if let EventPayload::GameEnded(ended) = event.payload {
                break ended;
            }
        };
        assert!(ended.rated);
        let ratings = ended.ratings.expect("the event carries the changes");
        assert_eq!(ratings.pool, "brandubh");
        assert_eq!(
            (ratings.attackers.player_id, ratings.defenders.player_id),
            (a, b)
        );
        assert_eq!(ratings.attackers.before, 1500.0);
        assert!(ratings.attackers.change > 0.0 && ratings.defenders.change < 0.0);
        assert!(ratings.attackers.provisional);
        assert_eq!(
            rating_rows(&service).await,
            4,
            "two ratings, two history rows"
        );
        let view = service.games().game(None, game).await.unwrap();
        assert_eq!(view.ratings, Some(ratings));
    }
}
