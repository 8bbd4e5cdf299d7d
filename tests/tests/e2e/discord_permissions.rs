//! Permissions and Discord's limits (issue 31, item 8): `/challenge`, `/play` and `/follow`
//! refuse privately where the member may not write (their permissions in the channel, with its
//! overwrites, as the fake computes them like Discord), a thread is judged by the thread bit for
//! the member and the bot, autocomplete choices stay within 100 characters, every command says
//! where it works, and the application's id is read from Discord.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serde_json::Value;
use taflbot_e2e::fake_discord::permissions::{
    ATTACH_FILES, DEFAULT_EVERYONE_PERMISSIONS, OverwriteTarget, SEND_MESSAGES, VIEW_CHANNEL,
};
use taflbot_e2e::fake_discord::threads::SEND_MESSAGES_IN_THREADS;
use taflbot_e2e::fake_discord::{CommandOption as Opt, RouteKind};
use taflbot_e2e::world::{WAIT, World};

#[tokio::test]
async fn a_member_who_may_not_write_in_a_channel_cannot_start_a_game_there() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let announcements = world.fake.new_channel("announcements");
    // Only the moderators write here: @everyone may read, not send. The bot may post.
    world
        .fake
        .add_overwrite(announcements, OverwriteTarget::Everyone, 0, SEND_MESSAGES);
    let bot = world.fake.bot_user().id;
    world.fake.add_overwrite(
        announcements,
        OverwriteTarget::Member(bot),
        SEND_MESSAGES,
        0,
    );
    for (command, options) in [
        ("challenge", vec![Opt::user("opponent", &bob)]),
        ("play", vec![]),
        ("follow", vec![Opt::integer("game", 1)]),
    ] {
        let refused = world.slash(&alice, announcements, command, &options).await;
        assert!(refused.is_ephemeral(), "/{command}: {}", refused.text());
        assert!(
            refused.text().contains("You may not send messages here"),
            "/{command}: {}",
            refused.text()
        );
    }
    assert!(
        world
            .fake
            .channel_messages(announcements)
            .iter()
            .all(|m| { m["flags"].as_u64().unwrap_or(0) & 64 != 0 }),
        "nothing public in #announcements"
    );
    world.stop().await;
}

#[tokio::test]
async fn a_role_overwrite_lets_its_members_play_where_everyone_else_may_not() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let players = world.fake.new_role("players");
    world.fake.give_role(&alice, players);
    let channel = world.fake.new_channel("players-only");
    world
        .fake
        .add_overwrite(channel, OverwriteTarget::Everyone, 0, SEND_MESSAGES);
    world
        .fake
        .add_overwrite(channel, OverwriteTarget::Role(players), SEND_MESSAGES, 0);
    let bot = world.fake.bot_user().id;
    world
        .fake
        .add_overwrite(channel, OverwriteTarget::Member(bot), SEND_MESSAGES, 0);
    let allowed = world
        .slash(
            &alice,
            channel,
            "play",
            &[Opt::string("variant", "brandubh")],
        )
        .await;
    assert!(!allowed.is_ephemeral(), "{}", allowed.text());
    assert!(allowed.text().contains("Game #"), "{}", allowed.text());
    let refused = world.slash(&bob, channel, "play", &[]).await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().contains("Send Messages"),
        "{}",
        refused.text()
    );
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn each_server_has_its_own_roles_and_permissions() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    // A second server where @everyone may only read; its "players" role may write.
    let readers = world
        .fake
        .new_guild(DEFAULT_EVERYONE_PERMISSIONS & !SEND_MESSAGES);
    let hall = world.fake.new_channel_in(readers, "hall");
    let players = world.fake.new_role_in(readers, "players", SEND_MESSAGES);
    let refused = world.slash(&alice, hall, "play", &[]).await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().contains("Send Messages"),
        "{}",
        refused.text()
    );
    // A role of the test guild grants nothing there.
    let elsewhere = world.fake.new_role_granting("writers", SEND_MESSAGES);
    world.fake.give_role(&alice, elsewhere);
    let still = world.slash(&alice, hall, "play", &[]).await;
    assert!(still.is_ephemeral(), "{}", still.text());
    // The second server's role does; the game is that server's.
    world.fake.give_role(&alice, players);
    let started = world
        .slash(&alice, hall, "play", &[Opt::string("variant", "brandubh")])
        .await;
    assert!(!started.is_ephemeral(), "{}", started.text());
    assert_eq!(
        started.message.as_ref().unwrap()["guild_id"],
        readers.to_string(),
        "the start belongs to the second server"
    );
    // The test guild is untouched: alice plays there as before.
    let home = world.slash(&alice, world.fake.channel(), "play", &[]).await;
    assert!(!home.is_ephemeral(), "{}", home.text());
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

