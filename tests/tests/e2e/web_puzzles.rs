//! The puzzle page in a real browser (headless Chromium over WebDriver): a puzzle mined from
//! an analysed game is solved by clicks on the board, a piece then where it goes, as on a
//! game's page; the page's form stays the way without a script.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use tafl_engine::ai::puzzle::PuzzleTheme;
use taflbot_e2e::web::{WebApp, attribute, browser, click, sign_in, wait_for, wait_for_text};
use taflbot_test_support::eventually;

/// The analysis example played (the king's road left open, the escape missed), analysed,
/// and mined; the escape puzzle's id.
async fn escape_puzzle(app: &WebApp) -> i64 {
    let (astrid, game) = crate::web_analysis::scripted_game(app).await;
    app.service()
        .analysis()
        .request(astrid.id.into(), game)
        .await
        .unwrap();
    let service = app.service().clone();
    let puzzles = eventually(Duration::from_secs(60), "the example's puzzles", || {
        let service = service.clone();
        async move {
            let mined = service.puzzles().of_game(game).await.ok()?;
            mined.mined.then_some(mined.puzzles)
        }
    })
    .await;
    let escape = puzzles
        .iter()
        .find(|p| p.theme == PuzzleTheme::Escape)
        .unwrap_or_else(|| panic!("no escape puzzle in {puzzles:?}"));
    escape.id.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_is_solved_by_clicking_the_piece_and_where_it_goes() {
    let app = WebApp::start_with(|c| {
        c.games.analysis_ms_per_ply = 60;
        c.games.analysis_threads = 1;
    })
    .await;
    let puzzle = escape_puzzle(&app).await;
    let cy = app.player("Cy").await;
    let client = browser(1000).await;
    sign_in(&client, &app.login_link(&cy).await).await;
    client
        .goto(&app.url(&format!("/puzzles/{puzzle}")))
        .await
        .unwrap();
    wait_for(&client, "#puzzle-move").await;

    // A square with no piece of the solver's picks nothing; the king on a3 shows where it
    // may go, a1 among them (the escape).
    click(&client, "#puzzle-board rect[data-sq='d4']").await;
    assert_eq!(attribute(&client, "#puzzle-board", "data-picked").await, "");
    click(&client, "#puzzle-board rect[data-sq='a3']").await;
    wait_for(&client, "#puzzle-board g.hints .picked[data-hint='a3']").await;
    wait_for(&client, "#puzzle-board g.hints .dest[data-hint='a1']").await;
    click(&client, "#puzzle-board rect[data-sq='a1']").await;

    // The form took the click's move: the answer is the solved puzzle, the rating moved.
    wait_for_text(&client, "#puzzle-answer", "Solved!").await;
    wait_for(&client, "#rating-change").await;
    assert!(
        client
            .find(fantoccini::Locator::Css("#puzzle-move"))
            .await
            .is_err(),
        "no move to find once solved"
    );
    client.close().await.unwrap();
}
