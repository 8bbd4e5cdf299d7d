//! The one list of routes: the router and the OpenAPI document are both built from it.

use axum::routing::{MethodRouter, delete, get, patch, post};

use super::AppState;
use super::handlers::*;
use super::stream::{events_stream, game_stream};

pub const API_PREFIX: &str = "/api/v1";

/// How a route is documented.
#[derive(Debug, Clone, Copy)]
pub struct RouteSpec {
    pub method: &'static str,
    /// Path under `/api/v1`, with `{param}` placeholders.
    pub path: &'static str,
    pub summary: &'static str,
    pub auth: bool,
    /// Anyone may call it; a token, when sent, is checked and says who is asking (private
    /// games show to their players). `auth` is false for these.
    pub token_optional: bool,
    /// Name of the request body schema, if any.
    pub body: Option<&'static str>,
    /// Content type of a successful answer.
    pub produces: &'static str,
    pub success: u16,
}

const JSON: &str = "application/json";

const fn spec(method: &'static str, path: &'static str, summary: &'static str) -> RouteSpec {
    RouteSpec {
        method,
        path,
        summary,
        auth: true,
        token_optional: false,
        body: None,
        produces: JSON,
        success: 200,
    }
}

impl RouteSpec {
    const fn public(mut self) -> Self {
        self.auth = false;
        self
    }
    /// Anyone may read it; a token, when sent, says who reads.
    const fn open(mut self) -> Self {
        self.auth = false;
        self.token_optional = true;
        self
    }
    const fn body(mut self, schema: &'static str) -> Self {
        self.body = Some(schema);
        self
    }
    const fn produces(mut self, content_type: &'static str) -> Self {
        self.produces = content_type;
        self
    }
    const fn created(mut self) -> Self {
        self.success = 201;
        self
    }
    const fn no_content(mut self) -> Self {
        self.success = 204;
        self
    }
}

