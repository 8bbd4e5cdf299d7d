//! Building the serenity client (real Discord or a local fake) and running it.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serenity::all::{
    Client, ClientBuilder, GatewayError, GatewayIntents, GuildId, Http, HttpBuilder,
    SessionStartLimit, ShardManager,
};
use serenity::http::HttpError;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::backoff::Backoff;

use super::command_registration::Registration;
use super::delivery::{self, DeliverySettings, GateSettings};
use super::gateway_relay::GatewayRelay;
use super::interactions_endpoint::{InteractionRelay, RelayingFramework};
use super::{
    Data, DiscordError, DiscordState, answers, commands, components, error, mentions,
    session_start_limit,
};

/// Where the real Discord API lives; anything else is treated as a proxy or a fake.
const DISCORD_ORIGIN: &str = "https://discord.com";
/// The host serenity sends every request to while its rate limiter is on.
const DISCORD_HOST: &str = "discord.com";

/// How to connect the Discord front end.
#[derive(Debug, Clone)]
pub struct DiscordSettings {
    pub token: String,
    /// Base URL of the REST API, e.g. `https://discord.com/api` or `http://127.0.0.1:4000/api`.
    pub api_base: String,
    /// Register the commands in this guild only (instant) instead of globally.
    pub guild_id: Option<u64>,
    /// Whether this instance registers the commands (once per start, retried until done).
    pub register_commands: bool,
    /// The first wait of every retry (posts, registration, gateway), doubled each time.
    pub retry_base: Duration,
    /// The gateway shards this instance runs.
    pub shards: crate::config::ShardPlan,
    /// Run every shard of the count Discord recommends (`GET /gateway/bot`) instead of
    /// `shards`, read at each start of the gateway.
    pub shards_from_discord: bool,
    /// Every REST request outside an interaction's answer: timeout, invalid-request budget.
    pub gate: GateSettings,
    /// How the outbox is delivered: channels at once, how long refused access is retried.
    pub delivery: DeliverySettings,
    /// Where interactions received over HTTP reach this instance's framework.
    pub relay: InteractionRelay,
    /// A local server answering for discord.com (tests), reached with serenity's rate limiter
    /// on; `api_base` is then Discord's own.
    pub stand_in: Option<crate::config::DiscordStandIn>,
}

/// The origin (scheme, host, port) that requests go to, read off `discord.api_base`.
/// serenity builds `https://discord.com/api/v10/...` and swaps the origin for a proxy's.
pub fn api_origin(api_base: &str) -> Result<String, DiscordError> {
    let trimmed = api_base.trim().trim_end_matches('/');
    let origin = trimmed
        .strip_suffix("/api/v10")
        .or_else(|| trimmed.strip_suffix("/api"))
        .unwrap_or(trimmed);
    let has_scheme = origin.starts_with("http://") || origin.starts_with("https://");
    let host = origin.split_once("://").map(|(_, rest)| rest).unwrap_or("");
    if !has_scheme || host.is_empty() || host.contains('/') {
        return Err(DiscordError::BadApiBase(api_base.to_owned()));
    }
    Ok(origin.to_owned())
}

fn http_client(settings: &DiscordSettings) -> Result<Http, DiscordError> {
    rest_client(
        &settings.token,
        &settings.api_base,
        settings.gate.request_timeout,
        settings.stand_in.as_ref(),
    )
}

/// A REST client for `token` at `api_base` (or the stand-in for discord.com), every request
/// bounded by `request_timeout` (interaction answers by a longer one).
pub(super) fn rest_client(
    token: &str,
    api_base: &str,
    request_timeout: Duration,
    stand_in: Option<&crate::config::DiscordStandIn>,
) -> Result<Http, DiscordError> {
    let token = token.trim();
    if token.is_empty() {
        return Err(DiscordError::MissingToken);
    }
    let origin = api_origin(api_base)?;
    // No request may hang for ever, interaction answers included; the delivery layer's own
    // requests are bounded again, with their waits for the rate limiter, by its gate.
    let mut client = reqwest::Client::builder()
        .use_rustls_tls()
        .connect_timeout(request_timeout)
        .timeout(request_timeout.max(INTERACTION_REQUEST_TIMEOUT));
    if let Some(stand_in) = stand_in {
        if origin != DISCORD_ORIGIN {
            return Err(DiscordError::StandInWithApiBase(api_base.to_owned()));
        }
        let certificate = reqwest::Certificate::from_pem(stand_in.certificate_pem.as_bytes())
            .map_err(|e| DiscordError::HttpClient(format!("the stand-in's certificate: {e}")))?;
        client = client
            .resolve(DISCORD_HOST, stand_in.address)
            .add_root_certificate(certificate);
    }
    let client = client
        .build()
        .map_err(|e| DiscordError::HttpClient(e.to_string()))?;
    let builder = HttpBuilder::new(token).client(client);
    if origin == DISCORD_ORIGIN {
        return Ok(builder.build());
    }
    // serenity ignores the proxy while its rate limiter is on; a fake or proxy limits nothing.
    Ok(builder.proxy(origin).ratelimiter_disabled(true).build())
}

