//! The web client, served by the same binary next to the API: server-drawn HTML pages (maud
//! templates) and a small script per page, every byte built into the binary. Pages call the
//! games service as the API does, and sign visitors in with one-time links or API tokens
//! (`session`). See docs/web.md.

mod analysis_svg;
mod assets;
mod board_svg;
mod error;
mod form;
mod layout;
mod pages;
mod result_words;
mod session;
mod signed_out_csrf;
pub(super) mod visitors;

use axum::Router;
use axum::routing::{MethodRouter, get, post};

use crate::AppState;

pub use assets::game_page_asset_bytes;
pub use session::{CSRF_HEADER, SESSION_COOKIE};

/// The pages, at the root of the site (the API stays under `/api/v1`). Every page passes
/// through `visitors::admit` (the session, the limit for visitors without one, no form from
/// another site); the assets, the same bytes for everyone, do not.
pub fn router(state: AppState) -> Router<AppState> {
    pages()
        .router
        .route_layer(axum::middleware::from_fn_with_state(state, visitors::admit))
        .route("/assets/{name}", get(assets::asset))
        .layer(axum::middleware::from_fn(security_headers))
}

/// Every page's path, as the router serves it (with `{param}` placeholders): the privacy test
/// reads each one, so a new page is covered without editing it.
pub fn page_paths() -> Vec<&'static str> {
    pages().paths
}

/// The pages' routes, with their paths kept as they are added.
#[derive(Default)]
struct Pages {
    router: Router<AppState>,
    paths: Vec<&'static str>,
}

impl Pages {
    fn route(mut self, path: &'static str, methods: MethodRouter<AppState>) -> Pages {
        self.paths.push(path);
        self.router = self.router.route(path, methods);
        self
    }
}

fn pages() -> Pages {
    use pages::*;
    Pages::default()
        .route("/", get(home::home))
        .route("/login", post(sign_in::redeem_link))
        .route("/login/token", post(sign_in::with_api_token))
        .route("/login/{token}", get(sign_in::confirm_link))
        .route("/signup", post(sign_up::sign_up))
        .route("/logout", post(sign_in::sign_out))
        .route("/me/live", get(live::my_events))
        .route("/me/sessions", get(sessions::sessions_page))
        .route("/me/turns", get(turns::my_turns))
        .route(
            "/me/mail",
            get(mail_settings::mail_page).post(mail_settings::set_address),
        )
        .route("/me/mail/quiet", post(mail_settings::set_quiet_hours))
        .route("/me/mail/off", post(mail_settings::turn_off))
        .route(
            "/me/vacation",
            get(vacation::vacation_page).post(vacation::take_vacation),
        )
        .route("/me/vacation/end", post(vacation::end_vacation))
        .route(
            "/mail/confirm/{token}",
            get(mail_settings::confirm_page).post(mail_settings::confirm),
        )
        .route(
            "/mail/unsubscribe/{token}",
            get(mail_settings::unsubscribe_page).post(mail_settings::unsubscribe),
        )
        .route(
            "/me/sessions/end-others",
            post(sessions::end_other_sessions),
        )
        .route("/me/sessions/{id}/end", post(sessions::end_session))
        .route("/games", get(public_games::public_games_page))
        .route("/games/live", get(live::public_games_events))
        .route(
            "/games/import",
            get(study::import_page).post(study::import_record),
        )
        .route("/games/{id}/annotate", post(study::annotate))
        .route("/games/{id}", get(game::game_page))
        .route("/games/{id}/board", get(game::board_part))
        .route(
            "/games/{id}/analysis",
            get(game_analysis::analysis_part).post(game_analysis::request_analysis),
        )
        .route("/games/{id}/live", get(live::game_events))
        .route("/games/{id}/move", post(game::play_move))
        .route("/games/{id}/{action}", post(game::game_action))
        .route("/analysis", get(analysis_board::analysis_page))
        .route("/puzzles", get(puzzles::next_puzzle_page))
        .route(
            "/puzzles/{id}",
            get(puzzles::puzzle_page).post(puzzles::try_move),
        )
        .route("/analysis/board", get(analysis_board::board_part))
        .route("/analysis/engine", post(analysis_board::ask_engine))
        .route("/analysis/plan/{id}/add", post(analysis_plan::add_line))
        .route("/analysis/plan/{id}/drop", post(analysis_plan::drop_line))
        .route("/explorer", get(explorer::explorer_list))
        .route("/explorer/balance", get(explorer_balance::balance_page))
        .route("/explorer/{variant}", get(explorer::explorer_page))
        .route("/challenges/new", get(challenges::new_challenge))
        .route("/challenges", post(challenges::create_challenge))
        .route(
            "/challenges/{id}/{action}",
            post(challenges::answer_challenge),
        )
        .route(
            "/tournaments",
            get(tournaments::tournament_list).post(tournaments::create_tournament),
        )
        .route("/tournaments/{id}", get(tournament::tournament_page))
        .route(
            "/tournaments/{id}/live",
            get(tournament_live::tournament_events),
        )
        .route(
            "/tournaments/{id}/{action}",
            post(tournament::tournament_action),
        )
        .route("/matches/{id}", get(team_match::match_page))
        .route("/matches/{id}/live", get(match_live::match_events))
        .route("/matches/{id}/{action}", post(team_match::match_action))
        .route("/players", get(players::player_search))
        .route("/players/{handle}", get(players::player_page))
        .route("/leaderboards", get(leaderboards::leaderboard_list))
        .route(
            "/leaderboards/{variant}",
            get(leaderboards::leaderboard_page),
        )
        .route("/variants", get(variants::variant_list))
        .route("/variants/{id}", get(variants::variant_page))
        .route("/variants/{id}/start.svg", get(variants::start_picture))
}

/// Every page: only this site's own scripts, styles and pictures; never inside another site's
/// frame (a page there could trick a click on "Resign"); no address sent to other sites (a
/// sign-in link's page holds its token in the address).
async fn security_headers(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::http::{HeaderValue, header};
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
        ),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        // No address to other sites (a sign-in link's page holds its token in the address);
        // to this one the address goes, and the origin too: `no-referrer` makes browsers send
        // `Origin: null` with this site's own forms, which the Origin check must refuse.
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Pages are personal (a CSRF token, my games) or live: never kept by a cache in between.
    // The assets say otherwise for themselves.
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}
