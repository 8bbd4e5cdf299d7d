//! Two instances on one database (two services on one SQLite file, as two processes would
//! share it, and on one PostgreSQL database): each job is done by one of them, and taken over
//! when its claim lapses.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use tafl_engine::{Game, Move};
use tokio::sync::watch;

use crate::config::GamesConfig;
use crate::domain::{GameId, PlayerId};
use crate::store::rows;
use crate::store::{Store, StoreError};
use crate::webhook_target::TargetPolicy;
use crate::{
    ClockSpec, GamesService, ManualClock, MovePicker, MovePlayed, MoveRequest, NewChallenge,
    Opponent, RulesChoice, ServiceError, SideChoice,
};

const LEASE_SECS: u64 = 30;

/// Plays the first legal move, counting its turns; the first `held` turns wait for a word.
pub(super) struct Picker {
    turns: AtomicUsize,
    thinking: Mutex<Option<mpsc::Sender<()>>>,
    go: Mutex<Option<mpsc::Receiver<()>>>,
}

impl Picker {
    pub(super) fn quick() -> Arc<Picker> {
        Arc::new(Picker {
            turns: AtomicUsize::new(0),
            thinking: Mutex::new(None),
            go: Mutex::new(None),
        })
    }

    /// A picker whose first turn tells `thinking` and waits for `go`.
    fn held() -> (Arc<Picker>, mpsc::Receiver<()>, mpsc::Sender<()>) {
        let (thinking_tx, thinking) = mpsc::channel();
        let (go, go_rx) = mpsc::channel();
        let picker = Arc::new(Picker {
            turns: AtomicUsize::new(0),
            thinking: Mutex::new(Some(thinking_tx)),
            go: Mutex::new(Some(go_rx)),
        });
        (picker, thinking, go)
    }
}

impl MovePicker for Picker {
    fn pick(&self, game: &Game, _level: u8) -> Option<Move> {
        self.turns.fetch_add(1, Ordering::SeqCst);
        if let Some(thinking) = self.thinking.lock().unwrap().take() {
            let _ = thinking.send(());
            if let Some(go) = self.go.lock().unwrap().take() {
                let _ = go.recv_timeout(Duration::from_secs(30));
            }
        }
        game.legal_moves().into_iter().next()
    }
}

/// The database both instances share.
pub(super) enum Db {
    Sqlite(tempfile::TempDir),
    Postgres(String),
}

impl Db {
    pub(super) fn sqlite() -> Db {
        Db::Sqlite(tempfile::tempdir().unwrap())
    }

    fn postgres() -> Db {
        Db::Postgres(crate::pg_test_server::database_url())
    }

    fn open(&self) -> Store {
        match self {
            Db::Sqlite(dir) => {
                Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 8).unwrap()
            }
            Db::Postgres(url) => Store::open_postgres(url, 2, 8).unwrap(),
        }
    }
}

/// A challenge to a Brandubh game against `opponent`, the challenger on `side`, a day a move.
fn brandubh(opponent: Opponent, side: SideChoice) -> NewChallenge {
    NewChallenge {
        opponent,
        rules: RulesChoice::Variant("brandubh".into()),
        side,
        clock: ClockSpec::PerMove { seconds: 86_400 },
        context: None,
        rated: None,
        private: false,
    }
}

/// A Brandubh game of `player`, on `side`, against the AI at level 1 (a day a move).
pub(super) async fn game_against_the_ai(
    service: &GamesService,
    player: PlayerId,
    side: SideChoice,
) -> GameId {
    let created = service
        .challenges()
        .create(player, brandubh(Opponent::Ai { level: 1 }, side))
        .await
        .unwrap();
    created
        .game
        .expect("a game against the AI starts at once")
        .id
}

pub(super) fn service(db: &Db, clock: &Arc<ManualClock>, picker: Arc<Picker>) -> GamesService {
    let store = db.open();
    GamesService::new(
        store,
        clock.clone(),
        GamesConfig {
            claim_lease_secs: LEASE_SECS,
            ..GamesConfig::default()
        },
        TargetPolicy::new(&[]).unwrap(),
        Some(picker),
    )
}

