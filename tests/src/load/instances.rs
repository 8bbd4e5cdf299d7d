//! The bot under load: one instance on SQLite, or several on one PostgreSQL database, each
//! running one shard of as many, against the fake through its TLS stand-in with serenity's
//! rate limiter on (as the e2e suite runs it), with the real AI, the scheduler and the
//! production limits; several instances each get their share of Discord's global limit.

use taflbot::app::{AppOptions, RunningApp};

use super::{LoadError, LoadOptions};
use crate::fake_discord::FakeDiscord;

/// The running instances and the folder of their SQLite file.
pub struct Instances {
    pub apps: Vec<RunningApp>,
    _dir: tempfile::TempDir,
}

impl Instances {
    pub async fn start(fake: &FakeDiscord, options: &LoadOptions) -> Result<Instances, LoadError> {
        let dir = tempfile::tempdir()
            .map_err(|e| LoadError::Start(format!("no temporary directory: {e}")))?;
        let count = u16::try_from(options.instances)
            .map_err(|_| LoadError::Options("--instances is too large".into()))?;
        let mut apps = Vec::with_capacity(options.instances);
        for shard in 0..count {
            let mut config =
                crate::bot::shard_instance_config(fake, dir.path(), count, &shard.to_string());
            if let Some(url) = &options.database_url {
                config.database.url = url.clone();
            }
            // Several instances of one token share Discord's global limit: each gets its
            // share, as docs/discord.md tells operators to configure them.
            config.discord.global_requests_per_second =
                (config.discord.global_requests_per_second / u32::from(count)).max(1);
            let app = RunningApp::start(config, AppOptions::default())
                .await
                .map_err(|e| LoadError::Start(e.to_string()))?;
            apps.push(app);
        }
        Ok(Instances { apps, _dir: dir })
    }

    /// Posts still owed in the Discord outbox (the database is shared: one instance tells).
    pub async fn outbox_depth(&self) -> Result<u64, LoadError> {
        let Some(app) = self.apps.first() else {
            return Ok(0);
        };
        app.service
            .discord()
            .outbox_depth()
            .await
            .map_err(|e| LoadError::Service(e.to_string()))
    }

    pub async fn shutdown(self) {
        for app in self.apps {
            app.shutdown().await;
        }
    }
}
