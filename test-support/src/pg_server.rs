//! A real PostgreSQL server for the tests: `initdb` and `postgres` in a temporary directory on
//! a free port, started once per test process, with a fresh database for each caller of
//! [`database_url`]. It needs Debian's `postgresql` package (`.ci/run` installs it); without
//! it the tests that use it fail, they never skip. As root, the server runs as the `postgres`
//! user, since `initdb` refuses root. The server stops, and its directory goes, when the test
//! process ends (a watcher beside it waits for that).
//!
//! A test that freezes the server (`SIGSTOP`, [`PrivateServer::freeze`]) starts one of its own
//! with [`PrivateServer::start`], so the tests beside it in the same process are not frozen too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long the server may take to accept connections.
const START_TIMEOUT: Duration = Duration::from_secs(60);

#[derive(Clone)]
struct Server {
    port: u16,
    /// The cluster's data directory, where `postmaster.pid` names the server's process.
    data: PathBuf,
}

static SERVER: OnceLock<Result<Server, String>> = OnceLock::new();
static DATABASES: AtomicU32 = AtomicU32::new(0);

/// A new, empty database on the test server: `postgres://taflbot@127.0.0.1:<port>/<name>`.
/// Panics, saying why, when no server can be started.
pub fn database_url() -> String {
    // The blocking client cannot run on an async test's own thread.
    std::thread::spawn(create_database)
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn create_database() -> String {
    match SERVER.get_or_init(start) {
        Ok(server) => server.create_database(),
        Err(why) => panic!("the PostgreSQL test server did not start: {why}"),
    }
}

impl Server {
    fn url(&self, database: &str) -> String {
        format!("postgres://taflbot@127.0.0.1:{}/{database}", self.port)
    }

    fn create_database(&self) -> String {
        let name = format!(
            "t{}_{}",
            std::process::id(),
            DATABASES.fetch_add(1, Ordering::Relaxed)
        );
        let mut admin = postgres::Client::connect(&self.url("postgres"), postgres::NoTls)
            .unwrap_or_else(|e| panic!("cannot reach the PostgreSQL test server: {e}"));
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| panic!("cannot create the test database {name}: {e}"));
        self.url(&name)
    }

    /// The server's first process (from `postmaster.pid`), the parent of all the others.
    fn postmaster(&self) -> u32 {
        let pid_file = self.data.join("postmaster.pid");
        std::fs::read_to_string(&pid_file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", pid_file.display()))
            .lines()
            .next()
            .and_then(|line| line.trim().parse().ok())
            .unwrap_or_else(|| panic!("{} names no process", pid_file.display()))
    }
}

/// The processes whose parent is `parent`.
fn children_of(parent: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (command) state ppid ...`: the command may hold spaces, not a `)`.
            let ppid: u32 = stat
                .rsplit_once(')')?
                .1
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()?;
            (ppid == parent).then_some(pid)
        })
        .collect()
}

/// Sends `signal` (`STOP`, `CONT`) to `pids`; `false` when `kill` says one of them failed (a
/// process that ended meanwhile, say).
fn signal(signal: &str, pids: &[u32]) -> bool {
    let pids: Vec<String> = pids.iter().map(u32::to_string).collect();
    match Command::new("kill")
        .arg(format!("-{signal}"))
        .args(&pids)
        .status()
    {
        Ok(status) => status.success(),
        Err(e) => {
            // No panic here: this also runs while a failed test unwinds.
            eprintln!("cannot run kill -{signal} {pids:?}: {e}");
            false
        }
    }
}

/// A PostgreSQL server for one test alone, which it may freeze. It stops when the test process
/// ends, as the shared one does.
pub struct PrivateServer {
    server: Server,
}

impl PrivateServer {
    /// Starts a server of its own (a few seconds: `initdb`). Panics, saying why, when it cannot.
    pub fn start() -> PrivateServer {
        let server = std::thread::spawn(start)
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            .unwrap_or_else(|why| panic!("a private PostgreSQL test server did not start: {why}"));
        PrivateServer { server }
    }

    /// A new, empty database on this server.
    pub fn database_url(&self) -> String {
        let server = self.server.clone();
        std::thread::spawn(move || server.create_database())
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    }

    /// Stops every process of the server (`SIGSTOP`): connections stay open and nothing on
    /// them is answered, as with a server that hangs. It goes on when the guard is dropped,
    /// also when the test fails meanwhile.
    pub fn freeze(&self) -> Frozen {
        let postmaster = self.server.postmaster();
        // The postmaster first, so it starts no process after its children are listed.
        assert!(
            signal("STOP", &[postmaster]),
            "cannot stop the PostgreSQL test server ({postmaster})"
        );
        let mut pids = vec![postmaster];
        pids.extend(children_of(postmaster));
        let frozen = Frozen { pids };
        // A backend may end between its listing and the signal; the rest are stopped anyway.
        signal("STOP", &frozen.pids[1..]);
        frozen
    }
}

/// A frozen server's processes, sent `SIGCONT` when dropped.
#[must_use = "the server goes on as soon as this is dropped"]
pub struct Frozen {
    pids: Vec<u32>,
}

impl Drop for Frozen {
    fn drop(&mut self) {
        // Children first: the postmaster, going on, may act on them at once.
        signal("CONT", &self.pids[1..]);
        signal("CONT", &self.pids[..1]);
    }
}

/// The directory of `initdb` and `postgres`: `TAFLBOT_PG_BIN`, else Debian's newest
/// `/usr/lib/postgresql/<version>/bin`, else whatever `PATH` has.
fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TAFLBOT_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn program(bin: &Option<PathBuf>, name: &str) -> String {
    match bin {
        Some(dir) => dir.join(name).display().to_string(),
        None => name.to_owned(),
    }
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// `command` as the server's user: itself, or `postgres` through `runuser` when root.
fn as_server_user(root: bool, command: &[&str]) -> Command {
    if root {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).args(command);
        c
    } else {
        let mut c = Command::new(command[0]);
        c.args(&command[1..]);
        c
    }
}

fn start() -> Result<Server, String> {
    let bin = bin_dir();
    let root = is_root();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("taflbot-pg-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    if root {
        hand_to_postgres_user(&dir)?;
    }
    let data = dir.join("data");
    let initdb = program(&bin, "initdb");
    let data_arg = data.display().to_string();
    let out = as_server_user(
        root,
        &[
            &initdb,
            "-D",
            &data_arg,
            "-A",
            "trust",
            "-U",
            "taflbot",
            "-E",
            "UTF8",
            "--no-locale",
            "-N",
        ],
    )
    .output()
    .map_err(|e| {
        format!(
            "cannot run {initdb} ({e}): install PostgreSQL (Debian: apt-get install postgresql)"
        )
    })?;
    if !out.status.success() {
        return Err(format!(
            "initdb failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free port: {e}"))?
        .port();
    let postgres = program(&bin, "postgres");
    let log = dir.join("server.log");
    // The server, and a watcher that stops it and removes its directory once this test
    // process is gone (statics are never dropped, so nothing in-process could).
    let script = format!(
        "'{postgres}' -D '{data}' -p {port} -k '{dir}' -c listen_addresses=127.0.0.1 \
         -c max_connections=400 -c fsync=off -c synchronous_commit=off \
         -c full_page_writes=off >'{log}' 2>&1 & server=$!; \
         while [ -d /proc/{parent} ]; do sleep 1; done; \
         kill -INT $server; wait $server; rm -rf '{dir}'",
        data = data.display(),
        dir = dir.display(),
        log = log.display(),
        parent = std::process::id(),
    );
    as_server_user(root, &["sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start postgres: {e}"))?;
    let server = Server { port, data };
    let began = Instant::now();
    loop {
        match postgres::Client::connect(&server.url("postgres"), postgres::NoTls) {
            Ok(_) => return Ok(server),
            Err(e) if began.elapsed() > START_TIMEOUT => {
                let log = std::fs::read_to_string(&log).unwrap_or_default();
                return Err(format!(
                    "not accepting connections after {START_TIMEOUT:?}: {e}\n{log}"
                ));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// Makes `dir` the `postgres` user's (root only).
fn hand_to_postgres_user(dir: &Path) -> Result<(), String> {
    let out = Command::new("chown")
        .args(["postgres:postgres"])
        .arg(dir)
        .output()
        .map_err(|e| format!("cannot run chown: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "cannot give {} to the postgres user (does it exist? Debian's postgresql package \
             creates it): {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}
