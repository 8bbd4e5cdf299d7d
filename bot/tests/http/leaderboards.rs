//! Leaderboards and player pages: order, paging, provisional ratings left out, results.

use reqwest::{Method, StatusCode};
use serde_json::json;
use taflbot::domain::PlayerId;
use taflbot::store::StoreError;
use taflbot::store::rows::{self, Glicko, RatingRow};

use crate::common::{T0, TestApp};

#[tokio::test]
async fn a_leaderboard_lists_settled_ratings_best_first_in_pages() {
    let app = TestApp::start().await;
    let mut ids = Vec::new();
    for i in 0..56 {
        ids.push(app.register(&format!("p{i:02}")).await.id);
    }
    // 55 settled ratings (1000 + 10 i), one provisional above them all, one in another pool.
    let rated = ids.clone();
    app.service()
        .store()
        .write(move |c| {
            for (i, id) in rated.iter().enumerate() {
                let deviation = if i == 55 { 111.0 } else { 60.0 };
                let rating = if i == 55 {
                    3000.0
                } else {
                    1000.0 + 10.0 * i as f64
                };
                rows::put_rating(
                    c,
                    &RatingRow {
                        player_id: PlayerId(*id),
                        pool: "brandubh".into(),
                        glicko: Glicko {
                            rating,
                            deviation,
                            volatility: 0.06,
                        },
                        games: 30,
                        updated_at: T0,
                    },
                )?;
            }
            rows::put_rating(
                c,
                &RatingRow {
                    player_id: PlayerId(rated[0]),
                    pool: "tablut".into(),
                    glicko: Glicko {
                        rating: 5000.0,
                        deviation: 50.0,
                        volatility: 0.06,
                    },
                    games: 30,
                    updated_at: T0,
                },
            )?;
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    let first = app
        .call(
            Method::GET,
            "/leaderboards/brandubh",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    let items = first["items"].as_array().unwrap();
    assert_eq!(items.len(), 50);
    assert_eq!(first["next_page"], 2);
    assert_eq!(items[0]["rank"], 1);
    assert_eq!(items[0]["handle"], "p54");
    assert_eq!(items[0]["rating"], 1540.0);
    let ratings: Vec<f64> = items
        .iter()
        .map(|e| e["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] > w[1]), "{ratings:?}");
    let second = app
        .call(
            Method::GET,
            "/leaderboards/brandubh?page=2",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    let rest: Vec<(u64, &str)> = second["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["rank"].as_u64().unwrap(), e["handle"].as_str().unwrap()))
        .collect();
    assert_eq!(
        rest,
        [
            (51, "p04"),
            (52, "p03"),
            (53, "p02"),
            (54, "p01"),
            (55, "p00")
        ]
    );
    assert!(second["next_page"].is_null());
    let unknown = app
        .call(
            Method::GET,
            "/leaderboards/chess",
            None,
            None,
            StatusCode::NOT_FOUND,
        )
        .await;
    assert!(
        unknown["error"]["message"]
            .as_str()
            .unwrap()
            .contains("brandubh"),
        "{unknown}"
    );
}

#[tokio::test]
async fn a_players_page_shows_ratings_results_and_current_games() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bo").await;
    for _ in 0..2 {
        let game = app.timed_game(&a, &b, "brandubh").await;
        app.post(&format!("/games/{game}/resign"), &b.token, json!({}))
            .await;
    }
    let casual = app
        .start_game(&a, &b, "tablut", json!({ "kind": "unlimited" }))
        .await;
    app.post(&format!("/games/{casual}/resign"), &a.token, json!({}))
        .await;
    let current = app.timed_game(&a, &b, "brandubh").await;
    let page = app
        .call(Method::GET, "/players/ada", None, None, StatusCode::OK)
        .await;
    assert_eq!(page["handle"], "ada");
    assert_eq!(page["ratings"].as_array().unwrap().len(), 1, "{page}");
    let brandubh = &page["ratings"][0];
    assert_eq!(brandubh["variant"], "brandubh");
    assert_eq!(brandubh["games"], 2);
    assert_eq!(brandubh["provisional"], true);
    assert!(brandubh["rating"].as_f64().unwrap() > 1600.0, "{brandubh}");
    assert_eq!(
        page["results"],
        json!([
            { "variant": "brandubh", "played": 2, "wins": 2, "losses": 0, "draws": 0 },
            { "variant": "tablut", "played": 1, "wins": 0, "losses": 1, "draws": 0 },
        ])
    );
    let games: Vec<i64> = page["current_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(games, [current]);
    // Provisional: not on the leaderboard yet.
    let board = app
        .call(
            Method::GET,
            "/leaderboards/brandubh",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(board["items"], json!([]));
}

async fn leaderboard(app: &TestApp) -> serde_json::Value {
    app.call(
        Method::GET,
        "/leaderboards/brandubh",
        None,
        None,
        StatusCode::OK,
    )
    .await
}

/// A rating ages while its player is away: its deviation grows by one empty Glicko-2 period
/// every five days, so a settled player away for over a year is provisional again, off the
/// leaderboard, and their next game moves their rating as a newer player's would.
#[tokio::test]
async fn a_rating_left_alone_for_a_year_is_provisional_again() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let bo = app.register("Bo").await;
    let settled = Glicko {
        rating: 1700.0,
        deviation: 60.0,
        volatility: 0.06,
    };
    let (a, b) = (ada.id, bo.id);
    app.service()
        .store()
        .write(move |c| {
            for player in [a, b] {
                rows::put_rating(
                    c,
                    &RatingRow {
                        player_id: PlayerId(player),
                        pool: "brandubh".into(),
                        glicko: settled,
                        games: 40,
                        updated_at: T0,
                    },
                )?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
    let day = 24 * 3600 * 1000;
    app.clock.advance_ms(300 * day);
    let ten_months = leaderboard(&app).await;
    assert_eq!(
        ten_months["items"].as_array().unwrap().len(),
        2,
        "{ten_months}"
    );
    let deviation = ten_months["items"][0]["deviation"].as_f64().unwrap();
    assert!(deviation > 95.0 && deviation < 110.0, "{ten_months}");
    app.clock.advance_ms(120 * day);
    let fourteen_months = leaderboard(&app).await;
    assert_eq!(fourteen_months["items"], json!([]), "{fourteen_months}");
    let page = app
        .call(Method::GET, "/players/ada", None, None, StatusCode::OK)
        .await;
    assert_eq!(page["ratings"][0]["provisional"], true, "{page}");
    assert!(page["ratings"][0]["deviation"].as_f64().unwrap() > 110.0);
    // Ada beats Bo: the grown deviations move both ratings further than settled ones would
    // (about 10 points at RD 60, over 30 at RD 113).
    let game = app.timed_game(&ada, &bo, "brandubh").await;
    let ended = app
        .post(&format!("/games/{game}/resign"), &bo.token, json!({}))
        .await;
    let change = ended["ratings"]["attackers"]["change"].as_f64().unwrap();
    assert!(change > 15.0, "{ended}");
}
