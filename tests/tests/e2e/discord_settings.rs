//! Per-server settings through the fake Discord: who may change them, the defaults they give
//! `/play` and `/challenge`, threads off, the channels where games may start, the moderator
//! role and `/abort`; `/play`'s own default (Brandubh); `/follow` of a game started over HTTP.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serde_json::json;
use taflbot::domain::PlayerId;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, RouteKind};
use taflbot_e2e::world::{WAIT, World, game_id_in};

/// MANAGE_GUILD, the permission `/settings` asks for.
const MANAGE_GUILD: u64 = 1 << 5;

async fn token_of(world: &World, user: &FakeUser) -> String {
    let player = world.player_of(user).await;
    world
        .app
        .service
        .accounts()
        .issue_api_token(PlayerId(player), "test")
        .await
        .unwrap()
        .token
}

#[tokio::test]
async fn settings_are_for_managers_and_show_what_they_are() {
    let world = World::start().await;
    let settings = world
        .fake
        .registered_commands()
        .into_iter()
        .find(|c| c["name"] == "settings")
        .expect("/settings is registered");
    assert_eq!(
        settings["default_member_permissions"],
        json!(MANAGE_GUILD.to_string()),
        "Discord shows /settings to managers only"
    );
    let (admin, member) = (world.fake.new_user("admin"), world.fake.new_user("member"));
    world.fake.set_member_permissions(&member, 0);
    let channel = world.fake.channel();
    let refused = world
        .slash(
            &member,
            channel,
            "settings",
            &[Opt::boolean("threads", false)],
        )
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("Manage Server"),
        "{}",
        refused.text()
    );
    let shown = world.slash(&admin, channel, "settings", &[]).await;
    assert!(shown.is_ephemeral());
    assert!(
        shown.text().contains("brandubh (default)"),
        "{}",
        shown.text()
    );
    assert!(shown.text().contains("any channel"), "{}", shown.text());
    // Nothing was changed by the refused member.
    let view = world
        .app
        .service
        .discord()
        .server_settings(world.fake.guild_id())
        .await
        .unwrap();
    assert!(view.threads);
    world.stop().await;
}

#[tokio::test]
async fn play_starts_brandubh_unless_the_server_says_otherwise() {
    let world = World::start().await;
    let (admin, alice) = (world.fake.new_user("admin"), world.fake.new_user("alice"));
    let channel = world.fake.channel();
    let first = world.slash(&alice, channel, "play", &[]).await;
    assert!(first.text().contains("(brandubh)"), "{}", first.text());
    let saved = world
        .slash(
            &admin,
            channel,
            "settings",
            &[
                Opt::string("variant", "tablut"),
                Opt::integer("ai_level", 1),
            ],
        )
        .await;
    assert!(saved.text().contains("Settings saved"), "{}", saved.text());
    let second = world.slash(&alice, channel, "play", &[]).await;
    assert!(second.text().contains("(tablut)"), "{}", second.text());
    assert!(second.text().contains("AI level 1"), "{}", second.text());
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn games_start_only_in_the_allowed_channels_and_threads_can_be_turned_off() {
    let world = World::start().await;
    let (admin, alice) = (world.fake.new_user("admin"), world.fake.new_user("alice"));
    let (lobby, games) = (world.fake.channel(), world.fake.new_channel("games"));
    world.fake.allow_threads(games);
    world
        .slash(
            &admin,
            lobby,
            "settings",
            &[
                Opt::channel("allow_channel", games),
                Opt::boolean("threads", false),
            ],
        )
        .await;
    let refused = world.slash(&alice, lobby, "play", &[]).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains(&format!("<#{games}>")),
        "{}",
        refused.text()
    );
    let played = world.slash(&alice, games, "play", &[]).await;
    assert!(played.text().contains("begins"), "{}", played.text());
    assert!(
        world.fake.threads_of(games).is_empty(),
        "threads are off here"
    );
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_moderator_aborts_any_game_and_others_cannot() {
    let world = World::start().await;
    let (admin, alice, bob, moderator) = (
        world.fake.new_user("admin"),
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.new_user("moderator"),
    );
    let role = world.fake.new_role("tafl moderators");
    world.fake.give_role(&moderator, role);
    let channel = world.fake.channel();
    let game = world.brandubh_game(channel, &alice, &bob).await;
    world.wait_for_outbox_drained().await;
    let outsider = world.fake.new_user("outsider");
    let refused = world
        .slash(&outsider, channel, "abort", &[Opt::integer("game", game)])
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("moderator role"),
        "{}",
        refused.text()
    );
    world
        .slash(
            &admin,
            channel,
            "settings",
            &[Opt::role("moderator_role", role)],
        )
        .await;
    let aborted = world
        .slash(&moderator, channel, "abort", &[Opt::integer("game", game)])
        .await;
    assert!(aborted.text().contains("aborted"), "{}", aborted.text());
    let view = world
        .app
        .service
        .games()
        .game(None, taflbot::domain::GameId(game))
        .await
        .unwrap();
    assert_eq!(view.status, taflbot::domain::GameStatus::Aborted);
    assert!(view.ratings.is_none(), "an aborted game is unrated");
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_game_started_over_http_is_followed_in_a_channel_by_its_player() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let token = token_of(&world, &alice).await;
    let created: serde_json::Value = world
        .http
        .post(format!("{}/challenges", world.api()))
        .bearer_auth(&token)
        .json(&json!({ "ai_level": 1, "variant": "brandubh", "side": "attackers" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game = created["game"]["id"].as_i64().expect("the AI game started");
    let refused = world
        .slash(&bob, channel, "follow", &[Opt::integer("game", game)])
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("players of game"),
        "{}",
        refused.text()
    );
    let followed = world
        .slash(&alice, channel, "follow", &[Opt::integer("game", game)])
        .await;
    assert_eq!(game_id_in(&followed.text()), game, "{}", followed.text());
    let mark = world.fake.recorder().mark();
    let moved = world
        .http
        .post(format!("{}/games/{game}/moves", world.api()))
        .bearer_auth(&token)
        .json(&json!({ "move": "d1-b1", "ply": 0 }))
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status().as_u16(), 200);
    world
        .fake
        .recorder()
        .wait_for_after(mark, "the HTTP move posted in the channel", WAIT, |r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: channel,
                }
                && r.accepted()
                && r.text().contains("d1-b1")
        })
        .await
        .unwrap();
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn a_challenge_takes_the_servers_default_variant_and_clock() {
    let world = World::start().await;
    let (admin, alice, bob) = (
        world.fake.new_user("admin"),
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
    );
    let channel = world.fake.channel();
    let bad = world
        .slash(&admin, channel, "settings", &[Opt::string("clock", "soon")])
        .await;
    assert!(bad.is_ephemeral());
    assert!(
        bad.text().contains("cannot read the clock"),
        "{}",
        bad.text()
    );
    world
        .slash(
            &admin,
            channel,
            "settings",
            &[
                Opt::string("variant", "tablut"),
                Opt::string("clock", "12h"),
            ],
        )
        .await;
    let challenge = world
        .slash(&alice, channel, "challenge", &[Opt::user("opponent", &bob)])
        .await;
    assert!(
        challenge.text().contains("**tablut**"),
        "{}",
        challenge.text()
    );
    assert!(
        challenge.text().contains("12 hours per move"),
        "{}",
        challenge.text()
    );
    world.stop().await;
}
