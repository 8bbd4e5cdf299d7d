//! A form's fields (`application/x-www-form-urlencoded`), refused in the visitor's terms when
//! a field holds the NUL character (`server::text_input`) or is not as the page sends it.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use crate::text_input::nul_in_pairs;

use super::error::WebError;

/// The fields of a posted form, read into `T`.
pub struct WebForm<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for WebForm<T> {
    type Rejection = WebError;

    async fn from_request(req: Request, state: &S) -> Result<Self, WebError> {
        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(|r| WebError::BadInput(format!("the form was not read: {}", r.body_text())))?;
        if let Some(field) = nul_in_pairs(&bytes) {
            return Err(WebError::NulInText(field));
        }
        serde_urlencoded::from_bytes(&bytes)
            .map(WebForm)
            .map_err(|e| WebError::BadInput(format!("the form is not as this page sends it: {e}")))
    }
}
