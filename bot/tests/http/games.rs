use reqwest::{Method, StatusCode};
use serde_json::json;
use taflbot_test_support::eventually;

use taflbot::domain::GameId;

use crate::common::{TestApp, wire};

fn unlimited() -> serde_json::Value {
    json!({ "kind": "unlimited" })
}

#[tokio::test]
async fn whole_games_in_three_variants_end_with_the_engines_verdict() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bo").await;
    // (variant, moves from the start, winner, reason), found with the engine.
    let cases = [
        (
            "tablut",
            &["d1-a1", "d5-d1", "a1-b1", "e5-d5", "b1-c1", "d5-d1"][..],
            "defenders",
            "king_escaped",
        ),
        (
            "brandubh",
            &[
                "d1-b1", "d3-a3", "b1-c1", "d4-d3", "c1-b1", "d3-g3", "b1-c1", "g3-g1",
            ][..],
            "defenders",
            "king_escaped",
        ),
        (
            "copenhagen",
            &[
                "d1-b1", "f4-b4", "b1-c1", "b4-f4", "c1-b1", "f4-b4", "b1-c1", "b4-f4", "c1-b1",
            ][..],
            // The attackers make the third repetition, yet Copenhagen's defenders lose it.
            "attackers",
            "repetition",
        ),
    ];
    for (variant, moves, winner, reason) in cases {
        let game = app.start_game(&a, &b, variant, unlimited()).await;
        let last = app.play_line(game, &a, &b, moves).await;
        assert_eq!(last["status"], "finished", "{variant}: {last}");
        assert_eq!(last["result"]["winner"], winner, "{variant}: {last}");
        assert_eq!(last["result"]["reason"], reason, "{variant}: {last}");
        let view = app.get(&format!("/games/{game}"), &a.token).await;
        assert_eq!(view["status"], "finished");
        assert_eq!(view["ply"], moves.len());
        assert_eq!(view["moves"].as_array().unwrap().len(), moves.len());
        assert_eq!(view["side_to_move"], serde_json::Value::Null);
        // No move after the end.
        let after = app
            .call(
                Method::POST,
                &format!("/games/{game}/moves"),
                Some(&b.token),
                Some(json!({ "move": "a1-a2", "ply": moves.len() })),
                StatusCode::CONFLICT,
            )
            .await;
        assert_eq!(after["error"]["code"], "game_over");
    }
    // Both players see the three finished games.
    let mine = app.get("/games", &b.token).await;
    assert_eq!(mine.as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn a_game_against_the_ai_is_played_to_the_end() {
    let app = TestApp::start().await;
    let me = app.register("Solo").await;
    // I defend; the AI (attackers) moves first, off the request path.
    let created = app
        .call(
            Method::POST,
            "/challenges",
            Some(&me.token),
            Some(json!({ "ai_level": 2, "variant": "brandubh", "side": "defenders" })),
            StatusCode::CREATED,
        )
        .await;
    let game = created["game"]["id"].as_i64().unwrap();
    assert_eq!(created["game"]["attackers"]["ai_level"], 2);
    let mut done = false;
    // Generous: the AI thinks on the same two cores as the rest of the suite.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    while tokio::time::Instant::now() < deadline {
        let view = app.get(&format!("/games/{game}"), &me.token).await;
        if view["status"] != "active" {
            done = true;
            break;
        }
        if view["your_turn"] == true {
            let ply = view["ply"].as_u64().unwrap();
            let pick = greedy_king_move(&view);
            app.post(
                &format!("/games/{game}/moves"),
                &me.token,
                json!({ "move": pick, "ply": ply }),
            )
            .await;
        } else {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }
    assert!(done, "the game against the AI did not finish");
    let view = app.get(&format!("/games/{game}"), &me.token).await;
    let moves = view["moves"].as_array().unwrap();
    // The AI made every attackers' move.
    assert!(
        moves
            .iter()
            .filter(|m| m["side"] == "attackers")
            .all(|m| m["played_by"].is_null())
    );
    assert!(
        moves
            .iter()
            .filter(|m| m["side"] == "defenders")
            .all(|m| m["played_by"] == me.id)
    );
}

/// The test player's policy: a winning move if there is one, else the move that leaves the
/// king the most moves (he walks towards the edge).
fn greedy_king_move(view: &serde_json::Value) -> String {
    use tafl_engine::{Game, Move, Piece, Rules};
    let rules = Rules::from_opentafl(view["rules"].as_str().unwrap()).unwrap();
    let dim = rules.dim();
    let mut game = Game::new(rules);
    for m in view["moves"].as_array().unwrap() {
        game.play(Move::parse(m["move"].as_str().unwrap(), dim).unwrap())
            .unwrap();
    }
    let me = game.side_to_move();
    let score = |mv: Move| {
        let mut g = game.clone();
        g.play(mv).unwrap();
        if g.outcome().and_then(|o| o.winner()) == Some(me) {
            return i64::MAX;
        }
        let king = g.position().king().unwrap();
        let is_king = game.position().piece_at(mv.from) == Some(Piece::King);
        let on_edge = king
            .file()
            .min(dim - 1 - king.file())
            .min(king.rank())
            .min(dim - 1 - king.rank())
            == 0;
        i64::from(is_king) * 10 + i64::from(on_edge) * 100
    };
    game.legal_moves()
        .into_iter()
        .max_by_key(|&mv| score(mv))
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn of_two_racing_moves_exactly_one_wins() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app.start_game(&a, &b, "copenhagen", unlimited()).await;
    let legal = app
        .get(&format!("/games/{game}/legal-moves"), &a.token)
        .await;
    let moves: Vec<String> = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .take(8)
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    let mut tasks = Vec::new();
    for mv in moves {
        let client = app.client.clone();
        let url = app.url(&format!("/games/{game}/moves"));
        let token = a.token.clone();
        tasks.push(tokio::spawn(async move {
            let r = client
                .post(url)
                .bearer_auth(token)
                .json(&json!({ "move": mv, "ply": 0 }))
                .send()
                .await
                .unwrap();
            (r.status(), r.json::<serde_json::Value>().await.unwrap())
        }));
    }
    let mut ok = 0;
    let mut conflicts = 0;
    for t in tasks {
        let (status, body) = t.await.unwrap();
        match status {
            StatusCode::OK => ok += 1,
            StatusCode::CONFLICT => {
                conflicts += 1;
                assert_eq!(body["error"]["code"], "conflict");
                // The loser is told the current state.
                assert_eq!(body["error"]["game"]["ply"], 1);
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!((ok, conflicts), (1, 7));
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["ply"], 1);
    assert_eq!(view["moves"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_retried_move_with_the_same_idempotency_key_gets_the_stored_answer() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app.start_game(&a, &b, "tablut", unlimited()).await;
    let send = |key: &'static str, mv: &'static str| {
        app.client
            .post(app.url(&format!("/games/{game}/moves")))
            .bearer_auth(&a.token)
            .header("Idempotency-Key", key)
            .json(&json!({ "move": mv, "ply": 0 }))
            .send()
    };
    let first = send("k-1", "d1-a1").await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let first: serde_json::Value = first.json().await.unwrap();
    let again = send("k-1", "d1-a1").await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(again.json::<serde_json::Value>().await.unwrap(), first);
    // The move was applied once.
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["ply"], 1);
    // The same key for another request is refused.
    let other = send("k-1", "d1-b1").await.unwrap();
    assert_eq!(other.status(), StatusCode::UNPROCESSABLE_ENTITY);
    // Without a key, a repeat is a conflict.
    let plain = app
        .call(
            Method::POST,
            &format!("/games/{game}/moves"),
            Some(&a.token),
            Some(json!({ "move": "d1-a1", "ply": 0 })),
            StatusCode::CONFLICT,
        )
        .await;
    assert_eq!(plain["error"]["code"], "conflict");
}

/// A key used again for the player's next move (legal, at the game's ply) is refused, and
/// the move is not played: the key's stored answer, read with the game, decides before the
/// move is checked.
#[tokio::test]
async fn a_key_used_again_for_the_next_move_is_refused_and_that_move_not_played() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app.start_game(&a, &b, "tablut", unlimited()).await;
    let send = |mv: &'static str, ply: u32| {
        app.client
            .post(app.url(&format!("/games/{game}/moves")))
            .bearer_auth(&a.token)
            .header("Idempotency-Key", "mine")
            .json(&json!({ "move": mv, "ply": ply }))
            .send()
    };
    let first = send("d1-a1", 0).await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    app.play_line(game, &b, &a, &["c5-c2"]).await;
    let reused = send("a1-a2", 2).await.unwrap();
    assert_eq!(reused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let reused: serde_json::Value = reused.json().await.unwrap();
    assert!(
        reused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("already used")),
        "{reused}"
    );
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["ply"], 2, "the refused move was played: {view}");
    // The game goes on, on the same instance.
    app.play_line(game, &a, &b, &["a1-a2"]).await;
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["ply"], 3);
}

