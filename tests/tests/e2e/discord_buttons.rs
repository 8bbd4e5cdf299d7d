//! The buttons under a game's posts, through the fake Discord: resign with its confirmation,
//! draws, flip, legal moves, the select-menu move picker, buttons of finished games, strangers
//! refused, `/board text:true`, and alt text on every board image.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use serde_json::Value;
use taflbot::domain::{GameId, GameStatus, ResultReason, Side};
use taflbot_e2e::fake_discord::{CommandOption as Opt, FakeUser, Recorded};
use taflbot_e2e::world::{World, game_id_in};

/// `challenger` (attackers) challenges `opponent` to `variant` here and `opponent` accepts;
/// returns the game and the start post (with the game's buttons).
/// A game between alice (attackers) and bob in the test channel, and its start post.
struct Table {
    world: World,
    alice: FakeUser,
    bob: FakeUser,
    channel: u64,
    id: i64,
    post: Value,
}

async fn table(variant: &str) -> Table {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let (id, post) = game_with_post(&world, channel, &alice, &bob, variant).await;
    Table {
        world,
        alice,
        bob,
        channel,
        id,
        post,
    }
}

async fn game_with_post(
    world: &World,
    channel: u64,
    challenger: &FakeUser,
    opponent: &FakeUser,
    variant: &str,
) -> (i64, Value) {
    let challenge = world
        .slash(
            challenger,
            channel,
            "challenge",
            &[
                Opt::user("opponent", opponent),
                Opt::string("variant", variant),
                Opt::string("side", "attackers"),
            ],
        )
        .await;
    let accept = challenge.button_starting_with("challenge:accept:").unwrap();
    let accepted = click(
        world,
        opponent,
        challenge.message.as_ref().unwrap(),
        &accept,
    )
    .await;
    let game = game_id_in(&accepted.text());
    let post = accepted.message.clone().expect("the start post is stored");
    (game, post)
}

/// `who` clicks `custom_id` on `message`; returns the bot's answer.
async fn click(world: &World, who: &FakeUser, message: &Value, custom_id: &str) -> Recorded {
    let sent = world.fake.click(who, message, custom_id).unwrap();
    world.reply(&sent).await
}

/// `who` picks `value` in the select menu of `on`; returns the bot's answer.
async fn pick(world: &World, who: &FakeUser, on: &Recorded, value: &str) -> Recorded {
    let (menu, _) = on.select_menu().expect("a select menu");
    let message = on.message.as_ref().expect("the menu's message is stored");
    let sent = world.fake.select(who, message, &menu, &[value]).unwrap();
    world.reply(&sent).await
}

async fn game(world: &World, id: i64) -> taflbot::service::GameView {
    world
        .app
        .service
        .games()
        .game(None, GameId(id))
        .await
        .unwrap()
}

/// Every board image the bot sent in this test was described for screen readers (the fake
/// also refuses one without; this says it over the whole recording).
fn assert_every_board_described(world: &World) {
    let mut boards = 0;
    for request in world.fake.recorder().all() {
        let images = request.png_attachments().count();
        if images == 0 {
            continue;
        }
        boards += images;
        let described = request.attachment_descriptions();
        assert_eq!(
            described.len(),
            images,
            "{} {}",
            request.method,
            request.path
        );
        for alt in described {
            assert!(
                alt.contains("Tafl board") || alt.contains("Start position"),
                "{alt}"
            );
            assert!(alt.chars().count() <= 1024);
        }
    }
    assert!(boards > 0, "the test sent boards");
}

