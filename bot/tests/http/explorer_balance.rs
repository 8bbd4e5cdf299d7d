//! The variant balance over HTTP and on the web: finished games counted per variant and
//! rating band as they end (hand-counted here), the games without a rating in their own band;
//! imported games (played elsewhere) are not counted.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::explorer::{Ending, counts, finished_game, web_page};
use crate::study_import::{ARCHIVE_MOVES, import};

#[tokio::test]
async fn each_side_wins_counted_per_variant_and_rating_band() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bob").await;
    let empty = app.get("/explorer/balance", &a.token).await;
    assert_eq!(empty["variants"], json!([]), "{empty}");

    // The first game: neither player has a rating yet, so it is counted without one. The
    // attackers (Ada) win.
    finished_game(&app, &a, &b, &["d1-c1", "d3-c3"], Ending::AttackersWin).await;
    // Then both are rated, about 1500 on average (band 1400-1599): a defenders' win and a
    // draw.
    finished_game(&app, &a, &b, &["d1-e1", "d3-e3"], Ending::DefendersWin).await;
    finished_game(&app, &a, &b, &["d2-c2", "d3-e3"], Ending::Drawn).await;
    // An imported game (0-1, the defenders won) was not played here: not counted.
    let (status, imported) =
        import(&app, &a, "?format=moves&variant=brandubh", ARCHIVE_MOVES).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");

    let balance = app.get("/explorer/balance", &a.token).await;
    assert_eq!(balance["band_width"], 200, "{balance}");
    let variants = balance["variants"].as_array().expect("variants");
    assert_eq!(variants.len(), 1, "only brandubh has games: {balance}");
    let brandubh = &variants[0];
    assert_eq!(brandubh["variant"], "brandubh");
    assert_eq!(counts(&brandubh["overall"]), [3, 1, 1, 1], "{balance}");
    assert_eq!(brandubh["overall"]["attackers_percent"], 33.3, "{balance}");
    assert_eq!(brandubh["overall"]["defenders_percent"], 33.3, "{balance}");
    let bands = brandubh["bands"].as_array().expect("bands");
    assert_eq!(bands.len(), 2, "{balance}");
    assert_eq!(
        (&bands[0]["rating_from"], &bands[0]["rating_to"]),
        (&json!(1400), &json!(1599)),
        "{balance}"
    );
    assert_eq!(counts(&bands[0]["results"]), [2, 0, 1, 1], "{balance}");
    assert_eq!(
        bands[1]["rating_from"],
        Value::Null,
        "unrated last: {balance}"
    );
    assert_eq!(counts(&bands[1]["results"]), [1, 1, 0, 0], "{balance}");

    // One variant asked for; an unknown one refused.
    let one = app
        .get("/explorer/balance?variant=brandubh", &b.token)
        .await;
    assert_eq!(one["variants"], balance["variants"]);
    let other = app
        .get("/explorer/balance?variant=copenhagen", &b.token)
        .await;
    assert_eq!(other["variants"], json!([]), "{other}");
    app.call(
        Method::GET,
        "/explorer/balance?variant=chess",
        Some(&a.token),
        None,
        StatusCode::NOT_FOUND,
    )
    .await;

    // The web page, linked from the explorer.
    let (_, explorer) = web_page(&app, "/explorer").await;
    assert!(
        explorer.contains("href=\"/explorer/balance\""),
        "{explorer}"
    );
    let (status, html) = web_page(&app, "/explorer/balance").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("<td>1400–1599</td><td>2</td><td>0.0%</td><td>50.0%</td><td>50.0%</td>"),
        "{html}"
    );
    assert!(
        html.contains("<th>All</th><td>3</td><td>33.3%</td><td>33.3%</td><td>33.3%</td>"),
        "{html}"
    );
}