/// The answer kept under a key is the whole answer, also for the move that ends the game.
#[tokio::test]
async fn a_retried_winning_move_gets_the_stored_answer_with_the_result() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app.start_game(&a, &b, "tablut", unlimited()).await;
    let line = ["d1-a1", "d5-d1", "a1-b1", "e5-d5", "b1-c1"];
    app.play_line(game, &a, &b, &line).await;
    let send = || {
        app.client
            .post(app.url(&format!("/games/{game}/moves")))
            .bearer_auth(&b.token)
            .header("Idempotency-Key", "the-win")
            .json(&json!({ "move": "d5-d1", "ply": 5 }))
            .send()
    };
    let first: serde_json::Value = send().await.unwrap().json().await.unwrap();
    assert_eq!(first["result"]["reason"], "king_escaped", "{first}");
    let again = send().await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(again.json::<serde_json::Value>().await.unwrap(), first);
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["ply"], 6);
}

#[tokio::test]
async fn a_game_continues_after_a_restart_on_the_same_file() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app.start_game(&a, &b, "tablut", unlimited()).await;
    let line = ["d1-a1", "d5-d1", "a1-b1", "e5-d5", "b1-c1", "d5-d1"];
    app.play_line(game, &a, &b, &line[..3]).await;
    let app = app.restart().await;
    let view = app.get(&format!("/games/{game}"), &b.token).await;
    assert_eq!(view["ply"], 3);
    assert_eq!(view["your_turn"], true);
    let last = app.play_line(game, &b, &a, &line[3..]).await;
    assert_eq!(last["result"]["reason"], "king_escaped");
}

