//! Private stays private, over every public route: private games (finished and rated, one in
//! progress, one analysed while the puzzle miner ran) between two players, public games beside
//! them; then every GET route the OpenAPI document lists and every page the web router lists,
//! with every id and handle there is, signed out and as a third player. No answer may name a
//! private game, show a position it reached, or list its moves in order. The routes are read
//! from the document and the router, so a new public route is covered without editing this.

use std::collections::BTreeSet;
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::{CONTENT_TYPE, COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taflbot_test_support::eventually;

use crate::analysis::{done_event, quick_app, scripted_game};
use crate::common::{Player, TestApp};
use crate::explorer::{Ending, counts, finished_game};
use crate::web_sessions::{browserless, signed_in};

/// Brandubh openings only the private games play (no image of them under the board's
/// symmetries is played in public here).
const PRIVATE_FINISHED: [&str; 4] = ["d2-b2", "c4-c2", "f4-f2", "e4-e2"];
const PRIVATE_ACTIVE: [&str; 3] = ["d6-f6", "d5-e5", "b4-b6"];
const PUBLIC_LINE: [&str; 2] = ["d1-c1", "d3-c3"];

/// How long a live stream is read before what came is checked: its catch-up comes at once.
const STREAM_READ: Duration = Duration::from_millis(400);

/// What would show a private game: its id as a link or a field, a position it reached, or its
/// moves in order.
#[derive(Default)]
struct Secrets {
    games: Vec<i64>,
    positions: BTreeSet<String>,
    lines: Vec<String>,
}

impl Secrets {
    /// What of these `body` shows, if anything.
    fn found_in(&self, body: &str) -> Option<String> {
        for id in &self.games {
            for prefix in ["/games/", "\"game_id\":", "taflbot game "] {
                let marker = format!("{prefix}{id}");
                if body.match_indices(&marker).any(|(at, _)| {
                    !body[at + marker.len()..].starts_with(|c: char| c.is_ascii_digit())
                }) {
                    return Some(marker);
                }
            }
        }
        self.positions
            .iter()
            .chain(&self.lines)
            .find(|secret| body.contains(secret.as_str()))
            .cloned()
    }
}

/// A game between `a` (attackers) and `b` that only they see, with `moves` played.
async fn private_game(app: &TestApp, a: &Player, b: &Player, moves: &[&str]) -> i64 {
    let challenge = app
        .challenge(
            a,
            json!({ "opponent_id": b.id, "variant": "brandubh", "side": "attackers",
                    "private": true, "rated": true }),
        )
        .await;
    let game = app
        .post(
            &format!("/challenges/{challenge}/accept"),
            &b.token,
            json!({}),
        )
        .await;
    assert_eq!(game["private"], true, "{game}");
    let id = game["id"].as_i64().unwrap();
    app.play_line(id, a, b, moves).await;
    id
}

/// Every position private game `game` reached after its first move, and its first moves in
/// order in the ways answers write a line, read as its player `a` sees it.
async fn secrets_of(app: &TestApp, a: &Player, game: i64, secrets: &mut Secrets) {
    let record = app
        .send(
            Method::GET,
            &format!("/games/{game}/export"),
            Some(&a.token),
            None,
        )
        .await;
    assert_eq!(record.status(), StatusCode::OK);
    let (played, _) = tafl_engine::otg::read(&record.text().await.unwrap()).unwrap();
    let moves: Vec<String> = played.history().iter().map(|m| m.mv.to_string()).collect();
    assert!(moves.len() >= 2, "game {game} has a line to hide");
    let mut replay = tafl_engine::Game::new(played.rules().clone());
    for (i, report) in played.history().iter().enumerate() {
        replay.play(report.mv).unwrap();
        // The first position after one move may be every game's: from the second on, only
        // this game's line reaches it.
        if i >= 1 {
            secrets.positions.insert(replay.position().to_opentafl());
        }
    }
    for joiner in [" ", ",", "\",\"", ", "] {
        secrets.lines.push(moves[..2].join(joiner));
    }
    secrets.games.push(game);
}

/// `response`'s body as text: a live stream read for [`STREAM_READ`], anything else whole.
async fn body_of(what: &str, response: reqwest::Response) -> String {
    let live = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.starts_with("text/event-stream") || v.starts_with("application/x-ndjson")
        });
    let limit = if live {
        STREAM_READ
    } else {
        Duration::from_secs(30)
    };
    let deadline = tokio::time::Instant::now() + limit;
    let mut chunks = response.bytes_stream();
    let mut body = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, chunks.next()).await {
            Ok(Some(Ok(chunk))) => body.extend_from_slice(&chunk),
            Ok(Some(Err(_)) | None) => break,
            Err(_) if live => break,
            Err(_) => panic!("{what} did not answer within {limit:?}"),
        }
    }
    String::from_utf8_lossy(&body).into_owned()
}

