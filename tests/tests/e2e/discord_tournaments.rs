//! `/tournament` through the fake Discord: one tournament joined from two servers and over
//! HTTP (as the web does), its news posted once in each server's channel, each game posted in
//! a thread of each of its players' servers (two servers, two threads, one game), a move made
//! in either thread shown in the other, the standings answered, refusals private and in words.
//! `/tournament create` with groups then knockout, a start time and a withdrawal rule (one that
//! annuls refused for Swiss). A copy's thread deleted
//! (told by THREAD_DELETE or found by a post) sends the copy back to its channel; a server that
//! removes the bot gets no posts of its copies until the bot is back.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot::domain::GameId;
use taflbot::service::Clock;
use taflbot_e2e::fake_discord::permissions::DEFAULT_EVERYONE_PERMISSIONS;
use taflbot_e2e::fake_discord::{
    CommandOption as Opt, FakeDiscord, FakeError, FakeUser, Recorded, RouteKind,
};
use taflbot_e2e::world::{WAIT, World};
use taflbot_test_support::eventually;

/// `/tournament <sub> tournament:<id>` by `who` in `channel`.
async fn tournament_command(
    world: &World,
    who: &FakeUser,
    channel: u64,
    sub: &str,
    id: i64,
) -> Recorded {
    world
        .slash(
            who,
            channel,
            "tournament",
            &[Opt::sub(sub, vec![Opt::integer("tournament", id)])],
        )
        .await
}

/// The id in "... Tournament #7 · ..." of a `/tournament create` answer.
fn tournament_id_in(text: &str) -> i64 {
    text.split("Tournament #")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tournament id in {text}"))
}

/// The posts the fake accepted in `channel` whose text holds `needle`.
fn accepted_posts_with(world: &World, channel: u64, needle: &str) -> Vec<Recorded> {
    world
        .fake
        .recorder()
        .all()
        .into_iter()
        .filter(|r| {
            r.kind
                == RouteKind::ChannelMessage {
                    channel_id: channel,
                }
                && r.accepted()
                && r.text().contains(needle)
        })
        .collect()
}

/// `who` plays `mv` with `/move` in `here`: the answer shows it, the other server's thread
/// `there` gets it from the outbox, and `here` gets no second post of it.
async fn move_shown_in_both(world: &World, who: &FakeUser, mv: &str, here: u64, there: u64) {
    let mark = world.fake.recorder().mark();
    let moved = world
        .slash(who, here, "move", &[Opt::string("move", mv)])
        .await;
    assert!(moved.text().contains(mv), "{}", moved.text());
    world.accepted_post_containing(mark, there, mv).await;
    world.wait_for_outbox_drained().await;
    let again: Vec<String> = world
        .channel_posts_after(mark, here)
        .iter()
        .map(Recorded::text)
        .collect();
    assert!(
        again.is_empty(),
        "the answer shows the move where it was made, no second post there: {again:?}"
    );
}

