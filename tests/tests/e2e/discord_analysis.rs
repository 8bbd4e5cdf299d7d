//! `/analyze` and `/hint` through the fake Discord.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tafl_engine::{Game, Move};
use taflbot::service::MovePicker;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser};
use taflbot_e2e::world::{WAIT, World, game_id_in};
use taflbot_test_support::eventually;

/// `/play`'s options for a Brandubh game against the AI at level 1, the player attacking.
fn play_options() -> [Opt; 3] {
    [
        Opt::string("variant", "brandubh"),
        Opt::integer("level", 1),
        Opt::string("side", "attackers"),
    ]
}

/// `user` starts a game against the AI in `channel` with `/play`; its id, once announced.
async fn start_ai_game(world: &World, user: &FakeUser, channel: u64) -> i64 {
    let sent = world
        .fake
        .slash(user, channel, "play", &play_options())
        .unwrap();
    let token = sent.token.clone();
    let start = world
        .fake
        .recorder()
        .wait_for("the start of the AI game", WAIT, |r| {
            r.answers(&token) && r.text().contains("begins")
        })
        .await
        .unwrap();
    game_id_in(&start.text())
}

fn quick_analysis(config: &mut taflbot::config::Config) {
    config.games.analysis_ms_per_ply = 30;
    config.games.analysis_threads = 1;
}

#[tokio::test]
async fn analyze_posts_the_summary_and_a_described_chart_and_hints_are_for_ai_games() {
    let world = World::start_with(quick_analysis).await;
    let alice = world.fake.new_user("alice");
    let bob = world.fake.new_user("bob");
    let channel = world.fake.new_channel("tafl");
    let game = world.brandubh_game(channel, &alice, &bob).await;
    let moved = world
        .slash(&alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;
    assert!(moved.text().contains("d1-b1"), "{}", moved.text());

    // No hints in a game against a person.
    let hint = world.slash(&bob, channel, "hint", &[]).await;
    assert!(hint.is_ephemeral(), "{}", hint.text());
    assert!(
        hint.text().contains("against the AI only"),
        "{}",
        hint.text()
    );

    let resigned = world.slash(&bob, channel, "resign", &[]).await;
    assert!(
        resigned.text().to_lowercase().contains("resign"),
        "{}",
        resigned.text()
    );

    let sent = world
        .fake
        .slash(&alice, channel, "analyze", &[Opt::integer("game", game)])
        .unwrap();
    let token = sent.token.clone();
    let post = world
        .fake
        .recorder()
        // The answer itself when the analysis is quick, an edit of the deferral otherwise.
        .wait_for("the analysis with its chart", WAIT, |r| {
            r.accepted() && r.answers(&token) && r.png_attachments().count() == 1
        })
        .await
        .unwrap();
    let text = post.text();
    assert!(
        text.contains(&format!("Analysis of game #{game}")),
        "{text}"
    );
    assert!(text.contains("Accuracy: attackers"), "{text}");
    let alt = post.attachment_descriptions();
    assert_eq!(alt.len(), 1);
    assert!(alt[0].contains("winning chance over 1 ply,"), "{alt:?}");

    // In a casual game against the AI, the player to move gets the AI's move, privately.
    let ai_channel = world.fake.new_channel("ai");
    let ai_game = start_ai_game(&world, &alice, ai_channel).await;
    let hint = world.slash(&alice, ai_channel, "hint", &[]).await;
    let sent_hint = world
        .fake
        .recorder()
        .wait_for("the hint", WAIT, |r| r.text().contains("Hint for game"))
        .await
        .unwrap();
    assert!(
        sent_hint
            .text()
            .contains(&format!("Hint for game #{ai_game}")),
        "{} / {}",
        hint.text(),
        sent_hint.text()
    );
    world.assert_clean();
    world.stop().await;
}

fn hints_and_ai_games_spaced(config: &mut taflbot::config::Config) {
    config.games.hint_cooldown_secs = 60;
    config.games.ai_game_cooldown_secs = 60;
}

/// Engine work has cooldowns the same through every front end; in Discord a refusal is a
/// private answer that says when to try again.
#[tokio::test]
async fn a_hint_or_an_ai_game_asked_again_too_soon_is_refused_privately_with_the_wait() {
    let world = World::start_with(hints_and_ai_games_spaced).await;
    let alice = world.fake.new_user("alice");
    let channel = world.fake.new_channel("ai");
    start_ai_game(&world, &alice, channel).await;
    let hint = world.slash(&alice, channel, "hint", &[]).await;
    world
        .fake
        .recorder()
        .wait_for("the hint", WAIT, |r| r.text().contains("Hint for game"))
        .await
        .unwrap_or_else(|e| panic!("{e}: {}", hint.text()));

    let again = world.fake.slash(&alice, channel, "hint", &[]).unwrap();
    let token = again.token.clone();
    let refused = world
        .fake
        .recorder()
        .wait_for("the refused hint", WAIT, |r| {
            r.answers(&token) && r.text().contains("another hint in")
        })
        .await
        .unwrap();
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(refused.text().contains("in 60 s"), "{}", refused.text());

    let again = world
        .fake
        .slash(&alice, channel, "play", &play_options())
        .unwrap();
    let token = again.token.clone();
    let refused = world
        .fake
        .recorder()
        .wait_for("the refused game", WAIT, |r| {
            r.answers(&token) && r.text().contains("a new game against the AI in")
        })
        .await
        .unwrap();
    assert!(refused.is_ephemeral(), "{}", refused.text());
    world.assert_clean();
    world.stop().await;
}

/// An AI that, while held, keeps each search waiting until let go (the engine busy); it counts
/// the searches inside it.
#[derive(Default)]
struct HeldAi {
    held: AtomicBool,
    searching: AtomicUsize,
}

impl MovePicker for HeldAi {
    fn pick(&self, game: &Game, _level: u8) -> Option<Move> {
        self.searching.fetch_add(1, Ordering::SeqCst);
        // A blocking thread of the engine, bounded by the test's own deadline.
        let give_up = std::time::Instant::now() + WAIT;
        while self.held.load(Ordering::SeqCst) && std::time::Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(5));
        }
        self.searching.fetch_sub(1, Ordering::SeqCst);
        game.legal_moves().first().copied()
    }
}

