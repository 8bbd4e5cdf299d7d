//! `GET /explorer/balance`: the variant balance, as `GET /api/v1/explorer/balance` answers:
//! how often each side wins each variant, overall and per rating band. Linked from the
//! explorer's pages.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};

use crate::AppState;
use crate::service::explorer::{BalanceResults, VariantBalance};

use super::super::error::WebError;
use super::super::layout::page;
use super::super::session::MaybeSignedIn;
use super::me_of;
use super::variants::variant_title;

pub async fn balance_page(
    State(state): State<AppState>,
    MaybeSignedIn(session): MaybeSignedIn,
) -> Result<Response, WebError> {
    let me = me_of(&state, session.as_ref()).await?;
    let balance = state.service.explorer().balance(None).await?;
    let body = html! {
        h1 { "Variant balance" }
        p { "How often each side wins every finished game of a variant (played and imported), and per rating band: the players' average rating before the game was rated, in bands of " (balance.band_width) ". Games where a side had no rating (the AI, an imported name, a player not yet rated in the variant) are counted apart." }
        @if balance.variants.is_empty() {
            p #balance-none { "No finished game yet." }
        }
        @for v in &balance.variants {
            (variant_table(&state, v))
        }
        p { a href="/explorer" { "Opening explorer" } }
    };
    Ok(page("Variant balance", me.as_ref(), body).into_response())
}

fn variant_table(state: &AppState, v: &VariantBalance) -> Markup {
    let title = state
        .service
        .games()
        .variant(&v.variant)
        .map_or_else(|_| v.variant.clone(), |start| variant_title(&start.view));
    html! {
        section.balance data-variant=(v.variant) {
            h2 { a href={ "/explorer/" (v.variant) } { (title) } }
            table {
                thead { tr { th { "Players' rating" } th { "Games" } th { "Attackers won" } th { "Defenders won" } th { "Drawn" } } }
                tbody {
                    @for band in &v.bands {
                        tr {
                            td { @match (band.rating_from, band.rating_to) {
                                (Some(from), Some(to)) => { (from) "–" (to) }
                                _ => "Without a rating",
                            } }
                            (cells(&band.results))
                        }
                    }
                }
                tfoot { tr.total { th { "All" } (cells(&v.overall)) } }
            }
        }
    }
}

fn cells(r: &BalanceResults) -> Markup {
    html! {
        td { (r.games) }
        td { (format!("{:.1}%", r.attackers_percent)) }
        td { (format!("{:.1}%", r.defenders_percent)) }
        td { (format!("{:.1}%", r.draws_percent)) }
    }
}
