//! The CSRF lock of the form a visitor fills in before they have a session (the sign-up form):
//! a random token both in a cookie (`SameSite=Strict`, `HttpOnly`) and in the form's hidden
//! field, which must match. Another site can make a browser post the form, but it can neither
//! read the cookie nor set it, so it cannot fill in the field. The check on `Origin` and
//! `Sec-Fetch-Site` (`visitors::admit`) stands in front of it.

use axum::http::{HeaderMap, HeaderValue};

use crate::AppState;

use super::error::WebError;
use super::session::{cookie, same_secret};

pub const FORM_COOKIE: &str = "taflbot_form";
/// A day: long enough to fill in the form, short enough not to linger.
const FORM_COOKIE_SECS: u32 = 86_400;

/// The visitor's form token: the one their cookie holds (another tab's form stays valid), or
/// a new one, with the cookie to set.
pub fn form_token(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<(String, Option<HeaderValue>), WebError> {
    if let Some(token) = cookie(headers, FORM_COOKIE).filter(|t| looks_like_token(t)) {
        return Ok((token.to_owned(), None));
    }
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| {
        WebError::Service(crate::service::ServiceError::internal(format!(
            "no randomness for a form token: {e}"
        )))
    })?;
    let token = hex::encode(bytes);
    let secure = if state.config.served_over_https() {
        "; Secure"
    } else {
        ""
    };
    let text = format!(
        "{FORM_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={FORM_COOKIE_SECS}{secure}"
    );
    // Hex and our own words: always a valid header value.
    let header = HeaderValue::from_str(&text).ok();
    Ok((token, header))
}

/// Refuses a form whose field does not hold the token of the visitor's cookie.
pub fn check_form_token(headers: &HeaderMap, field: Option<&str>) -> Result<(), WebError> {
    let kept = cookie(headers, FORM_COOKIE).unwrap_or_default();
    let sent = field.unwrap_or_default();
    if looks_like_token(kept) && same_secret(sent.as_bytes(), kept.as_bytes()) {
        Ok(())
    } else {
        Err(WebError::BadCsrf)
    }
}

fn looks_like_token(text: &str) -> bool {
    text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use axum::http::header;

    use super::*;

    #[test]
    fn the_field_must_match_the_cookie() {
        let token = "0123456789abcdef0123456789abcdef";
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("{FORM_COOKIE}={token}")).unwrap(),
        );
        assert!(check_form_token(&h, Some(token)).is_ok());
        assert!(check_form_token(&h, Some("0123456789abcdef0123456789abcdee")).is_err());
        assert!(check_form_token(&h, None).is_err());
        assert!(check_form_token(&HeaderMap::new(), Some(token)).is_err());
        assert!(check_form_token(&HeaderMap::new(), Some("")).is_err());
    }
}