#[tokio::test]
async fn resign_asks_first_no_keeps_the_game_and_yes_ends_it_with_a_rematch_button() {
    let Table {
        world,
        alice,
        bob: _,
        channel,
        id,
        post,
    } = table("brandubh").await;
    let resign = format!("game:resign:{id}");
    assert!(
        post.to_string().contains(&resign),
        "the start post has the game's buttons: {post}"
    );

    let ask = click(&world, &alice, &post, &resign).await;
    assert!(ask.is_ephemeral(), "{}", ask.text());
    assert!(ask.text().contains(&format!("Really resign game #{id}?")));
    let confirm = ask.message.clone().unwrap();
    let no = click(&world, &alice, &confirm, &format!("game:resign-no:{id}")).await;
    assert_eq!(no.callback_type(), Some(7), "the question is replaced");
    assert!(no.text().contains("goes on"), "{}", no.text());
    assert!(game(&world, id).await.status.is_active());

    let ask = click(&world, &alice, &post, &resign).await;
    let mark = world.fake.recorder().mark();
    let yes = click(
        &world,
        &alice,
        ask.message.as_ref().unwrap(),
        &format!("game:resign-yes:{id}"),
    )
    .await;
    assert!(yes.text().contains("You resigned"), "{}", yes.text());
    let over = game(&world, id).await;
    assert_eq!(over.status, GameStatus::Finished);
    let result = over.result.unwrap();
    assert_eq!(
        (result.winner, result.reason),
        (Some(Side::Defenders), ResultReason::Resignation)
    );
    let end = world
        .accepted_post_after(mark, channel, "the end post")
        .await;
    assert!(end.text().contains("resignation"), "{}", end.text());
    let alt = &end.attachment_descriptions()[0];
    assert!(
        alt.ends_with("Game over: Defenders win (resignation)."),
        "{alt}"
    );
    assert_eq!(end.button_ids(), vec![format!("game:rematch:{id}")]);

    assert_every_board_described(&world);
    world.stop().await;
}

#[tokio::test]
async fn draws_are_offered_declined_and_accepted_with_buttons() {
    let Table {
        world,
        alice,
        bob,
        channel,
        id,
        post,
    } = table("brandubh").await;

    let mark = world.fake.recorder().mark();
    let offered = click(&world, &alice, &post, &format!("game:draw-offer:{id}")).await;
    assert!(offered.is_ephemeral(), "{}", offered.text());
    let offer = world
        .accepted_post_after(mark, channel, "the draw offer")
        .await;
    assert!(offer.text().contains(&bob.mention()), "{}", offer.text());
    assert_eq!(
        offer.button_ids(),
        vec![
            format!("game:draw-accept:{id}"),
            format!("game:draw-decline:{id}")
        ]
    );
    let offer_message = offer.message.clone().unwrap();

    // The offerer cannot accept their own offer; the service says why.
    let own = click(
        &world,
        &alice,
        &offer_message,
        &format!("game:draw-accept:{id}"),
    )
    .await;
    assert!(own.is_ephemeral(), "{}", own.text());
    assert!(game(&world, id).await.status.is_active());

    let mark = world.fake.recorder().mark();
    let declined = click(
        &world,
        &bob,
        &offer_message,
        &format!("game:draw-decline:{id}"),
    )
    .await;
    assert!(declined.is_ephemeral(), "{}", declined.text());
    let news = world
        .accepted_post_after(mark, channel, "the refusal")
        .await;
    assert!(news.text().contains("declined"), "{}", news.text());
    assert_eq!(game(&world, id).await.draw_offer_by, None);

    let mark = world.fake.recorder().mark();
    click(&world, &alice, &post, &format!("game:draw-offer:{id}")).await;
    let offer = world
        .accepted_post_after(mark, channel, "the second offer")
        .await;
    click(
        &world,
        &bob,
        offer.message.as_ref().unwrap(),
        &format!("game:draw-accept:{id}"),
    )
    .await;
    let over = game(&world, id).await;
    assert_eq!(over.status, GameStatus::Finished);
    assert_eq!(over.result.unwrap().reason, ResultReason::DrawAgreed);

    world.stop().await;
}

