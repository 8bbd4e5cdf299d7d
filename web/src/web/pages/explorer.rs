//! `GET /explorer` (the presets) and `GET /explorer/{variant}?moves=...`: the opening
//! explorer's position, its board, how the games through it ended and the moves played from
//! it, as `GET /api/v1/explorer/{variant}` answers, with the engine's view beside them
//! (the defenders' chance, once searched). Each move links one step deeper; the analysis
//! board holds the engine's line.

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;

use crate::AppState;
use crate::service::explorer::{ExplorerBoard, ExplorerView};

use super::super::board_svg::{BoardLook, scene_svg};
use super::super::error::WebError;
use super::super::layout::page;
use super::super::session::MaybeSignedIn;
use super::me_of;
use super::variants::{BEGINNER_VARIANT, variant_title};

pub async fn explorer_list(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let body = html! {
        h1 { "Opening explorer" }
        p { "Every finished game's first 30 moves, with the board's rotations and mirrors counted as one opening. Pick a variant:" }
        p { a #explorer-balance href="/explorer/balance" { "Balance" } ": how often each side wins each variant, per rating band." }
        ul.variants {
            @for v in state.service.games().variants() {
                li { a href={ "/explorer/" (v.id) } { (variant_title(&v)) }
                     @if v.id == BEGINNER_VARIANT { " " small { "(start here)" } } }
            }
        }
    };
    Ok(page("Opening explorer", me.as_ref(), body).into_response())
}

#[derive(Debug, Default, Deserialize)]
pub struct ExplorerQuery {
    moves: Option<String>,
}

pub async fn explorer_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
    Path(variant): Path<String>,
    Query(q): Query<ExplorerQuery>,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let shown = state.service.games().variant(&variant)?.view;
    let ExplorerBoard { view, game } = state
        .service
        .explorer()
        .board(&variant, q.moves.as_deref().unwrap_or_default())
        .await?;
    let title = format!("Opening explorer: {}", variant_title(&shown));
    let svg = match tafl_render::scene_of(game.position(), game.rules(), &Default::default()) {
        Ok(scene) => scene_svg(&scene, BoardLook::default()),
        Err(e) => format!("<p class=\"error\">cannot draw this board: {e}</p>"),
    };
    let body = html! {
        h1 { (title) }
        (line_links(&view))
        div.explorer {
            div #explorer-board { (PreEscaped(svg)) }
            div {
                (totals(&view))
                (engine_line(&view))
                @if view.moves.is_empty() {
                    p #explorer-none { "No finished game played on from here." }
                } @else {
                    (moves_table(&view))
                }
                p { a #explorer-analysis href=(view.analysis_board) { "This position on the analysis board" } " (the engine's line)" }
            }
        }
        p { a href={ "/variants/" (shown.id) } { "The rules of " (shown.name) } " · " a href="/explorer" { "Other variants" } " · " a href="/explorer/balance" { "Balance" } }
    };
    Ok(page(&title, me.as_ref(), body).into_response())
}

/// The moves played so far, each a link back to the position after it.
fn line_links(view: &ExplorerView) -> Markup {
    html! {
        p #explorer-line {
            a href={ "/explorer/" (view.variant) } { "Start" }
            @for (i, mv) in view.played.iter().enumerate() {
                " · "
                a href=(address(view, i + 1, None)) { (i / 2 + 1) "." @if i % 2 == 1 { ".." } " " (mv) }
            }
        }
    }
}

/// This position's address after its first `upto` moves, and `next` after them.
fn address(view: &ExplorerView, upto: usize, next: Option<&str>) -> String {
    view.page_path(upto, next)
}

fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0%".to_owned()
    } else {
        format!("{:.0}%", part as f64 * 100.0 / whole as f64)
    }
}

fn totals(view: &ExplorerView) -> Markup {
    html! {
        p #explorer-totals {
            @if view.games == 0 {
                "No finished game reached this position yet."
            } @else {
                (view.games) @if view.games == 1 { " game" } @else { " games" }
                ": attackers won " (share(view.attackers_won, view.games))
                ", defenders " (share(view.defenders_won, view.games))
                ", drawn " (share(view.draws, view.games)) "."
            }
        }
    }
}

/// The engine's view of the position, or a word that it is coming.
fn engine_line(view: &ExplorerView) -> Markup {
    html! {
        p #explorer-engine {
            @match &view.engine {
                Some(e) => {
                    "Engine: defenders' chance " (format!("{:.1}%", e.chance))
                    @if let Some(best) = &e.best { ", best " (best) }
                    @if let Some(forced) = &e.forced { " (" (forced) ")" }
                    " " small { "(depth " (e.depth) ", " (e.nodes) " nodes)" }
                }
                None if view.games > 0 => { "Engine: not searched yet; it is on its way (reload shortly)." }
                None => {}
            }
        }
    }
}

fn moves_table(view: &ExplorerView) -> Markup {
    html! {
        table #explorer-moves {
            thead { tr { th { "Move" } th { "Games" } th { "Attackers" } th { "Drawn" } th { "Defenders" } th { "Average rating" } th title="The engine's winning chance for the defenders after the move" { "Engine" } } }
            tbody {
                @for m in &view.moves {
                    tr data-move=(m.mv) {
                        td {
                            a href=(address(view, view.played.len(), Some(&m.mv))) { (m.mv) }
                            @if !m.same_as.is_empty() { " " small title="The same move seen from another side of the board" { "= " (m.same_as.join(", ")) } }
                        }
                        td { (m.games) }
                        td { (share(m.attackers_won, m.games)) }
                        td { (share(m.draws, m.games)) }
                        td { (share(m.defenders_won, m.games)) }
                        td { @match m.average_rating { Some(r) => (r), None => "–" } }
                        td.engine { @match m.engine_chance { Some(c) => (format!("{c:.1}%")), None => "…" } }
                    }
                }
            }
        }
    }
}
