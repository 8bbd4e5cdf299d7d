//! The pages, one file per kind: each handler parses, calls the games service, renders.

pub mod challenges;
pub mod game;
pub mod game_analysis;
pub mod home;
pub mod live;
pub mod players;
pub mod sign_in;
pub mod variants;

use crate::server::AppState;

use super::error::WebError;
use super::layout::Me;
use super::session::SignedIn;

/// The signed-in visitor as the page bar shows them.
async fn me_of(state: &AppState, session: Option<&SignedIn>) -> Result<Option<Me>, WebError> {
    let Some(session) = session else {
        return Ok(None);
    };
    let player = state.service.accounts().player(session.player).await?;
    Ok(Some(Me {
        player,
        csrf_token: session.csrf_token.clone(),
    }))
}

/// Visitors without a session read public pages under the API's limit for requests without a
/// token (`http.anonymous_per_second`, per address).
fn spectator_allowed(
    state: &AppState,
    session: Option<&SignedIn>,
    client: Option<std::net::IpAddr>,
) -> Result<(), WebError> {
    if session.is_some() {
        return Ok(());
    }
    state.anonymous.check(client).map_err(WebError::RateLimited)
}
