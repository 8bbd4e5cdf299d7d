//! The crowd: servers with a role, two channels (one with permission overwrites), and members;
//! then the games, started the way members start them (a challenge accepted with its button,
//! `/play` against the AI).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::LoadError;
use super::answers::Answers;
use crate::fake_discord::permissions::{
    DEFAULT_EVERYONE_PERMISSIONS, OverwriteTarget, VIEW_CHANNEL,
};
use crate::fake_discord::{CommandOption, FakeDiscord, FakeUser, Recorded};

/// How long the set-up waits for any one reply.
const SETUP_REPLY_WAIT: Duration = Duration::from_secs(60);

/// Discord's ADD_REACTIONS: denied in each server's second channel, so interactions there carry
/// permissions computed through overwrites (the bot needs none of it).
const ADD_REACTIONS: u64 = 1 << 6;

/// The variant every game plays: small boards, quick to draw.
const VARIANT: &str = "brandubh";

/// One server of the crowd.
#[derive(Debug, Clone)]
pub struct Server {
    pub role: u64,
    pub channels: Vec<u64>,
}

/// Who plays a planned game.
#[derive(Debug, Clone)]
pub enum Players {
    /// Two members: the challenger takes the attackers.
    Members {
        challenger: FakeUser,
        opponent: FakeUser,
    },
    /// One member against the AI at a level.
    Ai { member: FakeUser, level: u8 },
}

/// A game to start, where.
#[derive(Debug, Clone)]
pub struct PlannedGame {
    pub server: usize,
    pub channel: u64,
    pub players: Players,
}

/// A game under way, as the driver needs it.
#[derive(Debug)]
pub struct GameSlot {
    pub id: i64,
    pub server: usize,
    pub channel: u64,
    /// Its human players.
    pub members: Vec<FakeUser>,
    /// The last message of the game the driver saw (its buttons are clicked).
    pub last_message: Mutex<Option<Value>>,
    /// A move of it is in flight (one at a time, as a player waits for the board).
    pub busy: std::sync::atomic::AtomicBool,
    /// Over: no more moves.
    pub over: std::sync::atomic::AtomicBool,
}

/// Makes `servers` servers and plans `games` games over them, the first `ai_games` against the
/// AI at `ai_level`.
pub fn build(
    fake: &FakeDiscord,
    servers: usize,
    games: usize,
    ai_games: usize,
    ai_level: u8,
) -> (Vec<Server>, Vec<PlannedGame>) {
    let servers: Vec<Server> = (0..servers)
        .map(|i| {
            let guild = fake.new_guild(DEFAULT_EVERYONE_PERMISSIONS);
            let role = fake.new_role_in(guild, "players", VIEW_CHANNEL);
            let channels = vec![
                fake.new_channel_in(guild, &format!("tafl-{i}")),
                fake.new_channel_in(guild, &format!("games-{i}")),
            ];
            fake.add_overwrite(channels[1], OverwriteTarget::Role(role), 0, ADD_REACTIONS);
            fake.add_overwrite(channels[1], OverwriteTarget::Everyone, 0, ADD_REACTIONS);
            Server { role, channels }
        })
        .collect();
    let member = |server: &Server, name: String| {
        let user = fake.new_user(&name);
        fake.give_role(&user, server.role);
        user
    };
    let planned = (0..games)
        .map(|g| {
            let index = g % servers.len();
            let server = &servers[index];
            let channel = server.channels[(g / servers.len()) % server.channels.len()];
            let players = if g < ai_games {
                Players::Ai {
                    member: member(server, format!("solo{g}")),
                    level: ai_level,
                }
            } else {
                Players::Members {
                    challenger: member(server, format!("a{g}")),
                    opponent: member(server, format!("b{g}")),
                }
            };
            PlannedGame {
                server: index,
                channel,
                players,
            }
        })
        .collect();
    (servers, planned)
}

