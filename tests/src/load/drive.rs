//! The steady load: one interaction every 1/rate seconds (open loop: a slow bot does not slow
//! the crowd down), from members all over the servers: `/move` mostly (a legal move, by the
//! player whose turn it is, one at a time per game), also `/board`, `/games`, the game
//! buttons "Legal moves" and "Flip" on the game's last post, and now and then a `/challenge`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serde_json::Value;
use taflbot::domain::GameId;
use taflbot::service::GamesService;
use tokio::task::JoinSet;

use super::answers::Answers;
use super::crowd::GameSlot;
use super::rng::Dice;
use crate::fake_discord::{CommandOption, FakeDiscord, FakeError, FakeUser, SentInteraction};

/// How long a move's player waits for its board before giving up on it (the first answer is
/// judged at 3 s; this only frees the game for the next move).
const REPLY_WAIT: Duration = Duration::from_secs(30);

/// At most this many interactions waiting for their reply: past it the crowd is ahead of the
/// bot by far, and the run says so rather than growing without bound.
pub const MAX_IN_FLIGHT: usize = 20_000;

/// What one tick sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Move,
    Board,
    Games,
    Click,
    Challenge,
}

impl Action {
    /// Out of 100: 70 moves, 10 boards, 8 `/games`, 8 clicks, 4 challenges.
    fn drawn(dice: &mut Dice) -> Action {
        match dice.below(100) {
            0..70 => Action::Move,
            70..80 => Action::Board,
            80..88 => Action::Games,
            88..96 => Action::Click,
            _ => Action::Challenge,
        }
    }
}

/// What the driver counted besides the answers.
#[derive(Debug, Clone, Copy, Default)]
pub struct DriveCounts {
    pub moves: u64,
    /// Ticks dropped because [`MAX_IN_FLIGHT`] interactions were waiting.
    pub skipped: u64,
    /// Interactions the fake could not send (a bug of the driver or the fake).
    pub not_sent: u64,
}

/// Everything one interaction's task needs.
#[derive(Clone)]
pub struct Crowd {
    pub fake: Arc<FakeDiscord>,
    pub answers: Arc<Answers>,
    pub service: GamesService,
    pub slots: Arc<Vec<GameSlot>>,
}

impl Crowd {
    /// Sends one interaction `tick` drew; answers a task to wait on, if one was sent.
    fn tick(&self, dice: &mut Dice, tasks: &mut JoinSet<Result<bool, FakeError>>) {
        let slots = &self.slots;
        let slot_index = dice.below(slots.len());
        let Some(slot) = slots.get(slot_index) else {
            return;
        };
        let member = slot.members[dice.below(slot.members.len())].clone();
        let pick = dice.next();
        let crowd = self.clone();
        match Action::drawn(dice) {
            Action::Move => {
                // A player waits for their move's board before the next: a game whose move
                // is in flight gets a look at its board instead.
                let free = !slot.over.load(Ordering::Relaxed)
                    && slot
                        .busy
                        .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                        .is_ok();
                if free {
                    tasks.spawn(async move { crowd.play_a_move(slot_index, pick).await });
                } else {
                    tasks.spawn(async move { crowd.board(slot_index, &member).await });
                }
            }
            Action::Board => {
                tasks.spawn(async move { crowd.board(slot_index, &member).await });
            }
            Action::Games => {
                let channel = slot.channel;
                tasks.spawn(async move {
                    let sent = crowd.fake.slash(&member, channel, "games", &[]);
                    crowd.measured(sent, "/games").await.map(|_| false)
                });
            }
            Action::Click => {
                tasks.spawn(async move { crowd.click(slot_index, &member, pick).await });
            }
            Action::Challenge => {
                // Someone else of the same server, whose own games go on.
                let server = slot.server;
                let others: Vec<&GameSlot> = slots
                    .iter()
                    .filter(|s| s.server == server && s.id != slot.id)
                    .collect();
                let Some(other) = others.get(dice.below(others.len())) else {
                    tasks.spawn(async move { crowd.board(slot_index, &member).await });
                    return;
                };
                let opponent = other.members[0].clone();
                let channel = slot.channel;
                tasks.spawn(async move {
                    let options = [
                        CommandOption::user("opponent", &opponent),
                        CommandOption::string("variant", "brandubh"),
                    ];
                    let sent = crowd.fake.slash(&member, channel, "challenge", &options);
                    crowd.measured(sent, "/challenge").await.map(|_| false)
                });
            }
        }
    }

    /// Registers a measured interaction and waits for its reply (or gives up after
    /// [`REPLY_WAIT`]); answers the reply's message.
    async fn measured(
        &self,
        sent: Result<SentInteraction, FakeError>,
        label: &'static str,
    ) -> Result<Option<Value>, FakeError> {
        let sent = sent?;
        let rx = self.answers.expect(&sent, Some(label));
        Ok(match tokio::time::timeout(REPLY_WAIT, rx).await {
            Ok(Ok(reply)) => reply.message,
            _ => None,
        })
    }

