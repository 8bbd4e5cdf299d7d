//! The whole application (store, games service, HTTP API) plus the Discord front end, running
//! against a fake Discord, on a temporary database file that survives restarts.
// A test harness: when the app cannot even start, the test must stop there, loudly.
#![allow(
    clippy::expect_used,
    reason = "test harness: a failed start fails the test with its reason"
)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tafl_engine::{Game, Move};
use taflbot::app::{AppOptions, RunningApp};
use taflbot::config::Config;
use taflbot::service::{Clock, ManualClock, MovePicker, SystemClock};

use crate::bot::init_logging;
use crate::fake_discord::{
    CommandOption, FakeDiscord, FakeUser, Recorded, RouteKind, SentInteraction,
};

/// How long a test waits for anything before failing loudly.
pub const WAIT: Duration = Duration::from_secs(30);

/// A deterministic, instant AI for tests: the first legal move.
pub struct FirstLegalMove;

impl MovePicker for FirstLegalMove {
    fn pick(&self, game: &Game, _level: u8) -> Option<Move> {
        game.legal_moves().first().copied()
    }
}

/// An AI that can be switched off: while off it finds no move, so its turns stay pending (as
/// after a crash in the middle of a turn) until the scheduler kicks them again.
#[derive(Default)]
pub struct SwitchableAi {
    off: std::sync::atomic::AtomicBool,
}

impl SwitchableAi {
    pub fn set_on(&self, on: bool) {
        self.off.store(!on, std::sync::atomic::Ordering::SeqCst);
    }
}

impl MovePicker for SwitchableAi {
    fn pick(&self, game: &Game, level: u8) -> Option<Move> {
        if self.off.load(std::sync::atomic::Ordering::SeqCst) {
            return None;
        }
        FirstLegalMove.pick(game, level)
    }
}

/// The app (with its Discord front end on), and the fake Discord it talks to.
pub struct World {
    pub fake: FakeDiscord,
    pub app: RunningApp,
    /// The service's clock: tests move it to reach deadlines (then call `run_due`).
    pub clock: Arc<ManualClock>,
    tweak: fn(&mut Config),
    ai: Arc<dyn MovePicker>,
    /// Keeps the temporary directory (and the database in it) alive.
    dir: tempfile::TempDir,
    pub http: reqwest::Client,
}

/// The tests in this module of the e2e binary run on PostgreSQL (`tests/tests/e2e/discord_postgres.rs`:
/// Discord tests included again from their own files).
const POSTGRES_MODULE: &str = "discord_postgres::";

/// On a PostgreSQL run, the database of the test running on this thread (libtest names each
/// test's thread after its path): made on first use, the same one after a restart.
fn postgres_database_of_this_test() -> Option<String> {
    let test = std::thread::current().name()?.to_owned();
    if !test.starts_with(POSTGRES_MODULE) {
        return None;
    }
    static DATABASES: Mutex<BTreeMap<String, String>> = Mutex::new(BTreeMap::new());
    let mut databases = DATABASES.lock().unwrap_or_else(|p| p.into_inner());
    Some(
        databases
            .entry(test)
            .or_insert_with(crate::pg_server::database_url)
            .clone(),
    )
}

/// The app's settings for a test: a temporary database, HTTP on a free port, Discord pointed at
/// the fake (standing in for discord.com, see [`FakeDiscord::connect`]).
fn config(fake: &FakeDiscord, db: PathBuf, tweak: fn(&mut Config)) -> Config {
    let mut config = Config::default();
    if let Some(url) = postgres_database_of_this_test() {
        config.database.url = url;
    }
    // As against Discord itself: serenity's rate limiter on, reading the fake's buckets.
    fake.connect(&mut config);
    config.database.path = db;
    config.http.listen = "127.0.0.1:0".to_owned();
    config.webhooks.enabled = false;
    // The limits on engine work have tests of their own; here a test may play at its pace.
    crate::games_without_engine_limits(&mut config);
    // Answers are deferred only after a second, not 500 ms: the suite runs on busy machines, and
    // most tests look at direct answers. The tests of the answer budget set their own.
    config.discord.defer_after_ms = 1_000;
    tweak(&mut config);
    config
}

async fn start_app(
    fake: &FakeDiscord,
    db: PathBuf,
    clock: Arc<ManualClock>,
    tweak: fn(&mut Config),
    ai: Arc<dyn MovePicker>,
) -> RunningApp {
    init_logging();
    // The scheduler is off: tests run it by hand (`service.run_due()`) after moving the clock.
    let options = AppOptions {
        clock,
        picker: Some(ai),
        scheduler: false,
    };
    RunningApp::start(config(fake, db, tweak), options)
        .await
        .expect("the app starts")
}

