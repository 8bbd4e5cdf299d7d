//! Registration needs no token, so it is counted per client address: the API's
//! `POST /api/v1/players` and the web client's sign-up form spend the same allowance
//! (`http.registration_per_minute`, `http.registration_burst`), by this instance, then by every
//! instance on the database together.

use crate::domain::SharedLimit;
use crate::service::ServiceError;
use crate::service::limits::Allowance;

use super::AppState;

/// Counts a registration from `client`: `Some(seconds to wait)` when it is one too many.
pub async fn registration_refused(
    state: &AppState,
    client: Option<std::net::IpAddr>,
) -> Result<Option<u64>, ServiceError> {
    if let Err(secs) = state.registrations.check(client) {
        return Ok(Some(secs));
    }
    state
        .service
        .shared_limits()
        .hit(
            SharedLimit::Registration,
            client,
            Allowance::per_minute(
                state.config.registration_per_minute,
                state.config.registration_burst,
            ),
        )
        .await
}