#[tokio::test]
async fn illegal_moves_are_refused_with_the_engines_reason() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let game = app.start_game(&a, &b, "copenhagen", unlimited()).await;
    for (mv, code) in [
        ("e5-e8", "illegal_move"),
        ("zz-top", "illegal_move"),
        ("f6-f7", "illegal_move"),
    ] {
        let e = app
            .call(
                Method::POST,
                &format!("/games/{game}/moves"),
                Some(&a.token),
                Some(json!({ "move": mv, "ply": 0 })),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        assert_eq!(e["error"]["code"], code, "{mv}: {e}");
        assert!(!e["error"]["message"].as_str().unwrap().is_empty());
    }
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["ply"], 0);
}

#[tokio::test]
async fn resign_draw_and_abort_end_games_as_asked() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;

    let g1 = app.start_game(&a, &b, "tablut", unlimited()).await;
    let v = app
        .post(&format!("/games/{g1}/abort"), &b.token, json!({}))
        .await;
    assert_eq!(v["status"], "aborted");

    let g2 = app.start_game(&a, &b, "tablut", unlimited()).await;
    app.play_line(g2, &a, &b, &["d1-a1", "d5-d1"]).await;
    let e = app
        .call(
            Method::POST,
            &format!("/games/{g2}/abort"),
            Some(&a.token),
            None,
            StatusCode::CONFLICT,
        )
        .await;
    assert_eq!(e["error"]["code"], "conflict");
    app.post(&format!("/games/{g2}/draw/offer"), &a.token, json!({}))
        .await;
    // Only the other side can answer an offer.
    app.call(
        Method::POST,
        &format!("/games/{g2}/draw/accept"),
        Some(&a.token),
        None,
        StatusCode::CONFLICT,
    )
    .await;
    let v = app
        .post(&format!("/games/{g2}/draw/decline"), &b.token, json!({}))
        .await;
    assert_eq!(v["draw_offer_by"], serde_json::Value::Null);
    app.post(&format!("/games/{g2}/draw/offer"), &b.token, json!({}))
        .await;
    let v = app
        .post(&format!("/games/{g2}/draw/accept"), &a.token, json!({}))
        .await;
    assert_eq!(v["status"], "finished");
    assert_eq!(v["result"]["winner"], serde_json::Value::Null);
    assert_eq!(v["result"]["reason"], "draw_agreed");

    let g3 = app.start_game(&a, &b, "brandubh", unlimited()).await;
    let v = app
        .post(&format!("/games/{g3}/resign"), &a.token, json!({}))
        .await;
    assert_eq!(v["result"]["winner"], "defenders");
    assert_eq!(v["result"]["reason"], "resignation");
}

