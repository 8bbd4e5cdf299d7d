use std::sync::Arc;

use futures_util::StreamExt;
use reqwest::{Method, Response, StatusCode};
use serde_json::{Value, json};
use tafl_engine::{Game, Move};
use taflbot::app::{AppOptions, RunningApp};
use taflbot::config::Config;
use taflbot::service::{Event, ManualClock, MovePicker};

use crate::contract::{Answer, contract};

/// Start of the fake clock: 2023-11-14.
pub const T0: i64 = 1_700_000_000_000;

/// A stand-in AI for tests: plays the first legal move, so games against it are
/// reproducible. It is not the product's AI.
pub struct FirstLegalMove;

impl MovePicker for FirstLegalMove {
    fn pick(&self, game: &Game, _level: u8) -> Option<Move> {
        game.legal_moves().into_iter().next()
    }
}

pub struct TestApp {
    app: Option<RunningApp>,
    pub base: String,
    pub client: reqwest::Client,
    pub clock: ManualClock,
    pub config: Config,
    ai: Arc<dyn MovePicker>,
    _dir: Arc<tempfile::TempDir>,
}

pub struct Player {
    pub id: i64,
    pub token: String,
}

pub fn test_config(dir: &tempfile::TempDir) -> Config {
    let mut config = Config::default();
    config.database.path = dir.path().join("taflbot.db");
    if crate::POSTGRES {
        config.database.url = crate::pg_server::database_url();
    }
    config.http.listen = "127.0.0.1:0".into();
    config.http.rate_limit_per_second = 10_000.0;
    config.http.rate_limit_burst = 10_000;
    config.http.registration_per_minute = 600_000.0;
    config.http.registration_burst = 10_000;
    config.http.anonymous_per_second = 10_000.0;
    config.http.anonymous_burst = 10_000;
    config.http.stream_keepalive_secs = 1;
    // Limits on engine work have tests of their own (engine_limits.rs).
    config.games.ai_game_cooldown_secs = 0;
    config.games.hint_cooldown_secs = 0;
    config.games.analysis_cooldown_secs = 0;
    config.games.max_ai_games_per_player = 0;
    config.games.analysis_max_queued_per_player = 100;
    config.games.analysis_max_queued_new_account = 100;
    config.games.analysis_max_queued_per_address = 100;
    // Vacation has tests of its own (vacation.rs): elsewhere a clock that runs out ends the
    // game, as the clock tests expect, without a vacation day spent first.
    config.games.vacation_days_per_year = 0;
    config.webhooks.poll_interval_ms = 20;
    config.webhooks.initial_backoff_ms = 1_000;
    config.webhooks.timeout_ms = 2_000;
    config
}

impl TestApp {
    pub async fn start() -> TestApp {
        TestApp::start_with(|_| {}).await
    }

    pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> TestApp {
        TestApp::start_with_ai(tweak, Arc::new(FirstLegalMove)).await
    }

    pub async fn start_with_ai(
        tweak: impl FnOnce(&mut Config),
        ai: Arc<dyn MovePicker>,
    ) -> TestApp {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        let mut config = test_config(&dir);
        tweak(&mut config);
        TestApp::boot(config, ManualClock::new(T0), dir, ai).await
    }

    async fn boot(
        config: Config,
        clock: ManualClock,
        dir: Arc<tempfile::TempDir>,
        ai: Arc<dyn MovePicker>,
    ) -> TestApp {
        let app = RunningApp::start(
            config.clone(),
            AppOptions {
                clock: Arc::new(clock.clone()),
                picker: Some(ai.clone()),
                scheduler: false,
            },
        )
        .await
        .unwrap();
        TestApp {
            base: app.base_url().unwrap(),
            app: Some(app),
            client: reqwest::Client::new(),
            clock,
            config,
            ai,
            _dir: dir,
        }
    }

    pub fn service(&self) -> &taflbot::service::GamesService {
        &self.app.as_ref().unwrap().service
    }

