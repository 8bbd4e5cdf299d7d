//! `/annotate` through the fake Discord: a player of a finished game comments on its moves,
//! an outsider may not, and `post` puts the notes in the channel, escaped, pinging nobody,
//! split over messages of Discord's length.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serde_json::{Value, json};
use taflbot_e2e::fake_discord::{CommandOption as Opt, Recorded};
use taflbot_e2e::world::{WAIT, World};

fn add(game: i64, ply: i64, text: &str) -> [Opt; 1] {
    [Opt::sub(
        "add",
        vec![
            Opt::integer("game", game),
            Opt::integer("ply", ply),
            Opt::string("text", text),
        ],
    )]
}

fn pings_nobody(recorded: &Recorded) {
    let allowed = recorded
        .message_payload()
        .and_then(|m| m.get("allowed_mentions"))
        .cloned()
        .unwrap_or(Value::Null);
    assert_eq!(
        allowed["parse"],
        json!([]),
        "{allowed} in {}",
        recorded.text()
    );
    assert_eq!(allowed["users"], json!([]), "{allowed}");
}

#[tokio::test]
async fn players_annotate_a_finished_game_and_post_its_notes_escaped_and_split() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let bob = world.fake.new_user("bob");
    let eve = world.fake.new_user("eve");
    let channel = world.fake.new_channel("tafl");
    let game = world.brandubh_game(channel, &alice, &bob).await;
    world
        .slash(&alice, channel, "move", &[Opt::string("move", "d1-b1")])
        .await;

    // Not while it is being played.
    let early = world
        .slash(&alice, channel, "annotate", &add(game, 1, "too soon"))
        .await;
    assert!(
        early.text().to_lowercase().contains("still being played"),
        "{}",
        early.text()
    );
    world.slash(&bob, channel, "resign", &[]).await;

    // The game option offers the player's finished games, anywhere (the number is not known
    // by heart), and /analyze's too once no game is left in the channel.
    let elsewhere = world.fake.new_channel("study");
    for (command, options) in [
        (
            "annotate",
            vec![Opt::sub("post", vec![Opt::focused("game", "")])],
        ),
        ("analyze", vec![Opt::focused("game", "")]),
    ] {
        let sent = world
            .fake
            .autocomplete(&alice, elsewhere, command, &options)
            .unwrap();
        let offered = world.reply(&sent).await.choices();
        assert_eq!(
            offered.iter().map(|(_, v)| v.clone()).collect::<Vec<_>>(),
            vec![game.to_string()],
            "/{command}: {offered:?}"
        );
        assert!(offered[0].0.contains("alice"), "{offered:?}");
    }
    let typed = world
        .fake
        .autocomplete(
            &bob,
            elsewhere,
            "annotate",
            &[Opt::sub("add", vec![Opt::focused("game", "999")])],
        )
        .unwrap();
    assert!(
        world.reply(&typed).await.choices().is_empty(),
        "only games whose number starts with what was typed"
    );

    let noted = world
        .slash(
            &alice,
            channel,
            "annotate",
            &add(game, 1, "@everyone the *decisive* move <@1234>"),
        )
        .await;
    assert!(noted.is_ephemeral(), "{}", noted.text());
    assert!(noted.text().contains("Noted on move 1"), "{}", noted.text());
    let refused = world
        .slash(&eve, channel, "annotate", &add(game, 1, "mine"))
        .await;
    assert!(
        refused.text().to_lowercase().contains("only the players"),
        "{}",
        refused.text()
    );
    let past = world
        .slash(&bob, channel, "annotate", &add(game, 9, "no such move"))
        .await;
    assert!(past.text().contains("9"), "{}", past.text());

    let posted = world
        .slash(
            &bob,
            channel,
            "annotate",
            &[Opt::sub("post", vec![Opt::integer("game", game)])],
        )
        .await;
    let text = posted.text();
    assert!(!posted.is_ephemeral(), "{text}");
    assert!(text.contains(&format!("Notes on game #{game}")), "{text}");
    assert!(text.contains("1. d1-b1: "), "{text}");
    assert!(text.contains("\\*decisive\\*"), "markdown escaped: {text}");
    assert!(!text.contains("<@1234>"), "a mention broken: {text}");
    pings_nobody(&posted);

    // Many long notes: over several messages, none longer than Discord takes.
    for i in 0..8 {
        world
            .slash(
                &alice,
                channel,
                "annotate",
                &add(game, 1, &format!("note {i} {}", "x".repeat(1_500))),
            )
            .await;
    }
    let sent = world
        .fake
        .slash(
            &alice,
            channel,
            "annotate",
            &[Opt::sub("post", vec![Opt::integer("game", game)])],
        )
        .unwrap();
    let token = sent.token.clone();
    let last = world
        .fake
        .recorder()
        .wait_for("the last note posted", WAIT, |r| {
            r.answers(&token) && r.text().contains("note 7 ")
        })
        .await
        .unwrap();
    pings_nobody(&last);
    let parts: Vec<Recorded> = world
        .fake
        .recorder()
        .all()
        .into_iter()
        .filter(|r| r.answers(&token) && r.text().contains("note "))
        .collect();
    assert!(parts.len() >= 2, "split over messages: {}", parts.len());
    for part in &parts {
        assert!(part.text().chars().count() <= 2_000, "{}", part.text());
    }
}
