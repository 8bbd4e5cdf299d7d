//! Computer analysis over HTTP: asked for, queued, searched, stored, announced, resumed.

use std::time::Duration;
use taflbot_test_support::eventually;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::sync::broadcast;

use taflbot::domain::AnalysisId;
use taflbot::service::{Event, EventPayload};

use super::common::{Player, TestApp};

pub(super) async fn quick_app(ms_per_ply: u32) -> TestApp {
    TestApp::start_with(|c| {
        c.games.analysis_ms_per_ply = ms_per_ply;
        c.games.analysis_threads = 1;
    })
    .await
}

/// A (attackers) and B play a2-b2 (freeing the king's road: a blunder), a3-b3 (walking away
/// from the escape: a missed win) and b6-b4 (taking the king).
pub(super) async fn scripted_game(app: &TestApp, private: bool) -> (Player, Player, i64) {
    let a = app.register("Astrid").await;
    let b = app.register("Ragnar").await;
    let challenge = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "rules": tafl_engine::ai::analysis::example::rules_string(), "side": "attackers",
                    "private": private }),
        )
        .await;
    let game = app
        .post(
            &format!("/challenges/{challenge}/accept"),
            &b.token,
            json!({}),
        )
        .await["id"]
        .as_i64()
        .unwrap();
    let last = app
        .play_line(game, &a, &b, &tafl_engine::ai::analysis::example::MOVES)
        .await;
    assert_eq!(last["status"], "finished", "{last}");
    (a, b, game)
}

async fn request(app: &TestApp, game: i64, who: &Player, status: StatusCode) -> Value {
    app.call(
        Method::POST,
        &format!("/games/{game}/analysis"),
        Some(&who.token),
        None,
        status,
    )
    .await
}