#[tokio::test]
async fn challenges_can_be_open_declined_cancelled_and_listed() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let c = app.register("C").await;
    let to_b = app
        .challenge(&a, json!({ "opponent_id": b.id, "variant": "tablut" }))
        .await;
    let open = app
        .challenge(&a, json!({ "variant": "brandubh", "side": "defenders" }))
        .await;
    let lists = app.get("/challenges", &b.token).await;
    assert_eq!(lists["incoming"].as_array().unwrap().len(), 2);
    let lists = app.get("/challenges", &a.token).await;
    assert_eq!(lists["outgoing"].as_array().unwrap().len(), 2);
    // C may not decline or accept B's challenge, nor cancel A's.
    app.call(
        Method::POST,
        &format!("/challenges/{to_b}/accept"),
        Some(&c.token),
        None,
        StatusCode::FORBIDDEN,
    )
    .await;
    app.call(
        Method::POST,
        &format!("/challenges/{to_b}/cancel"),
        Some(&c.token),
        None,
        StatusCode::FORBIDDEN,
    )
    .await;
    let declined = app
        .post(&format!("/challenges/{to_b}/decline"), &b.token, json!({}))
        .await;
    assert_eq!(declined["status"], "declined");
    // Anyone but A may take the open challenge; A asked to defend.
    let game = app
        .post(&format!("/challenges/{open}/accept"), &c.token, json!({}))
        .await;
    assert_eq!(game["defenders"]["player_id"], a.id);
    assert_eq!(game["attackers"]["player_id"], c.id);
    app.call(
        Method::POST,
        &format!("/challenges/{open}/accept"),
        Some(&b.token),
        None,
        StatusCode::CONFLICT,
    )
    .await;
    let again = app
        .challenge(&a, json!({ "opponent_id": c.id, "variant": "tablut" }))
        .await;
    let cancelled = app
        .post(&format!("/challenges/{again}/cancel"), &a.token, json!({}))
        .await;
    assert_eq!(cancelled["status"], "cancelled");
    // Bad requests name what was wrong.
    let e = app
        .call(
            Method::POST,
            "/challenges",
            Some(&a.token),
            Some(json!({ "opponent_id": b.id, "variant": "chess" })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(e["error"]["message"].as_str().unwrap().contains("chess"));
    app.call(
        Method::POST,
        "/challenges",
        Some(&a.token),
        Some(json!({ "opponent_id": a.id })),
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    app.call(
        Method::POST,
        "/challenges",
        Some(&a.token),
        Some(json!({ "opponent_id": 9999 })),
        StatusCode::NOT_FOUND,
    )
    .await;
}

#[tokio::test]
async fn my_games_list_puts_my_turn_first_then_the_nearest_deadline() {
    let app = TestApp::start().await;
    let (a, b, slow) = app
        .game_between_a_and_b_on(
            "tablut",
            json!({ "kind": "per_move", "seconds": 86400 * 3 }),
        )
        .await;
    let fast = app
        .start_game(
            &a,
            &b,
            "tablut",
            json!({ "kind": "per_move", "seconds": 86400 }),
        )
        .await;
    let waiting = app.start_game(&a, &b, "tablut", unlimited()).await;
    app.play_line(waiting, &a, &b, &["d1-a1"]).await;
    let list = app.get("/games", &a.token).await;
    let ids: Vec<i64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![fast, slow, waiting]);
    assert_eq!(list[0]["your_turn"], true);
    assert_eq!(list[2]["your_turn"], false);
}

#[tokio::test]
async fn shutdown_finishes_requests_in_flight_and_loses_no_accepted_move() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    let mut games = Vec::new();
    for _ in 0..30 {
        games.push(app.start_game(&a, &b, "tablut", unlimited()).await);
    }
    let mut sent = Vec::new();
    for &game in &games {
        let req = app
            .client
            .post(app.url(&format!("/games/{game}/moves")))
            .bearer_auth(&a.token)
            .json(&json!({ "move": "d1-a1", "ply": 0 }));
        sent.push((
            game,
            tokio::spawn(async move { req.send().await.map(|r| r.status()) }),
        ));
    }
    // Shut down while the moves are arriving: once the first is committed.
    'wait: for _ in 0..2000 {
        for &g in &games {
            if app
                .service()
                .games()
                .game(None, GameId(g))
                .await
                .unwrap()
                .ply
                == 1
            {
                break 'wait;
            }
        }
        tokio::task::yield_now().await;
    }
    let app = app.restart().await;
    let mut accepted = 0;
    for (game, answer) in sent {
        let view = app.get(&format!("/games/{game}"), &a.token).await;
        match answer.await.unwrap() {
            Ok(StatusCode::OK) => {
                accepted += 1;
                assert_eq!(view["ply"], 1, "game {game}: an accepted move was lost");
            }
            Ok(other) => panic!("game {game}: {other}"),
            // Refused at the door: the client retries (with an Idempotency-Key) later.
            Err(_) => assert!(view["ply"] == 0 || view["ply"] == 1),
        }
    }
    assert!(accepted > 0, "no request got in before the shutdown");
}