#[tokio::test]
async fn in_a_thread_the_member_and_the_bot_need_the_thread_bit() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.new_channel("tafl-games");
    world.fake.allow_threads(channel);
    world.brandubh_game(channel, &alice, &bob).await;
    let thread = world.fake.threads_of(channel)[0].id;
    world.wait_for_outbox_drained().await;
    // Alice may write in the channel but not in its threads.
    world.fake.add_overwrite(
        channel,
        OverwriteTarget::Member(alice.id),
        SEND_MESSAGES,
        SEND_MESSAGES_IN_THREADS,
    );
    let refused = world.slash(&alice, thread, "play", &[]).await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().contains("Send Messages in Threads"),
        "{}",
        refused.text()
    );
    // The bot may send messages in the channel, not in its threads: it says so (Send
    // Messages alone would have passed before).
    world
        .fake
        .set_bot_permissions(channel, VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES);
    let refused = world.slash(&bob, thread, "play", &[]).await;
    assert!(refused.is_ephemeral(), "{}", refused.text());
    assert!(
        refused.text().contains("I cannot post a game here")
            && refused.text().contains("Send Messages in Threads"),
        "{}",
        refused.text()
    );
    world.stop().await;
}

#[tokio::test]
async fn autocomplete_choices_of_games_between_long_names_fit_in_100_characters() {
    let world = World::start().await;
    let long = |c: char| std::iter::repeat_n(c, 64).collect::<String>();
    let (alice, bob) = (
        world.fake.new_user(&long('a')),
        world.fake.new_user(&long('b')),
    );
    let channel = world.fake.channel();
    world.brandubh_game(channel, &alice, &bob).await;
    world.brandubh_game(channel, &bob, &alice).await;
    world.wait_for_outbox_drained().await;
    let sent = world
        .fake
        .autocomplete(&alice, channel, "board", &[Opt::focused("game", "")])
        .unwrap();
    let answer = world.reply(&sent).await;
    let choices = answer.choices();
    assert_eq!(choices.len(), 2, "{choices:?}");
    for (name, value) in &choices {
        assert!(
            name.chars().count() <= 100,
            "{} characters: {name}",
            name.chars().count()
        );
        assert!(value.chars().count() <= 100);
        assert!(name.starts_with('#'), "{name}");
    }
    assert!(answer.accepted(), "Discord took the choices");
    world.stop().await;
}

#[tokio::test]
async fn every_command_declares_its_install_and_interaction_contexts() {
    let world = World::start().await;
    let commands = world.fake.registered_commands();
    let contexts = |name: &str| -> Vec<u64> {
        let command = commands
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} registered"));
        command["contexts"]
            .as_array()
            .unwrap_or_else(|| panic!("/{name} declares its contexts: {command}"))
            .iter()
            .filter_map(Value::as_u64)
            .collect()
    };
    for command in &commands {
        assert_eq!(
            command["integration_types"],
            serde_json::json!([0]),
            "installed in servers only: {command}"
        );
    }
    // 0: a server, 1: a direct message with the bot.
    assert_eq!(contexts("move"), vec![0]);
    assert_eq!(contexts("challenge"), vec![0]);
    assert_eq!(contexts("games"), vec![0, 1]);
    assert_eq!(contexts("help"), vec![0, 1]);
    // Study needs no channel's game: a puzzle or the explorer in a DM with the bot.
    assert_eq!(contexts("puzzle"), vec![0, 1]);
    assert_eq!(contexts("explorer"), vec![0, 1]);
    world.stop().await;
}

#[tokio::test]
async fn the_application_id_is_read_from_discord_not_taken_for_the_bots_user_id() {
    let world = World::start().await;
    let application = world.fake.application_id();
    assert_ne!(
        application,
        world.fake.bot_user().id,
        "the fake keeps them apart"
    );
    // Registration under the application's id (the fake refuses any other, as a problem).
    let registered = world
        .fake
        .recorder()
        .all()
        .into_iter()
        .find(|r| r.kind == RouteKind::CommandRegistration && r.accepted())
        .expect("a registration");
    assert!(
        registered
            .path
            .contains(&format!("/applications/{application}/")),
        "{}",
        registered.path
    );
    // The AI's answer to /play goes out as a follow-up from the delivery layer, whose own
    // client learnt the id at start (GET /oauth2/applications/@me).
    let alice = world.fake.new_user("alice");
    let channel = world.fake.channel();
    world
        .slash(
            &alice,
            channel,
            "play",
            &[
                Opt::string("variant", "brandubh"),
                Opt::string("side", "defenders"),
            ],
        )
        .await;
    let followup = world
        .fake
        .recorder()
        .wait_for("the AI's move, followed up", WAIT, |r| {
            matches!(r.kind, RouteKind::Followup { .. }) && r.accepted()
        })
        .await
        .unwrap();
    assert!(
        followup.path.contains(&format!("/webhooks/{application}/")),
        "{}",
        followup.path
    );
    world.wait_for_outbox_drained().await;
    world.stop().await;
}
