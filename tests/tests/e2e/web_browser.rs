//! The web client in a real browser: headless Chromium over WebDriver (chromedriver), against
//! the real app on port 0. One chromedriver serves the whole file; every test has its own
//! browsers and app. A missing browser fails the tests (see `taflbot_e2e::web`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::{Client, Locator};
use taflbot_e2e::web::{
    WebApp, assert_not_reloaded, browser, click, dark_browser, mark_page, screenshot,
    screenshot_as_scrolled, sign_in, wait_for, wait_for_text,
};

/// A board square of the page.
async fn square(client: &Client, name: &str) -> fantoccini::elements::Element {
    wait_for(client, &format!("#live rect[data-sq='{name}']")).await
}

/// Plays `from`-`to` by clicking the two squares (the second only once it is shown as a
/// destination).
async fn click_move(client: &Client, from: &str, to: &str) {
    click(client, &format!("#live rect[data-sq='{from}']")).await;
    wait_for(
        client,
        &format!("#live g.hints circle.dest[data-hint='{to}']"),
    )
    .await;
    click(client, &format!("#live rect[data-sq='{to}']")).await;
}

/// Plays `from`-`to` by dragging the piece onto the destination with the mouse.
async fn drag_move(client: &Client, from: &str, to: &str) {
    use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
    let (start, end) = (square(client, from).await, square(client, to).await);
    let at = |element| PointerAction::MoveToElement {
        element,
        duration: None,
        x: 0.0,
        y: 0.0,
    };
    let drag = MouseActions::new("mouse".into())
        .then(at(start))
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(at(end))
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(drag).await.expect("drag the piece");
}

/// Types a move in the move box and presses Enter.
async fn type_move(client: &Client, text: &str) {
    let input = wait_for(client, "#move-text").await;
    input.clear().await.expect("clear the move box");
    input
        .send_keys(&format!("{text}\n"))
        .await
        .expect("type the move");
}

/// Waits until the page shows the game after `ply` moves, live.
async fn wait_for_ply(client: &Client, ply: u32) {
    wait_for(
        client,
        &format!("#live[data-last-ply='{ply}'][data-ply='{ply}']"),
    )
    .await;
}