#[tokio::test]
async fn a_tournament_joined_from_two_servers_and_the_web_plays_each_game_in_a_thread_of_each_players_server()
 {
    let world = World::start().await;
    let (astrid, ragnar) = (world.fake.new_user("Astrid"), world.fake.new_user("Ragnar"));
    // Astrid plays from the test server, Ragnar from another.
    let north = world.fake.new_channel("tafl-north");
    world.fake.allow_threads(north);
    let south_server = world.fake.new_guild(DEFAULT_EVERYONE_PERMISSIONS);
    let south = world.fake.new_channel_in(south_server, "tafl-south");
    world.fake.allow_threads(south);

    let created = world
        .slash(
            &astrid,
            north,
            "tournament",
            &[Opt::sub(
                "create",
                vec![
                    Opt::string("name", "Yule **cup** @everyone"),
                    Opt::string("format", "round robin"),
                ],
            )],
        )
        .await;
    assert!(!created.is_ephemeral(), "{}", created.text());
    let text = created.text();
    assert!(
        !text.contains("**cup**"),
        "the name is shown literally: {text}"
    );
    let id = tournament_id_in(&text);

    // Astrid joins in the north, Ragnar in the south, a third player over HTTP.
    let joined = tournament_command(&world, &astrid, north, "join", id).await;
    assert!(joined.text().contains("joined"), "{}", joined.text());
    let joined = tournament_command(&world, &ragnar, south, "join", id).await;
    assert!(joined.text().contains("2 of 64"), "{}", joined.text());
    let again = tournament_command(&world, &ragnar, south, "join", id).await;
    assert!(again.is_ephemeral(), "a refusal is private");
    assert!(again.text().contains("already joined"), "{}", again.text());
    let web = world
        .app
        .service
        .accounts()
        .register("Wilma", None)
        .await
        .unwrap();
    let http = reqwest::Client::new();
    let answer = http
        .post(format!("{}/tournaments/{id}/join", world.api()))
        .bearer_auth(&web.token)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 200);

    // Only the organiser starts it.
    let refused = tournament_command(&world, &ragnar, south, "start", id).await;
    assert!(refused.is_ephemeral());
    assert!(
        refused.text().contains("nly the organiser"),
        "{}",
        refused.text()
    );
    let mark = world.fake.recorder().mark();
    let started = tournament_command(&world, &astrid, north, "start", id).await;
    assert!(started.text().contains("has started"), "{}", started.text());

    // Seeded by sign-up: round 1 is Ragnar (attackers) against Astrid, Wilma has the bye.
    // Each server's channel gets the round's news once, with its pairing.
    for channel in [north, south] {
        let news = world
            .accepted_post_containing(mark, channel, "round 1 has started")
            .await;
        assert!(news.text().contains("Wilma: a bye"), "{}", news.text());
    }
    // One game, a thread for it in each server, its start posted in both.
    let deadline = tokio::time::Instant::now() + taflbot_e2e::world::WAIT;
    while world.fake.threads_of(north).is_empty() || world.fake.threads_of(south).is_empty() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no thread in each server\nrecorded:\n{}",
            world.fake.recorder().dump()
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let north_thread = world.fake.threads_of(north)[0].id;
    let south_thread = world.fake.threads_of(south)[0].id;
    assert_ne!(north_thread, south_thread);
    assert_eq!(
        world.fake.threads_of(north)[0].name,
        "Ragnar vs Astrid · Brandubh"
    );
    world
        .accepted_post_containing(mark, north_thread, "begins")
        .await;
    world
        .accepted_post_containing(mark, south_thread, "begins")
        .await;
    world.wait_for_outbox_drained().await;
    assert_eq!(
        accepted_posts_with(&world, north, "round 1 has started").len(),
        1,
        "the news once per channel"
    );

    // Ragnar moves in his server's thread: answered there, posted in Astrid's; she answers in
    // hers, posted in his.
    move_shown_in_both(&world, &ragnar, "d1-b1", south_thread, north_thread).await;
    move_shown_in_both(&world, &astrid, "c4-c2", north_thread, south_thread).await;

    // The standings, from either server.
    let standings = tournament_command(&world, &ragnar, south, "standings", id).await;
    let text = standings.text();
    assert!(text.contains("standings (round 1)"), "{text}");
    assert!(
        text.contains("a withdrawal forfeits the games left"),
        "the rule, forfeit by default: {text}"
    );
    assert!(text.contains("Wilma"), "{text}");
    world.wait_for_outbox_drained().await;
    world.stop().await;
}

/// `/tournament create` by `who` in `channel` with `options` (the sub-command's).
async fn create(world: &World, who: &FakeUser, channel: u64, options: Vec<Opt>) -> Recorded {
    world
        .slash(who, channel, "tournament", &[Opt::sub("create", options)])
        .await
}

