//! Leaderboards and player profiles: ratings per variant, results per variant, current games.

use crate::domain::{PlayerId, PlayerKind, TitleThreshold, title_for};
use crate::store::Conn;
use crate::store::rows::{self, PlayerRow};

use super::Ratings;
use crate::accounts::players::{page_of, page_offset};
use crate::games::game_state;
use crate::ratings::glicko::{
    GLICKO2_SCALE, IDLE_PERIOD_MS, PROVISIONAL_DEVIATION, as_of, is_provisional, shown,
};
use crate::views::{
    LeaderboardEntry, Page, PlayerProfile, PlayerView, PoolRating, RatingHistoryEntry,
    VariantResults,
};
use crate::{Missing, Result, ServiceError};

/// Lines on one page of a leaderboard.
pub const LEADERBOARD_PAGE_SIZE: u32 = 50;

/// The preset `variant`, or a refusal naming the known ones.
pub fn preset(variant: &str) -> Result<&'static str> {
    tafl_engine::variant(variant.trim())
        .map(|v| v.id)
        .ok_or_else(|| {
            ServiceError::NotFound(Missing::Leaderboard {
                variant: variant.to_owned(),
                known: tafl_engine::variants()
                    .iter()
                    .map(|v| v.id)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        })
}

/// A player's page as of `now` (ratings aged by the time since their last game).
fn profile(
    c: &Conn<'_>,
    player: PlayerRow,
    viewer: Option<PlayerId>,
    now: i64,
    titles: &[TitleThreshold],
) -> Result<PlayerProfile> {
    let ai_level = rows::ai_level_of_player(c, player.id)?;
    // The AI earns no title: titles are for people, measured against people.
    let titles = if ai_level.is_some() { &[] } else { titles };
    let ratings = rows::ratings_of(c, player.id)?
        .into_iter()
        .map(|r| {
            let glicko = as_of(&r.glicko, r.updated_at, now);
            let provisional = is_provisional(&glicko);
            PoolRating {
                title: title_for(shown(glicko.rating), provisional, titles),
                provisional,
                variant: r.pool,
                rating: shown(glicko.rating),
                deviation: shown(glicko.deviation),
                games: r.games,
            }
        })
        .collect();
    let results = match ai_level {
        Some(level) => rows::rated_results_of_ai_level(c, level)?,
        // Others count only the public games: a private game's result is its players' alone.
        None => rows::results_by_variant(c, player.id, viewer == Some(player.id))?,
    };
    let results = results
        .into_iter()
        .map(|r| VariantResults {
            variant: r.variant,
            played: r.played,
            wins: r.wins,
            losses: r.losses,
            draws: r.draws,
        })
        .collect();
    let current_games = rows::active_games_of(c, player.id)?
        .iter()
        .filter(|g| game_state::visible_to(g, viewer))
        .map(|g| game_state::game_summary(c, g, viewer))
        .collect::<Result<_>>()?;
    Ok(PlayerProfile {
        player: PlayerView::from(player),
        kind: PlayerKind::of(ai_level),
        ai_level,
        ratings,
        results,
        current_games,
    })
}

impl Ratings<'_> {
    /// Page `page` of `variant`'s leaderboard: rated players and AI levels, best first,
    /// provisional ratings (deviation above 110, as of now) left out; with `guild`, only
    /// players seen in that Discord guild (and the AI levels, which play in every guild).
    pub async fn leaderboard(
        self,
        variant: &str,
        guild: Option<u64>,
        page: u32,
    ) -> Result<Page<LeaderboardEntry>> {
        let pool = preset(variant)?;
        let size = LEADERBOARD_PAGE_SIZE;
        let offset = page_offset(page, size);
        let now = self.service.now_ms();
        let age = rows::RatingAge {
            now,
            period_ms: IDLE_PERIOD_MS,
            scale: GLICKO2_SCALE,
        };
        let lines = self
            .service
            .read(move |c| {
                Ok(rows::leaderboard(
                    c,
                    pool,
                    PROVISIONAL_DEVIATION,
                    age,
                    guild,
                    size + 1,
                    offset,
                )?)
            })
            .await?;
        let titles = &self.service.config().titles;
        let entries = lines
            .into_iter()
            .enumerate()
            .map(|(i, line)| LeaderboardEntry {
                // On the leaderboard only players past provisional; the AI earns no title.
                title: match line.ai_level {
                    Some(_) => None,
                    None => title_for(shown(line.glicko.rating), false, titles),
                },
                kind: PlayerKind::of(line.ai_level),
                ai_level: line.ai_level,
                rank: offset + i as u64 + 1,
                player_id: line.player_id,
                handle: line.handle,
                name: line.name,
                rating: shown(line.glicko.rating),
                deviation: shown(as_of(&line.glicko, line.updated_at, now).deviation),
                games: line.games,
            })
            .collect();
        Ok(page_of(entries, page, size))
    }

    /// A player's page: ratings and results per variant, and the current games `viewer` may
    /// see (private ones only to their players).
    pub async fn player_profile(
        self,
        handle: &str,
        viewer: Option<PlayerId>,
    ) -> Result<PlayerProfile> {
        let id = self.service.accounts().player_by_handle(handle).await?.id;
        self.player_profile_of(id, viewer).await
    }

    /// [`Ratings::player_profile`] by id.
    pub async fn player_profile_of(
        self,
        id: PlayerId,
        viewer: Option<PlayerId>,
    ) -> Result<PlayerProfile> {
        self.profile_where(viewer, move |_| Ok(Some(id)))
            .await?
            .ok_or_else(|| ServiceError::NotFound(Missing::Player(id)))
    }

    /// The page of the player who is the AI at `level`: `None` until the level has played a
    /// rated game (its player row is made then).
    pub async fn ai_level_profile(
        self,
        level: u8,
        viewer: Option<PlayerId>,
    ) -> Result<Option<PlayerProfile>> {
        self.profile_where(viewer, move |c| Ok(rows::ai_player_of_level(c, level)?))
            .await
    }

    /// The page of the player `which` finds, if it finds one, in one read.
    async fn profile_where(
        self,
        viewer: Option<PlayerId>,
        which: impl FnOnce(&Conn<'_>) -> Result<Option<PlayerId>> + Send + 'static,
    ) -> Result<Option<PlayerProfile>> {
        let now = self.service.now_ms();
        let titles = self.service.config().titles.clone();
        self.service
            .read(move |c| {
                let Some(id) = which(c)? else {
                    return Ok(None);
                };
                let player = rows::player(c, id)?
                    .ok_or_else(|| ServiceError::NotFound(Missing::Player(id)))?;
                profile(c, player, viewer, now, &titles).map(Some)
            })
            .await
    }

    /// Page `page` of `player`'s rating changes in `variant`, the latest first, as `viewer`
    /// may read them: a private game's change is shown to others without naming the game.
    pub async fn rating_history(
        self,
        player: PlayerId,
        variant: &str,
        page: u32,
        viewer: Option<PlayerId>,
    ) -> Result<Page<RatingHistoryEntry>> {
        let pool = preset(variant)?;
        let size = LEADERBOARD_PAGE_SIZE;
        let changes = self
            .service
            .read(move |c| {
                let changes =
                    rows::rating_history(c, player, pool, size + 1, page_offset(page, size))?;
                changes
                    .into_iter()
                    .map(|ch| {
                        let shown = match rows::game(c, ch.game_id)? {
                            Some(game) if game_state::visible_to(&game, viewer) => Some(ch.game_id),
                            _ => None,
                        };
                        Ok((shown, ch))
                    })
                    .collect::<Result<Vec<_>>>()
            })
            .await?;
        let entries = changes
            .into_iter()
            .map(|(game_id, ch)| RatingHistoryEntry {
                game_id,
                before: shown(ch.before.rating),
                after: shown(ch.after.rating),
                change: shown(ch.after.rating - ch.before.rating),
                deviation: shown(ch.after.deviation),
                at: ch.created_at,
            })
            .collect();
        Ok(page_of(entries, page, size))
    }
}
