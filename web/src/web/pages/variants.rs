//! `GET /variants` and `GET /variants/{id}`: each preset's rules and start position.

use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use maud::{Markup, PreEscaped, html};

use crate::AppState;
use crate::service::{VariantStart, VariantView};

use super::super::board_svg::{BoardLook, board_text, start_svg};
use super::super::error::WebError;
use super::super::layout::page;
use super::super::session::MaybeSignedIn;
use super::me_of;

/// The variant the docs recommend to a newcomer (README, docs/rules.md): small board, short
/// games.
pub const BEGINNER_VARIANT: &str = "brandubh";

/// A variant's name with its board's size, unless the name already says it ("Hnefatafl 13x13").
pub fn variant_title(v: &VariantView) -> String {
    let size = format!("{0}x{0}", v.dim);
    if v.name.contains(&size) {
        v.name.clone()
    } else {
        format!("{} ({size})", v.name)
    }
}

/// A variant in one line: its board and pieces, and how the king wins.
pub fn one_line(v: &VariantView) -> String {
    v.summary.lines().take(2).collect::<Vec<_>>().join(" ")
}

/// "Start here: Brandubh", for the pages where a newcomer picks a variant.
pub fn start_here() -> Markup {
    html! {
        p.notice #start-here {
            strong { "New to tafl? Start here: " }
            a href={ "/variants/" (BEGINNER_VARIANT) } { "Brandubh" }
            ", 7x7 with 13 pieces: games of a few dozen moves, to learn how pieces are captured \
             and how the king escapes."
        }
    }
}

pub async fn variant_list(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let body = html! {
        h1 { "Variants" }
        (start_here())
        ul.variants {
            @for v in state.service.games().variants() {
                li data-variant=(v.id) {
                    a href={ "/variants/" (v.id) } { (variant_title(&v)) }
                    br; small { (one_line(&v)) }
                }
            }
        }
    };
    Ok(page("Variants", me.as_ref(), body).into_response())
}

/// `GET /variants/{id}/start.svg`: the start position alone, as an image.
pub async fn start_picture(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, WebError> {
    let variant = state.service.games().variant(&id)?;
    let svg = start_svg(&variant.start, &variant.rules, BoardLook::default());
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        svg,
    )
        .into_response())
}

pub async fn variant_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(id): Path<String>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let VariantStart { view, rules, start } = state.service.games().variant(&id)?;
    let body = html! {
        h1 { (view.name) }
        div.cards {
            div.card.start {
                (PreEscaped(start_svg(&start, &rules, BoardLook::default())))
                p #board-alt .sr { "The start: " (board_text(&start)) }
            }
            div.card {
                h2 { "Rules" }
                @for line in view.summary.lines() { p { (line) } }
                p { small { "OpenTafl rules: " code { (view.rules) } } }
                @if me.is_some() { p { a href="/challenges/new" { "Play it" } } }
            }
        }
    };
    Ok(page(&view.name, me.as_ref(), body).into_response())
}
