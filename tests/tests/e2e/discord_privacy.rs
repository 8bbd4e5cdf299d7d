//! `/privacy` through the fake Discord: what is kept is shown privately, only its owner's
//! click erases it, and the erased player's finished game still shows for the opponent.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot::domain::PlayerId;
use taflbot_e2e::fake_discord::RouteKind;
use taflbot_e2e::world::{WAIT, World};

#[tokio::test]
async fn privacy_shows_what_is_kept_and_erases_it_keeping_the_opponents_game() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let game = world.brandubh_game(channel, &alice, &bob).await;
    world.slash(&alice, channel, "resign", &[]).await;
    let player = PlayerId(world.player_of(&alice).await);
    let token = world
        .app
        .service
        .accounts()
        .issue_api_token(player, "laptop")
        .await
        .unwrap()
        .token;

    let shown = world.slash(&alice, channel, "privacy", &[]).await;
    let text = shown.text();
    for kept in ["0 going on, 1 over", "1 API tokens", "alice"] {
        assert!(text.contains(kept), "{kept:?} is not in: {text}");
    }
    let erase = shown
        .button_starting_with("privacy:erase:")
        .expect("a Delete my data button");
    let message = shown.message.as_ref().expect("the private answer");

    // Someone else's click erases nothing.
    let click = world.fake.click(&bob, message, &erase).unwrap();
    let refused = world.fake.reply_to(&click, WAIT).await.unwrap();
    assert!(
        refused.text().contains("someone else"),
        "{}",
        refused.text()
    );

    let click = world.fake.click(&alice, message, &erase).unwrap();
    let token_of_click = click.token.clone();
    let done = world
        .fake
        .recorder()
        .wait_for("the erase's answer", WAIT, |r| {
            matches!(&r.kind, RouteKind::EditResponse { token, .. } if *token == token_of_click)
                && r.text().contains("Done")
        })
        .await
        .unwrap();
    assert!(done.accepted(), "{}", done.text());

    // The token is gone; the finished game shows both sides, alice renamed, for bob.
    let me = world
        .http
        .get(format!("{}/me", world.api()))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(me.status().as_u16(), 401);
    let seen = world
        .http
        .get(format!("{}/games/{game}", world.api()))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(seen.contains("Deleted player"), "{seen}");
    assert!(!seen.contains("\"alice\""), "{seen}");
    let history = world.slash(&bob, channel, "history", &[]).await;
    assert!(
        history.text().contains(&format!("#{game}")),
        "{}",
        history.text()
    );
    // Using the bot again starts a new player.
    assert_ne!(world.player_of(&alice).await, player.get());
    world.stop().await;
}
