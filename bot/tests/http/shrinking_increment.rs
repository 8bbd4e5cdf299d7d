//! A bank clock whose increment shrinks in a long game (issue 34), over HTTP: the clock as
//! sent reads back, and move by move each side's bank and the next deadline follow the
//! increment as it shrinks, then stays at its protected minimum.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Player, T0, TestApp};

const HOUR_MS: i64 = 3_600_000;

/// A legal move for the side to move that does not move the king (so no game ends by an
/// escape before the clock has shown its shrinking), varied by `n` so no position repeats.
async fn a_quiet_move(app: &TestApp, game: i64, who: &Player, n: usize) -> String {
    let view = app.get(&format!("/games/{game}"), &who.token).await;
    let dim = view["dim"].as_u64().unwrap() as usize;
    let king = view["board"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find_map(|(row, line)| {
            let col = line.as_str().unwrap().find('K')?;
            let file = char::from(b'a' + col as u8);
            Some(format!("{file}{}", dim - row))
        })
        .unwrap();
    let legal = app
        .get(&format!("/games/{game}/legal-moves"), &who.token)
        .await;
    let moves: Vec<&str> = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .filter(|m| !m.starts_with(&format!("{king}-")))
        .collect();
    moves[(n * 7) % moves.len()].to_owned()
}

#[tokio::test]
async fn a_long_games_increment_shrinks_move_by_move_and_stops_at_its_minimum() {
    let app = TestApp::start().await;
    // A day's bank + 8 hours a move, halved every 2 moves of a side, never under 2 hours.
    let clock = json!({ "kind": "bank", "bank_seconds": 86400, "increment_seconds": 28800,
                        "shrink_after_moves": 2, "shrink_percent": 50,
                        "minimum_increment_seconds": 7200 });
    let (a, b, game) = app
        .game_between_a_and_b_on("copenhagen", clock.clone())
        .await;
    let view = app.get(&format!("/games/{game}"), &a.token).await;
    assert_eq!(view["clock"], clock, "the clock reads back as it was sent");

    // Each move is made an hour into its turn; the mover's nth move earns 8, 8, 4, 4, 2,
    // 2, 2... hours (8 halved to 4, to 2; halved again it would be 1, under the minimum).
    let earned = |nth: i64| match nth {
        1 | 2 => 8 * HOUR_MS,
        3 | 4 => 4 * HOUR_MS,
        _ => 2 * HOUR_MS,
    };
    let mut banks = [24 * HOUR_MS, 24 * HOUR_MS];
    let mut now = T0;
    for ply in 1..=20_i64 {
        let (mover, waiting, side) = if ply % 2 == 1 {
            (&a, &b, 0)
        } else {
            (&b, &a, 1)
        };
        app.clock.advance_ms(HOUR_MS);
        now += HOUR_MS;
        let mv = a_quiet_move(&app, game, mover, ply as usize).await;
        let played = app
            .post(
                &format!("/games/{game}/moves"),
                &mover.token,
                json!({ "move": mv, "ply": ply - 1 }),
            )
            .await;
        let nth = (ply + 1) / 2;
        banks[side] += earned(nth) - HOUR_MS;
        let view = app.get(&format!("/games/{game}"), &waiting.token).await;
        assert_eq!(view["status"], "active", "ply {ply}: {view}");
        let key = ["attackers_bank_ms", "defenders_bank_ms"][side];
        assert_eq!(
            view[key], banks[side],
            "ply {ply}: the mover's {nth}th move"
        );
        // The next deadline: the waiting side's whole bank from now.
        assert_eq!(played["deadline_at"], now + banks[1 - side], "ply {ply}");
    }
    // 24 + (8 + 8 + 4 + 4 + 6 x 2) - 10 x 1 hours for each side.
    assert_eq!(banks, [50 * HOUR_MS, 50 * HOUR_MS]);
}

#[tokio::test]
async fn a_shrinking_increment_is_refused_in_words_when_it_does_not_add_up() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let b = app.register("B").await;
    for (extra, says) in [
        (json!({ "shrink_percent": 50 }), "together"),
        (
            json!({ "shrink_after_moves": 2, "shrink_percent": 50,
                    "minimum_increment_seconds": 60 }),
            "a minimum increment of 1 minute is too short",
        ),
    ] {
        let mut clock =
            json!({ "kind": "bank", "bank_seconds": 86400, "increment_seconds": 28800 });
        for (k, v) in extra.as_object().unwrap() {
            clock[k] = v.clone();
        }
        let e: Value = app
            .call(
                Method::POST,
                "/challenges",
                Some(&a.token),
                Some(json!({ "opponent_id": b.id, "variant": "copenhagen", "clock": clock })),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        let message = e["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{clock}: {message}");
    }
}
