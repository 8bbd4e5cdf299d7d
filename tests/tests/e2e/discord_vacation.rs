//! Vacation from Discord through the fake: `/vacation status|start|end` answered privately with
//! the balance in words, the opponent told in the game's channel when the clock stops and when
//! it runs again, refusals private and in words; and `/tournament create vacation:` allowing,
//! forbidding or capping vacation in a tournament's games, as HTTP and the web do.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot::domain::{PlayerId, TournamentId};
use taflbot::service::TournamentVacation;
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded};
use taflbot_e2e::world::World;

/// `/vacation <sub>` by `who` in `channel`.
async fn vacation(
    world: &World,
    who: &FakeUser,
    channel: u64,
    sub: &str,
    options: Vec<Opt>,
) -> Recorded {
    world
        .slash(who, channel, "vacation", &[Opt::sub(sub, options)])
        .await
}

#[tokio::test]
async fn vacation_is_taken_looked_at_and_ended_from_discord_and_the_opponent_is_told_in_the_game() {
    let world = World::start().await;
    let (astrid, ragnar) = (world.fake.new_user("Astrid"), world.fake.new_user("Ragnar"));
    let channel = world.fake.new_channel("tafl");
    let game = world.brandubh_game(channel, &astrid, &ragnar).await;

    let status = vacation(&world, &astrid, channel, "status", vec![]).await;
    assert!(status.is_ephemeral(), "{}", status.text());
    assert!(
        status.text().contains("0 of your 14 vacation days used"),
        "{}",
        status.text()
    );

    // Three days away: the answer is private, the opponent is told in the game's channel.
    let mark = world.fake.recorder().mark();
    let away = vacation(
        &world,
        &astrid,
        channel,
        "start",
        vec![Opt::integer("days", 3)],
    )
    .await;
    assert!(away.is_ephemeral(), "{}", away.text());
    assert!(
        away.text().contains("You are on vacation until"),
        "{}",
        away.text()
    );
    assert!(away.text().contains("3 of your 14"), "{}", away.text());
    let told = world
        .accepted_post_containing(mark, channel, "is on vacation until")
        .await;
    assert!(
        told.text().contains(&format!("game #{game}")),
        "{}",
        told.text()
    );
    let astrid_id = PlayerId(world.player_of(&astrid).await);
    let view = world
        .app
        .service
        .vacations()
        .status(astrid_id)
        .await
        .unwrap();
    assert!(view.vacation.is_some());

    // A second vacation, or more days than are left: refused privately, in words.
    let again = vacation(
        &world,
        &astrid,
        channel,
        "start",
        vec![Opt::integer("days", 1)],
    )
    .await;
    assert!(again.is_ephemeral());
    assert!(
        again.text().contains("already on vacation"),
        "{}",
        again.text()
    );
    let greedy = vacation(
        &world,
        &ragnar,
        channel,
        "start",
        vec![Opt::integer("days", 20)],
    )
    .await;
    assert!(greedy.is_ephemeral());
    assert!(
        greedy.text().contains("14 vacation days left of 14"),
        "{}",
        greedy.text()
    );

    // Back early: the clock runs again and the opponent is told.
    let mark = world.fake.recorder().mark();
    let back = vacation(&world, &astrid, channel, "end", vec![]).await;
    assert!(back.is_ephemeral());
    assert!(back.text().contains("Welcome back"), "{}", back.text());
    world
        .accepted_post_containing(mark, channel, "is back from vacation")
        .await;
    let view = world
        .app
        .service
        .vacations()
        .status(astrid_id)
        .await
        .unwrap();
    assert!(view.vacation.is_none());
    let twice = vacation(&world, &astrid, channel, "end", vec![]).await;
    assert!(twice.is_ephemeral());
    assert!(twice.text().contains("not on vacation"), "{}", twice.text());
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

/// The id in "... Tournament #7 · ..." of a `/tournament create` answer.
fn tournament_id_in(text: &str) -> i64 {
    text.split("Tournament #")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tournament id in {text}"))
}

#[tokio::test]
async fn tournament_create_allows_forbids_or_caps_vacation_in_its_games() {
    let world = World::start().await;
    let astrid = world.fake.new_user("Astrid");
    let channel = world.fake.new_channel("tafl");
    let create = async |vacation: Option<&str>| {
        let mut options = vec![
            Opt::string("name", "Yule cup"),
            Opt::string("format", "round robin"),
        ];
        options.extend(vacation.map(|v| Opt::string("vacation", v)));
        let command = [Opt::sub("create", options)];
        world.slash(&astrid, channel, "tournament", &command).await
    };
    for (asked, rule, words) in [
        (None, TournamentVacation::Allowed, "vacation allowed"),
        (
            Some("forbidden"),
            TournamentVacation::Forbidden,
            "no vacation",
        ),
        (
            Some("5 days"),
            TournamentVacation::MaxDays(5),
            "vacation up to 5 days per player",
        ),
    ] {
        let created = create(asked).await;
        assert!(!created.is_ephemeral(), "{}", created.text());
        assert!(
            created.text().contains(words),
            "{asked:?}: {}",
            created.text()
        );
        let id = TournamentId(tournament_id_in(&created.text()));
        let t = world.app.service.tournaments().get(id).await.unwrap();
        assert_eq!(t.vacation, rule, "{asked:?}");
    }
    // A rule it cannot read, or a cap over a year: refused privately, in words.
    for (bad, words) in [
        ("sometimes", "say allowed, forbidden, or the most days"),
        ("400", "at most 366 days"),
    ] {
        let refused = create(Some(bad)).await;
        assert!(refused.is_ephemeral(), "{bad}: {}", refused.text());
        assert!(refused.text().contains(words), "{bad}: {}", refused.text());
    }
    world.stop().await;
}
