//! Ratings in Discord: a rated game's end post, `/stats`, `/leaderboard` (everyone's, and this
//! server's), `/handle`; through the fake Discord, which checks every message's pings.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot::domain::PlayerId;
use taflbot::service::Clock;
use taflbot::store::StoreError;
use taflbot::store::rows::{self, Glicko, RatingRow};
use taflbot_e2e::fake_discord::CommandOption as Opt;
use taflbot_e2e::world::World;

/// Gives `players` settled brandubh ratings (deviation 60), in this order from the best.
async fn settle(world: &World, players: Vec<i64>) {
    let now = world.clock.now_ms();
    world
        .app
        .service
        .store()
        .write(move |c| {
            for (i, id) in players.iter().enumerate() {
                rows::put_rating(
                    c,
                    &RatingRow {
                        player_id: PlayerId(*id),
                        pool: "brandubh".into(),
                        glicko: Glicko {
                            rating: 1900.0 - 100.0 * i as f64,
                            deviation: 60.0,
                            volatility: 0.06,
                        },
                        games: 20,
                        updated_at: now,
                    },
                )?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn a_rated_game_shows_in_the_end_post_stats_and_leaderboards() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    // A brandubh challenge with the default clock (3 days a move) is rated.
    let game = world.brandubh_game(channel, &alice, &bob).await;
    let resigned = world.slash(&bob, channel, "resign", &[]).await;
    let text = resigned.text();
    assert!(text.contains("Game over"), "{text}");
    assert!(
        text.contains(&format!(
            "Ratings (brandubh): Attackers {} 1500 → 1662 (+162, provisional)",
            alice.mention()
        )),
        "{text}"
    );
    assert!(text.contains("→ 1338 (-162, provisional)"), "{text}");

    // /history lists it, with both players and the result.
    let history = world.slash(&bob, channel, "history", &[]).await;
    let text = history.text();
    assert!(!history.is_ephemeral());
    assert!(
        text.starts_with("**Your finished games** (page 1)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "#{game} brandubh: {} vs {} · Attackers won (resignation)",
            alice.mention(),
            bob.mention()
        )),
        "{text}"
    );
    assert!(text.ends_with("· rated"), "{text}");
    let past = world
        .slash(&bob, channel, "history", &[Opt::integer("page", 2)])
        .await;
    assert!(past.text().contains("past the last"), "{}", past.text());

    let mine = world.slash(&alice, channel, "stats", &[]).await;
    let text = mine.text();
    assert!(!mine.is_ephemeral());
    assert!(text.contains("**Your stats** (`alice`)"), "{text}");
    assert!(
        text.contains("brandubh: 1662 ±290 (provisional) · 1 rated game"),
        "{text}"
    );
    assert!(text.contains("Results: brandubh 1W 0L 0D"), "{text}");
    let theirs = world
        .slash(&alice, channel, "stats", &[Opt::user("user", &bob)])
        .await;
    assert!(
        theirs
            .text()
            .contains(&format!("**Stats of {}** (`bob`)", bob.mention())),
        "{}",
        theirs.text()
    );
    assert!(
        theirs.text().contains("brandubh 0W 1L 0D"),
        "{}",
        theirs.text()
    );

    // Provisional ratings stay off the board.
    let empty = world
        .slash(
            &alice,
            channel,
            "leaderboard",
            &[Opt::string("variant", "brandubh")],
        )
        .await;
    assert!(
        empty.text().contains("Nobody is on it yet"),
        "{}",
        empty.text()
    );

    // Settled ratings: alice and bob were seen in this server, an HTTP player was not.
    let outsider = world
        .app
        .service
        .accounts()
        .register("@everyone", Some("outsider"))
        .await
        .unwrap()
        .player
        .id
        .get();
    let (a, b) = (world.player_of(&alice).await, world.player_of(&bob).await);
    settle(&world, vec![outsider, b, a]).await;
    let everyone = world
        .slash(
            &bob,
            channel,
            "leaderboard",
            &[Opt::string("variant", "brandubh")],
        )
        .await;
    let text = everyone.text();
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(
        lines,
        [
            // Titles by the WTF's thresholds (FM from 1800, CM from 1600).
            "1. **FM** @\u{200B}everyone (`outsider`) 1900 ±60 · 20 rated games",
            "2. **FM** bob (`bob`) 1800 ±60 · 20 rated games",
            "3. **CM** alice (`alice`) 1700 ±60 · 20 rated games",
        ],
        "{text}"
    );
    let here = world
        .slash(
            &bob,
            channel,
            "leaderboard",
            &[
                Opt::string("variant", "brandubh"),
                Opt::boolean("server_only", true),
            ],
        )
        .await;
    let text = here.text();
    assert!(
        text.starts_with("**Leaderboard: brandubh** (this server)"),
        "{text}"
    );
    assert!(!text.contains("outsider"), "{text}");
    assert!(text.contains("1. **FM** bob (`bob`) 1800"), "{text}");
    assert!(text.contains("2. **CM** alice (`alice`) 1700"), "{text}");
    let unknown = world
        .slash(
            &bob,
            channel,
            "leaderboard",
            &[Opt::string("variant", "chess")],
        )
        .await;
    assert!(unknown.is_ephemeral(), "{}", unknown.text());

    // /handle shows and changes the handle; a taken one is refused privately.
    let handle = world.slash(&alice, channel, "handle", &[]).await;
    assert!(handle.is_ephemeral());
    assert!(
        handle.text().contains("Your handle is `alice`"),
        "{}",
        handle.text()
    );
    let taken = world
        .slash(&alice, channel, "handle", &[Opt::string("new", "Bob")])
        .await;
    assert!(taken.is_ephemeral());
    assert!(taken.text().contains("is taken"), "{}", taken.text());
    let changed = world
        .slash(&alice, channel, "handle", &[Opt::string("new", "Queen_A")])
        .await;
    assert!(changed.text().contains("`queen_a`"), "{}", changed.text());
    let view = world
        .app
        .service
        .ratings()
        .player_profile("queen_a", None)
        .await
        .unwrap();
    assert_eq!(view.player.id.get(), a);
    world.stop().await;
}
