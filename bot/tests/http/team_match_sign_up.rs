//! Before a team match starts a player may leave their team (the players on later boards move
//! up one) and the organiser may call the match off; once it runs both are refused in words
//! (the games are under way: a player who wants out resigns them). Each change is an event
//! (`match_joined`, `match_left`, `match_cancelled`). The match's page does the same with its
//! buttons, its forms checked for their CSRF token.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use taflbot::domain::PlayerId;
use taflbot::service::matches::{DiscordTeamPlace, NewTeam, NewTeamMatch};
use taflbot::service::{ClockSpec, RulesChoice};

use crate::common::{Player, TestApp};
use crate::team_matches::{event_of_kind, join, read};
use crate::web_tournaments::{get, post, session};

/// A match in sign-up of `boards` boards between two empty teams, Reds (home) and Blues.
async fn open_match(app: &TestApp, organiser: &Player, boards: u32) -> i64 {
    let created = app
        .call(
            Method::POST,
            "/matches",
            Some(&organiser.token),
            Some(json!({
                "name": "Reds v Blues",
                "variant": "brandubh",
                "clock": {"kind": "per_move", "seconds": 86400},
                "boards": boards,
                "teams": [{"name": "Reds"}, {"name": "Blues"}],
            })),
            StatusCode::CREATED,
        )
        .await;
    assert_eq!(created["status"], "sign_up");
    created["id"].as_i64().unwrap_or(0)
}

async fn act(app: &TestApp, id: i64, action: &str, p: &Player, status: StatusCode) -> Value {
    app.call(
        Method::POST,
        &format!("/matches/{id}/{action}"),
        Some(&p.token),
        None,
        status,
    )
    .await
}

fn player_ids(m: &Value, team: usize) -> Vec<i64> {
    m["teams"][team]["players"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["player_id"].as_i64())
        .collect()
}

fn message(refusal: &Value) -> String {
    refusal["error"]["message"]
        .as_str()
        .unwrap_or("")
        .to_owned()
}

#[tokio::test]
async fn before_the_start_a_player_leaves_and_later_boards_move_up_after_it_leaving_is_refused() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let (h1, h2, a1, a2) = (
        app.register("Home one").await,
        app.register("Home two").await,
        app.register("Away one").await,
        app.register("Away two").await,
    );
    let id = open_match(&app, &organiser, 2).await;
    join(&app, id, &h1, "home", StatusCode::OK).await;
    let joined = event_of_kind(&app, &organiser, "match_joined").await;
    assert_eq!(joined["data"]["player"], h1.id);
    assert_eq!(joined["data"]["team"], "home");
    join(&app, id, &h2, "home", StatusCode::OK).await;
    join(&app, id, &a1, "away", StatusCode::OK).await;

    // Home one leaves: Home two moves up to board 1.
    let m = act(&app, id, "leave", &h1, StatusCode::OK).await;
    assert_eq!(player_ids(&m, 0), [h2.id]);
    let left = event_of_kind(&app, &organiser, "match_left").await;
    assert_eq!(left["data"]["match_id"], id);
    assert_eq!(left["data"]["player"], h1.id);
    assert_eq!(left["data"]["team_players"], 1);
    assert!(left["game_id"].is_null());
    let again = act(&app, id, "leave", &h1, StatusCode::CONFLICT).await;
    assert!(message(&again).contains("not playing"), "{again}");
    // Back again, on the next free board (2): no gap, no clash.
    join(&app, id, &h1, "home", StatusCode::OK).await;
    join(&app, id, &a2, "away", StatusCode::OK).await;
    assert_eq!(player_ids(&read(&app, id).await, 0), [h2.id, h1.id]);

    let started = act(&app, id, "start", &organiser, StatusCode::OK).await;
    assert_eq!(started["status"], "running");
    assert_eq!(started["boards"][0]["home"], h2.id);
    assert_eq!(started["boards"][0]["away"], a1.id);
    assert_eq!(started["boards"][1]["home"], h1.id);
    // Once it runs: neither leaving nor calling off, in words.
    let late = act(&app, id, "leave", &h1, StatusCode::CONFLICT).await;
    assert!(message(&late).contains("has started"), "{late}");
    assert!(message(&late).contains("resigns"), "{late}");
    let late = act(&app, id, "cancel", &organiser, StatusCode::CONFLICT).await;
    assert!(
        message(&late).contains("can no longer be called off"),
        "{late}"
    );
    assert_eq!(read(&app, id).await["status"], "running");
}