#[tokio::test]
async fn flip_shows_the_presser_a_turned_board_and_board_flip_is_remembered() {
    let Table {
        world,
        alice,
        bob,
        channel,
        id,
        post,
    } = table("brandubh").await;
    let flip = format!("game:flip:{id}");

    let flipped = click(&world, &bob, &post, &flip).await;
    assert!(flipped.is_ephemeral(), "{}", flipped.text());
    assert!(flipped.text().contains("other edge"), "{}", flipped.text());
    let turned = flipped.png_attachments().next().unwrap().bytes.clone();
    assert!(flipped.attachment_descriptions()[0].contains("flipped"));

    // The preference: bob's private boards are drawn turned round from now on...
    let board = world
        .slash(&bob, channel, "board", &[Opt::boolean("flip", true)])
        .await;
    assert!(board.is_ephemeral(), "a preference answers privately");
    assert!(board.text().contains("turned round"), "{}", board.text());
    assert_eq!(board.png_attachments().next().unwrap().bytes, turned);
    // ...so his Flip shows the usual way round, like the public board.
    let back = click(&world, &bob, &post, &flip).await;
    assert!(back.text().contains("usual way"), "{}", back.text());
    let public = world.slash(&alice, channel, "board", &[]).await;
    assert!(!public.is_ephemeral());
    assert_eq!(
        back.png_attachments().next().unwrap().bytes,
        public.png_attachments().next().unwrap().bytes
    );
    // Alice's preference is her own.
    let hers = click(&world, &alice, &post, &flip).await;
    assert_eq!(hers.png_attachments().next().unwrap().bytes, turned);

    assert_every_board_described(&world);
    world.stop().await;
}

#[tokio::test]
async fn legal_moves_for_the_player_to_move_and_not_your_turn_for_the_other() {
    let Table {
        world,
        alice,
        bob,
        channel: _,
        id,
        post,
    } = table("brandubh").await;
    let legal = world
        .app
        .service
        .games()
        .legal_moves(GameId(id), None)
        .await
        .unwrap();

    let mine = click(&world, &alice, &post, &format!("game:legal:{id}")).await;
    assert!(mine.is_ephemeral());
    assert!(
        mine.text()
            .contains(&format!("Your {} legal moves", legal.len())),
        "{}",
        mine.text()
    );
    assert!(legal.iter().all(|m| mine.text().contains(m.as_str())));

    let theirs = click(&world, &bob, &post, &format!("game:legal:{id}")).await;
    assert!(theirs.is_ephemeral());
    assert!(theirs.text().contains("not your turn"), "{}", theirs.text());

    world.stop().await;
}

#[tokio::test]
async fn a_third_user_is_refused_every_game_button() {
    let world = World::start().await;
    let (alice, bob, carol) = (
        world.fake.new_user("alice"),
        world.fake.new_user("bob"),
        world.fake.new_user("carol"),
    );
    let channel = world.fake.channel();
    let (id, post) = game_with_post(&world, channel, &alice, &bob, "brandubh").await;
    for verb in ["resign", "pick", "legal", "flip", "draw-offer"] {
        let refused = click(&world, &carol, &post, &format!("game:{verb}:{id}")).await;
        assert!(refused.is_ephemeral(), "{verb}: {}", refused.text());
        assert!(
            refused.text().contains("Only the players"),
            "{verb}: {}",
            refused.text()
        );
    }
    // A forged confirmation is refused by the service itself.
    let forged = click(&world, &carol, &post, &format!("game:resign-yes:{id}")).await;
    assert!(forged.is_ephemeral(), "{}", forged.text());
    assert!(game(&world, id).await.status.is_active());

    world.stop().await;
}