async fn ai_idle(service: &GamesService) {
    let (_keep, mut never) = watch::channel(false);
    tokio::time::timeout(
        Duration::from_secs(30),
        service.analysis().wait_for_ai_turns(&mut never),
    )
    .await
    .expect("the AI turns ended within 30 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_turn_one_instance_claimed_is_left_to_it_until_the_claim_lapses() {
    ai_turn_claimed_by_one_instance(Db::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_an_ai_turn_one_instance_claimed_is_left_to_it_until_the_claim_lapses() {
    ai_turn_claimed_by_one_instance(Db::postgres()).await;
}

async fn ai_turn_claimed_by_one_instance(db: Db) {
    let clock = Arc::new(ManualClock::new(1_000));
    let (slow, thinking, go) = Picker::held();
    let other = Picker::quick();
    let a = service(&db, &clock, slow.clone());
    let b = service(&db, &clock, other.clone());
    let player = a.accounts().register("p", None).await.unwrap().player.id;
    // The AI attacks, so it moves first: instance a takes the turn and thinks.
    let game = game_against_the_ai(&a, player, SideChoice::Defenders).await;
    thinking
        .recv_timeout(Duration::from_secs(30))
        .expect("instance a thinks about the AI's turn");

    // Instance b's scheduler sees the AI to move, and leaves the claimed turn alone.
    b.scheduler().run_due().await.unwrap();
    ai_idle(&b).await;
    assert_eq!(other.turns.load(Ordering::SeqCst), 0, "b thought too");

    // Instance a is gone (it never answers); once its claim lapses, b plays the turn.
    clock.advance_ms((LEASE_SECS * 1000 + 1) as i64);
    b.scheduler().run_due().await.unwrap();
    ai_idle(&b).await;
    assert_eq!(other.turns.load(Ordering::SeqCst), 1);
    assert_eq!(b.games().game(Some(player), game).await.unwrap().ply, 1);

    // Were a to come back, its move for the old ply is refused: the turn was played once.
    go.send(()).unwrap();
    ai_idle(&a).await;
    assert_eq!(a.games().game(Some(player), game).await.unwrap().ply, 1);
}

#[tokio::test]
async fn a_webhook_delivery_goes_to_one_instance_and_to_another_once_the_claim_lapses() {
    webhook_delivery_claimed_by_one_instance(Db::sqlite()).await;
}

#[tokio::test]
async fn on_postgresql_a_webhook_delivery_goes_to_one_instance_then_another_once_the_claim_lapses()
{
    webhook_delivery_claimed_by_one_instance(Db::postgres()).await;
}

async fn webhook_delivery_claimed_by_one_instance(db: Db) {
    let clock = Arc::new(ManualClock::new(1_000));
    let a = service(&db, &clock, Picker::quick());
    let b = service(&db, &clock, Picker::quick());
    let player = a.accounts().register("p", None).await.unwrap().player.id;
    a.store()
        .write(move |c| {
            rows::insert_webhook(c, player, "http://hooks.example/p", "secret", 1_000)?;
            rows::insert_event(c, &mut rows::test_event(player))
        })
        .await
        .unwrap();
    assert_eq!(a.webhooks().due_deliveries(10).await.unwrap().len(), 1);
    assert!(
        b.webhooks().due_deliveries(10).await.unwrap().is_empty(),
        "b sends what a has claimed"
    );
    clock.advance_ms((LEASE_SECS * 1000 + 1) as i64);
    assert_eq!(
        b.webhooks().due_deliveries(10).await.unwrap().len(),
        1,
        "a's lapsed claim is taken over"
    );
}

#[tokio::test]
async fn a_discord_post_is_claimed_by_one_instance() {
    discord_post_claimed_by_one_instance(Db::sqlite()).await;
}

#[tokio::test]
async fn on_postgresql_a_discord_post_is_claimed_by_one_instance() {
    discord_post_claimed_by_one_instance(Db::postgres()).await;
}

async fn discord_post_claimed_by_one_instance(db: Db) {
    let clock = Arc::new(ManualClock::new(1_000));
    let a = service(&db, &clock, Picker::quick());
    let b = service(&db, &clock, Picker::quick());
    let player = a.accounts().register("p", None).await.unwrap().player.id;
    a.store()
        .write(move |c| {
            let mut event = rows::test_event(player);
            rows::insert_event(c, &mut event)?;
            rows::insert_outbox_post(c, event.id, 42, 0, None)?;
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    let (mine, _) = a.discord().claim_due_posts().await.unwrap();
    assert_eq!(mine.len(), 1);
    let (theirs, next) = b.discord().claim_due_posts().await.unwrap();
    assert!(theirs.is_empty(), "b posts what a has claimed");
    assert!(next.is_some(), "b knows when the claim ends");
}

/// Two players' game, started on `service`: `a` attacks.
async fn game_between(service: &GamesService, a: PlayerId, b: PlayerId) -> GameId {
    let created = service
        .challenges()
        .create(a, brandubh(Opponent::Player(b), SideChoice::Attackers))
        .await
        .unwrap();
    service
        .challenges()
        .accept(b, created.challenge.id)
        .await
        .unwrap()
        .id
}

/// Two instances on `db` and a game between two players (attackers, defenders) started on
/// the first.
async fn a_game_on_two_instances(db: &Db) -> (GamesService, GamesService, [PlayerId; 2], GameId) {
    let clock = Arc::new(ManualClock::new(1_000));
    let a = service(db, &clock, Picker::quick());
    let b = service(db, &clock, Picker::quick());
    let attacker = a.accounts().register("att", None).await.unwrap().player.id;
    let defender = a.accounts().register("def", None).await.unwrap().player.id;
    let game = game_between(&a, attacker, defender).await;
    (a, b, [attacker, defender], game)
}

/// `game` as stored, replayed by the engine, with its stored position.
async fn replayed(service: &GamesService, game: GameId) -> (Game, String) {
    let view = service.games().game(None, game).await.unwrap();
    let mut engine = Game::new(tafl_engine::Rules::from_opentafl(&view.rules).unwrap());
    for m in &view.moves {
        engine
            .play(Move::parse(&m.mv, engine.rules().dim()).unwrap())
            .unwrap();
    }
    assert_eq!(view.ply as usize, view.moves.len());
    (engine, view.position)
}

/// The legal moves in `game` as stored.
async fn legal(service: &GamesService, game: GameId) -> Vec<String> {
    let (engine, _) = replayed(service, game).await;
    engine
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

async fn first_legal(service: &GamesService, game: GameId) -> String {
    legal(service, game).await.remove(0)
}

async fn play(
    service: &GamesService,
    player: PlayerId,
    game: GameId,
    text: &str,
) -> Result<MovePlayed, ServiceError> {
    let request = MoveRequest {
        text: text.into(),
        ..MoveRequest::default()
    };
    service.games().play(player, game, request).await
}

/// Plays the first legal move of `player` in `game` through `service`.
async fn first_legal_move(service: &GamesService, player: PlayerId, game: GameId) -> MovePlayed {
    let text = first_legal(service, game).await;
    play(service, player, game, &text).await.unwrap()
}

/// The stored position of `game` is the one its stored moves lead to.
async fn assert_position_is_its_moves(service: &GamesService, game: GameId) {
    let (engine, stored) = replayed(service, game).await;
    assert_eq!(stored, engine.position().to_opentafl());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_through_one_instance_after_anothers_is_decided_on_the_stored_game() {
    moved_in_by_both(Db::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_a_move_through_one_instance_after_anothers_is_decided_on_the_stored_game() {
    moved_in_by_both(Db::postgres()).await;
}

/// Each instance caches the engine games it moved in; a move is still decided on the game as
/// stored, whichever instance moved last.
async fn moved_in_by_both(db: Db) {
    let (a, b, [attacker, defender], game) = a_game_on_two_instances(&db).await;

    // Instance a caches the engine game as its move left it: the defenders to move at ply 1.
    assert_eq!(first_legal_move(&a, attacker, game).await.ply, 1);
    let defenders_moves = legal(&a, game).await;
    // Instance b moves for the defenders: what a cached is now behind.
    let played = play(&b, defender, game, &defenders_moves[0]).await.unwrap();
    assert_eq!(played.ply, 2);
    // Another defenders' move would be legal on what a saw last; the stored game says
    // otherwise.
    let refused = play(&a, defender, game, &defenders_moves[1]).await;
    assert!(
        matches!(refused, Err(ServiceError::NotYourTurn(_))),
        "a move on a's stale game was accepted: {refused:?}"
    );
    // The attackers move through a, on the stored game (not on the engine game a cached for
    // ply 1: were it taken for ply 2, the position written would be one that never was).
    assert_eq!(first_legal_move(&a, attacker, game).await.ply, 3);
    assert_position_is_its_moves(&b, game).await;
    assert_position_is_its_moves(&a, game).await;

    // A game ended through b takes no move through a.
    assert_eq!(first_legal_move(&a, defender, game).await.ply, 4);
    let next = first_legal(&a, game).await;
    b.games().resign(attacker, game).await.unwrap();
    let after_end = play(&a, attacker, game, &next).await;
    assert!(
        matches!(after_end, Err(ServiceError::GameOver)),
        "a move in an ended game was accepted: {after_end:?}"
    );
    assert_eq!(b.games().game(None, game).await.unwrap().moves.len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_racing_on_two_instances_are_played_once_per_ply() {
    racing_moves(Db::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgresql_moves_racing_on_two_instances_are_played_once_per_ply() {
    racing_moves(Db::postgres()).await;
}

/// The player to move sends two different legal moves for the same ply at once, one through
/// each instance: exactly one is played, the other is refused as stale, and the stored game is
/// the one its moves lead to.
async fn racing_moves(db: Db) {
    let (a, b, [attacker, defender], game) = a_game_on_two_instances(&db).await;
    for ply in 0..6u32 {
        let mover = if ply % 2 == 0 { attacker } else { defender };
        let moves = legal(&a, game).await;
        let at_ply = |text: &str| MoveRequest {
            text: text.into(),
            expected_ply: Some(ply),
            idempotency_key: None,
        };
        let (through_a, through_b) = tokio::join!(
            a.games().play(mover, game, at_ply(&moves[0])),
            b.games().play(mover, game, at_ply(&moves[1])),
        );
        let (won, lost) = match (through_a, through_b) {
            (Ok(won), Err(lost)) | (Err(lost), Ok(won)) => (won, lost),
            other => panic!("ply {ply}: not exactly one winner: {other:?}"),
        };
        assert_eq!(won.ply, ply + 1);
        assert!(
            matches!(lost, ServiceError::Conflict { .. }),
            "ply {ply}: {lost:?}"
        );
    }
    assert_eq!(b.games().game(None, game).await.unwrap().moves.len(), 6);
    assert_position_is_its_moves(&a, game).await;
}
