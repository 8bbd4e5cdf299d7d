//! The AI levels as rated players (issue 34): a rated game against a level moves the person's
//! and the level's ratings by Glicko-2, casual ones move neither, and the level is on the
//! leaderboard and has a profile that says it is the AI.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use taflbot::domain::{PlayerId, Side};
use taflbot::service::ratings::glicko::{INITIAL, after_game, shown};
use taflbot::store::StoreError;
use taflbot::store::rows::{self, Glicko, RatingRow};

use crate::common::{Player, T0, TestApp};
use crate::web_tournaments::{get, post, session};

const DAY_PER_MOVE: fn() -> Value = || json!({ "kind": "per_move", "seconds": 86_400 });

/// `person` plays level 1 on Brandubh as the defenders (`rated` as given) and resigns at once;
/// returns the ended game's view.
async fn resigned_game_against_level_one(app: &TestApp, person: &Player, rated: bool) -> Value {
    let created = app
        .call(
            Method::POST,
            "/challenges",
            Some(&person.token),
            Some(
                json!({ "ai_level": 1, "variant": "brandubh", "side": "defenders",
                         "clock": DAY_PER_MOVE(), "rated": rated }),
            ),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(created["game"]["rated"], rated, "{created}");
    let game = created["game"]["id"].as_i64().unwrap();
    let over = app
        .post(&format!("/games/{game}/resign"), &person.token, json!({}))
        .await;
    assert_eq!(over["status"], "finished", "{over}");
    over
}

/// A player's Brandubh rating as the store keeps it (exact, not the view's two decimals).
async fn brandubh_rating(app: &TestApp, player: i64) -> Glicko {
    app.service()
        .store()
        .read(move |c| rows::rating(c, PlayerId(player), "brandubh"))
        .await
        .unwrap()
        .expect("rated in brandubh")
        .glicko
}

/// What anyone reads at `path`, signed in or not.
async fn public_get(app: &TestApp, path: &str) -> Value {
    app.call(Method::GET, path, None, None, StatusCode::OK)
        .await
}

/// The Brandubh leaderboard's first page.
async fn leaderboard(app: &TestApp) -> Vec<Value> {
    public_get(app, "/leaderboards/brandubh").await["items"]
        .as_array()
        .unwrap()
        .clone()
}

/// Gives each `(player, rating)` a settled Brandubh rating (deviation 60), as many rated
/// games would leave it.
async fn settle(app: &TestApp, ratings: &[(i64, f64)]) {
    let ratings = ratings.to_vec();
    app.service()
        .store()
        .write(move |c| {
            for (player, rating) in ratings {
                let row = RatingRow {
                    player_id: PlayerId(player),
                    pool: "brandubh".into(),
                    glicko: Glicko {
                        rating,
                        deviation: 60.0,
                        volatility: 0.06,
                    },
                    games: 40,
                    updated_at: T0,
                };
                rows::put_rating(c, &row)?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .unwrap();
}

/// The web page at `path`, as a visitor who is not signed in reads it.
async fn web_page(app: &TestApp, path: &str) -> String {
    get(app, None, path).await.1
}

fn assert_moved(change: &Value, before: &Glicko, after: &Glicko) {
    assert_eq!(change["before"], shown(before.rating), "{change}");
    assert_eq!(change["after"], shown(after.rating), "{change}");
    assert_eq!(change["deviation"], shown(after.deviation), "{change}");
}

#[tokio::test]
async fn a_rated_game_against_a_level_moves_both_ratings_by_glicko2_and_a_casual_one_neither() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;

    // Casual by default, and when asked: no rating moves, no AI player is made.
    let casual = resigned_game_against_level_one(&app, &a, false).await;
    assert!(casual["ratings"].is_null(), "{casual}");
    let ratings: i64 = app
        .service()
        .store()
        .read(|c| {
            c.query_one(
                "SELECT COUNT(*) FROM ratings",
                taflbot::store::params![],
                |r| r.get(0),
            )
        })
        .await
        .unwrap();
    assert_eq!(ratings, 0, "a casual game against the AI rates nobody");

    // Rated: both move from the initial rating as Glicko-2 moves two new players.
    let first = resigned_game_against_level_one(&app, &a, true).await;
    let ratings = &first["ratings"];
    assert_eq!(ratings["pool"], "brandubh", "{first}");
    assert_eq!(ratings["defenders"]["player_id"], a.id);
    let level = ratings["attackers"]["player_id"].as_i64().unwrap();
    assert_ne!(level, a.id);
    let (ai_after, a_after) = after_game(&INITIAL, &INITIAL, Some(Side::Attackers));
    assert_moved(&ratings["attackers"], &INITIAL, &ai_after);
    assert_moved(&ratings["defenders"], &INITIAL, &a_after);
    assert!(ratings["attackers"]["change"].as_f64().unwrap() > 0.0);
    assert_eq!(brandubh_rating(&app, level).await, ai_after);

    // A second rated game, a day later: from the ratings the first left, the same update.
    app.clock.advance_ms(24 * 3600 * 1000);
    let ai_before = brandubh_rating(&app, level).await;
    let a_before = brandubh_rating(&app, a.id).await;
    let second = resigned_game_against_level_one(&app, &a, true).await;
    assert_eq!(
        second["ratings"]["attackers"]["player_id"], level,
        "level 1 is one player, found by its level"
    );
    let (ai_after, a_after) = after_game(&ai_before, &a_before, Some(Side::Attackers));
    assert_moved(&second["ratings"]["attackers"], &ai_before, &ai_after);
    assert_moved(&second["ratings"]["defenders"], &a_before, &a_after);
    assert_eq!(brandubh_rating(&app, level).await, ai_after);
    assert_eq!(brandubh_rating(&app, a.id).await, a_after);

    // The level's page says what it is; its rating history has both games.
    let handle = second["attackers"]["handle"].as_str().unwrap().to_owned();
    assert_eq!(second["attackers"]["ai_level"], 1, "{second}");
    let profile = public_get(&app, &format!("/players/{handle}")).await;
    assert_eq!(profile["kind"], "ai", "{profile}");
    assert_eq!(profile["ai_level"], 1);
    assert_eq!(profile["name"], "taflbot AI level 1");
    assert_eq!(profile["ratings"][0]["variant"], "brandubh");
    assert_eq!(profile["ratings"][0]["games"], 2);
    assert_eq!(
        profile["results"],
        json!([{ "variant": "brandubh", "played": 2, "wins": 2, "losses": 0, "draws": 0 }]),
        "its rated games only (not the casual one)"
    );
    let person = public_get(&app, "/players/ada").await;
    assert_eq!(person["kind"], "person", "{person}");
    assert!(person.get("ai_level").is_none());
    let history = public_get(&app, &format!("/players/{handle}/ratings/brandubh")).await;
    assert_eq!(history["items"].as_array().unwrap().len(), 2, "{history}");
}

#[tokio::test]
async fn the_leaderboard_lists_a_settled_level_marked_as_the_ai_without_a_title() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let game = resigned_game_against_level_one(&app, &a, true).await;
    let level = game["ratings"]["attackers"]["player_id"].as_i64().unwrap();
    // Provisional after one game, as a person would be: off the leaderboard.
    assert!(leaderboard(&app).await.is_empty());
    // Settled (as many games would leave it) and above the grandmaster threshold: listed,
    // marked as the AI, with no title; the person below it is titled as people are.
    settle(&app, &[(level, 2300.0), (a.id, 2050.0)]).await;
    let items = leaderboard(&app).await;
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(items[0]["player_id"], level);
    assert_eq!(items[0]["kind"], "ai");
    assert_eq!(items[0]["ai_level"], 1);
    assert_eq!(items[0]["name"], "taflbot AI level 1");
    assert!(items[0].get("title").is_none(), "{:?}", items[0]);
    assert_eq!(items[1]["kind"], "person");
    assert_eq!(items[1]["title"], "IM", "{:?}", items[1]);
    let handle = items[0]["handle"].as_str().unwrap().to_owned();
    let profile = public_get(&app, &format!("/players/{handle}")).await;
    assert!(profile["ratings"][0].get("title").is_none(), "{profile}");
    // A Discord guild's leaderboard (/standings) lists the AI too, which plays in every
    // guild, and not the person, never seen in this one.
    let guild = app
        .service()
        .ratings()
        .leaderboard("brandubh", Some(42), 1)
        .await
        .unwrap();
    let listed: Vec<Option<u8>> = guild.items.iter().map(|e| e.ai_level).collect();
    assert_eq!(listed, [Some(1)]);
}

#[tokio::test]
async fn what_cannot_be_measured_is_refused_and_the_ai_never_signs_in_nor_is_challenged_as_a_person()
 {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let refused = |body: Value| {
        let app = &app;
        let token = a.token.clone();
        async move {
            app.call(
                Method::POST,
                "/challenges",
                Some(&token),
                Some(body),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await["error"]["message"]
                .as_str()
                .unwrap()
                .to_owned()
        }
    };
    let untimed = refused(json!({ "ai_level": 1, "variant": "brandubh", "rated": true })).await;
    assert!(
        untimed.starts_with("a rated game against the AI needs a clock"),
        "{untimed}"
    );
    let strongest = refused(json!({ "ai_level": 5, "variant": "brandubh", "rated": true,
                                     "clock": DAY_PER_MOVE() }))
    .await;
    assert!(
        strongest.starts_with("games against AI level 5 cannot be rated"),
        "{strongest}"
    );
    let rules = app.service().games().variants()[0].rules.clone();
    let custom = refused(json!({ "ai_level": 1, "rules": rules, "rated": true,
                                  "clock": DAY_PER_MOVE() }))
    .await;
    assert!(
        custom.starts_with("games on custom rules are never rated"),
        "{custom}"
    );

    let game = resigned_game_against_level_one(&app, &a, true).await;
    let level = game["ratings"]["attackers"]["player_id"].as_i64().unwrap();
    let handle = game["attackers"]["handle"].as_str().unwrap().to_owned();
    let as_person = refused(json!({ "opponent_id": level, "variant": "brandubh",
                                     "clock": DAY_PER_MOVE() }))
    .await;
    assert!(
        as_person.contains("is the taflbot AI at level 1"),
        "{as_person}"
    );
    let sign_in = app
        .service()
        .credentials()
        .login_link_for_handle(&handle, "http://localhost")
        .await;
    let refusal = sign_in.expect_err("nobody signs in as the AI").to_string();
    assert!(refusal.contains("never signs in"), "{refusal}");
}

#[tokio::test]
async fn the_web_form_asks_for_a_rated_game_against_the_ai_and_its_pages_mark_the_level() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let ada = session(&app, &a).await;
    let (_, form) = get(&app, Some(&ada), "/challenges/new?opponent=ai").await;
    assert!(form.contains(r#"name="ai_rated""#), "{form}");
    let (status, to, _) = post(
        &app,
        &ada,
        "/challenges",
        &[
            ("opponent", "ai"),
            ("ai_level", "1"),
            ("ai_rated", "true"),
            ("variant", "brandubh"),
            ("side", "defenders"),
            ("days", ""),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = to.unwrap();
    let game = to.trim_start_matches("/games/");
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["rated"], true, "{view}");
    assert_eq!(
        view["clock"],
        json!({ "kind": "per_move", "seconds": 3 * 86_400 }),
        "a rated game gets a clock when the form leaves it empty"
    );
    let over = app
        .post(&format!("/games/{game}/resign"), &a.token, json!({}))
        .await;
    let level = over["ratings"]["attackers"]["player_id"].as_i64().unwrap();
    let handle = over["attackers"]["handle"].as_str().unwrap().to_owned();

    let page = web_page(&app, &format!("/players/{handle}")).await;
    assert!(page.contains("The taflbot AI at level 1"), "{page}");
    settle(&app, &[(level, 1700.0)]).await;
    let board = web_page(&app, "/leaderboards/brandubh").await;
    assert!(board.contains(r#"class="ai-mark""#), "{board}");
}
