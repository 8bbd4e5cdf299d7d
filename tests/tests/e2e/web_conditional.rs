//! Conditional moves from the analysis board in a real browser: Ada, waiting for Bob's move,
//! opens "Plan conditional moves" under the game's board, plays Bob's move and her answer by
//! click, queues the line; a second line is queued and deleted; the box passes axe-core; Bob's
//! move is then answered at once.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use fantoccini::Client;
use taflbot_e2e::axe::assert_accessible;
use taflbot_e2e::web::{WebApp, browser, sign_in, wait_for, wait_for_script, wait_for_text};

async fn click(client: &Client, css: &str) {
    wait_for(client, css).await.click().await.unwrap();
}

/// Clicks square `from`, then square `to`, as a player picks a piece and its destination;
/// waits for the board to show the move.
async fn move_piece(client: &Client, from: &str, to: &str) {
    click(client, &format!("#live rect[data-sq='{from}']")).await;
    wait_for(client, &format!("#live g.hints .dest[data-hint='{to}']")).await;
    click(client, &format!("#live rect[data-sq='{to}']")).await;
    wait_for_text(client, "#tree .at", &format!("{from}-{to}")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_queues_conditional_moves_from_the_analysis_board_and_they_answer_the_opponent() {
    let app = WebApp::start().await;
    let (ada, bob, game) = app.ada_and_bob_at_brandubh().await;
    app.play(&ada, game, "d1-b1").await;
    let a = browser(1100).await;
    sign_in(&a, &app.login_link(&ada).await).await;
    a.goto(&app.url(&format!("/games/{game}"))).await.unwrap();
    wait_for(&a, "[data-game][data-live='open']").await;
    click(&a, "#plan").await;
    wait_for(&a, "#conditional #plan-none").await;

    // Bob's move, then her answer: queued.
    move_piece(&a, "c4", "c2").await;
    move_piece(&a, "a4", "a2").await;
    click(&a, "#plan-add button").await;
    let line = wait_for_text(&a, "#plan-lines li[data-line='1'] .line", "a4-a2").await;
    assert!(line.contains("c4-c2"), "{line}");
    let address = a.current_url().await.unwrap().to_string();
    assert!(
        address.contains(&format!("plan={game}")),
        "a reload keeps the plan: {address}"
    );

    // A second line from the start, queued, then deleted.
    click(&a, "button[data-step='first']").await;
    wait_for(&a, "#live[data-at='0']").await;
    move_piece(&a, "e4", "e2").await;
    move_piece(&a, "g4", "g2").await;
    click(&a, "#plan-add button").await;
    wait_for_text(&a, "#plan-lines li[data-line='2'] .line", "g4-g2").await;
    assert_accessible(&a, "the analysis board planning conditional moves").await;
    click(&a, "#plan-lines li[data-line='2'] button").await;
    wait_for_script(
        &a,
        "return document.querySelector(\"#plan-lines li[data-line='2']\") === null \
         && document.querySelector(\"#plan-lines li[data-line='1']\") !== null",
        "the second line deleted, the first kept",
    )
    .await;

    // Bob plays the first line's move: Ada's answer is played at once.
    app.play(&bob, game, "c4-c2").await;
    let view = app.service().games().game(None, game).await.unwrap();
    assert_eq!(view.ply, 3, "Ada's a4-a2 follows Bob's c4-c2 in one commit");
    a.close().await.unwrap();
}