#[tokio::test]
async fn the_engines_ai_answers_in_several_games_at_once() {
    let app = crate::common::TestApp::start_with_ai(
        |_| {},
        std::sync::Arc::new(taflbot::ai_picker::EngineAi),
    )
    .await;
    let me = app.register("Me").await;
    let mut games = Vec::new();
    for variant in ["brandubh", "tablut", "copenhagen"] {
        let created = app
            .call(
                Method::POST,
                "/challenges",
                Some(&me.token),
                Some(json!({ "ai_level": 1, "variant": variant, "side": "defenders" })),
                StatusCode::CREATED,
            )
            .await;
        games.push(created["game"]["id"].as_i64().unwrap());
    }
    let e = app
        .call(
            Method::POST,
            "/challenges",
            Some(&me.token),
            Some(json!({ "ai_level": 9 })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("between 1 and 5")
    );
    for game in games {
        let view = eventually(
            std::time::Duration::from_secs(10),
            &format!("the AI's first move in game {game}"),
            || async {
                let view = app.get(&format!("/games/{game}"), &me.token).await;
                (view["ply"] == 1).then_some(view)
            },
        )
        .await;
        assert_eq!(view["your_turn"], true);
        assert!(view["moves"][0]["played_by"].is_null());
        let v = app
            .post(&format!("/games/{game}/resign"), &me.token, json!({}))
            .await;
        assert_eq!(v["result"]["winner"], "attackers");
    }
}

#[tokio::test]
async fn a_game_exports_as_an_otg_record_the_engine_reads_back() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bo").await;
    let game = app.start_game(&a, &b, "tablut", unlimited()).await;
    let line = ["d1-a1", "d5-d1", "a1-b1", "e5-d5", "b1-c1", "d5-d1"];
    app.play_line(game, &a, &b, &line).await;
    let r = app
        .client
        .get(app.url(&format!("/games/{game}/export")))
        .bearer_auth(&b.token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::OK);
    assert!(
        r.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .contains(".otg")
    );
    let text = r.text().await.unwrap();
    let (replayed, tags) = tafl_engine::otg::read(&text).unwrap();
    assert_eq!(replayed.ply(), 6);
    assert!(replayed.outcome().is_some());
    let notations: Vec<String> = replayed
        .history()
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    assert_eq!(notations, line);
    assert!(
        tags.iter().any(|(k, v)| k == "attackers" && v == "Ada"),
        "{tags:?}"
    );
}

