//! The frame of every page: head, the bar with the visitor's name and sign-out, the footer.

use axum::response::Html;
use maud::{DOCTYPE, Markup, html};

use crate::service::PlayerView;

/// Who is looking, for the bar at the top and the forms' CSRF token.
#[derive(Debug, Clone)]
pub struct Me {
    pub player: PlayerView,
    pub csrf_token: String,
}

/// A whole page around `body`.
pub fn page(title: &str, me: Option<&Me>, body: Markup) -> Html<String> {
    page_with(title, me, body, None)
}

/// A page that also loads the module `script` (under `/assets/`).
pub fn page_with(title: &str, me: Option<&Me>, body: Markup, script: Option<&str>) -> Html<String> {
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                @if let Some(me) = me {
                    meta name="csrf" content=(me.csrf_token);
                }
                title { (title) " · taflbot" }
                link rel="stylesheet" href=(super::assets::STYLE_URL);
                link rel="icon" type="image/svg+xml" href=(super::assets::ICON_URL);
                script type="module" src=(super::assets::COMMON_URL) {}
                @if me.is_some() {
                    script type="module" src=(super::assets::TURNS_URL) {}
                }
                @if let Some(script) = script {
                    script type="module" src=(script) {}
                }
            }
            body {
                header.bar {
                    a.brand href="/" { "taflbot" }
                    nav {
                        @if me.is_some() {
                            a href="/" { "My games" }
                            a href="/challenges/new" { "New game" }
                            a href="/me/sessions" { "Sessions" }
                            a href="/me/mail" { "Mail notices" }
                            a href="/me/vacation" { "Vacation" }
                        }
                        a href="/games" { "Watch" }
                        a href="/tournaments" { "Tournaments" }
                        a href="/explorer" { "Openings" }
                        a href="/leaderboards" { "Leaderboards" }
                        a href="/players" { "Players" }
                        a href="/variants" { "Variants" }
                    }
                    @if let Some(me) = me {
                        span.who {
                            // Shown by turns.js where the browser has notifications.
                            button.link #notify-toggle type="button" hidden { "Notify me of my turn" }
                            a href={ "/players/" (me.player.handle.as_str()) } { (me.player.name) }
                            form method="post" action="/logout" {
                                (csrf_field(me))
                                button.link type="submit" { "Sign out" }
                            }
                        }
                    } @else {
                        a.who href="/" { "Sign in" }
                    }
                }
                main { (body) }
            }
        }
    };
    Html(page.into_string())
}

/// The hidden field every form that changes something carries.
pub fn csrf_field(me: &Me) -> Markup {
    html! { input type="hidden" name="csrf" value=(me.csrf_token); }
}

/// A time the script shows in the visitor's own zone (the UTC text stays without script).
pub fn local_time(ms: i64) -> Markup {
    let iso = iso_utc(ms);
    html! { time datetime=(iso) { (iso.replace('T', " ").trim_end_matches(":00Z")) " UTC" } }
}

/// `YYYY-MM-DDTHH:MM:00Z` of a Unix time in milliseconds.
fn iso_utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let in_day = secs.rem_euclid(86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:00Z",
        in_day / 3600,
        in_day % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_iso_in_utc() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(1_700_000_000_000), "2023-11-14T22:13:00Z");
    }
}
