//! `GET /players/{handle}`: a player's ratings, results and current games.

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use crate::AppState;
use crate::domain::GameStatus;
use crate::service::{HistoryQuery, PlayerView, ServiceError, variant_label};

use super::super::error::WebError;
use super::super::layout::page;
use super::super::result_words::result_in_words;
use super::super::session::MaybeSignedIn;
use super::game::{game_link, pairing};
use super::me_of;

/// Finished games listed on a player's page (all of them: `GET /api/v1/players/{handle}/games`).
const RECENT_GAMES: u32 = 20;

#[derive(Debug, Default, Deserialize)]
pub struct SearchQuery {
    /// The start of a handle (a leading `@` is fine).
    #[serde(default)]
    q: String,
}

/// Players found at most by a search (by handle, then by name).
const FOUND_AT_MOST: u32 = 50;

/// `GET /players?q=ad`: players whose handle or name starts with what was typed.
pub async fn player_search(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Query(query): Query<SearchQuery>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let typed = query.q.trim();
    let found = if typed.is_empty() {
        None
    } else {
        Some(find_players(&state, typed).await?)
    };
    let body = html! {
        h1 { "Players" }
        form.inline #player-search method="get" action="/players" role="search" {
            label { "Handle or name starts with " input type="search" name="q" value=(typed) maxlength="64" autocomplete="off"; }
            " " button type="submit" { "Find" }
        }
        @match &found {
            None => p { "Type the start of a handle or a name, e.g. " code { "ada" } "." },
            Some(players) if players.is_empty() => p { "Nobody's handle or name starts with " code { (typed) } "." },
            Some(players) => ul.players {
                @for p in players {
                    li { a href={ "/players/" (p.handle.as_str()) } { (p.name) } " " small { "@" (p.handle.as_str()) } }
                }
            },
        }
        p { "Or see the " a href="/leaderboards" { "leaderboards" } "." }
    };
    Ok(page("Players", me.as_ref(), body).into_response())
}

/// Players whose handle starts with `typed` (when it can start a handle), then those whose name
/// does, each once.
async fn find_players(state: &AppState, typed: &str) -> Result<Vec<PlayerView>, WebError> {
    let accounts = state.service.accounts();
    let mut found = match accounts.players_by_prefix(typed, 1).await {
        Ok(page) => page.items,
        // Not the start of any handle (a space, a capital's accent): names may still match.
        Err(ServiceError::Invalid(_)) => Vec::new(),
        Err(other) => return Err(other.into()),
    };
    for p in accounts.players_by_name(typed, FOUND_AT_MOST).await? {
        if !found.iter().any(|f| f.id == p.id) {
            found.push(p);
        }
    }
    found.truncate(usize::try_from(FOUND_AT_MOST).unwrap_or(usize::MAX));
    Ok(found)
}

pub async fn player_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(handle): Path<String>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let viewer = session.as_ref().map(|s| s.player);
    let profile = state
        .service
        .ratings()
        .player_profile(&handle, viewer)
        .await?;
    let p = &profile.player;
    let finished = state
        .service
        .games()
        .games_of_player(
            p.id,
            viewer,
            HistoryQuery {
                status: Some(GameStatus::Finished),
                page: 1,
                page_size: RECENT_GAMES,
                ..HistoryQuery::default()
            },
        )
        .await?;
    let body = html! {
        h1 { (p.name) " " small { "@" (p.handle.as_str()) } }
        @if let Some(level) = profile.ai_level {
            p.ai-player { "The taflbot AI at level " (level) ". Its ratings are measured from its rated games against people, by the same Glicko-2 update as theirs; it earns no title and never signs in." }
        }
        h2 { "Ratings" }
        @if profile.ratings.is_empty() { p { "Not rated yet." } } @else {
            table {
                thead { tr { th { "Variant" } th { "Rating" } th { "Games" } } }
                tbody {
                    @for r in &profile.ratings {
                        tr {
                            td { a href={ "/variants/" (r.variant) } { (r.variant) } }
                            td { @if let Some(t) = r.title { abbr.title title=(t.words()) { (t) } " " }
                                 (format!("{:.0}", r.rating)) " ±" (format!("{:.0}", r.deviation))
                                 @if r.provisional { " (provisional)" } }
                            td { (r.games) }
                        }
                    }
                }
            }
        }
        h2 { "Results" }
        @if profile.results.is_empty() { p { "No finished games yet." } } @else {
            table {
                thead { tr { th { "Variant" } th { "Played" } th { "Won" } th { "Lost" } th { "Drawn" } } }
                tbody {
                    @for r in &profile.results {
                        tr {
                            td { (variant_label(r.variant.as_deref())) }
                            td { (r.played) } td { (r.wins) } td { (r.losses) } td { (r.draws) }
                        }
                    }
                }
            }
        }
        h2 { "Current games" }
        @if profile.current_games.is_empty() { p { "None." } } @else {
            ul {
                @for g in &profile.current_games {
                    li { (game_link(g.id)) ": " (pairing(&g.attackers, &g.defenders))
                         " · " (variant_label(g.variant.as_deref())) " · move " (g.ply) }
                }
            }
        }
        h2 { "Recent games" }
        @if finished.items.is_empty() { p { "None finished yet." } } @else {
            ul {
                @for g in &finished.items {
                    li { (game_link(g.id)) ": " (pairing(&g.attackers, &g.defenders))
                         " · " (variant_label(g.variant.as_deref())) " · "
                         @match &g.result {
                             // As a spectator reads it: this is the player's page, not mine.
                             Some(r) => (result_in_words(r, None)),
                             None => (g.status),
                         }
                    }
                }
            }
        }
    };
    Ok(page(&p.name, me.as_ref(), body).into_response())
}
