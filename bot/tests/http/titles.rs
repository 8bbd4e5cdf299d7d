//! Titles by rating per variant: the World Tafl Federation's thresholds by default, read from
//! `games.titles`, shown on the leaderboard and the player's page (JSON and web); none for a
//! provisional rating.

use reqwest::{Method, StatusCode};
use taflbot::domain::PlayerId;
use taflbot::store::StoreError;
use taflbot::store::rows::{self, Glicko, RatingRow};

use crate::common::{T0, TestApp};

/// Gives each `(player, rating, deviation)` that rating in brandubh.
async fn rate(app: &TestApp, ratings: Vec<(i64, f64, f64)>) {
    app.service()
        .store()
        .write(move |c| {
            for (player, rating, deviation) in &ratings {
                rows::put_rating(
                    c,
                    &RatingRow {
                        player_id: PlayerId(*player),
                        pool: "brandubh".into(),
                        glicko: Glicko {
                            rating: *rating,
                            deviation: *deviation,
                            volatility: 0.06,
                        },
                        games: 30,
                        updated_at: T0,
                    },
                )?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap_or_else(|e| panic!("ratings not written: {e}"));
}

#[tokio::test]
async fn titles_follow_the_wtf_thresholds_on_the_leaderboard_and_the_players_page() {
    let app = TestApp::start().await;
    let mut ids = Vec::new();
    for name in ["Gm", "Im", "Cm", "None", "New"] {
        ids.push(app.register(name).await.id);
    }
    rate(
        &app,
        vec![
            (ids[0], 2250.0, 60.0),
            (ids[1], 2050.0, 60.0),
            (ids[2], 1650.0, 60.0),
            (ids[3], 1300.0, 60.0),
            // Provisional: no title, however high.
            (ids[4], 2600.0, 200.0),
        ],
    )
    .await;
    let board = app
        .call(
            Method::GET,
            "/leaderboards/brandubh",
            None,
            None,
            StatusCode::OK,
        )
        .await;
    let titles: Vec<(&str, Option<&str>)> = board["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| (e["name"].as_str().unwrap_or(""), e["title"].as_str()))
        .collect();
    assert_eq!(
        titles,
        [
            ("Gm", Some("GM")),
            ("Im", Some("IM")),
            ("Cm", Some("CM")),
            ("None", None)
        ]
    );
    let page = app
        .call(Method::GET, "/players/gm", None, None, StatusCode::OK)
        .await;
    assert_eq!(page["ratings"][0]["title"], "GM", "{page}");
    let page = app
        .call(Method::GET, "/players/new", None, None, StatusCode::OK)
        .await;
    assert_eq!(page["ratings"][0]["provisional"], true, "{page}");
    assert!(page["ratings"][0].get("title").is_none(), "{page}");

    let web = crate::web_sessions::browserless()
        .get(format!("{}/leaderboards/brandubh", app.base))
        .send()
        .await
        .unwrap_or_else(|e| panic!("no page: {e}"));
    let html = web.text().await.unwrap_or_default();
    assert!(html.contains(r#"title="Grandmaster">GM</abbr>"#), "{html}");
}

#[tokio::test]
async fn configured_thresholds_replace_the_wtfs() {
    let app = TestApp::start_with(|config| {
        config.games.titles = vec!["GM:1600".parse().unwrap_or_else(|e| panic!("{e}"))];
    })
    .await;
    let p = app.register("Strong").await;
    rate(&app, vec![(p.id, 1650.0, 60.0)]).await;
    let page = app
        .call(Method::GET, "/players/strong", None, None, StatusCode::OK)
        .await;
    assert_eq!(page["ratings"][0]["title"], "GM", "{page}");
}
