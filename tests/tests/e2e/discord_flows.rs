//! The AI, autocomplete, restarts and HTTP moves, through the fake Discord.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::collections::HashSet;

use serde_json::{Value, json};
use taflbot::service::Place;
use taflbot_e2e::fake_discord::{CommandOption as Opt, Recorded, RouteKind};
use taflbot_e2e::world::{WAIT, World, game_id_in};

async fn legal_moves(world: &World, game: i64) -> Vec<String> {
    world
        .app
        .service
        .games()
        .legal_moves(taflbot::domain::GameId(game), None)
        .await
        .unwrap()
}

#[tokio::test]
async fn autocomplete_offers_at_most_25_legal_moves_filtered_by_what_was_typed() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let game = world.brandubh_game(channel, &alice, &bob).await;
    let legal: HashSet<String> = legal_moves(&world, game).await.into_iter().collect();
    assert!(
        legal.len() > 25,
        "brandubh's first position has more than 25 moves: {}",
        legal.len()
    );

    let sent = world
        .fake
        .autocomplete(&alice, channel, "move", &[Opt::focused("move", "")])
        .unwrap();
    let all = world.reply(&sent).await;
    assert_eq!(all.callback_type(), Some(8), "an autocomplete result");
    assert_eq!(all.choices().len(), 25, "at most 25 choices");
    assert!(
        all.choices().iter().all(|(_, v)| legal.contains(v)),
        "only legal moves: {:?}",
        all.choices()
    );

    let sent = world
        .fake
        .autocomplete(&alice, channel, "move", &[Opt::focused("move", "D1")])
        .unwrap();
    let filtered = world.reply(&sent).await.choices();
    let expected: HashSet<String> = legal
        .iter()
        .filter(|m| m.starts_with("d1"))
        .cloned()
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(
        filtered
            .iter()
            .map(|(_, v)| v.clone())
            .collect::<HashSet<_>>(),
        expected
    );

    // The game option's autocomplete lists the games here.
    let sent = world
        .fake
        .autocomplete(&alice, channel, "board", &[Opt::focused("game", "")])
        .unwrap();
    let games = world.reply(&sent).await.choices();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].1, game.to_string());

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn a_game_against_the_ai_is_answered_with_its_start_then_the_ais_moves() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let channel = world.fake.new_channel("ai-games");
    // Brandubh: the attackers (the AI here) move first.
    let sent = world
        .fake
        .slash(
            &alice,
            channel,
            "play",
            &[
                Opt::string("variant", "brandubh"),
                Opt::integer("level", 1),
                Opt::string("side", "defenders"),
            ],
        )
        .unwrap();
    // The start is the answer (deferred only past the answer budget: discord_answers.rs), the
    // AI's first move follows it up.
    let start = world.reply(&sent).await;
    let token = sent.token.clone();
    let ai_move = world
        .fake
        .recorder()
        .wait_for("the AI's first move as a follow-up", WAIT, |r| {
            r.answers(&token) && matches!(r.kind, RouteKind::Followup { .. })
        })
        .await
        .unwrap();
    let posts = [start, ai_move];
    assert!(
        posts[0].text().contains("begins"),
        "start post first: {}",
        posts[0].text()
    );
    assert!(
        posts[1].text().contains("taflbot (AI level 1)"),
        "then the AI's move: {}",
        posts[1].text()
    );
    assert!(
        posts[1]
            .text()
            .contains(&format!("{} (defenders) to move", alice.mention())),
        "{}",
        posts[1].text()
    );
    assert_eq!(posts[1].png_attachments().count(), 1);
    let game = game_id_in(&posts[0].text());

    // Alice answers at once; the AI answers her in turn, as a follow-up to her /move.
    let mine = legal_moves(&world, game).await.into_iter().next().unwrap();
    let sent = world
        .fake
        .slash(&alice, channel, "move", &[Opt::string("move", &mine)])
        .unwrap();
    let answer = world.reply(&sent).await;
    assert_eq!(
        answer.callback_type(),
        Some(4),
        "the player's move is answered at once"
    );
    assert!(answer.text().contains(&mine), "{}", answer.text());
    let token = sent.token.clone();
    let ai = world
        .fake
        .recorder()
        .wait_for("the AI's answer as a follow-up", WAIT, |r| {
            r.answers(&token) && matches!(r.kind, RouteKind::Followup { .. })
        })
        .await
        .unwrap();
    assert!(
        ai.text().contains("taflbot (AI level 1) played"),
        "{}",
        ai.text()
    );

    // Mistakes stay private, even in a game against the AI.
    let illegal = world
        .slash(&alice, channel, "move", &[Opt::string("move", "a1-a2")])
        .await;
    assert!(illegal.is_ephemeral(), "{}", illegal.text());
    let bad_level = world
        .slash(&alice, channel, "play", &[Opt::integer("level", 99)])
        .await;
    assert!(bad_level.is_ephemeral(), "{}", bad_level.text());
    assert!(bad_level.text().contains("level"), "{}", bad_level.text());

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn challenging_the_bot_itself_starts_a_game_against_the_ai() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let channel = world.fake.new_channel("vs-bot");
    let bot = world.fake.bot_user().clone();
    let options = [
        Opt::user("opponent", &bot),
        Opt::string("variant", "brandubh"),
        Opt::string("side", "attackers"),
    ];
    let sent = world
        .fake
        .slash(&alice, channel, "challenge", &options)
        .unwrap();
    let start = world.reply(&sent).await;
    assert!(start.text().contains("begins"), "{}", start.text());
    assert!(
        start.text().contains("Defenders taflbot (AI level"),
        "{}",
        start.text()
    );
    assert!(
        !start
            .button_ids()
            .iter()
            .any(|id| id.starts_with("challenge:")),
        "nothing to accept: {}",
        start.text()
    );
    assert!(
        start.button_starting_with("game:pick:").is_some(),
        "the game's own buttons: {:?}",
        start.button_ids()
    );
    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn games_and_challenge_buttons_survive_a_restart() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let game = world.brandubh_game(channel, &alice, &bob).await;
    let first = world
        .slash(&alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;
    assert!(first.text().contains("d1-b1"));
    // A second challenge, answered only after the restart.
    let carol = world.fake.new_user("carol");
    let other = world.fake.new_channel("other");
    let challenge = world
        .slash(
            &carol,
            other,
            "challenge",
            &[
                Opt::user("opponent", &alice),
                Opt::string("variant", "brandubh"),
            ],
        )
        .await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let challenge_message = challenge.message.clone().unwrap();

    let world = world.restart().await;
    fn not_deferred(r: &Recorded) -> bool {
        r.callback_type() != Some(5)
    }
    let bob_moves = world
        .slash(&bob, channel, "move", &[Opt::string("move", "c4-c2")])
        .await;
    assert!(not_deferred(&bob_moves));
    assert!(
        bob_moves.text().contains(&format!("Game #{game}")),
        "{}",
        bob_moves.text()
    );
    assert!(
        bob_moves.text().contains("move 1: Defenders"),
        "the game went on from where it was: {}",
        bob_moves.text()
    );
    let click = world
        .fake
        .click(&alice, &challenge_message, &accept)
        .unwrap();
    let accepted = world.reply(&click).await;
    assert!(
        accepted.text().contains("accepted"),
        "the old button still works: {}",
        accepted.text()
    );

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn a_move_made_over_http_shows_up_in_the_channel() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let game = world.brandubh_game(channel, &alice, &bob).await;

    let issued = world.slash(&alice, channel, "token", &[]).await;
    assert!(issued.is_ephemeral(), "the token is private");
    let token = issued
        .content()
        .split('`')
        .nth(1)
        .expect("the token in backticks")
        .to_owned();

    let mark = world.fake.recorder().mark();
    let response = world
        .http
        .post(format!("{}/games/{game}/moves", world.api()))
        .bearer_auth(&token)
        .json(&json!({ "move": "d1-b1", "ply": 0 }))
        .send()
        .await
        .unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap_or_default();
    assert!(status.is_success(), "HTTP move refused: {status} {body}");

    let posted = world
        .fake
        .recorder()
        .wait_for_after(mark, "the HTTP move announced in the channel", WAIT, |r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: channel,
                }
        })
        .await
        .unwrap();
    assert!(posted.text().contains("d1-b1"), "{}", posted.text());
    assert!(
        posted
            .text()
            .contains(&format!("{} (defenders) to move", bob.mention())),
        "{}",
        posted.text()
    );
    assert_eq!(posted.png_attachments().count(), 1, "with the board");

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn commands_without_a_game_here_get_a_private_explanation() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let empty = world.fake.new_channel("empty");
    for (name, options) in [
        ("move", vec![Opt::string("move", "e5-e8")]),
        ("board", vec![]),
        ("resign", vec![]),
    ] {
        let answer = world.slash(&alice, empty, name, &options).await;
        assert!(answer.is_ephemeral(), "/{name}: {}", answer.text());
        assert!(
            answer.text().contains("no game in this channel"),
            "/{name}: {}",
            answer.text()
        );
    }
    let rules = world
        .slash(
            &alice,
            empty,
            "rules",
            &[Opt::string("variant", "no-such-variant")],
        )
        .await;
    assert!(rules.is_ephemeral());
    assert!(
        rules.text().contains("brandubh"),
        "lists the known variants: {}",
        rules.text()
    );
    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn starting_a_game_where_the_bot_cannot_post_images_is_refused_privately() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let read_only = world.fake.new_channel("read-only");
    // VIEW_CHANNEL | SEND_MESSAGES, but not ATTACH_FILES.
    world
        .fake
        .set_bot_permissions(read_only, (1 << 10) | (1 << 11));
    let answer = world
        .slash(
            &alice,
            read_only,
            "challenge",
            &[Opt::user("opponent", &bob)],
        )
        .await;
    assert!(answer.is_ephemeral(), "{}", answer.text());
    assert!(
        answer.text().to_lowercase().contains("permission"),
        "{}",
        answer.text()
    );
    assert!(
        answer.text().to_lowercase().contains("attach"),
        "names the missing permission: {}",
        answer.text()
    );
    assert!(
        world
            .app
            .service
            .games()
            .games_in_place(&Place::DiscordChannel(read_only), None)
            .await
            .unwrap()
            .is_empty()
    );
    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn where_a_channel_holds_several_games_the_game_option_picks_one() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let (carol, dave) = (world.fake.new_user("carol"), world.fake.new_user("dave"));
    let (eve, channel) = (world.fake.new_user("eve"), world.fake.channel());
    let first = world.brandubh_game(channel, &alice, &bob).await;
    let second = world.brandubh_game(channel, &carol, &dave).await;

    // Each player's own game is found without the option.
    let moved = world
        .slash(&carol, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;
    assert!(
        moved.text().contains(&format!("Game #{second}")),
        "{}",
        moved.text()
    );

    // Someone in neither game must pick one; the refusal lists them.
    let ambiguous = world.slash(&eve, channel, "board", &[]).await;
    assert!(ambiguous.is_ephemeral(), "{}", ambiguous.text());
    assert!(
        ambiguous.text().contains(&format!("#{first}"))
            && ambiguous.text().contains(&format!("#{second}")),
        "{}",
        ambiguous.text()
    );
    let picked = world
        .slash(&eve, channel, "board", &[Opt::integer("game", first)])
        .await;
    assert!(
        picked.text().contains(&format!("Game #{first}")),
        "{}",
        picked.text()
    );
    let elsewhere = world
        .slash(&eve, channel, "board", &[Opt::integer("game", 9_999)])
        .await;
    assert!(
        elsewhere.text().contains("not played in this channel"),
        "{}",
        elsewhere.text()
    );

    // Move suggestions follow the game chosen in the other option (eve plays in neither, so
    // without it there would be no single game to suggest moves for).
    let legal: HashSet<String> = legal_moves(&world, second).await.into_iter().collect();
    let sent = world
        .fake
        .autocomplete(
            &dave,
            channel,
            "move",
            &[Opt::focused("move", ""), Opt::integer("game", second)],
        )
        .unwrap();
    let choices = world.reply(&sent).await.choices();
    assert!(!choices.is_empty());
    assert!(
        choices.iter().all(|(_, m)| legal.contains(m)),
        "{choices:?}"
    );

    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn a_challenge_accepted_over_http_starts_the_game_in_the_channel() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let challenge = world
        .slash(
            &alice,
            channel,
            "challenge",
            &[
                Opt::user("opponent", &bob),
                Opt::string("variant", "brandubh"),
            ],
        )
        .await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let id = accept.rsplit(':').next().unwrap().to_owned();
    let issued = world.slash(&bob, channel, "token", &[]).await;
    let token = issued.content().split('`').nth(1).unwrap().to_owned();

    let mark = world.fake.recorder().mark();
    let response = world
        .http
        .post(format!("{}/challenges/{id}/accept", world.api()))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert!(
        response.status().is_success(),
        "HTTP accept refused: {}",
        response.status()
    );
    let posted = world
        .fake
        .recorder()
        .wait_for_after(mark, "the game's start in the channel", WAIT, |r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: channel,
                }
        })
        .await
        .unwrap();
    assert!(posted.text().contains("begins"), "{}", posted.text());
    assert_eq!(posted.png_attachments().count(), 1);

    // Started from Discord (the button), the start is shown once: in the button's answer.
    let carol = world.fake.new_user("carol");
    let mark = world.fake.recorder().mark();
    world.brandubh_game(channel, &carol, &alice).await;
    // Once the outbox is empty, no post can come any more.
    world.wait_for_outbox_drained().await;
    let extra = world.channel_posts_after(mark, channel);
    assert!(extra.is_empty(), "no second start post: {extra:#?}");

    world.assert_clean();
    world.stop().await;
}
