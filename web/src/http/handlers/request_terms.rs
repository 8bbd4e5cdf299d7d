//! What several create requests (challenges, tournaments, team matches) say alike: their
//! rules as a preset `variant` or an OpenTafl `rules` string, and the refusal of a body that
//! parses but says something impossible.

use axum::http::StatusCode;

use crate::http::error::ApiError;
use crate::service::RulesChoice;

/// `422 invalid` with `message`, in the caller's terms.
pub(super) fn invalid(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "invalid", message.into())
}

/// The rules a body asks for: its `variant`, its `rules`, or the default; never both.
pub(super) fn rules_choice(
    variant: Option<String>,
    rules: Option<String>,
) -> Result<RulesChoice, ApiError> {
    match (variant, rules) {
        (Some(_), Some(_)) => Err(invalid("give variant or rules, not both")),
        (Some(v), None) => Ok(RulesChoice::Variant(v)),
        (None, Some(r)) => Ok(RulesChoice::Rules(r)),
        (None, None) => Ok(RulesChoice::default()),
    }
}