/// Sends what `sent` builds and waits for its reply (not measured).
async fn reply(
    answers: &Answers,
    sent: Result<crate::fake_discord::SentInteraction, crate::fake_discord::FakeError>,
    what: &str,
) -> Result<Recorded, LoadError> {
    let sent = sent?;
    let rx = answers.expect(&sent, None);
    match tokio::time::timeout(SETUP_REPLY_WAIT, rx).await {
        Ok(Ok(reply)) => Ok(reply),
        _ => Err(LoadError::Setup(format!(
            "no reply to {what} within {SETUP_REPLY_WAIT:?}"
        ))),
    }
}

/// The number after "Game #" in a text.
pub fn game_id_in(text: &str) -> Option<i64> {
    let rest = text.split("Game #").nth(1)?;
    rest.chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .ok()
}

/// Starts one planned game through Discord; answers its slot.
async fn start(
    fake: &FakeDiscord,
    answers: &Answers,
    plan: PlannedGame,
) -> Result<GameSlot, LoadError> {
    let variant = CommandOption::string("variant", VARIANT);
    let attackers = CommandOption::string("side", "attackers");
    let (started, members) = match &plan.players {
        Players::Members {
            challenger,
            opponent,
        } => {
            let options = [
                CommandOption::user("opponent", opponent),
                variant,
                attackers,
            ];
            let sent = fake.slash(challenger, plan.channel, "challenge", &options);
            let challenge = reply(answers, sent, "a /challenge").await?;
            let accept = challenge
                .button_starting_with("challenge:accept:")
                .ok_or_else(|| {
                    LoadError::Setup(format!("no Accept button under {:?}", challenge.text()))
                })?;
            let message = challenge
                .message
                .clone()
                .ok_or_else(|| LoadError::Setup("the challenge stored no message".into()))?;
            let click = fake.click(opponent, &message, &accept);
            let accepted = reply(answers, click, "an Accept").await?;
            (accepted, vec![challenger.clone(), opponent.clone()])
        }
        Players::Ai { member, level } => {
            let options = [
                variant,
                CommandOption::integer("level", i64::from(*level)),
                attackers,
            ];
            let sent = fake.slash(member, plan.channel, "play", &options);
            let started = reply(answers, sent, "a /play").await?;
            (started, vec![member.clone()])
        }
    };
    let text = started.text();
    let id = game_id_in(&text)
        .ok_or_else(|| LoadError::Setup(format!("no game started: the bot said {text:?}")))?;
    Ok(GameSlot {
        id,
        server: plan.server,
        channel: plan.channel,
        members,
        last_message: Mutex::new(started.message.clone()),
        busy: false.into(),
        over: false.into(),
    })
}

/// Starts every planned game, `at_once` at a time; `progress` hears every tenth.
pub async fn start_games(
    fake: &Arc<FakeDiscord>,
    answers: &Arc<Answers>,
    planned: Vec<PlannedGame>,
    at_once: usize,
    progress: &dyn Fn(&str),
) -> Result<Vec<GameSlot>, LoadError> {
    let total = planned.len();
    let gate = Arc::new(Semaphore::new(at_once.max(1)));
    let mut tasks = JoinSet::new();
    for plan in planned {
        let (fake, answers, gate) = (Arc::clone(fake), Arc::clone(answers), Arc::clone(&gate));
        tasks.spawn(async move {
            let _slot = gate.acquire_owned().await;
            start(&fake, &answers, plan).await
        });
    }
    let mut slots = Vec::with_capacity(total);
    while let Some(done) = tasks.join_next().await {
        let slot = done.map_err(|e| LoadError::Setup(format!("a set-up task failed: {e}")))??;
        slots.push(slot);
        if slots.len().is_multiple_of((total / 10).max(1)) {
            progress(&format!("set-up: {} of {total} games started", slots.len()));
        }
    }
    slots.sort_by_key(|s| s.id);
    Ok(slots)
}
