//! What a browser holds before it posts one of the web client's signed-out forms (sign up,
//! sign in with a token or a link): the form-token cookie the page set and the form's hidden
//! `form_token` field, which must match (`web/src/web/signed_out_csrf.rs`).

/// From a page's `Set-Cookie` values and its HTML: the cookie as a `Cookie` header sends it
/// (`taflbot_form=...`) and the field's value. A page without them fails the test, naming it.
pub fn signed_out_form<'a>(
    set_cookies: impl IntoIterator<Item = &'a str>,
    html: &str,
) -> (String, String) {
    let cookie = set_cookies
        .into_iter()
        .filter_map(|v| v.split(';').next())
        .find(|pair| pair.trim_start().starts_with("taflbot_form="))
        .unwrap_or_else(|| panic!("the page set no form-token cookie"))
        .trim()
        .to_owned();
    const FIELD: &str = "name=\"form_token\" value=\"";
    let start = html
        .find(FIELD)
        .unwrap_or_else(|| panic!("no form token field in {html}"))
        + FIELD.len();
    let field = html[start..]
        .split('"')
        .next()
        .unwrap_or_default()
        .to_owned();
    (cookie, field)
}
