//! The analysis board in a real browser (headless Chromium over WebDriver): opened from a
//! game at a move, both sides' moves played by click, a variation branched and the lines
//! switched, the engine's line, a shared link that reopens the same board, broken links that
//! explain themselves, the keyboard, a phone's width, axe-core.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::{Client, Locator};
use taflbot::domain::GameId;
use taflbot_e2e::axe::assert_accessible;
use taflbot_e2e::web::{
    TestPlayer, WebApp, assert_not_reloaded, browser, click, dark_browser, mark_page, screenshot,
    sign_in, wait_for, wait_for_script, wait_for_text,
};

/// An app whose engine searches 20 ms a position.
async fn quick_app() -> WebApp {
    WebApp::start_with(|c| {
        c.games.analysis_ms_per_ply = 20;
        c.games.analysis_threads = 1;
    })
    .await
}

/// Ada (attackers) and Bob play d1-c1, d3-e3, a4-a2; then Bob resigns.
async fn finished_game(app: &WebApp) -> (TestPlayer, TestPlayer, GameId) {
    let (ada, bob, game) = app.ada_and_bob_at_brandubh().await;
    app.play(&ada, game, "d1-c1").await;
    app.play(&bob, game, "d3-e3").await;
    app.play(&ada, game, "a4-a2").await;
    app.service().games().resign(bob.id, game).await.unwrap();
    (ada, bob, game)
}

/// Clicks square `from`, then square `to`, as a player picks a piece and its destination.
async fn move_piece(client: &Client, from: &str, to: &str) {
    click(client, &format!("#live rect[data-sq='{from}']")).await;
    wait_for(client, &format!("#live g.hints .dest[data-hint='{to}']")).await;
    click(client, &format!("#live rect[data-sq='{to}']")).await;
}

/// The move list's text, variations included.
async fn move_list(client: &Client) -> String {
    wait_for(client, "#tree").await.text().await.unwrap()
}

async fn press(client: &Client, key: char) {
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    client.perform_actions(keys).await.unwrap();
}