#[tokio::test]
async fn the_organiser_calls_a_match_off_before_the_start_and_its_players_hear_of_it() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let (h, other) = (app.register("Home").await, app.register("Other").await);
    let id = open_match(&app, &organiser, 2).await;
    join(&app, id, &h, "home", StatusCode::OK).await;
    // Only its organiser calls it off.
    let refused = act(&app, id, "cancel", &h, StatusCode::FORBIDDEN).await;
    assert!(
        message(&refused).contains("only the organiser"),
        "{refused}"
    );
    let m = act(&app, id, "cancel", &organiser, StatusCode::OK).await;
    assert_eq!(m["status"], "cancelled");
    assert!(m["boards"].as_array().is_some_and(Vec::is_empty));
    for p in [&h, &organiser] {
        let cancelled = event_of_kind(&app, p, "match_cancelled").await;
        assert_eq!(cancelled["data"]["match_id"], id);
        assert_eq!(cancelled["data"]["by"], organiser.id);
    }
    // Called off: nobody joins, leaves or starts it, and it is not called off twice.
    let late = join(&app, id, &other, "away", StatusCode::CONFLICT).await;
    assert!(message(&late).contains("called off"), "{late}");
    act(&app, id, "leave", &h, StatusCode::CONFLICT).await;
    act(&app, id, "start", &organiser, StatusCode::CONFLICT).await;
    act(&app, id, "cancel", &organiser, StatusCode::CONFLICT).await;
    let list = app
        .call(Method::GET, "/matches", None, None, StatusCode::OK)
        .await;
    assert_eq!(list[0]["status"], "cancelled");
    let (_, page) = get(&app, None, &format!("/matches/{id}")).await;
    assert!(page.contains("Called off by its organiser"), "{page}");
    // Unknown matches are 404s.
    act(&app, id + 100, "cancel", &organiser, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn the_match_page_joins_leaves_starts_and_calls_off_with_its_csrf_checked_buttons() {
    let app = TestApp::start().await;
    let (ada, bob, cy) = (
        app.register("Ada").await,
        app.register("Bob").await,
        app.register("Cy").await,
    );
    let (sa, sb, sc) = (
        session(&app, &ada).await,
        session(&app, &bob).await,
        session(&app, &cy).await,
    );
    let id = open_match(&app, &ada, 1).await;
    let page_path = format!("/matches/{id}");
    let (_, page) = get(&app, Some(&sb), &page_path).await;
    assert!(page.contains("id=\"join-home\""), "{page}");
    assert!(page.contains("Join Blues"), "{page}");
    assert!(
        !page.contains("id=\"start\""),
        "only the organiser starts: {page}"
    );
    assert!(
        page.contains(&format!("data-live-list=\"/matches/{id}/live\"")),
        "{page}"
    );
    for (s, action) in [(&sb, "join_home"), (&sc, "join_away")] {
        let (status, back, _) = post(&app, s, &format!("{page_path}/{action}"), &[]).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        assert_eq!(back.as_deref(), Some(page_path.as_str()));
    }
    // The team is full: refused on the page, in words.
    let (status, _, full) = post(&app, &sa, &format!("{page_path}/join_home"), &[]).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(full.contains("is full"), "{full}");
    assert!(full.contains("id=\"match-error\""), "{full}");
    // Cy leaves from the page, and joins again.
    let (_, page) = get(&app, Some(&sc), &page_path).await;
    assert!(page.contains("id=\"leave\""), "{page}");
    post(&app, &sc, &format!("{page_path}/leave"), &[]).await;
    let m = read(&app, id).await;
    assert!(player_ids(&m, 1).is_empty());
    // A form from elsewhere (no CSRF token) does nothing.
    let forged = crate::web_sessions::browserless()
        .post(format!("{}{page_path}/join_away", app.base))
        .header(reqwest::header::COOKIE, &sc.cookie)
        .form(&[("csrf", "forged")])
        .send()
        .await
        .unwrap_or_else(|e| panic!("no answer: {e}"));
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert!(player_ids(&read(&app, id).await, 1).is_empty());
    post(&app, &sc, &format!("{page_path}/join_away"), &[]).await;
    // Only the organiser starts it; then the page shows the board and no more buttons.
    let (status, _, refused) = post(&app, &sb, &format!("{page_path}/start"), &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(refused.contains("only the organiser"), "{refused}");
    let (_, page) = get(&app, Some(&sa), &page_path).await;
    assert!(page.contains("id=\"cancel\""), "{page}");
    let (status, _, _) = post(&app, &sa, &format!("{page_path}/start"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, running) = get(&app, Some(&sa), &page_path).await;
    assert!(running.contains("Being played"), "{running}");
    assert!(!running.contains("id=\"cancel\""), "{running}");
    let (status, _, late) = post(&app, &sa, &format!("{page_path}/cancel"), &[]).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(late.contains("has started"), "{late}");
}

#[tokio::test]
async fn the_teams_of_a_match_between_discord_servers_are_joined_only_from_discord() {
    let app = TestApp::start().await;
    let organiser = app.register("Organiser").await;
    let outsider = app.register("Outsider").await;
    let request = NewTeamMatch {
        name: "North v South".into(),
        rules: RulesChoice::Variant("brandubh".into()),
        clock: ClockSpec::PerMove { seconds: 86_400 },
        rated: Some(false),
        boards: Some(2),
        teams: [
            NewTeam {
                name: "North".into(),
                players: Vec::new(),
            },
            NewTeam {
                name: "South".into(),
                players: Vec::new(),
            },
        ],
    };
    let place = DiscordTeamPlace {
        guild_id: 7,
        guild_name: "North".into(),
        channel_id: 70,
    };
    let created = app
        .service()
        .matches()
        .create_from_discord(PlayerId(organiser.id), request, place)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let id = created.id.0;
    // Neither the server's team nor the one open to the next server takes an outsider.
    for team in ["home", "away"] {
        let refused = join(&app, id, &outsider, team, StatusCode::CONFLICT).await;
        assert!(message(&refused).contains("/match join"), "{refused}");
    }
    // The page says where members join instead of offering buttons that could only fail.
    let so = session(&app, &outsider).await;
    let page_path = format!("/matches/{id}");
    let (_, page) = get(&app, Some(&so), &page_path).await;
    assert!(page.contains("id=\"join-from-discord\""), "{page}");
    assert!(!page.contains("id=\"join-home\""), "{page}");
    assert!(!page.contains("id=\"join-away\""), "{page}");
    let (status, _, refused) = post(&app, &so, &format!("{page_path}/join_away"), &[]).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(refused.contains("/match join"), "{refused}");
    assert!(player_ids(&read(&app, id).await, 1).is_empty());
}