/// Opens a game's page and waits until its live stream is open.
async fn open_game(client: &Client, app: &WebApp, game: impl std::fmt::Display) {
    client
        .goto(&app.url(&format!("/games/{game}")))
        .await
        .expect("the game page opens");
    wait_for(client, "[data-game][data-live='open']").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_sign_in_with_links_and_see_each_others_moves_live() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let (a, b) = (browser(1100).await, browser(1100).await);
    sign_in(&a, &app.login_link(&ada).await).await;
    sign_in(&b, &app.login_link(&bob).await).await;
    // My games: Ada's turn is marked.
    wait_for(&a, &format!("tr.mine[data-game='{game}']")).await;
    screenshot(&a, "my-games").await;

    // The row's game link opens the game (the players' names beside it are links of their own).
    click(&a, &format!("tr.mine[data-game='{game}'] a.open-game")).await;
    wait_for(&a, &format!("[data-game='{game}'][data-live='open']")).await;
    open_game(&b, &app, game).await;
    // Ada (attackers) moves by clicking; Bob's page shows it without a reload.
    mark_page(&b).await;
    click_move(&a, "d1", "c1").await;
    wait_for_ply(&a, 1).await;
    wait_for_ply(&b, 1).await;
    wait_for_text(&b, "#live .status", "Your turn").await;
    assert_not_reloaded(&b, "Bob's").await;
    // Bob answers in the move box, in the forgiving notation; Ada sees it arrive.
    type_move(&b, "D3 E3").await;
    wait_for_ply(&b, 2).await;
    wait_for_ply(&a, 2).await;
    // One line per turn, numbered as the PNG caption and the .otg record: 1. d1-c1 d3-e3.
    let turn = wait_for_text(&a, "#live ol.moves li[value='1']", "d3-e3").await;
    assert!(turn.contains("d1-c1"), "{turn}");
    screenshot(&a, "game").await;

    // Stepping back with the arrow key shows the start; the end comes back with End.
    a.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E012}")
        .await
        .unwrap();
    wait_for(&a, "#live[data-ply='1'][data-last-ply='2']").await;
    a.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E010}")
        .await
        .unwrap();
    wait_for(&a, "#live[data-ply='2'][data-last-ply='2']").await;
    // Flip: a1 goes to the top right, and moves still play on the turned board.
    click(&a, "#flip").await;
    wait_for(&a, "#live svg[data-flip='true']").await;
    click_move(&a, "d2", "a2").await;
    wait_for_ply(&b, 3).await;
    wait_for(&a, "#live[data-last-ply='3'] svg[data-flip='true']").await;

    a.close().await.unwrap();
    b.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_illegal_move_shows_the_engines_reason_in_place() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    open_game(&a, &app, game).await;
    // d1 cannot jump the attacker on d2.
    type_move(&a, "d1-d3").await;
    let shown = wait_for_text(&a, "#move-error", "illegal move").await;
    assert!(
        shown.len() > "illegal move: ".len(),
        "no reason given: {shown:?}"
    );
    // Nothing was played.
    wait_for(&a, "#live[data-last-ply='0']").await;
    a.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_ai_is_started_from_the_new_game_page_and_played_to_its_end_by_drag() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    a.goto(&app.url("/challenges/new")).await.unwrap();
    click(&a, "input[name='opponent'][value='ai']").await;
    click(&a, "select[name='variant'] option[value='brandubh']").await;
    // The chosen variant's start picture and rules summary follow the choice.
    wait_for(&a, "img#variant-start[src='/variants/brandubh/start.svg']").await;
    wait_for_text(&a, "#variant-summary", "7x7").await;
    click(&a, "select[name='side'] option[value='attackers']").await;
    screenshot(&a, "new-game").await;
    play_the_ai_and_resign(&a).await;
    // Ada's page lists the finished game.
    a.goto(&app.url(&format!("/players/{}", ada.handle)))
        .await
        .unwrap();
    wait_for_text(&a, "main", "The defenders won: the attackers resigned").await;
    a.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_used_sign_in_link_is_refused() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let link = app.login_link(&ada).await;
    let first = browser(1100).await;
    sign_in(&first, &link).await;
    let second = browser(1100).await;
    second.goto(&link).await.unwrap();
    click(&second, "#sign-in").await;
    wait_for_text(&second, "p.error", "used already or has expired").await;
    // Not signed in there.
    assert!(
        second
            .find(Locator::Css("header .who a[href^='/players/']"))
            .await
            .is_err()
    );
    first.close().await.unwrap();
    second.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_follows_a_public_game_without_signing_in() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let watcher = browser(1100).await;
    open_game(&watcher, &app, game).await;
    // A spectator has no move box and no buttons.
    assert!(watcher.find(Locator::Css("#move-text")).await.is_err());
    app.service()
        .games()
        .play(
            ada.id,
            game,
            taflbot::service::MoveRequest {
                text: "d1-c1".into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    wait_for_ply(&watcher, 1).await;
    wait_for_text(&watcher, "#live .status", "Defenders to move").await;
    watcher.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_fit_a_phone_and_the_board_can_be_played_there() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let phone = browser(375).await;
    sign_in(&phone, &app.login_link(&ada).await).await;
    for path in [
        "/".to_owned(),
        format!("/games/{game}"),
        "/challenges/new".to_owned(),
        "/variants/brandubh".to_owned(),
        format!("/players/{}", ada.handle),
        "/games".to_owned(),
        "/leaderboards".to_owned(),
        "/leaderboards/brandubh".to_owned(),
        "/players?q=a".to_owned(),
        "/variants".to_owned(),
    ] {
        phone.goto(&app.url(&path)).await.unwrap();
        wait_for(&phone, "main").await;
        let width = phone
            .execute("return document.documentElement.scrollWidth", vec![])
            .await
            .unwrap();
        let viewport = phone
            .execute("return window.innerWidth", vec![])
            .await
            .unwrap();
        assert!(
            width.as_u64() <= viewport.as_u64(),
            "{path} scrolls sideways on a phone: {width} px wide in {viewport}"
        );
    }
    phone.goto(&app.url("/variants/brandubh")).await.unwrap();
    wait_for(&phone, "svg.board").await;
    screenshot(&phone, "variant-phone").await;
    open_game(&phone, &app, game).await;
    click_move(&phone, "d1", "c1").await;
    wait_for_ply(&phone, 1).await;
    screenshot(&phone, "game-phone").await;
    phone
        .goto(&app.url(&format!("/players/{}", ada.handle)))
        .await
        .unwrap();
    wait_for(&phone, "main h1").await;
    screenshot(&phone, "player-phone").await;
    phone.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_arrives_on_my_games_live_and_accepting_it_opens_the_game() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let b = browser(1100).await;
    sign_in(&b, &app.login_link(&bob).await).await;
    wait_for(&b, "#my-games[data-live='open']").await;
    // Ada challenges Bob from the API side; Bob's list shows it without a reload.
    app.service()
        .challenges()
        .create(
            ada.id,
            taflbot::service::NewChallenge {
                opponent: taflbot::service::Opponent::Player(bob.id),
                rules: taflbot::service::RulesChoice::Variant("brandubh".into()),
                side: taflbot::service::SideChoice::Attackers,
                clock: taflbot::service::ClockSpec::days_per_move(3),
                context: None,
                rated: None,
                private: false,
            },
        )
        .await
        .unwrap();
    let accept = wait_for(&b, "li[data-challenge] form[action$='/accept'] button").await;
    screenshot(&b, "challenges").await;
    accept.click().await.unwrap();
    wait_for(&b, "[data-game][data-live='open']").await;
    wait_for_text(&b, "#live .status", "Attackers to move").await;
    // The game is now on both players' lists.
    let games = app.service().games().list_games(bob.id).await.unwrap();
    assert_eq!(games.len(), 1);
    b.close().await.unwrap();
}

/// What `js` answers in the page.
async fn evaluate(client: &Client, js: &str) -> String {
    client
        .execute(js, vec![])
        .await
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// A system that asks for dark pages gets a dark page (the board renderer's dark colours) and
/// dark boards, also after a move; a light one gets the light ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dark_system_gets_dark_pages_and_boards() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let background = "getComputedStyle(document.documentElement).backgroundColor";
    // The colour of a plain square (b1: no throne, corner or fort on brandubh).
    let square = "document.querySelector('#live rect[data-sq=b1]').getAttribute('fill')";
    let light = browser(1100).await;
    open_game(&light, &app, game).await;
    assert_eq!(
        evaluate(&light, &format!("return {background}")).await,
        "rgb(244, 238, 226)"
    );
    assert_eq!(
        evaluate(&light, &format!("return {square}")).await,
        "#ebd3a4"
    );
    light.close().await.unwrap();

    let dark = dark_browser(1100).await;
    sign_in(&dark, &app.login_link(&ada).await).await;
    open_game(&dark, &app, game).await;
    assert_eq!(
        evaluate(&dark, &format!("return {background}")).await,
        "rgb(23, 25, 30)"
    );
    // The page comes with the light board (the server cannot know); the script swaps in the
    // dark one as soon as it is live.
    wait_for(&dark, "#live rect[data-sq=b1][fill='#4a5366']").await;
    click_move(&dark, "d1", "c1").await;
    wait_for_ply(&dark, 1).await;
    assert_eq!(
        evaluate(&dark, &format!("return {square}")).await,
        "#4a5366"
    );
    screenshot(&dark, "game-dark").await;
    dark.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_another_session_from_my_sessions_signs_that_browser_out() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let (laptop, phone) = (browser(1100).await, browser(1100).await);
    sign_in(&laptop, &app.login_link(&ada).await).await;
    sign_in(&phone, &app.login_link(&ada).await).await;

    laptop.goto(&app.url("/me/sessions")).await.unwrap();
    wait_for_text(&laptop, "#sessions tr.current", "this session").await;
    screenshot(&laptop, "my-sessions").await;
    click(&laptop, "#sessions tr[data-session]:not(.current) button").await;
    // Back on the list, which holds only this browser's session now.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let rows = laptop
            .execute(
                "return document.querySelectorAll('#sessions tr[data-session]').length",
                vec![],
            )
            .await
            .unwrap();
        if rows == serde_json::json!(1) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the other session is still listed: {rows} rows"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    wait_for(&laptop, "#sessions tr.current").await;

    // The phone is signed out: its next page asks it to sign in.
    phone.goto(&app.url("/")).await.unwrap();
    wait_for(&phone, "input[name='token']").await;
    assert!(
        phone
            .find(Locator::Css("header .who a[href^='/players/']"))
            .await
            .is_err(),
        "the phone is still signed in"
    );
    laptop.close().await.unwrap();
    phone.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newcomer_signs_up_in_the_browser_and_plays_the_ai_to_the_end() {
    let app = WebApp::start().await;
    app.player("Ada").await;
    let a = browser(1100).await;
    a.goto(&app.url("/")).await.unwrap();
    screenshot(&a, "welcome").await;
    // A handle taken: said on the form, in place, with the name kept.
    let form = wait_for(&a, "#sign-up-form").await;
    form.find(Locator::Css("input[name='name']"))
        .await
        .unwrap()
        .send_keys("Grace")
        .await
        .unwrap();
    form.find(Locator::Css("input[name='handle']"))
        .await
        .unwrap()
        .send_keys("ada")
        .await
        .unwrap();
    form.find(Locator::Css("button[type='submit']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for_text(&a, "#sign-up-error", "taken").await;
    let handle = wait_for(&a, "#sign-up-form input[name='handle']").await;
    handle.clear().await.unwrap();
    handle.send_keys("grace").await.unwrap();
    click(&a, "#sign-up-form button[type='submit']").await;
    // Signed in, the token shown once.
    let token = wait_for_text(&a, "#api-token", "tfl_").await;
    assert!(token.len() > 20, "{token}");
    wait_for(&a, "header .who a[href='/players/grace']").await;
    screenshot(&a, "signed-up").await;
    // "Play the AI" opens the new-game form with the AI and Brandubh chosen, and no clock.
    click(&a, "#play-ai").await;
    wait_for(&a, "input[name='opponent'][value='ai']:checked").await;
    wait_for(
        &a,
        "select[name='variant'] option[value='brandubh']:checked",
    )
    .await;
    wait_for(&a, "#start-here").await;
    click(&a, "select[name='side'] option[value='attackers']").await;
    play_the_ai_and_resign(&a).await;
    a.close().await.unwrap();
}

/// Sends the new-game form (the AI chosen, Brandubh, attackers), plays d1-c1 by drag, sees the
/// AI's answer arrive live, and resigns (after the confirmation): the game is over.
async fn play_the_ai_and_resign(a: &Client) {
    click(a, "#challenge-form button[type='submit']").await;
    // Straight to the game; the AI answers live.
    wait_for(a, "[data-game][data-live='open']").await;
    drag_move(a, "d1", "c1").await;
    wait_for_ply(a, 2).await;
    // Resigning asks first; then the game is over.
    click(a, "form[action$='/resign'] button").await;
    a.accept_alert().await.expect("the confirmation is asked");
    wait_for_text(a, "#live .status", "Game over. You lost: you resigned.").await;
}

/// `player` plays `text` in `game` through the service, as another front end would.
async fn play_elsewhere(
    app: &WebApp,
    player: &taflbot_e2e::web::TestPlayer,
    game: taflbot::domain::GameId,
    text: &str,
) {
    app.service()
        .games()
        .play(
            player.id,
            game,
            taflbot::service::MoveRequest {
                text: text.into(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_finds_a_live_game_in_the_public_list_and_watches_a_move_arrive() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let watcher = browser(1100).await;
    watcher.goto(&app.url("/")).await.unwrap();
    // From the welcome page to the list of games to watch.
    click(&watcher, "header a[href='/games']").await;
    wait_for(&watcher, "#public-games[data-live='open']").await;
    let row = format!("table[data-list='live'] tr[data-game='{game}']");
    wait_for(&watcher, &format!("{row}[data-ply='0']")).await;
    // The list follows the game live.
    play_elsewhere(&app, &ada, game, "d1-c1").await;
    wait_for(&watcher, &format!("{row}[data-ply='1']")).await;
    screenshot(&watcher, "public-games").await;
    click(&watcher, &format!("{row} a.open-game")).await;
    wait_for(&watcher, &format!("[data-game='{game}'][data-live='open']")).await;
    play_elsewhere(&app, &bob, game, "d3-e3").await;
    wait_for_ply(&watcher, 2).await;
    wait_for_text(&watcher, "#live ol.moves", "d3-e3").await;
    watcher.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_finds_a_player_and_a_leaderboard() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    app.player("Bob").await;
    let watcher = browser(1100).await;
    watcher.goto(&app.url("/players")).await.unwrap();
    let search = wait_for(&watcher, "#player-search input[name='q']").await;
    search.send_keys("ad\n").await.unwrap();
    click(
        &watcher,
        &format!("ul.players a[href='/players/{}']", ada.handle),
    )
    .await;
    wait_for_text(&watcher, "main h1", "Ada").await;
    // By name too: "grace h" (a space) starts no handle, but Grace Hopper's name.
    let grace = app.player("Grace Hopper").await;
    watcher
        .goto(&app.url("/players?q=grace%20h"))
        .await
        .unwrap();
    wait_for(
        &watcher,
        &format!("ul.players a[href='/players/{}']", grace.handle),
    )
    .await;
    screenshot(&watcher, "players").await;
    watcher.goto(&app.url("/leaderboards")).await.unwrap();
    click(&watcher, "a[href='/leaderboards/brandubh']").await;
    wait_for_text(&watcher, "main h1", "Leaderboard: Brandubh (7x7)").await;
    screenshot(&watcher, "leaderboard").await;
    watcher.goto(&app.url("/variants")).await.unwrap();
    wait_for_text(&watcher, "#start-here", "Brandubh").await;
    let list = wait_for_text(&watcher, "ul.variants", "Hnefatafl 13x13").await;
    assert!(!list.contains("13x13 (13x13)"), "{list}");
    screenshot(&watcher, "variants").await;
    watcher.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_that_ends_live_takes_the_move_box_away_says_who_won_and_offers_a_rematch() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    open_game(&a, &app, game).await;
    wait_for(&a, "#move-box:not([hidden]) #move-text").await;
    app.service().games().resign(bob.id, game).await.unwrap();
    wait_for_text(&a, "#live .status", "You won: your opponent resigned.").await;
    wait_for(&a, "#move-box[hidden]").await;
    // A rematch against a person is a challenge with the sides swapped, on my games.
    click(&a, "form[action$='/rematch'] button").await;
    wait_for_text(&a, "#my-games", "challenger plays defenders").await;
    a.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_a_refusal_and_not_your_turn_show_beside_the_board() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let game = app.brandubh(&ada, &bob).await;
    let phone = browser(390).await;
    sign_in(&phone, &app.login_link(&ada).await).await;
    open_game(&phone, &app, game).await;
    type_move(&phone, "d1-d3").await;
    wait_for_text(&phone, "#move-error", "illegal move").await;
    let in_view = |css: &str| {
        format!(
            "const r = document.querySelector(\"{css}\").getBoundingClientRect(); \
             return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;"
        )
    };
    let seen = phone
        .execute(&in_view("#move-error"), vec![])
        .await
        .unwrap();
    assert_eq!(
        seen,
        serde_json::Value::Bool(true),
        "the refusal is off screen"
    );
    // Bob's turn: touching a piece says so instead of doing nothing.
    click_move(&phone, "d1", "c1").await;
    wait_for_ply(&phone, 1).await;
    phone
        .execute("window.scrollTo(0, 0)", vec![])
        .await
        .unwrap();
    square(&phone, "c1").await.click().await.unwrap();
    wait_for_text(&phone, "#move-error", "Not your turn").await;
    let seen = phone
        .execute(&in_view("#move-error"), vec![])
        .await
        .unwrap();
    assert_eq!(
        seen,
        serde_json::Value::Bool(true),
        "the notice is off screen"
    );
    screenshot_as_scrolled(&phone, "game-phone-not-your-turn").await;
    phone.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_my_move_the_page_offers_the_next_game_where_it_is_my_move() {
    let app = WebApp::start().await;
    let ada = app.player("Ada").await;
    let bob = app.player("Bob").await;
    let first = app.brandubh(&ada, &bob).await;
    let second = app.brandubh(&ada, &bob).await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    open_game(&a, &app, first).await;
    click_move(&a, "d1", "c1").await;
    click(&a, &format!("#next-game[href='/games/{second}']")).await;
    wait_for(&a, &format!("[data-game='{second}'][data-live='open']")).await;
    a.close().await.unwrap();
}
