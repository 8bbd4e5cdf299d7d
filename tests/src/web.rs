//! Browser tests' support: the real app on port 0, one chromedriver per test binary (headless
//! Chromium), a browser session per player, and waits that fail loudly.

#![allow(
    // Test support: a failed step fails the test, with the step named.
    clippy::unwrap_used,
    clippy::expect_used,
)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use taflbot::app::{AppOptions, RunningApp};
use taflbot::config::Config;
use taflbot::domain::{GameId, PlayerId};
use taflbot::service::{
    Clock, ClockSpec, GamesService, ManualClock, MovePicker, NewChallenge, Opponent, RulesChoice,
    SideChoice, SystemClock,
};

use crate::bot::init_logging;
use crate::world::FirstLegalMove;

/// How long a step may take before the test fails: generous for a loaded 2-core CI machine.
pub const WAIT: Duration = Duration::from_secs(20);

/// The app under test, with the stand-in AI and the scheduler off.
pub struct WebApp {
    pub app: RunningApp,
    pub base: String,
    pub clock: Arc<ManualClock>,
    _dir: tempfile::TempDir,
}

/// A registered player: id, handle and an API token.
pub struct TestPlayer {
    pub id: PlayerId,
    pub handle: String,
    pub token: String,
}

impl WebApp {
    pub async fn start() -> WebApp {
        WebApp::start_with(|_| {}).await
    }

    pub async fn start_with(tweak: impl FnOnce(&mut Config)) -> WebApp {
        init_logging();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut config = Config::default();
        config.database.path = dir.path().join("taflbot.db");
        config.http.listen = "127.0.0.1:0".into();
        config.http.anonymous_per_second = 10_000.0;
        config.http.anonymous_burst = 10_000;
        config.http.stream_keepalive_secs = 1;
        config.webhooks.enabled = false;
        // The limits on engine work have tests of their own; here a test may play at its pace.
        crate::games_without_engine_limits(&mut config);
        tweak(&mut config);
        let clock = Arc::new(ManualClock::new(SystemClock.now_ms()));
        let ai: Arc<dyn MovePicker> = Arc::new(FirstLegalMove);
        let app = RunningApp::start(
            config,
            AppOptions {
                clock: clock.clone(),
                picker: Some(ai),
                scheduler: false,
            },
        )
        .await
        .expect("the app starts");
        WebApp {
            base: app.base_url().expect("HTTP is on"),
            app,
            clock,
            _dir: dir,
        }
    }