    /// Stops the app and starts a new one on the same database file.
    pub async fn restart(mut self) -> TestApp {
        self.app.take().unwrap().shutdown().await;
        let mut config = self.config.clone();
        config.http.listen = "127.0.0.1:0".into();
        TestApp::boot(
            config,
            self.clock.clone(),
            self._dir.clone(),
            self.ai.clone(),
        )
        .await
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}/api/v1{path}", self.base)
    }

    pub async fn send(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Response {
        let mut req = self.client.request(method.clone(), self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let response = req.send().await.unwrap();
        checked(&method, &format!("/api/v1{path}"), response).await
    }

    /// Sends `body` as it is, labelled JSON (for bodies that are not valid JSON or not the
    /// expected shape).
    pub async fn send_raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Response {
        let mut req = self.client.request(method.clone(), self.url(path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req
                .header("content-type", "application/json")
                .body(b.to_owned());
        }
        let response = req.send().await.unwrap();
        checked(&method, &format!("/api/v1{path}"), response).await
    }

    /// Sends and expects `status`; returns the JSON body.
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
        status: StatusCode,
    ) -> Value {
        let r = self.send(method.clone(), path, token, body).await;
        let got = r.status();
        let text = r.text().await.unwrap();
        assert_eq!(got, status, "{method} {path} answered {got}: {text}");
        if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        }
    }

    pub async fn get(&self, path: &str, token: &str) -> Value {
        self.call(Method::GET, path, Some(token), None, StatusCode::OK)
            .await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> Value {
        self.call(Method::POST, path, Some(token), Some(body), StatusCode::OK)
            .await
    }

    pub async fn register(&self, name: &str) -> Player {
        let v = self
            .call(
                Method::POST,
                "/players",
                None,
                Some(json!({ "name": name })),
                StatusCode::CREATED,
            )
            .await;
        Player {
            id: v["player"]["id"].as_i64().unwrap(),
            token: v["token"].as_str().unwrap().to_owned(),
        }
    }

    /// `a` challenges `b` with `a` as attackers; `b` accepts. Returns the game id.
    /// `from` issues the challenge `body`; returns its id.
    pub async fn challenge(&self, from: &Player, body: Value) -> i64 {
        self.call(
            Method::POST,
            "/challenges",
            Some(&from.token),
            Some(body),
            StatusCode::CREATED,
        )
        .await["challenge"]["id"]
            .as_i64()
            .unwrap()
    }

    pub async fn start_game(&self, a: &Player, b: &Player, variant: &str, clock: Value) -> i64 {
        let id = self
            .challenge(
                a,
                json!({ "opponent_id": b.id, "variant": variant, "side": "attackers", "clock": clock }),
            )
            .await;
        let game = self
            .post(&format!("/challenges/{id}/accept"), &b.token, json!({}))
            .await;
        assert_eq!(game["attackers"]["player_id"], a.id);
        assert_eq!(game["defenders"]["player_id"], b.id);
        game["id"].as_i64().unwrap()
    }

    /// A game on a day-per-move clock between `a` (attackers) and `b`: rated by default on a
    /// preset.
    pub async fn timed_game(&self, a: &Player, b: &Player, variant: &str) -> i64 {
        self.start_game(
            a,
            b,
            variant,
            json!({ "kind": "per_move", "seconds": 86_400 }),
        )
        .await
    }

    /// Registers A and B and starts an untimed `variant` game, A attacking; returns both and
    /// the game's id.
    pub async fn game_between_a_and_b(&self, variant: &str) -> (Player, Player, i64) {
        self.game_between_a_and_b_on(variant, json!({ "kind": "unlimited" }))
            .await
    }

    /// Registers A and B and starts a `variant` game on `clock`, A attacking; returns both and
    /// the game's id.
    pub async fn game_between_a_and_b_on(
        &self,
        variant: &str,
        clock: Value,
    ) -> (Player, Player, i64) {
        let a = self.register("A").await;
        let b = self.register("B").await;
        let game = self.start_game(&a, &b, variant, clock).await;
        (a, b, game)
    }

    /// Plays `moves` alternately, starting with the side to move; returns the last answer.
    pub async fn play_line(
        &self,
        game: i64,
        first: &Player,
        second: &Player,
        moves: &[&str],
    ) -> Value {
        let mut last = Value::Null;
        let start = self.get(&format!("/games/{game}"), &first.token).await["ply"]
            .as_u64()
            .unwrap();
        for (i, mv) in moves.iter().enumerate() {
            let who = if i % 2 == 0 { first } else { second };
            last = self
                .post(
                    &format!("/games/{game}/moves"),
                    &who.token,
                    json!({ "move": mv, "ply": start + i as u64 }),
                )
                .await;
        }
        last
    }
}

/// `response`, once the API's OpenAPI document has judged it (see `contract.rs`); a mismatch
/// fails the test. A stream's lines are judged as they are read.
pub async fn checked(method: &Method, path: &str, response: Response) -> Response {
    let status = response.status();
    let headers = response.headers().clone();
    let is_stream = headers
        .get("content-type")
        .is_some_and(|v| v.as_bytes().starts_with(b"application/x-ndjson"));
    let judge = |body: Option<&[u8]>| {
        let answer = Answer {
            status,
            headers: &headers,
            body,
        };
        if let Err(mismatch) = contract().check(method.as_str(), path, &answer) {
            panic!("the answer breaks the OpenAPI document: {mismatch}");
        }
    };
    let mut rebuilt = axum::http::Response::builder()
        .status(status)
        .version(response.version());
    *rebuilt.headers_mut().unwrap() = headers.clone();
    if is_stream {
        judge(None);
        let lines = response.bytes_stream().scan(Vec::new(), |pending, chunk| {
            if let Ok(bytes) = &chunk {
                pending.extend_from_slice(bytes);
                while let Some(end) = pending.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = pending.drain(..=end).collect();
                    if let Err(mismatch) = contract().check_stream_line(&line) {
                        panic!("a stream line breaks the OpenAPI document: {mismatch}");
                    }
                }
            }
            std::future::ready(Some(chunk))
        });
        return Response::from(rebuilt.body(reqwest::Body::wrap_stream(lines)).unwrap());
    }
    let body = response.bytes().await.unwrap();
    judge(Some(&body));
    Response::from(rebuilt.body(body).unwrap())
}

impl Drop for TestApp {
    fn drop(&mut self) {
        // Background tasks end with the test's runtime; nothing to wait for.
        self.app.take();
    }
}

/// An event as the API sends it (streams, webhooks): what these tests check.
pub fn wire(event: &Event) -> Value {
    serde_json::to_value(event).unwrap()
}