/// Fails the test, with the problems and everything recorded, if the fake found a problem.
fn assert_fake_clean(fake: &FakeDiscord) {
    let problems = fake.problems();
    assert!(
        problems.is_empty(),
        "fake Discord problems:\n{}\nrecorded:\n{}",
        problems
            .iter()
            .map(|p| format!("  * {p}"))
            .collect::<Vec<_>>()
            .join("\n"),
        fake.recorder().dump()
    );
}

impl World {
    /// Starts the fake, the app on a new database and the bot; returns once commands are registered.
    pub async fn start() -> World {
        World::start_with(|_| {}).await
    }

    /// Like [`World::start`], with some settings changed (kept across restarts).
    pub async fn start_with(tweak: fn(&mut Config)) -> World {
        World::start_with_ai(tweak, Arc::new(FirstLegalMove)).await
    }

    /// Like [`World::start_with`], with this AI (kept across restarts).
    pub async fn start_with_ai(tweak: fn(&mut Config), ai: Arc<dyn MovePicker>) -> World {
        let fake = FakeDiscord::start().await.expect("the fake Discord starts");
        let world = World::start_against_with_ai(fake, tweak, ai).await;
        world
            .fake
            .wait_for_sessions(1, WAIT)
            .await
            .expect("the bot connects to the gateway");
        world
            .fake
            .wait_for_commands(WAIT)
            .await
            .expect("the bot registers its commands");
        world
    }

    /// Starts the app against a fake the test prepared beforehand (scripted faults, refused
    /// IDENTIFYs...), and returns at once: the test waits for what it expects to happen.
    pub async fn start_against(fake: FakeDiscord, tweak: fn(&mut Config)) -> World {
        World::start_against_with_ai(fake, tweak, Arc::new(FirstLegalMove)).await
    }

    async fn start_against_with_ai(
        fake: FakeDiscord,
        tweak: fn(&mut Config),
        ai: Arc<dyn MovePicker>,
    ) -> World {
        let clock = Arc::new(ManualClock::new(SystemClock.now_ms()));
        let dir = tempfile::tempdir().expect("a temporary directory");
        let db = dir.path().join("taflbot.db");
        let app = start_app(&fake, db, Arc::clone(&clock), tweak, Arc::clone(&ai)).await;
        World {
            fake,
            app,
            clock,
            tweak,
            ai,
            dir,
            http: reqwest::Client::new(),
        }
    }

    /// The bot's answer to `interaction`; fails loudly, with everything recorded, on a timeout.
    pub async fn reply(&self, interaction: &SentInteraction) -> Recorded {
        self.fake
            .reply_to(interaction, WAIT)
            .await
            .expect("the bot answers the interaction")
    }

    /// `who` runs `/name` with `options` in `channel`; returns the bot's answer.
    pub async fn slash(
        &self,
        who: &FakeUser,
        channel: u64,
        name: &str,
        options: &[CommandOption],
    ) -> Recorded {
        let sent = self
            .fake
            .slash(who, channel, name, options)
            .expect("the fake sends the command");
        self.reply(&sent).await
    }

    /// Stops the bot and the app, then starts both again on the same database file.
    pub async fn restart(self) -> World {
        let World {
            fake,
            app,
            clock,
            tweak,
            ai,
            dir,
            http,
        } = self;
        app.shutdown().await;
        let sessions = fake.sessions();
        let db = dir.path().join("taflbot.db");
        let app = start_app(&fake, db, Arc::clone(&clock), tweak, Arc::clone(&ai)).await;
        fake.wait_for_sessions(sessions + 1, WAIT)
            .await
            .expect("the restarted bot connects again");
        World {
            fake,
            app,
            clock,
            tweak,
            ai,
            dir,
            http,
        }
    }

    /// `challenger` (attackers) challenges `opponent` to brandubh in `channel` and `opponent`
    /// accepts with the button; returns the game's id.
    pub async fn brandubh_game(
        &self,
        channel: u64,
        challenger: &FakeUser,
        opponent: &FakeUser,
    ) -> i64 {
        let challenge = self
            .slash(
                challenger,
                channel,
                "challenge",
                &[
                    CommandOption::user("opponent", opponent),
                    CommandOption::string("variant", "brandubh"),
                    CommandOption::string("side", "attackers"),
                ],
            )
            .await;
        let accept = challenge
            .button_starting_with("challenge:accept:")
            .expect("an Accept button");
        let message = challenge.message.as_ref().expect("the challenge message");
        let click = self
            .fake
            .click(opponent, message, &accept)
            .expect("the fake sends the click");
        let accepted = self.reply(&click).await;
        game_id_in(&accepted.text())
    }

