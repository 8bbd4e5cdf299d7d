//! Rated games against the AI in Discord (issue 34): `/play rated:true` moves the player's and
//! the level's ratings, the end post says so, the level is marked on `/leaderboard`, and a
//! level whose strength is not fixed is refused privately; through the fake Discord.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot::domain::{GameId, PlayerId};
use taflbot::service::Clock;
use taflbot::store::StoreError;
use taflbot::store::rows::{self, Glicko, RatingRow};
use taflbot_e2e::fake_discord::CommandOption as Opt;
use taflbot_e2e::world::{World, game_id_in};

#[tokio::test]
async fn play_rated_moves_both_ratings_and_the_level_is_marked_on_the_leaderboard() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let channel = world.fake.new_channel("ai");
    let play = |level: i64| {
        vec![
            Opt::string("variant", "brandubh"),
            Opt::integer("level", level),
            Opt::string("side", "defenders"),
            Opt::boolean("rated", true),
        ]
    };

    // Level 5 thinks for a time, so its strength is not fixed: refused, privately.
    let strongest = world.slash(&alice, channel, "play", &play(5)).await;
    assert!(strongest.is_ephemeral(), "{}", strongest.text());
    assert!(
        strongest.text().contains("cannot be rated"),
        "{}",
        strongest.text()
    );

    let sent = world.fake.slash(&alice, channel, "play", &play(1)).unwrap();
    let start = world.reply(&sent).await;
    let game = game_id_in(&start.text());
    let view = world
        .app
        .service
        .games()
        .game(None, GameId(game))
        .await
        .unwrap();
    assert!(view.rated, "asked for rated");
    assert_eq!(
        view.clock.to_string(),
        "3 days per move",
        "a rated game gets the challenge's clock"
    );

    let resigned = world.slash(&alice, channel, "resign", &[]).await;
    let text = resigned.text();
    assert!(
        text.contains(
            "Ratings (brandubh): Attackers taflbot (AI level 1) 1500 → 1662 (+162, provisional)"
        ),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Defenders {} 1500 → 1338 (-162, provisional)",
            alice.mention()
        )),
        "{text}"
    );

    // Settled, the level is on this server's leaderboard too, marked as the AI, untitled.
    let level = world
        .app
        .service
        .store()
        .read(|c| rows::ai_player_of_level(c, 1))
        .await
        .unwrap()
        .expect("level 1 has a player row after its rated game");
    let now = world.clock.now_ms();
    world
        .app
        .service
        .store()
        .write(move |c| {
            rows::put_rating(
                c,
                &RatingRow {
                    player_id: PlayerId(level.get()),
                    pool: "brandubh".into(),
                    glicko: Glicko {
                        rating: 1850.0,
                        deviation: 60.0,
                        volatility: 0.06,
                    },
                    games: 30,
                    updated_at: now,
                },
            )?;
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    let board = world
        .slash(
            &alice,
            channel,
            "leaderboard",
            &[
                Opt::string("variant", "brandubh"),
                Opt::boolean("server_only", true),
            ],
        )
        .await;
    assert!(
        board
            .text()
            .contains("1. taflbot AI level 1 (`taflbot-ai-level-1`, AI) 1850 ±60 · 30 rated games"),
        "{}",
        board.text()
    );

    // /stats shows the level as it shows a person; a level without rated games, or one never
    // rated, is explained privately.
    let stats = world
        .slash(&alice, channel, "stats", &[Opt::integer("level", 1)])
        .await;
    let text = stats.text();
    assert!(
        text.contains("Stats of taflbot AI level 1** (`taflbot-ai-level-1`)"),
        "{text}"
    );
    assert!(text.contains("1850 ±60"), "{text}");
    for (level, says) in [(2, "no rated game yet"), (5, "never rated")] {
        let refused = world
            .slash(&alice, channel, "stats", &[Opt::integer("level", level)])
            .await;
        assert!(refused.is_ephemeral(), "{}", refused.text());
        assert!(refused.text().contains(says), "{}", refused.text());
    }
    world.stop().await;
}