fn one_engine_worker(config: &mut taflbot::config::Config) {
    config.games.engine_workers = 1;
}

#[tokio::test]
async fn a_hint_waiting_for_the_engine_is_told_its_place_in_line_then_given() {
    let ai = Arc::new(HeldAi::default());
    let world =
        World::start_with_ai(one_engine_worker, Arc::clone(&ai) as Arc<dyn MovePicker>).await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("ai");
    let alices = start_ai_game(&world, &alice, channel).await;
    let bobs = start_ai_game(&world, &bob, channel).await;
    world.wait_for_outbox_drained().await;

    // Bob's hint takes the one engine worker and stays there while the AI is held.
    ai.held.store(true, Ordering::SeqCst);
    let bobs_hint = world
        .fake
        .slash(&bob, channel, "hint", &[Opt::integer("game", bobs)])
        .unwrap();
    eventually(WAIT, "bob's hint searching", || async {
        (ai.searching.load(Ordering::SeqCst) == 1).then_some(())
    })
    .await;
    let alices_hint = world
        .fake
        .slash(&alice, channel, "hint", &[Opt::integer("game", alices)])
        .unwrap();
    let token = alices_hint.token.clone();
    let waiting = world
        .fake
        .recorder()
        .wait_for("alice told her place in line", WAIT, |r| {
            r.answers(&token) && r.text().contains("position 1 in line")
        })
        .await
        .unwrap();
    assert!(waiting.is_ephemeral(), "{}", waiting.text());

    ai.held.store(false, Ordering::SeqCst);
    for (sent, game) in [(&alices_hint, alices), (&bobs_hint, bobs)] {
        let token = sent.token.clone();
        let wanted = format!("Hint for game #{game}");
        world
            .fake
            .recorder()
            .wait_for("the hint itself", WAIT, |r| {
                r.answers(&token) && r.text().contains(&wanted)
            })
            .await
            .unwrap();
    }
    world.assert_clean();
    world.stop().await;
}