#[tokio::test]
async fn the_move_picker_pages_the_pieces_and_plays_a_legal_move_as_move_does() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    // 15x15: 24 attackers can move at the start, more than one menu's 23 choices.
    let (id, post) = game_with_post(&world, channel, &alice, &bob, "hnefatafl-15").await;
    let legal = world
        .app
        .service
        .games()
        .legal_moves(GameId(id), None)
        .await
        .unwrap();

    let not_yet = click(&world, &bob, &post, &format!("game:pick:{id}")).await;
    assert!(
        not_yet.text().contains("not your turn"),
        "{}",
        not_yet.text()
    );

    let pieces = click(&world, &alice, &post, &format!("game:pick:{id}")).await;
    assert!(pieces.is_ephemeral());
    let (menu, first_page) = pieces.select_menu().unwrap();
    assert_eq!(menu, format!("pick:from:{id}:0"));
    assert_eq!(first_page.len(), 24, "23 pieces and more…: {first_page:?}");
    assert_eq!(first_page.last().unwrap(), "page:1");
    let second = pick(&world, &alice, &pieces, "page:1").await;
    assert_eq!(second.callback_type(), Some(7), "the menu is replaced");
    let (_, second_page) = second.select_menu().unwrap();
    assert_eq!(second_page[0], "page:0", "earlier… first: {second_page:?}");
    let last_piece = second_page[1].clone();
    let from_squares: std::collections::HashSet<String> = first_page[..23]
        .iter()
        .chain(std::iter::once(&last_piece))
        .cloned()
        .collect();
    assert_eq!(from_squares.len(), 24, "every movable piece once");

    let targets = pick(&world, &alice, &second, &last_piece).await;
    let (menu, destinations) = targets.select_menu().unwrap();
    assert_eq!(menu, format!("pick:to:{id}:0:{last_piece}"));
    assert_eq!(destinations.last().unwrap(), "back");
    let to = destinations[0].clone();
    let chosen = format!("{last_piece}-{to}");
    assert!(legal.contains(&chosen), "{chosen} in {legal:?}");

    let played = pick(&world, &alice, &targets, &to).await;
    assert_eq!(
        played.callback_type(),
        Some(4),
        "the move is shown to the channel"
    );
    assert!(!played.is_ephemeral());
    assert!(played.text().contains(&chosen), "{}", played.text());
    assert!(played.text().contains(&bob.mention()), "{}", played.text());
    assert_eq!(played.png_attachments().count(), 1);
    let alt = &played.attachment_descriptions()[0];
    assert!(alt.contains("15 by 15"), "{alt}");
    assert!(
        alt.contains(&format!("Last move: attackers played {chosen}")),
        "{alt}"
    );
    assert!(alt.contains("the king on h8"), "{alt}");
    assert!(alt.ends_with("Defenders to move."), "{alt}");
    assert_eq!(game(&world, id).await.ply, 1);

    // The same menu again is stale: refused, nothing played.
    let stale = pick(&world, &alice, &targets, &destinations[1]).await;
    assert!(stale.is_ephemeral(), "{}", stale.text());
    assert!(stale.text().contains("moved on"), "{}", stale.text());
    assert_eq!(game(&world, id).await.ply, 1);

    assert_every_board_described(&world);
    world.stop().await;
}

#[tokio::test]
async fn buttons_of_a_finished_game_say_so_and_come_off_the_post() {
    let Table {
        world,
        alice,
        bob,
        channel,
        id,
        post,
    } = table("brandubh").await;
    world.slash(&alice, channel, "resign", &[]).await;
    let late = click(&world, &bob, &post, &format!("game:legal:{id}")).await;
    assert!(late.is_ephemeral());
    assert!(late.text().contains("is over"), "{}", late.text());
    let post_id: u64 = post["id"].as_str().unwrap().parse().unwrap();
    let edited = world
        .fake
        .recorder()
        .wait_for(
            "the finished post's buttons taken off",
            taflbot_e2e::world::WAIT,
            |r| {
                r.accepted()
                    && r.path.ends_with(&format!("/messages/{post_id}"))
                    && r.method == "PATCH"
            },
        )
        .await
        .unwrap();
    assert!(edited.button_ids().is_empty());
    let stored = world.fake.message(post_id).unwrap();
    assert_eq!(stored["components"], serde_json::json!([]));

    world.stop().await;
}

#[tokio::test]
async fn board_as_text_on_the_smallest_and_the_largest_board() {
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let small = world.fake.new_channel("small");
    let large = world.fake.new_channel("large");
    game_with_post(&world, small, &alice, &bob, "brandubh").await;
    game_with_post(&world, large, &alice, &bob, "hnefatafl-15").await;

    let text = world
        .slash(&alice, small, "board", &[Opt::boolean("text", true)])
        .await;
    assert_eq!(
        text.png_attachments().count(),
        0,
        "text instead of the image"
    );
    let content = text.content();
    assert!(content.starts_with("```\n    a b c d e f g\n"), "{content}");
    // Brandubh: corners and the throne marked, the king on the throne (d4), rank 1 last.
    assert!(content.contains("\n 7  X . . A . . X  7\n"), "{content}");
    assert!(content.contains("\n 4  A A D K D A A  4\n"), "{content}");
    assert!(content.contains("\n 1  X . . A . . X  1\n"), "{content}");
    assert!(content.contains("# throne"), "{content}");

    let text = world
        .slash(&alice, large, "board", &[Opt::boolean("text", true)])
        .await;
    let content = text.content();
    assert!(content.chars().count() <= 2000);
    // 15x15, escape on any edge square: no corners to mark; the king on the throne (h8).
    assert!(
        content.contains("    a b c d e f g h i j k l m n o\n15  . . . . . A A A A A"),
        "{content}"
    );
    assert!(
        content.contains("\n 8  A A A A D D D K D D D A A A A  8\n"),
        "{content}"
    );
    assert!(content.contains("\n 1  . . . . . A A A A A"), "{content}");

    world.stop().await;
}

