//! Start-up and shutdown: open (create, migrate) the store, build the games service, serve
//! HTTP, run the scheduler and the webhook outbox; on shutdown stop accepting, finish the
//! requests in flight, and stop the background tasks.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::config::{Config, ConfigError};
use crate::health::{DiscordState, DiscordStatus};
use crate::notify::DeliveryWorker;
use crate::service::{Clock, GamesService, MovePicker, ServiceError, SystemClock};
use crate::store::{PgTimeouts, Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("cannot start the Discord front end: {0}")]
    Discord(#[from] crate::discord::DiscordError),
    #[error("cannot open the database {path}: {source}")]
    Store { path: String, source: StoreError },
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Service(#[from] ServiceError),
}

/// What tests (or embedders) may swap.
pub struct AppOptions {
    pub clock: Arc<dyn Clock>,
    /// The AI; `None` refuses games against the AI.
    pub picker: Option<Arc<dyn MovePicker>>,
    /// Run the periodic scheduler (tests may call `run_due` by hand instead).
    pub scheduler: bool,
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            clock: Arc::new(SystemClock),
            picker: crate::ai_picker::default_picker(),
            scheduler: true,
        }
    }
}

pub struct RunningApp {
    /// Where the HTTP API listens (None when HTTP is off).
    pub addr: Option<SocketAddr>,
    pub service: GamesService,
    /// Whether the Discord front end is off, connected, or failing.
    pub discord_status: DiscordStatus,
    shutdown: watch::Sender<bool>,
    server: Option<JoinHandle<()>>,
    background: Vec<JoinHandle<()>>,
    /// The Discord front end, when a token is configured.
    discord: Option<crate::discord::RunningBot>,
}

