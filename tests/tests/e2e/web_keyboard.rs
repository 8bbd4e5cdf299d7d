//! A game played with the keyboard alone: Tab to the board, the arrow keys to a piece, Enter,
//! the arrow keys to its destination, Enter (`assets/board_keys.js`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::Client;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use taflbot_e2e::axe::assert_accessible;
use taflbot_e2e::web::{WebApp, browser, sign_in, wait_for, wait_for_script};

const TAB: char = '\u{E004}';
const ENTER: char = '\u{E007}';
const LEFT: char = '\u{E012}';
const UP: char = '\u{E013}';
const RIGHT: char = '\u{E014}';
const DOWN: char = '\u{E015}';

/// Presses `key` on whatever has the focus.
async fn press(client: &Client, key: char) {
    let keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: key })
        .then(KeyAction::Up { value: key });
    client.perform_actions(keys).await.expect("a key press");
}

/// Answers whether the board has the focus.
const BOARD_HAS_FOCUS: &str = "return document.activeElement?.matches('#live svg.board') ?? false";

async fn board_has_focus(client: &Client) -> bool {
    client.execute(BOARD_HAS_FOCUS, vec![]).await.unwrap() == serde_json::Value::Bool(true)
}

/// Moves the board's cursor to `to` with the arrow keys (the board drawn a1 bottom left).
async fn cursor_to(client: &Client, to: &str) {
    let at = wait_for_script(
        client,
        "return document.getElementById('board-area').dataset.cursor",
        "the board's cursor is shown",
    )
    .await;
    let at = at.as_str().unwrap().as_bytes().to_vec();
    let to_bytes = to.as_bytes();
    let files = i32::from(to_bytes[0]) - i32::from(at[0]);
    let ranks = i32::from(to_bytes[1]) - i32::from(at[1]);
    for _ in 0..files.abs() {
        press(client, if files > 0 { RIGHT } else { LEFT }).await;
    }
    for _ in 0..ranks.abs() {
        press(client, if ranks > 0 { UP } else { DOWN }).await;
    }
    wait_for(client, &format!("#board-area[data-cursor='{to}']")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_is_chosen_and_played_with_the_keys_alone() {
    let app = WebApp::start().await;
    let (ada, _bob, game) = app.ada_and_bob_at_brandubh().await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    a.goto(&app.url(&format!("/games/{game}"))).await.unwrap();
    wait_for(&a, "[data-game][data-live='open']").await;
    // Tab until the board has the focus.
    for _ in 0..40 {
        if board_has_focus(&a).await {
            break;
        }
        press(&a, TAB).await;
    }
    assert!(board_has_focus(&a).await, "Tab never reached the board");
    cursor_to(&a, "d1").await;
    press(&a, ENTER).await;
    wait_for(&a, "#live g.hints circle.dest[data-hint='c1']").await;
    wait_for_script(
        &a,
        "return document.getElementById('board-cursor').textContent === 'd1: attacker'",
        "the cursor's square read out",
    )
    .await;
    cursor_to(&a, "c1").await;
    press(&a, ENTER).await;
    wait_for(&a, "#live[data-last-ply='1'][data-ply='1']").await;
    // The new board has the focus and the cursor; its arrow keys move the cursor, and do not
    // step back through the moves.
    wait_for_script(&a, BOARD_HAS_FOCUS, "the focus back on the redrawn board").await;
    press(&a, LEFT).await;
    wait_for(&a, "#board-area[data-cursor='b1']").await;
    wait_for(&a, "#live[data-ply='1']").await;
    assert_accessible(&a, "a game with the keyboard's cursor").await;
    a.close().await.unwrap();
}
