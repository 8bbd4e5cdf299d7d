//! `GET /leaderboards` (the rated variants) and `GET /leaderboards/{variant}`: a variant's
//! rated players, best first, as the API's `GET /api/v1/leaderboards/{variant}` lists them.

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use crate::AppState;
use crate::domain::PlayerKind;

use super::super::error::WebError;
use super::super::layout::page;
use super::super::session::MaybeSignedIn;
use super::me_of;
use super::variants::{BEGINNER_VARIANT, variant_title};

pub async fn leaderboard_list(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let body = html! {
        h1 { "Leaderboards" }
        p { "Rated games of each variant rate their players (Glicko-2). Pick a variant:" }
        ul.variants {
            @for v in state.service.games().variants() {
                li { a href={ "/leaderboards/" (v.id) } { (variant_title(&v)) }
                     @if v.id == BEGINNER_VARIANT { " " small { "(start here)" } } }
            }
        }
    };
    Ok(page("Leaderboards", me.as_ref(), body).into_response())
}

#[derive(Debug, Default, Deserialize)]
pub struct PageQuery {
    page: Option<u32>,
}

pub async fn leaderboard_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(variant): Path<String>,
    Query(q): Query<PageQuery>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let shown = state.service.games().variant(&variant)?.view;
    let page_number = q.page.unwrap_or(1).max(1);
    let board = state
        .service
        .ratings()
        .leaderboard(&variant, None, page_number)
        .await?;
    let title = format!("Leaderboard: {}", variant_title(&shown));
    let body = html! {
        h1 { (title) }
        @if board.items.is_empty() {
            p { "Nobody is rated in " (shown.name) " yet: rated games (between two players, or against an AI level) put their players here once their ratings settle." }
        } @else {
            table.leaderboard {
                thead { tr { th { "#" } th { "Player" } th { "Rating" } th { "Rated games" } } }
                tbody {
                    @for e in &board.items {
                        tr data-handle=(e.handle.as_str()) {
                            td { (e.rank) }
                            td {
                                @if let Some(t) = e.title { abbr.title title=(t.words()) { (t) } " " }
                                a href={ "/players/" (e.handle.as_str()) } { (e.name) } " " small { "@" (e.handle.as_str()) }
                                @if e.kind == PlayerKind::Ai {
                                    " " abbr.ai-mark title="The taflbot AI: its rating is measured from its rated games against people" { "AI" }
                                }
                            }
                            td { (format!("{:.0}", e.rating)) " ±" (format!("{:.0}", e.deviation)) }
                            td { (e.games) }
                        }
                    }
                }
            }
        }
        p {
            @if page_number > 1 { a href={ "?page=" (page_number - 1) } { "‹ Better rated" } " " }
            @if let Some(next) = board.next_page { a href={ "?page=" (next) } { "Next ›" } }
        }
        p { a href={ "/variants/" (shown.id) } { "The rules of " (shown.name) } " · " a href="/leaderboards" { "Other variants" } }
    };
    Ok(page(&title, me.as_ref(), body).into_response())
}