#[tokio::test]
async fn a_resigned_game_exports_its_result() {
    let app = TestApp::start().await;
    let a = app.register("Ada").await;
    let b = app.register("Bo").await;
    let game = app.start_game(&a, &b, "brandubh", unlimited()).await;
    app.play_line(game, &a, &b, &["d1-b1"]).await;
    app.post(&format!("/games/{game}/resign"), &b.token, json!({}))
        .await;
    let text = app
        .client
        .get(app.url(&format!("/games/{game}/export")))
        .bearer_auth(&a.token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(text.contains("[result:1]"), "{text}");
    assert!(text.contains("[termination:resignation]"), "{text}");
    let (replayed, _) = tafl_engine::otg::read(&text).unwrap();
    assert_eq!(replayed.ply(), 1);
}

#[tokio::test]
async fn the_move_that_captures_the_king_says_so() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    // A weak king on c5 beside an attacker on b5: d7-d5 takes him.
    let id = app
        .challenge(
            &a,
            json!({ "opponent_id": b.id, "rules": "dim:7 ks:w start:/7/7/7/7/1tK4/7/3t3/", "side": "attackers" }),
        )
        .await;
    let game = app
        .post(&format!("/challenges/{id}/accept"), &b.token, json!({}))
        .await["id"]
        .as_i64()
        .unwrap();
    let mut events = app.service().events().subscribe();
    let quiet = app
        .play_line(game, &a, &b, &["d7-d6", "c5-c6", "d6-d7", "c6-c5"])
        .await;
    assert_eq!(quiet["king_captured"], serde_json::Value::Null);
    let taken = app
        .post(
            &format!("/games/{game}/moves"),
            &a.token,
            json!({ "move": "d7-d5", "ply": 4 }),
        )
        .await;
    assert_eq!(taken["captures"], json!([]), "the king stays on the board");
    assert_eq!(taken["king_captured"], "c5");
    assert_eq!(taken["result"]["winner"], "attackers");
    assert_eq!(taken["result"]["reason"], "king_captured");
    let event = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            let e = wire(&events.recv().await.unwrap());
            if e["kind"] == "move_played" && e["data"]["ply"] == 5 {
                return e;
            }
        }
    })
    .await
    .expect("no move_played event for ply 5 within 5 s");
    assert_eq!(event["data"]["king_captured"], "c5");
}