const ARROW_LEFT: char = '\u{E012}';
const ARROW_UP: char = '\u{E013}';
const ARROW_RIGHT: char = '\u{E014}';
const ARROW_DOWN: char = '\u{E015}';
const ENTER: char = '\u{E007}';

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_from_a_game_plays_both_sides_branches_asks_the_engine_and_shares_a_link() {
    let app = quick_app().await;
    let (ada, _, game) = finished_game(&app).await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;

    // From the game page at move 2: "Analyse this position" opens the board there.
    a.goto(&app.url(&format!("/games/{game}?ply=2")))
        .await
        .unwrap();
    // The page redraws its live part once its stream opens: click after that.
    wait_for(&a, "[data-game][data-live='open']").await;
    click(&a, "#analyse").await;
    wait_for(&a, "[data-analysis-board] #live[data-at='2']").await;
    wait_for(&a, "#live g.piece.defender[data-at='e3']").await;
    assert!(
        a.find(Locator::Css("#live g.piece[data-at='d3']"))
            .await
            .is_err(),
        "d3 moved to e3 at move 2"
    );
    wait_for_text(&a, "#live .status", "Attackers to move").await;
    mark_page(&a).await;

    // The attackers play a4-a3 instead of the game's a4-a2: a variation; then the defenders.
    move_piece(&a, "a4", "a3").await;
    wait_for(
        &a,
        "#live[data-at='4'] #tree .variation a.mv.at[data-at='4']",
    )
    .await;
    wait_for_text(&a, "#live .status", "Defenders to move").await;
    move_piece(&a, "e3", "e2").await;
    wait_for(&a, "#live[data-at='5'] g.piece.defender[data-at='e2']").await;
    let tree = wait_for_text(&a, "#tree .variation", "e3-e2").await;
    assert!(
        tree.contains("2. a4-a3") && tree.contains("e3-e2"),
        "{tree}"
    );
    assert_not_reloaded(&a, "the board's").await;
    // The address names the board shown: the moves with the variation, and the move shown.
    let address = a.current_url().await.unwrap();
    let query: Vec<(String, String)> = address.query_pairs().into_owned().collect();
    assert!(
        query.contains(&("moves".into(), "d1-c1 d3-e3 a4-a2 (a4-a3 e3-e2)".into())),
        "{address}"
    );
    assert!(query.contains(&("at".into(), "5".into())), "{address}");

    // Switching lines: the main line's move, then back into the variation; ← goes back a move.
    click(&a, "#tree a.mv[data-at='3']").await;
    wait_for(&a, "#live[data-at='3'] g.piece.attacker[data-at='a2']").await;
    click(&a, "#tree a.mv[data-at='5']").await;
    wait_for(&a, "#live[data-at='5']").await;
    press(&a, ARROW_LEFT).await;
    wait_for(&a, "#live[data-at='4'] g.piece.attacker[data-at='a3']").await;
    press(&a, ARROW_RIGHT).await;
    wait_for(&a, "#live[data-at='5']").await;

    // The engine's line and evaluation of the position shown.
    click(&a, "#engine-form button").await;
    let line = wait_for_text(&a, "#engine-line", "Best:").await;
    assert!(
        line.contains("Line: 3. "),
        "the line goes on from move 3: {line}"
    );
    wait_for_text(&a, "#engine-eval", "Engine (depth").await;
    screenshot(&a, "analysis-board").await;

    // Share: the link reopens the same position and lines, for anyone.
    click(&a, "#share").await;
    let link = wait_for_script(
        &a,
        "const v = document.getElementById('share-link').value; return v.includes('at=5') && v",
        "the share link",
    )
    .await;
    let link = link.as_str().unwrap().to_owned();
    let tree_here = move_list(&a).await;
    a.close().await.unwrap();
    let visitor = browser(1100).await;
    visitor.goto(&link).await.unwrap();
    wait_for(
        &visitor,
        "#live[data-at='5'] g.piece.defender[data-at='e2']",
    )
    .await;
    let tree_there = move_list(&visitor).await;
    assert_eq!(tree_there, tree_here);
    // A visitor may play on too, but the engine is for those signed in.
    wait_for_text(&visitor, "#engine", "Sign in to ask the engine").await;
    assert_accessible(&visitor, "the analysis board").await;
    visitor.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_links_explain_themselves_on_the_page() {
    let app = WebApp::start().await;
    let v = browser(1100).await;
    let cases = [
        (
            "/analysis?variant=brandubh&moves=d1-c1+d1-d7",
            "the link's move 2, \"d1-d7\", cannot be played after d1-c1",
        ),
        (
            "/analysis?variant=brandubh&position=%2F3t3%2F",
            "the position is not valid",
        ),
        ("/analysis?variant=chess", "there is no variant \"chess\""),
        (
            "/analysis?variant=brandubh&moves=d1-c1&at=9",
            "only 1 moves",
        ),
    ];
    for (path, said) in cases {
        v.goto(&app.url(path)).await.unwrap();
        wait_for_text(&v, "#board-refused", said).await;
        // The choice of another start is right there.
        wait_for(&v, "#start-form").await;
    }
    let too_many = format!(
        "/analysis?variant=brandubh&moves={}",
        "d1-c1+d3-e3+c1-d1+e3-d3+".repeat(76)
    );
    v.goto(&app.url(&too_many)).await.unwrap();
    wait_for_text(&v, "#board-refused", "more than 300 moves").await;
    assert_accessible(&v, "a refused board").await;

    // A pasted position and rules string, from the form.
    v.goto(&app.url("/analysis")).await.unwrap();
    let rules = tafl_engine::variant("brandubh")
        .unwrap()
        .rules()
        .to_opentafl();
    let form = wait_for(&v, "#start-form").await;
    form.find(Locator::Css("select[name='variant'] option[value='']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    form.find(Locator::Css("input[name='position']"))
        .await
        .unwrap()
        .send_keys("/3t3/3t3/7/tt1KTtt/3T3/3t3/3t3/")
        .await
        .unwrap();
    form.find(Locator::Css("input[name='rules']"))
        .await
        .unwrap()
        .send_keys(&rules)
        .await
        .unwrap();
    form.find(Locator::Css("button[type='submit']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&v, "#live[data-at='0'] g.piece.king[data-at='d4']").await;
    assert!(
        v.find(Locator::Css("#live g.piece[data-at='c4']"))
            .await
            .is_err()
    );
    wait_for_text(&v, "main", "Custom rules (7x7)").await;
    v.close().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_board_plays_by_keyboard_and_fits_a_phone_in_the_dark() {
    let app = WebApp::start().await;
    let phone = dark_browser(390).await;
    phone
        .goto(&app.url("/analysis?variant=brandubh"))
        .await
        .unwrap();
    wait_for(&phone, "#live[data-at='0']").await;
    // Tab to the board, Enter on the first piece that can move, arrows to its first
    // destination, Enter: the move is played.
    phone
        .execute(
            "document.querySelector('#board-area svg.board').focus()",
            vec![],
        )
        .await
        .unwrap();
    press(&phone, ENTER).await;
    wait_for(&phone, "#live g.hints .picked").await;
    let steps = phone
        .execute(
            "const legal = JSON.parse(document.getElementById('live').dataset.legal);
             const [from, to] = legal[0].split('-');
             const sq = (n) => document.querySelector(`#live rect[data-sq='${n}']`);
             const w = +sq(from).getAttribute('width');
             return [(sq(to).getAttribute('x') - sq(from).getAttribute('x')) / w,
                     (sq(to).getAttribute('y') - sq(from).getAttribute('y')) / w];",
            vec![],
        )
        .await
        .unwrap();
    let (dx, dy) = (steps[0].as_i64().unwrap(), steps[1].as_i64().unwrap());
    let key_x = if dx < 0 { ARROW_LEFT } else { ARROW_RIGHT };
    let key_y = if dy < 0 { ARROW_UP } else { ARROW_DOWN };
    for _ in 0..dx.abs() {
        press(&phone, key_x).await;
    }
    for _ in 0..dy.abs() {
        press(&phone, key_y).await;
    }
    press(&phone, ENTER).await;
    wait_for(&phone, "#live[data-at='1']").await;
    // Nothing scrolls sideways at 390 px.
    let wide = phone
        .execute(
            "return document.documentElement.scrollWidth > window.innerWidth",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        wide,
        serde_json::Value::Bool(false),
        "the page scrolls sideways"
    );
    screenshot(&phone, "analysis-board-phone").await;
    assert_accessible(&phone, "the analysis board, dark, on a phone").await;
    phone.close().await.unwrap();
}