#[tokio::test]
async fn tournament_create_offers_groups_then_knockout_and_a_start_time_and_refuses_privately_in_words()
 {
    let world = World::start().await;
    let ada = world.fake.new_user("Ada");
    let channel = world.fake.new_channel("tafl");
    let now = world.clock.now_ms();

    // Groups then knockout without a size: the largest group is 4, as on the web form.
    let created = create(
        &world,
        &ada,
        channel,
        vec![
            Opt::string("name", "Groups cup"),
            Opt::string("format", "groups then knockout"),
            Opt::string("starts", "in 2 days"),
        ],
    )
    .await;
    let text = created.text();
    assert!(!created.is_ephemeral(), "{text}");
    assert!(
        text.contains("groups then knockout (groups of up to 4)"),
        "{text}"
    );
    assert!(text.contains("it starts by itself <t:"), "{text}");
    let id = tournament_id_in(&text);
    let t = world
        .app
        .service
        .tournaments()
        .get(taflbot::domain::TournamentId(id))
        .await
        .unwrap();
    assert_eq!(t.group_size, Some(4));
    assert_eq!(t.starts_at, Some(now + 2 * 86_400_000));

    // A size of its own and a date in UTC.
    let created = create(
        &world,
        &ada,
        channel,
        vec![
            Opt::string("name", "Small groups"),
            Opt::string("format", "groups then knockout"),
            Opt::integer("group_size", 3),
            Opt::string("starts", "9999-12-01 18:00"),
            Opt::string("withdrawal", "annul all their games"),
        ],
    )
    .await;
    assert!(
        created.text().contains("(groups of up to 3)"),
        "{}",
        created.text()
    );
    // The withdrawal rule asked for is the tournament's, and the answer says it.
    assert!(
        created
            .text()
            .contains("a withdrawal annuls all the player's games"),
        "{}",
        created.text()
    );
    let small = world
        .app
        .service
        .tournaments()
        .get(taflbot::domain::TournamentId(tournament_id_in(
            &created.text(),
        )))
        .await
        .unwrap();
    assert_eq!(small.withdrawal, taflbot::domain::WithdrawalRule::Annul);

    // Refusals: private, in words, nothing created.
    let before = world.app.service.tournaments().list().await.unwrap().len();
    for (options, words) in [
        (
            vec![Opt::string("starts", "tomorrow evening")],
            "`2026-12-01 18:00`",
        ),
        (
            vec![Opt::string("starts", "2001-01-01 12:00")],
            "has passed",
        ),
        (
            vec![Opt::integer("group_size", 3)],
            "only for groups then knockout",
        ),
    ] {
        let mut all = vec![
            Opt::string("name", "Refused cup"),
            Opt::string("format", "round robin"),
        ];
        all.extend(options);
        let refused = create(&world, &ada, channel, all).await;
        assert!(refused.is_ephemeral(), "{}", refused.text());
        assert!(refused.text().contains(words), "{}", refused.text());
    }
    // A Swiss tournament cannot annul a withdrawn player's games: refused the same way.
    let swiss = create(
        &world,
        &ada,
        channel,
        vec![
            Opt::string("name", "Refused cup"),
            Opt::string("format", "swiss"),
            Opt::integer("rounds", 3),
            Opt::string("withdrawal", "annul if under half played"),
        ],
    )
    .await;
    assert!(swiss.is_ephemeral(), "{}", swiss.text());
    assert!(
        swiss.text().contains("Swiss tournament cannot annul"),
        "{}",
        swiss.text()
    );
    assert_eq!(
        world.app.service.tournaments().list().await.unwrap().len(),
        before
    );
    world.stop().await;
}

/// A two-player tournament's one game, shown in two servers: Astrid joined from `north` (in
/// the test server), Ragnar from `south` (in another); each channel has a thread of the game.
struct TwoServerGame {
    astrid: FakeUser,
    ragnar: FakeUser,
    north: u64,
    north_thread: u64,
    south_thread: u64,
    game: i64,
    /// Whether Astrid has the attackers (who move first).
    astrid_attacks: bool,
}

impl TwoServerGame {
    async fn start(world: &World) -> TwoServerGame {
        let (astrid, ragnar) = (world.fake.new_user("Astrid"), world.fake.new_user("Ragnar"));
        let north = world.fake.new_channel("tafl-north");
        world.fake.allow_threads(north);
        let south_server = world.fake.new_guild(DEFAULT_EVERYONE_PERMISSIONS);
        let south = world.fake.new_channel_in(south_server, "tafl-south");
        world.fake.allow_threads(south);
        let created = create(
            world,
            &astrid,
            north,
            vec![
                Opt::string("name", "Two servers"),
                Opt::string("format", "round robin"),
            ],
        )
        .await;
        let id = tournament_id_in(&created.text());
        tournament_command(world, &astrid, north, "join", id).await;
        tournament_command(world, &ragnar, south, "join", id).await;
        let started = tournament_command(world, &astrid, north, "start", id).await;
        assert!(started.text().contains("has started"), "{}", started.text());
        eventually(WAIT, "a thread of the game in each server", || async {
            (!world.fake.threads_of(north).is_empty() && !world.fake.threads_of(south).is_empty())
                .then_some(())
        })
        .await;
        world.wait_for_outbox_drained().await;
        let t = world
            .app
            .service
            .tournaments()
            .get(taflbot::domain::TournamentId(id))
            .await
            .unwrap();
        let pairing = &t.rounds[0].games[0];
        TwoServerGame {
            astrid_attacks: pairing.attackers.0 == world.player_of(&astrid).await,
            game: pairing.game_id.unwrap().0,
            north_thread: world.fake.threads_of(north)[0].id,
            south_thread: world.fake.threads_of(south)[0].id,
            astrid,
            ragnar,
            north,
        }
    }