    async fn board(&self, slot_index: usize, member: &FakeUser) -> Result<bool, FakeError> {
        let Some(slot) = self.slots.get(slot_index) else {
            return Ok(false);
        };
        self.board_of(slot, member).await
    }

    async fn click(
        &self,
        slot_index: usize,
        member: &FakeUser,
        pick: u64,
    ) -> Result<bool, FakeError> {
        let Some(slot) = self.slots.get(slot_index) else {
            return Ok(false);
        };
        let message = slot
            .last_message
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        let verb = if pick.is_multiple_of(2) {
            "legal"
        } else {
            "flip"
        };
        let button = format!("game:{verb}:{}", slot.id);
        let has_button = message
            .as_ref()
            .is_some_and(|m| m.to_string().contains(&button));
        match message {
            Some(message) if has_button => {
                let sent = self.fake.click(member, &message, &button);
                let label = if verb == "legal" {
                    "Legal moves"
                } else {
                    "Flip"
                };
                self.measured(sent, label).await.map(|_| false)
            }
            _ => self.board(slot_index, member).await,
        }
    }

    /// The player to move plays a legal move; answers whether a move was sent.
    async fn play_a_move(&self, slot_index: usize, pick: u64) -> Result<bool, FakeError> {
        let Some(slot) = self.slots.get(slot_index) else {
            return Ok(false);
        };
        let result = self.try_move(slot, pick).await;
        slot.busy.store(false, Ordering::Release);
        result
    }

    async fn try_move(&self, slot: &GameSlot, pick: u64) -> Result<bool, FakeError> {
        let games = self.service.games();
        let game = GameId(slot.id);
        let (Ok(view), Ok(legal)) = (
            games.game(None, game).await,
            self.service.games().legal_moves(game, None).await,
        ) else {
            return Ok(false);
        };
        if !view.status.is_active() || legal.is_empty() {
            slot.over.store(true, Ordering::Relaxed);
            return Ok(false);
        }
        let seat = match view.side_to_move {
            Some(taflbot::domain::Side::Attackers) => &view.attackers,
            Some(taflbot::domain::Side::Defenders) => &view.defenders,
            None => return Ok(false),
        };
        // The AI's turn: the player looks at the board meanwhile.
        let Some(member) = seat
            .discord_user_id
            .and_then(|id| slot.members.iter().find(|m| m.id == id))
        else {
            let member = slot.members[0].clone();
            return self.board_of(slot, &member).await;
        };
        let index = usize::try_from(pick % u64::try_from(legal.len()).unwrap_or(1)).unwrap_or(0);
        let options = [
            CommandOption::string("move", &legal[index]),
            CommandOption::integer("game", slot.id),
        ];
        let sent = self.fake.slash(member, slot.channel, "move", &options);
        let message = self.measured(sent, "/move").await?;
        if let Some(message) = message {
            *slot.last_message.lock().unwrap_or_else(|p| p.into_inner()) = Some(message);
        }
        Ok(true)
    }

    async fn board_of(&self, slot: &GameSlot, member: &FakeUser) -> Result<bool, FakeError> {
        let options = [CommandOption::integer("game", slot.id)];
        let sent = self.fake.slash(member, slot.channel, "board", &options);
        self.measured(sent, "/board").await.map(|_| false)
    }

    /// Drives for `secs` at `rate` interactions a second; `progress` is called every
    /// `progress_every` with the counts so far.
    pub async fn drive(
        &self,
        rate: f64,
        secs: u64,
        seed: u64,
        progress_every: Duration,
        progress: &dyn Fn(&DriveCounts),
    ) -> DriveCounts {
        let mut dice = Dice::seeded(seed);
        let mut counts = DriveCounts::default();
        let mut tasks = JoinSet::new();
        let period = Duration::from_secs_f64(1.0 / rate.max(0.001));
        let start = tokio::time::Instant::now();
        let end = start + Duration::from_secs(secs);
        let mut due = start;
        let mut next_progress = start + progress_every;
        while due < end {
            tokio::time::sleep_until(due).await;
            due += period;
            while let Some(done) = tasks.try_join_next() {
                note(&mut counts, done);
            }
            if tasks.len() >= MAX_IN_FLIGHT {
                counts.skipped += 1;
                continue;
            }
            self.tick(&mut dice, &mut tasks);
            if tokio::time::Instant::now() >= next_progress {
                next_progress += progress_every;
                progress(&counts);
            }
        }
        while let Some(done) = tasks.join_next().await {
            note(&mut counts, done);
        }
        counts
    }
}

fn note(counts: &mut DriveCounts, done: Result<Result<bool, FakeError>, tokio::task::JoinError>) {
    match done {
        Ok(Ok(true)) => counts.moves += 1,
        Ok(Ok(false)) => {}
        Ok(Err(e)) => {
            counts.not_sent += 1;
            tracing::warn!("an interaction was not sent: {e}");
        }
        Err(e) => {
            counts.not_sent += 1;
            tracing::warn!("an interaction's task failed: {e}");
        }
    }
}