/// Waits for the `analysis_done` event of `analysis` (failing loudly after 60 s).
pub(super) async fn done_event(events: &mut broadcast::Receiver<Event>, analysis: i64) -> Event {
    let wait = async {
        loop {
            match events.recv().await {
                Ok(event) => {
                    if let EventPayload::AnalysisDone(done) = &event.payload
                        && done.analysis == AnalysisId(analysis)
                    {
                        return event;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(e) => panic!("event bus closed: {e}"),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(60), wait)
        .await
        .unwrap_or_else(|_| panic!("no analysis_done event for analysis {analysis} in 60 s"))
}

#[tokio::test]
async fn an_analysis_finds_the_planted_blunder_and_the_missed_win() {
    let app = quick_app(40).await;
    let (a, b, game) = scripted_game(&app, false).await;
    let mut events = app.service().events().subscribe();
    let queued = request(&app, game, &a, StatusCode::ACCEPTED).await;
    assert_eq!(queued["plies_analysed"], 3);
    assert!(queued["plies"].as_array().unwrap().is_empty());
    let id = queued["id"].as_i64().unwrap();
    let event = done_event(&mut events, id).await;
    assert_eq!(event.game_id.map(|g| g.get()), Some(game));
    let mut players: Vec<i64> = event.players.iter().map(|p| p.get()).collect();
    players.sort_unstable();
    assert_eq!(players, vec![a.id, b.id]);

    // Anyone may read a public game's analysis, without a token.
    let analysis = app
        .call(
            Method::GET,
            &format!("/games/{game}/analysis"),
            None,
            None,
            StatusCode::OK,
        )
        .await;
    assert_eq!(analysis["status"], "done");
    let plies = analysis["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 3, "{analysis}");
    assert_eq!(plies[0]["move"], "a2-b2");
    assert_eq!(plies[0]["mark"], "blunder", "{}", plies[0]);
    assert_eq!(plies[0]["after"], 100.0);
    assert_eq!(plies[1]["mark"], "missed_win", "{}", plies[1]);
    assert_eq!(plies[1]["best"], "a3-a1");
    assert_eq!(plies[1]["forced"], "escape in 1");
    assert_eq!(plies[2]["mark"], "best", "{}", plies[2]);
    assert_eq!(analysis["summary"]["worst"][0]["ply"], 2);
    assert_eq!(analysis["summary"]["defenders"]["missed_wins"], 1);
    assert_eq!(analysis["summary"]["attackers"]["blunders"], 1);

    // Asked again: the stored analysis, at once.
    let again = request(&app, game, &b, StatusCode::OK).await;
    assert_eq!(again["id"], id);
    assert_eq!(again["plies"], analysis["plies"]);
}

#[tokio::test]
async fn who_may_analyse_what() {
    let app = quick_app(20).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    let c = app.register("C").await;
    // Nothing to analyse before a move, nothing to read before it is asked for.
    let empty = request(&app, game, &a, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert!(
        empty["error"]["message"]
            .as_str()
            .unwrap()
            .contains("no move"),
        "{empty}"
    );
    app.play_line(game, &a, &b, &["a4-a3"]).await;
    // A game against a person is analysed once it is over, by nobody while it is played.
    let refused = request(&app, game, &a, StatusCode::FORBIDDEN).await;
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("once it is over"),
        "{refused}"
    );
    request(&app, game, &c, StatusCode::FORBIDDEN).await;
    app.call(
        Method::GET,
        &format!("/games/{game}/analysis"),
        None,
        None,
        StatusCode::NOT_FOUND,
    )
    .await;
    // A private game's analysis does not exist for anyone else.
    let (_, _, private) = scripted_game(&app, true).await;
    request(&app, private, &c, StatusCode::NOT_FOUND).await;
    // A game against the AI may be analysed by its player while it goes on.
    let ai_game = app
        .call(
            Method::POST,
            "/challenges",
            Some(&c.token),
            Some(json!({ "ai_level": 1, "variant": "brandubh", "side": "defenders" })),
            StatusCode::CREATED,
        )
        .await["game"]["id"]
        .as_i64()
        .unwrap();
    let mut events = app.service().events().subscribe();
    let ply = wait_for_ply(&app, ai_game, &c).await;
    assert!(ply >= 1);
    let queued = request(&app, ai_game, &c, StatusCode::ACCEPTED).await;
    done_event(&mut events, queued["id"].as_i64().unwrap()).await;
    request(&app, ai_game, &a, StatusCode::FORBIDDEN).await;
}

/// The AI's first move in `game` (it plays first as the attackers).
async fn wait_for_ply(app: &TestApp, game: i64, player: &Player) -> u64 {
    let mut events = app.service().events().subscribe();
    let ply = app.get(&format!("/games/{game}"), &player.token).await["ply"]
        .as_u64()
        .unwrap();
    if ply > 0 {
        return ply;
    }
    let wait = async {
        loop {
            if let Ok(event) = events.recv().await
                && let EventPayload::MovePlayed(played) = &event.payload
                && event.game_id.map(|g| g.get()) == Some(game)
            {
                return u64::from(played.ply);
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(30), wait)
        .await
        .expect("the AI's first move within 30 s")
}

#[tokio::test]
async fn analyses_wait_their_turn_in_the_order_asked() {
    // Long enough per position that the first is still searching when the second is asked.
    let app = quick_app(400).await;
    let (a, _, first) = scripted_game(&app, false).await;
    let (c, _, second) = scripted_game(&app, false).await;
    let mut events = app.service().events().subscribe();
    let one = request(&app, first, &a, StatusCode::ACCEPTED).await;
    let two = request(&app, second, &c, StatusCode::ACCEPTED).await;
    assert_eq!(one["queue_position"], 1);
    assert_eq!(two["queue_position"], 2, "{two}");
    let (one, two) = (one["id"].as_i64().unwrap(), two["id"].as_i64().unwrap());
    let wait = async {
        let mut order = Vec::new();
        while order.len() < 2 {
            if let Ok(event) = events.recv().await
                && let EventPayload::AnalysisDone(done) = &event.payload
            {
                order.push(done.analysis.get());
            }
        }
        order
    };
    let order = tokio::time::timeout(Duration::from_secs(60), wait)
        .await
        .expect("both analyses within 60 s");
    assert_eq!(order, vec![one, two]);
}

#[tokio::test]
async fn an_analysis_cut_short_by_a_restart_resumes() {
    // Quiet Brandubh moves, then a resignation: no position has a result the search could
    // prove early, so each takes its whole second. The restart comes after the first position
    // is stored and before the last, so the analysis resumes half done.
    let app = quick_app(1000).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    app.play_line(game, &a, &b, &["d1-c1", "c4-c3", "f4-f5", "e4-e1"])
        .await;
    app.post(&format!("/games/{game}/resign"), &a.token, json!({}))
        .await;
    let queued = request(&app, game, &a, StatusCode::ACCEPTED).await;
    let id = queued["id"].as_i64().unwrap();
    let stored = wait_for_stored_positions(&app, id, 1).await;
    assert!(
        stored < 5,
        "all {stored} positions were stored before the restart"
    );
    let app = app.restart().await;
    let mut events = app.service().events().subscribe();
    let now = app.get(&format!("/games/{game}/analysis"), &a.token).await;
    assert_ne!(now["status"], "done", "{now}");
    assert_eq!(now["id"], id);
    done_event(&mut events, id).await;
    let done = app.get(&format!("/games/{game}/analysis"), &a.token).await;
    assert_eq!(done["status"], "done");
    let plies = done["plies"].as_array().unwrap();
    let moves: Vec<&str> = plies.iter().filter_map(|p| p["move"].as_str()).collect();
    assert_eq!(moves, ["d1-c1", "c4-c3", "f4-f5", "e4-e1"], "{done}");
}

/// Waits (at most 30 s, failing loudly) until `analysis` has at least `least` positions
/// stored; answers how many it has.
async fn wait_for_stored_positions(app: &TestApp, analysis: i64, least: i64) -> i64 {
    let what = format!("analysis {analysis} to store {least} positions");
    eventually(Duration::from_secs(30), &what, || async {
        let stored: i64 = app
            .service()
            .store()
            .read(move |c| {
                c.query_one(
                    "SELECT COUNT(*) FROM analysis_positions WHERE analysis_id = ?1",
                    taflbot::store::params![analysis],
                    |r| r.get(0),
                )
            })
            .await
            .unwrap();
        (stored >= least).then_some(stored)
    })
    .await
}
