//! Several `taflbot` processes on one PostgreSQL database, as an operator runs them: racing
//! moves sent to both (one wins each ply), a move made on one reaching the other's event
//! stream, a timeout both schedulers see firing once, one instance killed (-9) under load
//! losing no acknowledged move, its pending AI turn played by the other, and an instance started
//! while another migrates waiting for it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use taflbot_test_support::pg_server;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};

/// How long anything here may take before the test fails loudly.
const WAIT: Duration = Duration::from_secs(60);

/// One `taflbot serve` process; killed when dropped.
struct Instance {
    child: Child,
    base: String,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Instance {
    /// Starts an instance on `database` and waits for its "listening" log line.
    fn start(database: &str, extra: &[(&str, &str)]) -> Instance {
        let (mut instance, log) = Instance::launch(database, extra);
        instance.wait_until_listening(log);
        instance
    }

    /// Starts an instance on `database`; its log lines arrive on the channel answered.
    fn launch(database: &str, extra: &[(&str, &str)]) -> (Instance, mpsc::Receiver<String>) {
        let mut command = Command::new(env!("CARGO_BIN_EXE_taflbot"));
        command
            .arg("serve")
            .env_remove("RUST_LOG")
            .env("TAFLBOT_DATABASE_URL", database)
            .env("TAFLBOT_HTTP_LISTEN", "127.0.0.1:0")
            .env("TAFLBOT_HTTP_RATE_LIMIT_PER_SECOND", "100000")
            .env("TAFLBOT_HTTP_RATE_LIMIT_BURST", "100000")
            .env("TAFLBOT_HTTP_REGISTRATION_PER_MINUTE", "100000")
            .env("TAFLBOT_HTTP_REGISTRATION_BURST", "100000")
            .env("TAFLBOT_GAMES_SCHEDULER_INTERVAL_MS", "100")
            // Games lost on time within a test's seconds.
            .env("TAFLBOT_GAMES_MIN_MOVE_CLOCK_SECS", "1")
            .env("TAFLBOT_HTTP_STREAM_KEEPALIVE_SECS", "1")
            .env("TAFLBOT_LOG_FORMAT", "json")
            .env("TAFLBOT_LOG_FILTER", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        for (key, value) in extra {
            command.env(key, value);
        }
        let mut child = command.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        let instance = Instance {
            child,
            base: String::new(),
        };
        (instance, rx)
    }

    /// Waits for the "listening" log line and takes the address it names.
    fn wait_until_listening(&mut self, log: mpsc::Receiver<String>) {
        let listening = log_line(&log, "an instance to listen", |entry, line| {
            entry["fields"]["addr"].is_string() && line.contains("listening")
        });
        let addr = listening["fields"]["addr"].as_str().unwrap_or_default();
        self.base = format!("http://{addr}/api/v1");
        // Keep draining the log so the instance never blocks on a full pipe.
        std::thread::spawn(move || while log.recv().is_ok() {});
    }

    fn kill_9(&mut self) {
        let _ = Command::new("kill")
            .args(["-9", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// The first JSON line of `log` that `wanted` picks, within [`WAIT`]; the test fails naming
/// `what` it waited for otherwise.
fn log_line(
    log: &mpsc::Receiver<String>,
    what: &str,
    wanted: impl Fn(&Value, &str) -> bool,
) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = match log.recv_timeout(left) {
            Ok(line) => line,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!("timed out after {WAIT:?} waiting for {what}")
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                panic!("the instance's log ended (it exited) while waiting for {what}")
            }
        };
        if let Ok(entry) = serde_json::from_str::<Value>(&line)
            && wanted(&entry, &line)
        {
            return entry;
        }
    }
}

struct Player {
    id: i64,
    token: String,
}

async fn post(
    client: &reqwest::Client,
    base: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    let mut request = client.post(format!("{base}{path}")).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

async fn get(client: &reqwest::Client, base: &str, path: &str, token: &str) -> Value {
    let response = client
        .get(format!("{base}{path}"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert!(
        response.status().is_success(),
        "GET {path}: {}",
        response.status()
    );
    response.json().await.unwrap()
}

async fn register(client: &reqwest::Client, base: &str, name: &str) -> Player {
    let (status, body) = post(client, base, "/players", None, json!({ "name": name })).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    Player {
        id: body["player"]["id"].as_i64().unwrap(),
        token: body["token"].as_str().unwrap().to_owned(),
    }
}

/// A game of `variant` between `a` (attackers) and `b`, with `clock`.
async fn game(
    client: &reqwest::Client,
    base: &str,
    a: &Player,
    b: &Player,
    variant: &str,
    clock: Value,
) -> i64 {
    let (status, challenge) = post(
        client,
        base,
        "/challenges",
        Some(&a.token),
        json!({ "opponent_id": b.id, "variant": variant, "side": "attackers", "clock": clock }),
    )
    .await;
    assert!(status.is_success(), "{challenge}");
    let id = challenge["challenge"]["id"].as_i64().unwrap();
    let (status, game) = post(
        client,
        base,
        &format!("/challenges/{id}/accept"),
        Some(&b.token),
        json!({}),
    )
    .await;
    assert!(status.is_success(), "{game}");
    game["id"].as_i64().unwrap()
}

async fn legal_moves(client: &reqwest::Client, base: &str, game: i64, token: &str) -> Vec<String> {
    let moves = get(client, base, &format!("/games/{game}/legal-moves"), token).await;
    moves["moves"]
        .as_array()
        .unwrap_or_else(|| panic!("no moves in {moves}"))
        .iter()
        .map(|m| {
            m.as_str()
                .map_or_else(|| m["move"].as_str().unwrap().to_owned(), str::to_owned)
        })
        .collect()
}

/// Reads an event stream's lines up to the first that satisfies `last` (included), failing
/// loudly after [`WAIT`] or if the stream ends first.
async fn lines_until(response: reqwest::Response, last: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut bytes = response.bytes_stream();
    let mut buffer = Vec::new();
    let mut lines = Vec::new();
    let found = tokio::time::timeout(WAIT, async {
        while let Some(chunk) = bytes.next().await {
            buffer.extend_from_slice(&chunk.unwrap());
            while let Some(end) = buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = buffer.drain(..=end).collect();
                let value: Value = serde_json::from_slice(&line).unwrap();
                let done = last(&value);
                lines.push(value);
                if done {
                    return true;
                }
            }
        }
        false
    })
    .await;
    match found {
        Ok(true) => lines,
        Ok(false) => panic!("the event stream ended first: {lines:#?}"),
        Err(_) => panic!("the awaited line did not come within {WAIT:?}: {lines:#?}"),
    }
}

/// The first event of a stream that satisfies `wanted`.
async fn wait_for_event(response: reqwest::Response, wanted: impl Fn(&Value) -> bool) -> Value {
    lines_until(response, wanted)
        .await
        .pop()
        .expect("lines_until ends with the line it waited for")
}

/// The events a stream replays before its first keepalive line.
async fn events_until_keepalive(response: reqwest::Response) -> Vec<Value> {
    let mut lines = lines_until(response, |line| line["keepalive"] == true).await;
    lines.pop();
    lines
}

/// Ann (attackers) and Bob, registered on `base_a` and `base_b`, and their game of Brandubh
/// with `clock`, made on `base_a`.
async fn ann_and_bob(
    client: &reqwest::Client,
    base_a: &str,
    base_b: &str,
    clock: Value,
) -> (Player, Player, i64) {
    let a = register(client, base_a, "Ann").await;
    let b = register(client, base_b, "Bob").await;
    let id = game(client, base_a, &a, &b, "brandubh", clock).await;
    (a, b, id)
}

/// Claims lapse after 2 s here, so a dead instance's jobs are taken over soon.
fn two_instances() -> (Instance, Instance) {
    let database = pg_server::database_url();
    let claims = [("TAFLBOT_GAMES_CLAIM_LEASE_SECS", "2")];
    let first = Instance::start(&database, &claims);
    let second = Instance::start(&database, &claims);
    (first, second)
}

#[tokio::test]
async fn racing_moves_sent_to_both_instances_are_accepted_once_per_ply() {
    let (one, two) = two_instances();
    let client = reqwest::Client::new();
    let (a, b, id) = ann_and_bob(
        &client,
        &one.base,
        &two.base,
        json!({ "kind": "unlimited" }),
    )
    .await;
    let mut ply = 0;
    while ply < 12 {
        let mover = if ply % 2 == 0 { &a } else { &b };
        let moves = legal_moves(&client, &one.base, id, &mover.token).await;
        if moves.len() < 2 {
            break; // the game ended, or one move is left: nothing to race
        }
        let path = format!("/games/{id}/moves");
        let (first, second) = tokio::join!(
            post(
                &client,
                &one.base,
                &path,
                Some(&mover.token),
                json!({ "move": moves[0], "ply": ply })
            ),
            post(
                &client,
                &two.base,
                &path,
                Some(&mover.token),
                json!({ "move": moves[1], "ply": ply })
            ),
        );
        let accepted = [&first, &second]
            .iter()
            .filter(|(status, _)| status.is_success())
            .count();
        assert_eq!(accepted, 1, "ply {ply}: {first:?} {second:?}");
        let refused = if first.0.is_success() {
            &second
        } else {
            &first
        };
        assert_eq!(refused.0, StatusCode::CONFLICT, "ply {ply}: {refused:?}");
        ply += 1;
    }
    assert!(ply >= 6, "only {ply} plies were raced");
    let view = get(&client, &two.base, &format!("/games/{id}"), &a.token).await;
    assert_eq!(view["ply"], ply, "{view}");
}

#[tokio::test]
async fn a_move_made_on_one_instance_reaches_the_others_event_stream() {
    let (one, two) = two_instances();
    let client = reqwest::Client::new();
    let (a, b, id) = ann_and_bob(
        &client,
        &one.base,
        &one.base,
        json!({ "kind": "unlimited" }),
    )
    .await;
    let stream = client
        .get(format!("{}/stream/events", two.base))
        .bearer_auth(&b.token)
        .send()
        .await
        .unwrap();
    assert!(stream.status().is_success());
    let mv = legal_moves(&client, &one.base, id, &a.token).await[0].clone();
    let (status, body) = post(
        &client,
        &one.base,
        &format!("/games/{id}/moves"),
        Some(&a.token),
        json!({ "move": mv, "ply": 0 }),
    )
    .await;
    assert!(status.is_success(), "{body}");
    let event = wait_for_event(stream, |e| e["kind"] == "move_played").await;
    assert_eq!(event["game_id"], id, "{event}");
}

#[tokio::test]
async fn a_timeout_both_schedulers_see_ends_the_game_once() {
    let (one, two) = two_instances();
    let client = reqwest::Client::new();
    let (a, b) = (
        register(&client, &one.base, "Ann").await,
        register(&client, &one.base, "Bob").await,
    );
    let stream = client
        .get(format!("{}/stream/events", two.base))
        .bearer_auth(&a.token)
        .send()
        .await
        .unwrap();
    let id = game(
        &client,
        &one.base,
        &a,
        &b,
        "brandubh",
        // Long enough for both moves below when the other instance tests load the machine
        // (with 1 s, a slow machine's game was over before the second move).
        json!({ "kind": "per_move", "seconds": 5 }),
    )
    .await;
    // Both have moved, so the game is lost on time rather than aborted.
    for (ply, mover) in [&a, &b].into_iter().enumerate() {
        let mv = legal_moves(&client, &one.base, id, &mover.token).await[0].clone();
        let (status, body) = post(
            &client,
            &two.base,
            &format!("/games/{id}/moves"),
            Some(&mover.token),
            json!({ "move": mv, "ply": ply }),
        )
        .await;
        assert!(status.is_success(), "{body}");
    }
    let ended = wait_for_event(stream, |e| e["kind"] == "game_ended").await;
    assert_eq!(ended["game_id"], id, "{ended}");
    // Once both schedulers have passed since, the game's stored events hold one ending.
    let heard_at = Instant::now();
    for instance in [&one, &two] {
        wait_for_a_scheduler_pass_since(&client, &instance.base, heard_at).await;
    }
    let stored = client
        .get(format!("{}/games/{id}/stream?since=0", one.base))
        .bearer_auth(&a.token)
        .send()
        .await
        .unwrap();
    let events = events_until_keepalive(stored).await;
    let endings = events.iter().filter(|e| e["kind"] == "game_ended").count();
    assert_eq!(endings, 1, "{events:#?}");
    let view = get(&client, &one.base, &format!("/games/{id}"), &a.token).await;
    assert_eq!(view["result"]["reason"], "timeout", "{view}");
}

/// Waits until the instance at `base` reports a scheduler pass after `since`.
async fn wait_for_a_scheduler_pass_since(client: &reqwest::Client, base: &str, since: Instant) {
    let deadline = Instant::now() + WAIT;
    loop {
        let health: Value = client
            .get(format!("{base}/health/ready"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let ago = health["checks"]["scheduler"]["last_pass_ms_ago"].as_u64();
        if ago.is_some_and(|ago| Duration::from_millis(ago) < since.elapsed()) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no scheduler pass at {base} within {WAIT:?}: {health}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Plays `game` between `a` and `b`, each move to the first instance of `bases` that answers
/// (the first may have been killed), until `plies` moves or the game's end; answers the moves
/// acknowledged, as (ply, move).
async fn play_through(
    client: reqwest::Client,
    bases: [String; 2],
    game: i64,
    a: Player,
    b: Player,
    plies: u32,
    acknowledged: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) -> Vec<(u32, String)> {
    let mut done = Vec::new();
    for ply in 0..plies {
        let mover = if ply % 2 == 0 { &a } else { &b };
        let mut answer = None;
        // Alternate instances while both live; after the kill only the second answers.
        for base in [&bases[(ply % 2) as usize], &bases[1]] {
            let Ok(moves) = client
                .get(format!("{base}/games/{game}/legal-moves"))
                .bearer_auth(&mover.token)
                .send()
                .await
            else {
                continue;
            };
            let moves: Value = moves.json().await.unwrap();
            let Some(mv) = moves["moves"].as_array().and_then(|m| m.first()).cloned() else {
                return done; // the game is over
            };
            let mv = mv
                .as_str()
                .map_or_else(|| mv["move"].as_str().unwrap().to_owned(), str::to_owned);
            let sent = client
                .post(format!("{base}/games/{game}/moves"))
                .bearer_auth(&mover.token)
                .json(&json!({ "move": mv, "ply": ply }))
                .send()
                .await;
            match sent {
                Ok(response) if response.status().is_success() => {
                    answer = Some(mv);
                    break;
                }
                // No answer, or an answer that is not an acknowledgement: the move may or may
                // not have landed; ask the survivor.
                _ => continue,
            }
        }
        match answer {
            Some(mv) => {
                done.push((ply + 1, mv));
                acknowledged.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            None => {
                // The move sent to the dying instance may have committed: the game says.
                let view: Value = client
                    .get(format!("{}/games/{game}", bases[1]))
                    .bearer_auth(&mover.token)
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                if view["ply"].as_u64() != Some(u64::from(ply) + 1) {
                    panic!("game {game}: ply {ply} was answered by neither instance: {view}");
                }
            }
        }
    }
    done
}

#[tokio::test]
async fn an_instance_killed_under_load_loses_no_acknowledged_move() {
    let (mut one, two) = two_instances();
    let client = reqwest::Client::new();
    let acknowledged = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut tasks = tokio::task::JoinSet::new();
    let mut games = Vec::new();
    for i in 0..8 {
        let a = register(&client, &one.base, &format!("A{i}")).await;
        let b = register(&client, &two.base, &format!("B{i}")).await;
        let id = game(
            &client,
            &one.base,
            &a,
            &b,
            "copenhagen",
            json!({ "kind": "unlimited" }),
        )
        .await;
        games.push((id, a.token.clone()));
        tasks.spawn(play_through(
            client.clone(),
            [one.base.clone(), two.base.clone()],
            id,
            a,
            b,
            40,
            acknowledged.clone(),
        ));
    }
    // Kill the first instance in the middle of the load, while its AI thinks about a turn.
    let deadline = Instant::now() + WAIT;
    while acknowledged.load(std::sync::atomic::Ordering::Relaxed) < 60 {
        assert!(Instant::now() < deadline, "the load did not get going");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let human = register(&client, &two.base, "Human").await;
    let stream = client
        .get(format!("{}/stream/events", two.base))
        .bearer_auth(&human.token)
        .send()
        .await
        .unwrap();
    // The AI attacks, so it moves first; level 5 thinks for 10 s.
    let (status, created) = post(
        &client,
        &one.base,
        "/challenges",
        Some(&human.token),
        json!({ "ai_level": 5, "variant": "copenhagen", "side": "defenders" }),
    )
    .await;
    assert!(status.is_success(), "{created}");
    let ai_game = created["game"]["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("no game in {created}"));
    one.kill_9();
    let killed = Instant::now();
    let mut played = Vec::new();
    while let Some(done) = tasks.join_next().await {
        played.push(done.unwrap());
    }
    // The dead instance's AI turn is claimed by the survivor once the claim lapses, and played.
    let ai_move = wait_for_event(stream, |e| {
        e["kind"] == "move_played" && e["game_id"] == ai_game
    })
    .await;
    assert_eq!(ai_move["data"]["ply"], 1, "{ai_move}");
    assert!(
        killed.elapsed() >= Duration::from_secs(2),
        "the move came before the dead instance's claim could lapse: {ai_move}"
    );
    let view = get(
        &client,
        &two.base,
        &format!("/games/{ai_game}"),
        &human.token,
    )
    .await;
    assert_eq!(view["ply"], 1, "the AI's turn was played once: {view}");
    let total: usize = played.iter().map(Vec::len).sum();
    assert!(total > 60, "moves went on after the kill ({total})");
    for ((id, token), acknowledged) in games.iter().zip(&played) {
        let view = get(&client, &two.base, &format!("/games/{id}"), token).await;
        let record: Vec<(u64, String)> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["ply"].as_u64().unwrap(),
                    m["move"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        for (ply, mv) in acknowledged {
            assert!(
                record.contains(&(u64::from(*ply), mv.clone())),
                "game {id}: the acknowledged move {ply}. {mv} is not in its record {record:?}"
            );
        }
    }
}

/// Posts a wrong API token to an instance's sign-in form, with the form token its page gives;
/// the answer's status.
async fn failed_sign_in(client: &reqwest::Client, base: &str) -> StatusCode {
    let web = base.trim_end_matches("/api/v1");
    let page = client.get(format!("{web}/")).send().await.unwrap();
    let cookies: Vec<String> = page
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let html = page.text().await.unwrap();
    let (cookie, form_token) =
        taflbot_test_support::signed_out_form(cookies.iter().map(String::as_str), &html);
    client
        .post(format!("{web}/login/token"))
        .header(reqwest::header::COOKIE, cookie)
        .form(&[("token", "tfl_not_a_token"), ("form_token", &form_token)])
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn registrations_and_failed_sign_ins_per_address_are_counted_by_both_instances_together() {
    let database = pg_server::database_url();
    let limits = [
        ("TAFLBOT_HTTP_REGISTRATION_PER_MINUTE", "1"),
        ("TAFLBOT_HTTP_REGISTRATION_BURST", "2"),
        ("TAFLBOT_HTTP_SIGN_IN_FAILURES_PER_MINUTE", "1"),
        ("TAFLBOT_HTTP_SIGN_IN_FAILURES_BURST", "2"),
    ];
    let one = Instance::start(&database, &limits);
    let two = Instance::start(&database, &limits);
    let client = reqwest::Client::new();

    // Two registrations in all: one on each instance, then neither takes a third.
    register(&client, &one.base, "Ann").await;
    register(&client, &two.base, "Bob").await;
    for base in [&one.base, &two.base] {
        let (status, body) = post(&client, base, "/players", None, json!({ "name": "Cy" })).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        assert_eq!(body["error"]["code"], "rate_limited", "{body}");
    }

    // Two failed sign-ins in all, then neither instance looks at a third.
    assert_eq!(
        failed_sign_in(&client, &one.base).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        failed_sign_in(&client, &two.base).await,
        StatusCode::FORBIDDEN
    );
    for base in [&one.base, &two.base] {
        assert_eq!(
            failed_sign_in(&client, base).await,
            StatusCode::TOO_MANY_REQUESTS
        );
    }
}

/// The PostgreSQL advisory lock a migrating instance holds (`store/src/migrations/migration_lock.rs`).
const MIGRATION_LOCK: i64 = 0x7461_666d;

/// An instance started while another migrates waits for it for as long as it takes, far past
/// its own lock deadline (200 ms here), saying so in its log every 10 s, and starts once the
/// migration is over (it used to exit 2 as soon as the lock deadline passed).
#[test]
fn an_instance_started_while_another_migrates_waits_for_it_then_starts() {
    let database = pg_server::database_url();
    let mut other = postgres::Client::connect(&database, postgres::NoTls).unwrap();
    other
        .batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))
        .unwrap();
    let (mut starting, log) = Instance::launch(
        &database,
        &[
            ("TAFLBOT_DATABASE_LOCK_TIMEOUT_MS", "200"),
            ("TAFLBOT_DATABASE_STATEMENT_TIMEOUT_MS", "300"),
        ],
    );

    let waiting = log_line(
        &log,
        "the starting instance to say it waits for the migration",
        |_, line| line.contains("waiting for another instance's schema migration"),
    );
    let waited = waiting["fields"]["waited_secs"].as_u64();
    assert!(waited >= Some(10), "{waiting}");
    assert!(
        starting.child.try_wait().unwrap().is_none(),
        "the starting instance exited"
    );
    let waiters: i64 = other
        .query_one(
            "SELECT COUNT(*) FROM pg_locks \
             WHERE locktype = 'advisory' AND NOT granted \
             AND classid = 0 AND CAST(objid AS BIGINT) = $1 AND objsubid = 1 \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            &[&MIGRATION_LOCK],
        )
        .unwrap()
        .get(0);
    assert_eq!(waiters, 1, "the starting instance still waits for the lock");

    other
        .batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"))
        .unwrap();
    starting.wait_until_listening(log);
}