pub fn table() -> Vec<(RouteSpec, MethodRouter<AppState>)> {
    vec![
        (
            spec("GET", "/health", "Liveness check").public(),
            get(health),
        ),
        (
            spec(
                "GET",
                "/health/ready",
                "Readiness: store, scheduler and Discord (503 when not ready)",
            )
            .public(),
            get(ready),
        ),
        (
            spec("GET", "/openapi.json", "This OpenAPI document").public(),
            get(openapi_json),
        ),
        (
            spec(
                "POST",
                "/players",
                "Register a player; returns its API token (shown once)",
            )
            .public()
            .body("NewPlayer")
            .created(),
            post(register_player),
        ),
        (spec("GET", "/me", "The player of this token"), get(me)),
        (
            spec("PATCH", "/me", "Change my handle").body("UpdateMe"),
            patch(update_me),
        ),
        (
            spec(
                "GET",
                "/players",
                "Players whose handle starts with ?prefix=, by handle, 50 a page (?page=)",
            )
            .open(),
            get(list_players),
        ),
        (
            spec(
                "GET",
                "/players/{handle}",
                "A player by handle: ratings and results per variant, current games",
            )
            .open(),
            get(get_player),
        ),
        (
            spec(
                "GET",
                "/players/{handle}/games",
                "A player's games, latest first, 50 a page (?status=active|finished|aborted&variant=&page=); private ones only to their players",
            )
            .open(),
            get(player_games),
        ),
        (
            spec(
                "GET",
                "/players/{handle}/games.otg",
                "Every finished public game of a player as OpenTafl .otg records, one after another (streamed)",
            )
            .open()
            .produces("text/plain"),
            get(player_games_otg),
        ),
        (
            spec(
                "GET",
                "/players/{handle}/ratings/{variant}",
                "A player's rating changes in a variant, latest first, each with its game, 50 a page (?page=)",
            )
            .open(),
            get(rating_history),
        ),
        (
            spec(
                "GET",
                "/leaderboards/{variant}",
                "A variant's rated players, best first, 50 a page (?page=); provisional ratings left out",
            )
            .open(),
            get(leaderboard),
        ),
        (
            spec(
                "GET",
                "/tokens",
                "My API tokens: name, created, last used (never the token)",
            ),
            get(list_tokens),
        ),
        (
            spec(
                "POST",
                "/tokens",
                "Create a named API token; returns the token (shown once)",
            )
            .body("NewToken")
            .created(),
            post(create_token),
        ),
        (
            spec(
                "DELETE",
                "/tokens/{id}",
                "Revoke one of my tokens; refused from its next request on",
            )
            .no_content(),
            delete(revoke_token),
        ),
        (
            spec(
                "GET",
                "/variants",
                "Variants with rules summaries and start positions",
            )
            .public(),
            get(list_variants),
        ),
        (
            spec(
                "POST",
                "/challenges",
                "Challenge a player, anyone (open) or the AI",
            )
            .body("NewChallenge")
            .created(),
            post(create_challenge),
        ),
        (
            spec(
                "GET",
                "/challenges",
                "My pending challenges, incoming and outgoing",
            ),
            get(list_challenges),
        ),
        (
            spec(
                "POST",
                "/challenges/{id}/accept",
                "Accept a challenge; starts the game",
            ),
            post(accept_challenge),
        ),
        (
            spec(
                "POST",
                "/challenges/{id}/decline",
                "Decline a challenge sent to me",
            ),
            post(decline_challenge),
        ),
        (
            spec(
                "POST",
                "/challenges/{id}/cancel",
                "Cancel a challenge I sent",
            ),
            post(cancel_challenge),
        ),
        (
            spec(
                "GET",
                "/games",
                "My games: my turn first, most urgent deadline first",
            ),
            get(list_games),
        ),
        (
            spec(
                "GET",
                "/games/{id}",
                "One game with position, moves, clock and ratings (no token needed for a public game)",
            )
            .open(),
            get(get_game),
        ),
        (
            spec(
                "GET",
                "/games/{id}/legal-moves",
                "Legal moves of a side (?side=, default the side to move), optionally from one square (?from=e5)",
            )
            .open(),
            get(legal_moves),
        ),
        (
            spec(
                "POST",
                "/games/{id}/moves",
                "Make a move; 'ply' is the game's current ply (optional Idempotency-Key header)",
            )
            .body("NewMove"),
            post(play_move),
        ),
        (spec("POST", "/games/{id}/resign", "Resign"), post(resign)),
        (
            spec(
                "POST",
                "/games/{id}/abort",
                "Abort before both sides have moved",
            ),
            post(abort),
        ),
        (
            spec("POST", "/games/{id}/draw/offer", "Offer a draw"),
            post(offer_draw),
        ),
        (
            spec(
                "POST",
                "/games/{id}/draw/accept",
                "Accept the opponent's draw offer",
            ),
            post(accept_draw),
        ),
        (
            spec(
                "POST",
                "/games/{id}/draw/decline",
                "Decline the opponent's draw offer",
            ),
            post(decline_draw),
        ),
        (
            spec(
                "GET",
                "/games/{id}/board.png",
                "The board as PNG (?ply=&flip=&theme=), immutable per ply, with ETag",
            )
            .open()
            .produces("image/png"),
            get(super::handlers::board_png),
        ),
        (
            spec(
                "GET",
                "/games/{id}/export",
                "The game as an OpenTafl .otg record",
            )
            .open()
            .produces("text/plain"),
            get(export_game),
        ),
        (
            spec(
                "GET",
                "/games/{id}/stream",
                "A game's events as NDJSON from ?since=ID, then live, with keep-alive lines (spectators)",
            )
            .open()
            .produces("application/x-ndjson"),
            get(game_stream),
        ),
        (
            spec(
                "GET",
                "/stream/events",
                "My events as NDJSON from ?since=ID, then live, with keep-alive lines",
            )
            .produces("application/x-ndjson"),
            get(events_stream),
        ),
        (
            spec(
                "POST",
                "/webhooks",
                "Register a webhook (url, secret) for my events",
            )
            .body("NewWebhook")
            .created(),
            post(add_webhook),
        ),
        (spec("GET", "/webhooks", "My webhooks"), get(list_webhooks)),
        (
            spec("DELETE", "/webhooks/{id}", "Remove a webhook").no_content(),
            delete(remove_webhook),
        ),
    ]
}