    pub fn service(&self) -> &GamesService {
        &self.app.service
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn player(&self, name: &str) -> TestPlayer {
        let issued = self
            .service()
            .accounts()
            .register(name, None)
            .await
            .expect("a player registers");
        TestPlayer {
            id: issued.player.id,
            handle: issued.player.handle.as_str().to_owned(),
            token: issued.token,
        }
    }

    /// A one-time sign-in link for `player`.
    pub async fn login_link(&self, player: &TestPlayer) -> String {
        self.service()
            .credentials()
            .create_login_link(player.id, &self.base)
            .await
            .expect("a sign-in link")
            .url
    }

    /// A Brandubh game, `attackers` against `defenders`, no clock, public.
    pub async fn brandubh(&self, attackers: &TestPlayer, defenders: &TestPlayer) -> GameId {
        let challenge = self
            .service()
            .challenges()
            .create(
                attackers.id,
                NewChallenge {
                    opponent: Opponent::Player(defenders.id),
                    rules: RulesChoice::Variant("brandubh".into()),
                    side: SideChoice::Attackers,
                    clock: ClockSpec::Unlimited {},
                    context: None,
                    rated: Some(false),
                    private: false,
                },
            )
            .await
            .expect("the challenge is made");
        self.service()
            .challenges()
            .accept(defenders.id, challenge.challenge.id)
            .await
            .expect("the challenge is accepted")
            .id
    }

    /// Ada and Bob, and a Brandubh game between them (Ada attacks, and moves first).
    pub async fn ada_and_bob_at_brandubh(&self) -> (TestPlayer, TestPlayer, GameId) {
        let ada = self.player("Ada").await;
        let bob = self.player("Bob").await;
        let game = self.brandubh(&ada, &bob).await;
        (ada, bob, game)
    }

    /// Plays `text` for `player` in `game` through the service, as from another front end.
    pub async fn play(&self, player: &TestPlayer, game: GameId, text: &str) {
        let request = taflbot::service::MoveRequest {
            text: text.into(),
            ..Default::default()
        };
        self.service()
            .games()
            .play(player.id, game, request)
            .await
            .expect("the move is played");
    }

    /// The service's clock, for what a test may want to check against.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }
}

/// The one chromedriver of this test binary: its port. It is started on first use, and a
/// watcher ends it (and the browsers it started) when the test process exits.
fn chromedriver_port() -> u16 {
    static PORT: OnceLock<u16> = OnceLock::new();
    *PORT.get_or_init(start_chromedriver)
}

fn find_program(names: &[&str], env: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(env) {
        return Some(PathBuf::from(path));
    }
    names
        .iter()
        .map(Path::new)
        .find(|p| p.is_file())
        .map(Path::to_path_buf)
}

fn chromium() -> PathBuf {
    find_program(
        &[
            "/usr/bin/chromium",
            "/usr/bin/chromium-browser",
            "/usr/bin/google-chrome",
        ],
        "CHROME",
    )
    .unwrap_or_else(|| {
        panic!(
            "no Chromium found (looked for /usr/bin/chromium and $CHROME): the browser tests \
             need it; install Debian's `chromium` and `chromium-driver` (.ci/run does)"
        )
    })
}

fn start_chromedriver() -> u16 {
    let driver = find_program(&["/usr/bin/chromedriver"], "CHROMEDRIVER").unwrap_or_else(|| {
        panic!(
            "no chromedriver found (looked for /usr/bin/chromedriver and $CHROMEDRIVER): the \
             browser tests need it; install Debian's `chromium` and `chromium-driver` (.ci/run \
             does)"
        )
    });
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port for chromedriver");
    // chromedriver and its browsers in their own process group; the watcher ends the group as
    // soon as this test process is gone, passed or failed.
    let script = format!(
        "{} --port={port} --log-level=OFF >/dev/null 2>&1 & d=$!; \
         while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; kill -- -$$ 2>/dev/null; kill $d",
        driver.display(),
        pid = std::process::id()
    );
    // Never waited for: it outlives every test of the binary and ends with the process.
    #[allow(clippy::zombie_processes)]
    let _watcher = Command::new("setsid")
        .args(["sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts (setsid and sh are needed)");
    let deadline = std::time::Instant::now() + WAIT;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "chromedriver did not listen on port {port} within {WAIT:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    port
}

/// A headless Chromium window, `width` CSS pixels wide.
pub async fn browser(width: u32) -> Client {
    browser_with(width, &[]).await
}

/// A headless Chromium window whose system asks for dark pages (`prefers-color-scheme: dark`).
pub async fn dark_browser(width: u32) -> Client {
    browser_with(width, &["--force-dark-mode"]).await
}

async fn browser_with(width: u32, extra: &[&str]) -> Client {
    let port = tokio::task::spawn_blocking(chromedriver_port)
        .await
        .expect("chromedriver is up");
    let mut args = vec![
        "--headless=new".to_owned(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-dev-shm-usage".into(),
        "--no-first-run".into(),
        "--disable-extensions".into(),
        format!("--window-size={width},1000"),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({ "binary": chromium(), "args": args }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a Chromium session")
}

/// Waits for an element matching `css`; fails naming it and showing the page.
pub async fn wait_for(client: &Client, css: &str) -> fantoccini::elements::Element {
    match client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
    {
        Ok(element) => element,
        Err(e) => {
            let page = client.source().await.unwrap_or_default();
            panic!("no element {css:?} within {WAIT:?}: {e}\npage:\n{page}")
        }
    }
}

/// Clicks the element matching `css`, finding it again while a live update redraws it
/// (a stale element) or something covers it, until a deadline; fails naming it.
pub async fn click(client: &Client, css: &str) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match wait_for(client, css).await.click().await {
            Ok(()) => return,
            Err(e) if tokio::time::Instant::now() < deadline => {
                tracing::debug!(css, error = %e, "not clicked yet; finding it again");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("{css:?} could not be clicked within {WAIT:?}: {e}"),
        }
    }
}

/// The attribute `name` of the element matching `css`, found again while a live update
/// redraws it (a stale element), until a deadline; fails naming it.
pub async fn attribute(client: &Client, css: &str, name: &str) -> String {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match wait_for(client, css).await.attr(name).await {
            Ok(Some(value)) => return value,
            Ok(None) => panic!("{css:?} has no attribute {name:?}"),
            Err(e) if tokio::time::Instant::now() < deadline => {
                tracing::debug!(css, error = %e, "not read yet; finding it again");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("{css:?}'s {name:?} could not be read within {WAIT:?}: {e}"),
        }
    }
}

/// Marks the page now open, so that [`assert_not_reloaded`] can tell it is still the same one.
pub async fn mark_page(client: &Client) {
    client
        .execute("window.notReloaded = true", vec![])
        .await
        .expect("the page runs a script");
}

/// Fails when the page marked by [`mark_page`] was reloaded since (`who`: whose page).
pub async fn assert_not_reloaded(client: &Client, who: &str) {
    let same_page = client
        .execute("return window.notReloaded === true", vec![])
        .await
        .expect("the page runs a script");
    assert_eq!(
        same_page,
        serde_json::Value::Bool(true),
        "{who} page was reloaded"
    );
}

/// Waits until the text of the element matching `css` contains `text`.
pub async fn wait_for_text(client: &Client, css: &str, text: &str) -> String {
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut seen = String::new();
    while tokio::time::Instant::now() < deadline {
        if let Ok(element) = client.find(Locator::Css(css)).await {
            seen = element.text().await.unwrap_or_default();
            if seen.contains(text) {
                return seen;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{css:?} did not show {text:?} within {WAIT:?}; it showed {seen:?}")
}

/// Signs `client` in with a one-time link: opens it, presses the button, lands on my games.
pub async fn sign_in(client: &Client, link: &str) {
    client.goto(link).await.expect("the link opens");
    click(client, "#sign-in").await;
    wait_for(client, "header .who a[href^='/players/']").await;
}

/// Saves a screenshot as `docs/screenshots/NAME.png` when `TAFLBOT_SCREENSHOTS` names the folder.
pub async fn screenshot(client: &Client, name: &str) {
    if std::env::var_os("TAFLBOT_SCREENSHOTS").is_none() {
        return;
    }
    // From the top of the page, whatever a click scrolled to.
    client
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .expect("scroll to the top");
    screenshot_as_scrolled(client, name).await;
}

/// Saves a screenshot of the page where it is scrolled to, as [`screenshot`] does.
pub async fn screenshot_as_scrolled(client: &Client, name: &str) {
    let Some(dir) = std::env::var_os("TAFLBOT_SCREENSHOTS") else {
        return;
    };
    let png = client.screenshot().await.expect("a screenshot");
    // The repository keeps these: a quarter to a half of Chromium's bytes.
    let png = crate::screenshot_png::indexed(&png).unwrap_or(png);
    let dir = PathBuf::from(dir);
    let dir = if dir.is_relative() {
        // Relative to the repository, not to the tests crate cargo runs in.
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(dir)
    } else {
        dir
    };
    std::fs::create_dir_all(&dir).expect("the screenshot folder");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is written");
}

/// Waits until the tab's title contains `text`.
pub async fn wait_for_title(client: &Client, text: &str) -> String {
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut seen = String::new();
    while tokio::time::Instant::now() < deadline {
        seen = client.title().await.unwrap_or_default();
        if seen.contains(text) {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the title did not show {text:?} within {WAIT:?}; it showed {seen:?}")
}

/// Waits until the page's script `js` (a `return ...` statement) answers something other than
/// `null`, `false` or nothing, and returns it; `what` names the wait in the failure.
pub async fn wait_for_script(client: &Client, js: &str, what: &str) -> serde_json::Value {
    let deadline = tokio::time::Instant::now() + WAIT;
    while tokio::time::Instant::now() < deadline {
        match client.execute(js, vec![]).await {
            Ok(serde_json::Value::Null | serde_json::Value::Bool(false)) | Err(_) => {}
            Ok(answer) => return answer,
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let page = client.source().await.unwrap_or_default();
    panic!("{what}: not within {WAIT:?}\npage:\n{page}")
}