/// 15x15 with the king on the throne and two attackers, each alone on its rank and file: 28
/// destinations each, more than one menu holds. (Rows from rank 1: c3 and m13.)
const OPEN_LINES_15: &str = "dim:15 esc:c surf:y atkf:y tfr:l ka:y ks:c cor:a1,o1,a15,o15, cen:h8, \
    afor: dfor: corh:tTK corp:K cors:K corre:tTK cenh:t cenhe:tTK cenp:tTK cens:K cenre:tTK \
    aforh:TK aforp:tTK afors:tTK aforre:tTK dforh:t dforp:TK dfors:TK dforre:tTK sw:n swf:y \
    efe:n linc:n xdf:y start:/15/15/2t12/15/15/15/15/7K7/15/15/15/15/12t2/15/15/";

#[tokio::test]
async fn the_move_picker_pages_a_pieces_destinations_beyond_one_menu() {
    use taflbot::domain::PlayerId;
    use taflbot::service::{ClockSpec, NewChallenge, Opponent, Place, RulesChoice, SideChoice};
    let world = World::start().await;
    let (alice, bob) = (world.fake.new_user("alice"), world.fake.new_user("bob"));
    let channel = world.fake.channel();
    let (a, b) = (
        PlayerId(world.player_of(&alice).await),
        PlayerId(world.player_of(&bob).await),
    );
    let request = NewChallenge {
        opponent: Opponent::Player(b),
        rules: RulesChoice::Rules(OPEN_LINES_15.to_owned()),
        side: SideChoice::Attackers,
        clock: ClockSpec::Unlimited {},
        context: Some(Place::DiscordChannel(channel)),
        rated: None,
        private: false,
    };
    let service = &world.app.service;
    let created = service.challenges().create(a, request).await.unwrap();
    let game = service
        .challenges()
        .accept(b, created.challenge.id)
        .await
        .unwrap()
        .id;
    let board = world.slash(&alice, channel, "board", &[]).await;
    let post = board.message.clone().unwrap();

    let pieces = click(&world, &alice, &post, &format!("game:pick:{game}")).await;
    assert_eq!(pieces.select_menu().unwrap().1, vec!["c3", "m13"]);
    let first = pick(&world, &alice, &pieces, "c3").await;
    let (_, page_one) = first.select_menu().unwrap();
    assert_eq!(
        page_one.len(),
        24,
        "23 destinations and more…: {page_one:?}"
    );
    assert_eq!(page_one.last().unwrap(), "page:1");
    let second = pick(&world, &alice, &first, "page:1").await;
    let (_, page_two) = second.select_menu().unwrap();
    assert_eq!(page_two.first().unwrap(), "page:0");
    assert_eq!(page_two.last().unwrap(), "back");
    let shown: std::collections::BTreeSet<String> = page_one[..23]
        .iter()
        .chain(&page_two[1..page_two.len() - 1])
        .map(|to| format!("c3-{to}"))
        .collect();
    let legal: std::collections::BTreeSet<String> = service
        .games()
        .legal_moves(game, Some("c3"))
        .await
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(legal.len(), 28);
    assert_eq!(shown, legal, "every destination once, over two pages");

    let back = pick(&world, &alice, &second, "back").await;
    assert_eq!(back.select_menu().unwrap().1, vec!["c3", "m13"]);
    let again = pick(&world, &alice, &back, "c3").await;
    let last = pick(&world, &alice, &again, "page:1").await;
    let to = last.select_menu().unwrap().1[1].clone();
    let played = pick(&world, &alice, &last, &to).await;
    assert!(
        played.text().contains(&format!("c3-{to}")),
        "{}",
        played.text()
    );
    assert_eq!(service.games().game(None, game).await.unwrap().ply, 1);

    world.stop().await;
}