/// `template` with each `{param}` filled by every value `values` gives it.
fn filled(template: &str, values: &dyn Fn(&str) -> Vec<String>) -> Vec<String> {
    let Some(open) = template.find('{') else {
        return vec![template.to_owned()];
    };
    let close = open + template[open..].find('}').unwrap();
    let name = &template[open + 1..close];
    let choices = values(name);
    assert!(
        !choices.is_empty(),
        "{template}: no values for `{name}`: say in public_privacy.rs what to try there"
    );
    choices
        .iter()
        .flat_map(|v| {
            filled(
                &format!("{}{v}{}", &template[..open], &template[close + 1..]),
                values,
            )
        })
        .collect()
}

#[tokio::test]
async fn no_public_route_shows_a_private_game_to_anyone_else() {
    let app = quick_app(20).await;
    let (a, b, analysed) = scripted_game(&app, true).await;
    let carol = app.register("Carol").await;
    let pia = app.register("Pia").await;
    let quinn = app.register("Quinn").await;

    // Private: a rated game finished, one in progress, one analysed (all before the miner's
    // pass below); public: one finished game, analysed after them.
    let mut events = app.service().events().subscribe();
    let finished = private_game(&app, &a, &b, &PRIVATE_FINISHED).await;
    app.post(&format!("/games/{finished}/resign"), &b.token, json!({}))
        .await;
    let active = private_game(&app, &a, &b, &PRIVATE_ACTIVE).await;
    let public = finished_game(&app, &pia, &quinn, &PUBLIC_LINE, Ending::AttackersWin).await;
    for (game, who) in [(analysed, &a), (public, &pia)] {
        let queued = app
            .call(
                Method::POST,
                &format!("/games/{game}/analysis"),
                Some(&who.token),
                None,
                StatusCode::ACCEPTED,
            )
            .await;
        done_event(&mut events, queued["id"].as_i64().unwrap()).await;
    }
    // The miner takes analysed games oldest first: once the public one is mined, it has been
    // offered the private one.
    let service = app.service().clone();
    eventually(Duration::from_secs(60), "the public game mined", || {
        let service = service.clone();
        async move {
            let mined = service
                .puzzles()
                .of_game(taflbot::domain::GameId(public))
                .await
                .ok()?;
            mined.mined.then_some(())
        }
    })
    .await;

    let mut secrets = Secrets::default();
    for game in [finished, active, analysed] {
        secrets_of(&app, &a, game, &mut secrets).await;
    }
    // The same marks of the public game must be found: the sweep reads real answers.
    let mut public_marks = Secrets::default();
    secrets_of(&app, &pia, public, &mut public_marks).await;

    // The explorer and the balance count the public game alone; the private opening is not
    // there from any side.
    let start = app.get("/explorer/brandubh", &carol.token).await;
    assert_eq!(counts(&start), [1, 1, 0, 0], "{start}");
    let private_opening = app
        .get(
            &format!(
                "/explorer/brandubh?moves={}",
                PRIVATE_FINISHED[..2].join(",")
            ),
            &carol.token,
        )
        .await;
    assert_eq!(counts(&private_opening)[0], 0, "{private_opening}");
    let balance = app.get("/explorer/balance", &carol.token).await;
    assert_eq!(
        counts(&balance["variants"][0]["overall"]),
        [1, 1, 0, 0],
        "{balance}"
    );

    // Every value each path parameter can take here.
    let handles: Vec<String> = {
        let mut handles = Vec::new();
        for p in [&a, &b, &carol, &pia] {
            handles.push(
                app.get("/me", &p.token).await["handle"]
                    .as_str()
                    .unwrap()
                    .to_owned(),
            );
        }
        handles
    };
    let ids: Vec<String> = (1..=public.max(active).max(finished).max(analysed) + 1)
        .map(|id| id.to_string())
        .collect();
    let values = |name: &str| -> Vec<String> {
        match name {
            "id" => ids.clone(),
            "handle" => handles.clone(),
            "variant" => vec!["brandubh".into(), "custom".into()],
            "annotation" => vec!["1".into()],
            "token" | "action" => vec!["x".into()],
            "name" => vec!["game.js".into()],
            _ => Vec::new(),
        }
    };

    // The API: every GET the document lists.
    let document = app.get("/openapi.json", &carol.token).await;
    let mut api_paths: Vec<String> = document["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, item)| item.get("get").is_some())
        // The document names the full path; the test client adds the prefix itself.
        .map(|(path, _)| path.strip_prefix("/api/v1").unwrap_or(path))
        .flat_map(|path| filled(path, &values))
        .collect();
    api_paths.sort();
    assert!(
        api_paths.len() > 50,
        "the document lists the API: {api_paths:?}"
    );
    let mut public_seen = false;
    for path in &api_paths {
        for token in [None, Some(carol.token.as_str())] {
            let response = app.send(Method::GET, path, token, None).await;
            let body = body_of(path, response).await;
            if let Some(secret) = secrets.found_in(&body) {
                panic!(
                    "GET /api/v1{path} (token: {}) shows a private game: `{secret}` in {body}",
                    token.is_some()
                );
            }
            public_seen |= public_marks.found_in(&body).is_some();
        }
    }
    assert!(
        public_seen,
        "the sweep finds the public game's marks in some answer"
    );

    // The web client: every page the router lists, signed out and as Carol.
    let (cookie, _) = signed_in(&app, &carol).await;
    let client = browserless();
    let page_paths: Vec<String> = taflbot::server::web::page_paths()
        .into_iter()
        .flat_map(|path| filled(path, &values))
        .collect();
    assert!(
        page_paths.len() > 30,
        "the router lists the pages: {page_paths:?}"
    );
    let mut public_page_seen = false;
    for path in &page_paths {
        for signed in [false, true] {
            let mut request = client.get(format!("{}{path}", app.base));
            if signed {
                request = request.header(COOKIE, &cookie);
            }
            let response = request.send().await.unwrap();
            let status = response.status();
            assert!(
                status != StatusCode::TOO_MANY_REQUESTS,
                "{path}: the visitors' limit stopped the sweep"
            );
            let body = body_of(path, response).await;
            if let Some(secret) = secrets.found_in(&body) {
                panic!(
                    "GET {path} (signed in: {signed}) shows a private game: `{secret}` in {body}"
                );
            }
            public_page_seen |= public_marks.found_in(&body).is_some();
        }
    }
    assert!(
        public_page_seen,
        "the sweep finds the public game's marks on some page"
    );
    // Its players still see it all.
    let theirs = app.get(&format!("/games/{finished}"), &b.token).await;
    assert_eq!(theirs["id"], finished, "{theirs}");
    let _: &Value = &theirs;
}