impl RunningApp {
    pub async fn start(config: Config, options: AppOptions) -> Result<RunningApp, StartError> {
        let db = &config.database;
        let location = db.location()?;
        let store = Store::open_location(
            &location,
            db.readers,
            Duration::from_millis(db.busy_timeout_ms),
            PgTimeouts::from(db),
            db.max_batch,
        )
        .map_err(|source| StartError::Store {
            path: location.to_string(),
            source,
        })?;
        tracing::info!(database = %location, "store opened");
        crate::telemetry::handle();
        let service = GamesService::new(
            store,
            options.clock.clone(),
            config.games.clone(),
            config.webhooks.target_policy()?,
            options.picker.clone(),
        );
        let (shutdown, shutdown_rx) = watch::channel(false);
        let mut background = Vec::new();

        if options.scheduler {
            let s = service.clone();
            let rx = shutdown_rx.clone();
            let every = Duration::from_millis(config.games.scheduler_interval_ms);
            background.push(tokio::spawn(
                async move { s.scheduler().run(every, rx).await },
            ));
            // Servers that removed the bot: their grace periods end here, Discord on or off.
            let s = service.clone();
            let rx = shutdown_rx.clone();
            let grace = config.discord.removed_server_grace();
            background.push(tokio::spawn(async move {
                s.discord().run_removed_servers(grace, every, rx).await
            }));
        }
        {
            let s = service.clone();
            let rx = shutdown_rx.clone();
            background.push(tokio::spawn(async move { s.analysis().run(rx).await }));
        }
        {
            // Puzzles from analysed games: those analysed before, then each as it is done.
            let s = service.clone();
            let rx = shutdown_rx.clone();
            background.push(tokio::spawn(async move { s.puzzles().run(rx).await }));
        }
        if config.games.explorer_evaluation {
            // The engine's view of the positions the opening explorer is asked about.
            let s = service.clone();
            let rx = shutdown_rx.clone();
            background.push(tokio::spawn(async move {
                s.explorer().run_evaluations(rx).await
            }));
        }
        if config.webhooks.enabled {
            let worker = DeliveryWorker::new(service.clone(), config.webhooks.clone())?;
            let rx = shutdown_rx.clone();
            background.push(tokio::spawn(worker.run(rx)));
        }

        let discord_status = DiscordStatus::new(match config.discord.enabled_token() {
            Some(_) => DiscordState::Connecting,
            None => DiscordState::Off,
        });
        // Interactions received over HTTP reach the framework of the gateway client running.
        let relay = crate::discord::interactions_endpoint::InteractionRelay::default();
        let mut front_ends = crate::server::FrontEndRoutes::new();
        let public_key = config.discord.interactions_public_key.trim();
        if config.discord.enabled_token().is_some() && !public_key.is_empty() {
            let key = crate::discord::interactions_endpoint::PublicKey::parse(public_key).map_err(
                |e| {
                    StartError::Config(ConfigError::Invalid(format!(
                        "discord.interactions_public_key: {e}"
                    )))
                },
            )?;
            front_ends.push((
                crate::discord::interactions_endpoint::PATH,
                crate::discord::interactions_endpoint::endpoint(key, relay.clone()),
            ));
        }
        let (addr, server) = if config.http.enabled {
            let wanted = config.http.listen_addr()?;
            let listener =
                crate::server::listener::listen(wanted).map_err(|source| StartError::Listen {
                    addr: wanted.to_string(),
                    source,
                })?;
            let addr = listener.local_addr().map_err(|source| StartError::Listen {
                addr: wanted.to_string(),
                source,
            })?;
            let router = crate::server::router(
                service.clone(),
                config.http.clone(),
                shutdown_rx.clone(),
                crate::server::http::Ops {
                    discord: discord_status.clone(),
                    scheduler_every: options
                        .scheduler
                        .then(|| Duration::from_millis(config.games.scheduler_interval_ms)),
                },
                front_ends,
            );
            let limits = crate::server::listener::ConnectionLimits::fitted(
                config.http.max_connections,
                config.http.max_connections_per_address,
                Duration::from_millis(config.http.header_read_timeout_ms.max(1)),
            );
            // The accept loop gives each request its client's address, which the per-address
            // limits read.
            let server = tokio::spawn(crate::server::listener::serve(
                listener,
                router,
                limits,
                Arc::new(config.http.trusted_proxies()?),
                shutdown_rx.clone(),
            ));
            let site = config.http.site_url(Some(addr));
            tracing::info!(%addr, "HTTP listening: the web client at {site}/, the API at {site}/api/v1");
            (Some(addr), Some(server))
        } else {
            (None, None)
        };

        if config.mail.enabled() {
            let mail = &config.mail;
            let base_url = match mail.base_url.trim().trim_end_matches('/') {
                "" => config.http.site_url(addr),
                url => url.to_owned(),
            };
            let claim = Duration::from_millis(mail.timeout_ms)
                .saturating_mul(crate::notify::MAILS_PER_PASS)
                .saturating_add(Duration::from_secs(60));
            service.mail().enable(crate::service::mail::MailSettings {
                base_url,
                away_ms: minutes_ms(mail.away_minutes),
                max_per_hour: mail.max_per_hour,
                confirm_link_ms: minutes_ms(mail.confirm_link_hours.saturating_mul(60)),
                confirmations_per_day: mail.confirmations_per_day,
                max_attempts: mail.max_attempts.max(1),
                retry: crate::backoff::Backoff::new(
                    Duration::from_millis(mail.initial_backoff_ms),
                    Duration::from_millis(mail.max_backoff_ms),
                ),
                max_queued: mail.max_queued,
                claim_ms: i64::try_from(claim.as_millis()).unwrap_or(i64::MAX),
            });
            let worker = crate::notify::MailWorker::new(service.clone(), mail)?;
            let rx = shutdown_rx.clone();
            background.push(tokio::spawn(worker.run(rx)));
            tracing::info!("turn notices by mail: on");
        }

        // The Discord front end starts here when a token is configured.
        let discord = match config.discord.enabled_token() {
            Some(token) => {
                let settings = crate::discord::DiscordSettings {
                    token: token.to_owned(),
                    api_base: config.discord.api_base.clone(),
                    guild_id: config.discord.guild_id,
                    register_commands: config.discord.registers_commands()?,
                    retry_base: Duration::from_millis(config.discord.retry_base_ms.max(1)),
                    shards: config.discord.shard_plan()?,
                    shards_from_discord: config.discord.shard_count_from_discord(),
                    gate: crate::discord::GateSettings {
                        request_timeout: Duration::from_millis(config.discord.request_timeout_ms),
                        invalid_budget: config.discord.invalid_request_budget,
                        global_per_second: config.discord.global_requests_per_second,
                    },
                    delivery: crate::discord::DeliverySettings {
                        retry_base: Duration::from_millis(config.discord.retry_base_ms.max(1)),
                        channels: config.discord.delivery_channels,
                        refused_access_retry: Duration::from_secs(
                            config.discord.refused_access_retry_secs,
                        ),
                    },
                    relay,
                    stand_in: config.discord.stand_in.clone(),
                };
                if settings.shards_from_discord {
                    tracing::info!(
                        instance = %service.instance(),
                        "Discord gateway shards: every shard of Discord's recommended count"
                    );
                } else {
                    tracing::info!(
                        shards = ?settings.shards.range,
                        of = settings.shards.total,
                        instance = %service.instance(),
                        "Discord gateway shards of this instance"
                    );
                }
                // Sign-in links from /web point at the public address, else the one bound here.
                let web_base = match (config.http.public_url.trim().is_empty(), addr) {
                    (true, None) => None,
                    (_, bound) => Some(config.http.site_url(bound)),
                };
                let data =
                    crate::discord::Data::new(service.clone(), discord_status.clone(), web_base)
                        .with_answer_budget(Duration::from_millis(config.discord.defer_after_ms))
                        .with_removed_server_grace(config.discord.removed_server_grace())
                        .with_privacy_statement(config.discord.privacy_policy_url());
                Some(crate::discord::start(settings, data).await?)
            }
            None => {
                tracing::info!("no discord.token configured: Discord front end off");
                None
            }
        };

        Ok(RunningApp {
            addr,
            service,
            discord_status,
            shutdown,
            server,
            background,
            discord,
        })
    }

    /// `http://addr` of the HTTP API, if it runs.
    pub fn base_url(&self) -> Option<String> {
        self.addr.map(|a| format!("http://{a}"))
    }

    /// Tells long-lived tasks (streams, workers, front ends) that the app is stopping.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Stops accepting connections, lets requests in flight finish, stops the workers.
    pub async fn shutdown(self) {
        if let Some(discord) = self.discord
            && let Err(e) = discord.shutdown().await
        {
            tracing::warn!("the Discord front end did not stop cleanly: {e}");
        }
        let _ = self.shutdown.send(true);
        if let Some(server) = self.server {
            let _ = server.await;
        }
        for task in self.background {
            let _ = task.await;
        }
        tracing::info!("stopped");
    }
}

fn minutes_ms(minutes: u64) -> i64 {
    i64::try_from(minutes.saturating_mul(60_000)).unwrap_or(i64::MAX)
}