    /// Who moves at `ply` (0 the first): the attackers at even plies.
    fn mover(&self, ply: u32) -> &FakeUser {
        if ply.is_multiple_of(2) == self.astrid_attacks {
            &self.astrid
        } else {
            &self.ragnar
        }
    }
}

/// Moves of the game, attackers first, each legal after the ones before.
const LINE: [&str; 4] = ["d1-b1", "c4-c2", "a4-a2", "e4-e2"];

/// Waits until the copy of `game` in `north` has no thread any more.
async fn copy_back_in(world: &World, game: i64, north: u64) {
    let discord = world.app.service.discord();
    eventually(WAIT, "the copy back in its channel", || async {
        discord
            .mirror_without_thread(GameId(game), north)
            .await
            .unwrap()
            .map(|_| ())
    })
    .await;
}

/// Waits until the service knows the bot is out of (`out`) or back in the server of `channel`.
async fn server_left(world: &World, channel: u64, out: bool) {
    let discord = world.app.service.discord();
    eventually(WAIT, "the server's removal or return seen", || async {
        (discord.in_removed_server(channel).await.unwrap() == out).then_some(())
    })
    .await;
}

/// A copy's thread deleted by `delete` (with or without THREAD_DELETE): the copy goes back to
/// the channel it hangs off, and the next move is posted there, as a game's own thread does.
async fn a_deleted_copy_thread_goes_back_to_its_channel(
    delete: impl FnOnce(&FakeDiscord, u64) -> Result<(), FakeError>,
    told: bool,
) {
    let world = World::start().await;
    let g = TwoServerGame::start(&world).await;
    delete(&world.fake, g.north_thread).unwrap();
    if told {
        copy_back_in(&world, g.game, g.north).await;
    }
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(g.mover(0), g.game, LINE[0], 0).await, 200);
    world.accepted_post_containing(mark, g.north, LINE[0]).await;
    world
        .accepted_post_containing(mark, g.south_thread, LINE[0])
        .await;
    if told {
        assert!(
            world.channel_posts_after(mark, g.north_thread).is_empty(),
            "nothing is tried in the deleted thread"
        );
    }
    copy_back_in(&world, g.game, g.north).await;
    // And on: the next move is posted in the channel at once.
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(g.mover(1), g.game, LINE[1], 1).await, 200);
    world.accepted_post_containing(mark, g.north, LINE[1]).await;
    world.wait_for_outbox_drained().await;
    world.assert_clean();
    world.stop().await;
}

#[tokio::test]
async fn a_copys_thread_deleted_sends_the_copy_back_to_its_channel_at_once() {
    a_deleted_copy_thread_goes_back_to_its_channel(FakeDiscord::delete_thread_and_tell, true).await;
}

#[tokio::test]
async fn a_copys_thread_deleted_unseen_sends_the_copy_back_when_a_post_finds_it_gone() {
    a_deleted_copy_thread_goes_back_to_its_channel(FakeDiscord::delete_thread, false).await;
}

#[tokio::test]
async fn a_server_that_removes_the_bot_gets_no_posts_of_its_copies_until_the_bot_is_back() {
    let world = World::start().await;
    let g = TwoServerGame::start(&world).await;
    // The bot leaves the north server (the test server): the game goes on in the south.
    let removal = world.fake.remove_bot_from_guild().unwrap();
    server_left(&world, g.north, true).await;
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(g.mover(0), g.game, LINE[0], 0).await, 200);
    world
        .accepted_post_containing(mark, g.south_thread, LINE[0])
        .await;
    world.wait_for_outbox_drained().await;
    assert!(
        world.channel_posts_after(mark, g.north_thread).is_empty(),
        "nothing is sent to a server the bot is not in"
    );
    let view = world
        .app
        .service
        .games()
        .game(None, GameId(g.game))
        .await
        .unwrap();
    assert!(
        view.paused_at.is_none(),
        "the game itself goes on: it is played in both servers"
    );

    // Back in the server: the copy's posts resume with the next move.
    world.fake.add_bot_back(removal).unwrap();
    server_left(&world, g.north, false).await;
    let mark = world.fake.recorder().mark();
    assert_eq!(world.http_move(g.mover(1), g.game, LINE[1], 1).await, 200);
    world
        .accepted_post_containing(mark, g.north_thread, LINE[1])
        .await;
    world
        .accepted_post_containing(mark, g.south_thread, LINE[1])
        .await;
    world.wait_for_outbox_drained().await;
    world.stop().await;
}