/// `plan`'s shards as serenity 0.12's `start_shard_range` reads a range: its end is the last
/// shard to start, not the first one after (it starts `end - start + 1` shards).
fn serenity_shard_range(plan: &crate::config::ShardPlan) -> std::ops::Range<u32> {
    let first = u32::from(plan.range.start);
    let last = u32::from(plan.range.end).saturating_sub(1).max(first);
    first..last
}

/// The longest any request may take, uploads of interaction answers included.
const INTERACTION_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest wait before connecting to the gateway again.
const MAX_RECONNECT_WAIT: Duration = Duration::from_secs(300);
/// How long stopping the gateway client may take before its tasks are left to the relay's
/// closing (which ends every connection to Discord at once).
const SHUTDOWN_WAIT: Duration = Duration::from_secs(10);

/// The running bot: keep it to stop it.
pub struct RunningBot {
    stop: watch::Sender<bool>,
    /// The shard manager of the client running now (a new client after each gateway end).
    current: Arc<Mutex<Option<Arc<ShardManager>>>>,
    supervisor: JoinHandle<()>,
    outbox: JoinHandle<()>,
    /// Stops the gateway once Discord refused the token over REST.
    revocation: JoinHandle<()>,
}

impl RunningBot {
    /// Closes the gateway connection and waits for the client and the outbox worker to stop.
    pub async fn shutdown(self) -> Result<(), DiscordError> {
        let _ = self.stop.send(true);
        let manager = lock(&self.current).clone();
        if let Some(manager) = manager {
            stop_shards(&manager).await;
        }
        // The supervisor stops its client on the stop signal; a client stuck in serenity (a
        // shard between restarts) must not hold the process: past the wait it is dropped, and
        // the relay it owned closes every connection to Discord.
        let mut supervisor = self.supervisor;
        if tokio::time::timeout(SHUTDOWN_WAIT, &mut supervisor)
            .await
            .is_err()
        {
            tracing::warn!("the Discord gateway client did not stop in {SHUTDOWN_WAIT:?}; dropped");
            supervisor.abort();
        }
        self.outbox.await?;
        self.revocation.abort();
        Ok(())
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Checks the token, then connects to Discord in the background: the gateway (commands and
/// buttons, restarted with back-off when it ends) and the outbox worker (posts).
pub async fn start(settings: DiscordSettings, data: Data) -> Result<RunningBot, DiscordError> {
    let http = Arc::new(http_client(&settings)?);
    check_token(&http).await?;
    let data = data.with_rest_gate(settings.gate);
    let status = data.status.clone();
    status.set(DiscordState::Connecting);
    let relay = GatewayRelay::start(
        status.shards().clone(),
        data.service.clone(),
        settings.stand_in.as_ref(),
    )
    .await?;
    let (stop, stop_rx) = watch::channel(false);
    let outbox = tokio::spawn(delivery::run(
        Arc::clone(&http),
        data.clone(),
        settings.delivery,
        stop_rx.clone(),
    ));
    let current = Arc::new(Mutex::new(None));
    let revocation = tokio::spawn(stop_gateway_when_revoked(
        data.rest_gate().revoked(),
        Arc::clone(&current),
    ));
    let registration = Registration::new(
        settings.register_commands,
        settings.guild_id.map(GuildId::new),
        settings.retry_base,
        stop_rx.clone(),
    );
    let supervisor = tokio::spawn(supervise(
        settings,
        data,
        relay,
        registration,
        Arc::clone(&current),
        stop_rx,
    ));
    Ok(RunningBot {
        stop,
        current,
        supervisor,
        outbox,
        revocation,
    })
}

/// A token Discord refused over REST is refused by the gateway too, at its next connection:
/// close it now rather than answer commands whose answers cannot be sent. (The delivery
/// layer has marked the front end failed, so the supervisor does not connect again.)
async fn stop_gateway_when_revoked(
    mut revoked: watch::Receiver<bool>,
    current: Arc<Mutex<Option<Arc<ShardManager>>>>,
) {
    if revoked.wait_for(|revoked| *revoked).await.is_err() {
        return;
    }
    let manager = lock(&current).clone();
    if let Some(manager) = manager {
        stop_shards(&manager).await;
    }
}

/// Asks every shard of `manager` to close, for at most `SHUTDOWN_WAIT`.
async fn stop_shards(manager: &ShardManager) {
    if tokio::time::timeout(SHUTDOWN_WAIT, manager.shutdown_all())
        .await
        .is_err()
    {
        tracing::warn!("the Discord shards did not close in {SHUTDOWN_WAIT:?}");
    }
}

/// A bad token is a clear error at start, not a bot that never answers. Other failures (Discord
/// briefly unreachable) are left to the gateway's retries.
pub(super) async fn check_token(http: &Http) -> Result<(), DiscordError> {
    match http.get_current_user().await {
        Ok(user) => {
            tracing::info!(bot = %user.name, id = user.id.get(), "Discord accepted the bot token");
            learn_application_id(http).await;
            Ok(())
        }
        Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(response)))
            if response.status_code.as_u16() == 401 =>
        {
            Err(DiscordError::InvalidToken)
        }
        Err(e) => {
            tracing::warn!("could not check the bot token yet: {e}");
            Ok(())
        }
    }
}

/// Follow-ups (the AI's answers to a command) go to the application's webhook, named by the
/// application's id, which Discord gives here (and in READY, which sets the gateway client's):
/// it is the bot user's id only for applications made since 2019, so it is never assumed.
async fn learn_application_id(http: &Http) {
    match http.get_current_application_info().await {
        Ok(application) => {
            tracing::debug!(application = application.id.get(), "Discord application id");
            http.set_application_id(application.id);
        }
        Err(e) => {
            tracing::warn!("could not read the application id yet (follow-ups wait for it): {e}")
        }
    }
}

/// Runs one gateway client after another until told to stop or a fatal error. Every client's
/// shards connect through `relay`, which stops a shard (or the front end) on a fatal close.
async fn supervise(
    settings: DiscordSettings,
    data: Data,
    relay: GatewayRelay,
    registration: Arc<Registration>,
    current: Arc<Mutex<Option<Arc<ShardManager>>>>,
    stop: watch::Receiver<bool>,
) {
    let status = data.status.clone();
    let mut ends = 0u32;
    while !*stop.borrow() {
        let result = match client(&settings, data.clone(), &registration).await {
            Ok(mut client) => {
                let manager = Arc::clone(&client.shard_manager);
                *lock(&current) = Some(Arc::clone(&manager));
                // A stop (or a refused token) that came while building never reached this
                // client.
                if *stop.borrow() || status.get().is_failed() {
                    return;
                }
                match shard_plan(&settings, &client.http).await {
                    Ok(GatewayPlan {
                        plan,
                        max_concurrency,
                        starts,
                    }) => {
                        let exhausted = starts.as_ref().and_then(|starts| {
                            session_start_limit::exhausted(starts, plan.range.len())
                        });
                        if let Some((reason, wait)) = exhausted {
                            let stop = stop.clone();
                            if session_start_limit::wait_for_reset(reason, wait, &status, stop)
                                .await
                            {
                                continue;
                            }
                            return;
                        }
                        let upstream = client.ws_url.lock().await.clone();
                        relay.prepare(upstream, max_concurrency, plan.range.clone());
                        *client.ws_url.lock().await = relay.url().to_owned();
                        let mut failed = relay.front_end_failed();
                        let mut stopping = stop.clone();
                        tokio::select! {
                            result = client.start_shard_range(
                                serenity_shard_range(&plan),
                                u32::from(plan.total),
                            ) => result.map_err(DiscordError::from),
                            error = failure(&mut failed) => {
                                // The relay logged the close and what to do.
                                status.set(DiscordState::Failed { error });
                                stop_shards(&manager).await;
                                return;
                            }
                            () = stopped(&mut stopping) => {
                                stop_shards(&manager).await;
                                return;
                            }
                        }
                    }
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        };
        // Interactions received over HTTP wait for the next client's session.
        settings.relay.forget();
        if *stop.borrow() || status.get().is_failed() {
            return;
        }
        if let Some(error) = fatal(&result) {
            tracing::error!("Discord front end stopped: {error}");
            status.set(DiscordState::Failed { error });
            return;
        }
        // A session that was up counts as a fresh start: its end waits the first back-off.
        ends = reconnect_attempt(ends, status.get() == DiscordState::Connected);
        let error = match result {
            Ok(()) => "the gateway connection ended".to_owned(),
            Err(e) => format!("the gateway connection failed: {e}"),
        };
        let wait = Backoff::new(settings.retry_base, MAX_RECONNECT_WAIT).wait(ends.min(16));
        tracing::warn!(?wait, "{error}; connecting again");
        status.set(DiscordState::Reconnecting { error });
        let mut stop = stop.clone();
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = stop.wait_for(|stop| *stop) => return,
        }
    }
}

/// The reason the relay stopped the whole front end, once it has.
async fn failure(failed: &mut watch::Receiver<Option<String>>) -> String {
    let reason = failed
        .wait_for(Option::is_some)
        .await
        .map(|reason| reason.clone().unwrap_or_default());
    match reason {
        Ok(reason) => reason,
        // The relay is gone only with the supervisor that owns it.
        Err(_) => std::future::pending().await,
    }
}

/// Resolves once the bot is told to stop.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

/// What one gateway client is to start, as `GET /gateway/bot` says it.
struct GatewayPlan {
    /// The configured shards, or every shard of the count Discord recommends now.
    plan: crate::config::ShardPlan,
    /// How many buckets of shards may identify at once (1 when Discord cannot be asked now).
    max_concurrency: u16,
    /// The day's session starts (`None` when Discord cannot be asked now).
    starts: Option<SessionStartLimit>,
}

/// The shards to start: the configured ones, or every shard of the count Discord recommends
/// now (a bot that grew gets more shards at its next gateway start); `max_concurrency` and the
/// day's session starts.
async fn shard_plan(settings: &DiscordSettings, http: &Http) -> Result<GatewayPlan, DiscordError> {
    let gateway = match http.get_bot_gateway().await {
        Ok(gateway) => Some(gateway),
        Err(e) if settings.shards_from_discord => return Err(e.into()),
        Err(e) => {
            tracing::warn!("could not read GET /gateway/bot (identifies one at a time): {e}");
            None
        }
    };
    let max_concurrency = gateway.as_ref().map_or(1, |g| {
        u16::try_from(g.session_start_limit.max_concurrency).unwrap_or(u16::MAX)
    });
    let starts = gateway.as_ref().map(|g| g.session_start_limit.clone());
    let Some(gateway) = gateway.filter(|_| settings.shards_from_discord) else {
        return Ok(GatewayPlan {
            plan: settings.shards.clone(),
            max_concurrency,
            starts,
        });
    };
    let total = u16::try_from(gateway.shards.max(1)).unwrap_or(u16::MAX);
    tracing::info!(
        shards = total,
        max_concurrency,
        "Discord's recommended shard count (discord.shard_count = \"auto\"): running all of them"
    );
    Ok(GatewayPlan {
        plan: crate::config::ShardPlan {
            range: 0..total,
            total,
        },
        max_concurrency,
        starts,
    })
}

/// The attempt number of the next reconnection: after a session that was up (`healthy`) the
/// count starts again, so a bot whose gateway drops once a day never waits the longest back-off.
fn reconnect_attempt(ends: u32, healthy: bool) -> u32 {
    if healthy { 1 } else { ends.saturating_add(1) }
}

/// The errors after which connecting again cannot help.
fn fatal(result: &Result<(), DiscordError>) -> Option<String> {
    let Err(DiscordError::Client(error)) = result else {
        return None;
    };
    match error.as_ref() {
        serenity::Error::Gateway(GatewayError::InvalidAuthentication) => Some(
            "Discord refused the bot token (gateway close 4004, authentication failed): \
             set a valid discord.token"
                .to_owned(),
        ),
        serenity::Error::Gateway(
            GatewayError::InvalidGatewayIntents | GatewayError::DisallowedGatewayIntents,
        ) => Some("Discord refused the gateway intents the bot asks for".to_owned()),
        _ => None,
    }
}

/// A new gateway client whose framework, once READY, marks the front end connected and has the
/// commands registered if this process is to (`command_registration`).
async fn client(
    settings: &DiscordSettings,
    data: Data,
    registration: &Arc<Registration>,
) -> Result<Client, DiscordError> {
    let http = http_client(settings)?;
    let registration = Arc::clone(registration);
    let mut commands = commands::all();
    // Every command is answered, or deferred, within its budget.
    answers::command::under_budget(&mut commands);
    let options = poise::FrameworkOptions {
        commands,
        on_error: |e| Box::pin(error::on_error(e)),
        event_handler: |framework, event| {
            Box::pin(async move {
                let data = framework.user_data;
                let http = &framework.serenity_context.http;
                super::server_lifecycle::on_event(http, event, data).await;
                if commands::privacy::on_event(framework.serenity_context, event, data).await {
                    return Ok(());
                }
                components::on_event(framework.serenity_context, event, data).await
            })
        },
        // Every reply pings nobody unless it names whom.
        allowed_mentions: Some(mentions::nobody()),
        // Who uses the bot in a guild is noted under each command's answer budget
        // (`answers::command`), not before it.
        // A player whose DMs were found closed is told so under their next command.
        post_command: |ctx| Box::pin(super::dms_closed_note::after_command(ctx)),
        ..Default::default()
    };
    let framework = poise::Framework::builder()
        .options(options)
        .setup(move |ctx, _ready, _framework| {
            Box::pin(async move {
                registration.on_ready(Arc::clone(&ctx.http), data.status.clone());
                Ok(data)
            })
        })
        .build();
    Ok(ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(RelayingFramework::new(framework, settings.relay.clone()))
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_origin_accepts_discord_and_local_fakes() {
        assert_eq!(
            api_origin("https://discord.com/api").unwrap(),
            "https://discord.com"
        );
        assert_eq!(
            api_origin("https://discord.com/api/v10/").unwrap(),
            "https://discord.com"
        );
        assert_eq!(
            api_origin("http://127.0.0.1:4000/api").unwrap(),
            "http://127.0.0.1:4000"
        );
        assert_eq!(
            api_origin("http://127.0.0.1:4000").unwrap(),
            "http://127.0.0.1:4000"
        );
    }

    #[test]
    fn api_origin_refuses_what_is_not_an_http_origin() {
        for bad in [
            "",
            "discord.com/api",
            "ftp://x/api",
            "http://",
            "http://host/prefix/api",
        ] {
            assert!(
                matches!(api_origin(bad), Err(DiscordError::BadApiBase(_))),
                "{bad:?} was accepted"
            );
        }
    }

    #[test]
    fn serenity_is_given_the_last_shard_as_the_end_of_the_range() {
        let plan = |range: std::ops::Range<u16>, total| crate::config::ShardPlan { range, total };
        assert_eq!(serenity_shard_range(&plan(0..1, 1)), 0..0);
        assert_eq!(serenity_shard_range(&plan(1..2, 2)), 1..1);
        assert_eq!(serenity_shard_range(&plan(4..8, 8)), 4..7);
    }

    #[test]
    fn the_back_off_starts_again_after_a_session_that_was_up() {
        assert_eq!(reconnect_attempt(0, false), 1);
        assert_eq!(reconnect_attempt(8, false), 9);
        assert_eq!(reconnect_attempt(8, true), 1);
        assert_eq!(reconnect_attempt(u32::MAX, false), u32::MAX);
    }

    #[test]
    fn an_empty_token_is_refused_before_connecting() {
        let settings = DiscordSettings {
            token: "  ".into(),
            api_base: "https://discord.com/api".into(),
            guild_id: None,
            register_commands: true,
            retry_base: Duration::from_secs(1),
            shards: crate::config::ShardPlan {
                range: 0..1,
                total: 1,
            },
            shards_from_discord: false,
            gate: GateSettings::default(),
            delivery: DeliverySettings {
                retry_base: Duration::from_secs(1),
                channels: 1,
                refused_access_retry: Duration::from_secs(600),
            },
            relay: InteractionRelay::default(),
            stand_in: None,
        };
        assert!(matches!(
            http_client(&settings),
            Err(DiscordError::MissingToken)
        ));
    }
}
