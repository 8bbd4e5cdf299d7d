//! `taflbot serve`: run the service until Ctrl-C or SIGTERM.

use std::path::PathBuf;

use anyhow::Context;

use crate::app::{AppOptions, RunningApp};
use crate::config::Config;

#[derive(Debug, Clone, Default, clap::Args)]
pub struct ServeArgs {
    /// Config file (see config.example.toml); TAFLBOT_* variables override it.
    #[arg(long, short, env = "TAFLBOT_CONFIG")]
    pub config: Option<PathBuf>,
}

pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    // Without a subcommand clap did not parse the flags: read the variable ourselves.
    let path = args
        .config
        .clone()
        .or_else(|| std::env::var_os("TAFLBOT_CONFIG").map(PathBuf::from));
    let config = Config::load(path.as_deref())?;
    let _logs = crate::logging::init(&config.log);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let app = RunningApp::start(config, AppOptions::default()).await?;
        wait_for_stop().await;
        tracing::info!("shutting down: finishing requests in flight");
        app.shutdown().await;
        Ok(())
    })
}

async fn wait_for_stop() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