    /// The player of a Discord user, as the service (and the HTTP API) knows it.
    pub async fn player_of(&self, user: &FakeUser) -> i64 {
        self.app
            .service
            .accounts()
            .player_for_discord_user(user.id, &user.name, &user.name)
            .await
            .expect("the player of a Discord user")
            .id
            .get()
    }

    /// The first post to `channel` after `mark` that Discord accepted; fails loudly after
    /// [`WAIT`], naming `what` it waited for.
    pub async fn accepted_post_after(&self, mark: usize, channel: u64, what: &str) -> Recorded {
        self.fake
            .recorder()
            .wait_for_after(mark, what, WAIT, |r| {
                r.kind
                    == RouteKind::ChannelMessage {
                        channel_id: channel,
                    }
                    && r.accepted()
            })
            .await
            .expect("the post arrives")
    }

    /// The first post to `channel` after `mark` that Discord accepted and whose text contains
    /// `needle`; fails loudly after [`WAIT`].
    pub async fn accepted_post_containing(
        &self,
        mark: usize,
        channel: u64,
        needle: &str,
    ) -> Recorded {
        let wanted = needle.to_owned();
        self.fake
            .recorder()
            .wait_for_after(
                mark,
                &format!("a post with {needle:?} in {channel}"),
                WAIT,
                move |r| {
                    r.kind
                        == RouteKind::ChannelMessage {
                            channel_id: channel,
                        }
                        && r.accepted()
                        && r.text().contains(&wanted)
                },
            )
            .await
            .expect("the post arrives")
    }

    /// Posts to `channel` the bot attempted after `mark`, accepted or not.
    pub fn channel_posts_after(&self, mark: usize, channel: u64) -> Vec<Recorded> {
        self.fake
            .recorder()
            .all()
            .into_iter()
            .skip(mark)
            .filter(|r| {
                r.kind
                    == RouteKind::ChannelMessage {
                        channel_id: channel,
                    }
            })
            .collect()
    }

    /// `user` plays `mv` at `ply` in `game` over the HTTP API, with a token of their own;
    /// answers the HTTP status.
    pub async fn http_move(&self, user: &FakeUser, game: i64, mv: &str, ply: u32) -> u16 {
        let player = self.player_of(user).await;
        let token = self
            .app
            .service
            .accounts()
            .issue_api_token(taflbot::domain::PlayerId(player), "test")
            .await
            .expect("a token for the player")
            .token;
        self.http
            .post(format!("{}/games/{game}/moves", self.api()))
            .bearer_auth(token)
            .json(&serde_json::json!({ "move": mv, "ply": ply }))
            .send()
            .await
            .expect("the HTTP API answers")
            .status()
            .as_u16()
    }

    /// The HTTP API's base URL, e.g. `http://127.0.0.1:4242/api/v1`.
    pub fn api(&self) -> String {
        format!("{}/api/v1", self.app.base_url().expect("the HTTP API runs"))
    }

    /// `GET /health` of this instance: its status code and body.
    pub async fn health(&self) -> (u16, serde_json::Value) {
        let response = self
            .http
            .get(format!("{}/health", self.api()))
            .send()
            .await
            .expect("/health answers");
        let status = response.status().as_u16();
        (status, response.json().await.expect("/health is JSON"))
    }

    /// Waits until the Discord outbox has nothing left to deliver (every post delivered or
    /// given up); fails loudly after [`WAIT`].
    pub async fn wait_for_outbox_drained(&self) {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let depth = self
                .app
                .service
                .discord()
                .outbox_depth()
                .await
                .expect("the outbox can be read");
            if depth == 0 {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "the Discord outbox still holds {depth} post(s) after {WAIT:?}\nrecorded:\n{}",
                self.fake.recorder().dump()
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Fails the test if the fake found a problem: a request that breaks Discord's contract,
    /// an answer of the fake that breaks its description, a route it does not serve.
    pub fn assert_clean(&self) {
        assert_fake_clean(&self.fake);
    }

    /// Stops the bot and the app, then fails the test if the fake found a problem (so every
    /// test that ends with `stop` is held to Discord's contract, shutdown included).
    pub async fn stop(self) {
        self.app.shutdown().await;
        assert_fake_clean(&self.fake);
    }
}

/// The number after "Game #" in a post.
pub fn game_id_in(text: &str) -> i64 {
    let rest = text
        .split("Game #")
        .nth(1)
        .unwrap_or_else(|| panic!("no game id in {text:?}"));
    rest.chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap_or_else(|e| panic!("no game id in {text:?}: {e}"))
}
