//! The web client's tournament pages without a browser (the browser suite plays one live):
//! the create form's refusals in place and in words, join, leave and start from the page, and
//! the page's standings, crosstable and rounds once a game ends.

use reqwest::StatusCode;
use reqwest::header::{COOKIE, LOCATION};
use serde_json::json;

use crate::common::{Player, TestApp};
use crate::web_sessions::{browserless, signed_in};

/// A browser's view of a signed-in player: the session cookie and the CSRF token.
pub(crate) struct Session {
    pub(crate) cookie: String,
    csrf: String,
}

pub(crate) async fn session(app: &TestApp, player: &Player) -> Session {
    let (cookie, csrf) = signed_in(app, player).await;
    Session { cookie, csrf }
}

pub(crate) async fn get(app: &TestApp, who: Option<&Session>, path: &str) -> (StatusCode, String) {
    let mut request = browserless().get(format!("{}{path}", app.base));
    if let Some(s) = who {
        request = request.header(COOKIE, &s.cookie);
    }
    let answer = request.send().await.unwrap();
    (answer.status(), answer.text().await.unwrap())
}

/// Posts a form as the page does; the answer's status, its redirect and its text.
pub(crate) async fn post(
    app: &TestApp,
    who: &Session,
    path: &str,
    fields: &[(&str, &str)],
) -> (StatusCode, Option<String>, String) {
    let mut form: Vec<(&str, &str)> = vec![("csrf", who.csrf.as_str())];
    form.extend_from_slice(fields);
    let answer = browserless()
        .post(format!("{}{path}", app.base))
        .header(COOKIE, &who.cookie)
        .form(&form)
        .send()
        .await
        .unwrap();
    let to = answer
        .headers()
        .get(LOCATION)
        .map(|l| l.to_str().unwrap().to_owned());
    (answer.status(), to, answer.text().await.unwrap())
}

const GOOD_FORM: [(&str, &str); 7] = [
    ("name", "Winter cup"),
    ("format", "round_robin"),
    ("variant", "brandubh"),
    ("days", "5"),
    ("rated", "true"),
    ("min_players", "2"),
    ("max_players", "8"),
];

fn with(changes: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut form: Vec<_> = GOOD_FORM
        .iter()
        .filter(|(k, _)| !changes.iter().any(|(c, _)| c == k))
        .copied()
        .collect();
    form.extend_from_slice(changes);
    form
}

#[tokio::test]
async fn the_create_form_refuses_in_place_in_words_and_keeps_what_was_typed() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let s = session(&app, &ada).await;
    let refusals: [(&[(&str, &str)], &str); 6] = [
        (&[("name", "  ")], "name must be 1 to 80 characters"),
        (
            &[("max_players", "many")],
            "the most players is a whole number, not &quot;many&quot;",
        ),
        (&[("min_players", "1")], "the minimum must be at least 2"),
        (
            &[("format", "swiss"), ("rounds", "")],
            "the number of rounds is a whole number",
        ),
        (
            &[("format", "groups_knockout"), ("group_size", "four")],
            "the group size is a whole number",
        ),
        (
            &[("starts_at", "2001-01-01T10:00")],
            "the start (2001-01-01T10:00 UTC) has passed",
        ),
    ];
    for (changes, words) in refusals {
        let (status, _, page) = post(&app, &s, "/tournaments", &with(changes)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{changes:?}");
        let error_at = page.find("id=\"tournament-error\"").expect(&page);
        assert!(page[error_at..].contains(words), "{words}: {page}");
        assert!(
            page.contains("name=\"days\" min=\"0\" max=\"366\" value=\"5\""),
            "what was typed is kept: {page}"
        );
    }
    let (status, to, _) = post(&app, &s, "/tournaments", &GOOD_FORM).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = to.unwrap();
    assert!(to.starts_with("/tournaments/"), "{to}");
    // Listed as open, for anyone.
    let (_, list) = get(&app, None, "/tournaments").await;
    let open = list.find("data-list=\"open\"").expect(&list);
    assert!(
        list[open..].contains(&format!("href=\"{to}\">Winter cup")),
        "{list}"
    );
    // Groups then knockout, with its largest group.
    let groups = with(&[("format", "groups_knockout"), ("group_size", "4")]);
    let (status, to, _) = post(&app, &s, "/tournaments", &groups).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let (_, page) = get(&app, None, &to.unwrap()).await;
    assert!(
        page.contains("Groups then knockout") || page.contains("groups then knockout"),
        "{page}"
    );
    // A form from elsewhere (no CSRF token) creates nothing.
    let forged = browserless()
        .post(format!("{}/tournaments", app.base))
        .header(COOKIE, &s.cookie)
        .form(&GOOD_FORM)
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn players_join_leave_and_the_organiser_starts_from_the_page_which_shows_the_results() {
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
    let (_, to, _) = post(&app, &sa, "/tournaments", &GOOD_FORM).await;
    let page_path = to.unwrap();
    for s in [&sa, &sb, &sc] {
        let (status, back, _) = post(&app, s, &format!("{page_path}/join"), &[]).await;
        assert_eq!(status, StatusCode::SEE_OTHER);
        assert_eq!(back.as_deref(), Some(page_path.as_str()));
    }
    let (_, _, _) = post(&app, &sc, &format!("{page_path}/leave"), &[]).await;
    let (_, page) = get(&app, Some(&sc), &page_path).await;
    assert!(page.contains("Players (2)"), "{page}");
    assert!(page.contains("id=\"join\""), "Cy may join again: {page}");
    // Only the organiser starts it: refused on the page, in words.
    let (status, _, refused) = post(&app, &sb, &format!("{page_path}/start"), &[]).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(
        refused.contains("only the organiser of tournament"),
        "{refused}"
    );
    assert!(!refused.contains("id=\"start\""), "{refused}");
    let (status, _, _) = post(&app, &sa, &format!("{page_path}/start"), &[]).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    // Joining now is refused in place.
    let (status, _, late) = post(&app, &sc, &format!("{page_path}/join"), &[]).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(late.contains("is already running"), "{late}");

    let id = page_path.trim_start_matches("/tournaments/");
    let t = app.get(&format!("/tournaments/{id}"), &ada.token).await;
    let game = t["rounds"][0]["games"][0]["game_id"].as_i64().unwrap();
    let (_, running) = get(&app, None, &page_path).await;
    assert!(running.contains("Running: round 1"), "{running}");
    assert!(
        running.contains(&format!("href=\"/games/{game}\"")),
        "{running}"
    );
    assert!(running.contains("id=\"crosstable\""), "{running}");
    // Bob resigns: Ada wins the tournament, 1 to 0.
    app.post(&format!("/games/{game}/resign"), &bob.token, json!({}))
        .await;
    let (_, done) = get(&app, None, &page_path).await;
    assert!(done.contains("id=\"winner\""), "{done}");
    assert!(
        done.contains("Winner: <a href=\"/players/ada\">Ada</a>"),
        "{done}"
    );
    let ada_row = done
        .find(&format!("data-player=\"{}\" data-points=\"1\"", ada.id))
        .expect(&done);
    assert!(ada_row < done.find("id=\"crosstable\"").unwrap(), "{done}");
    assert!(done.contains("1–0"), "{done}");
}

#[tokio::test]
async fn the_create_form_takes_a_bank_clock_whose_increment_shrinks_as_http_does() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let s = session(&app, &ada).await;
    let (_, form) = get(&app, Some(&s), "/tournaments").await;
    for field in [
        "bank_days",
        "increment_hours",
        "shrink_after_moves",
        "shrink_percent",
        "minimum_increment_hours",
    ] {
        assert!(
            form.contains(&format!("name=\"{field}\"")),
            "{field}: {form}"
        );
    }
    // Partly given, or a minimum above the increment: refused in the form's words.
    let refusals: [(&[(&str, &str)], &str); 3] = [
        (
            &[
                ("bank_days", "10"),
                ("increment_hours", "12"),
                ("shrink_percent", "25"),
            ],
            "a shrinking increment needs all three",
        ),
        (
            &[
                ("bank_days", "10"),
                ("increment_hours", "2"),
                ("shrink_after_moves", "10"),
                ("shrink_percent", "25"),
                ("minimum_increment_hours", "3"),
            ],
            "the smallest increment (3 hours) is more than the increment (2 hours)",
        ),
        (&[("bank_days", "ten")], "the bank (days) is a whole number"),
    ];
    for (changes, words) in refusals {
        let (status, _, page) = post(&app, &s, "/tournaments", &with(changes)).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{changes:?}");
        let error_at = page.find("id=\"tournament-error\"").expect(&page);
        assert!(page[error_at..].contains(words), "{words}: {page}");
    }
    // Ten days' bank, 12 hours a move shrinking by 25% every 10 moves, never under 3 hours:
    // the clock HTTP takes, field for field.
    let bank = with(&[
        ("bank_days", "10"),
        ("increment_hours", "12"),
        ("shrink_after_moves", "10"),
        ("shrink_percent", "25"),
        ("minimum_increment_hours", "3"),
    ]);
    let (status, to, _) = post(&app, &s, "/tournaments", &bank).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = to.unwrap();
    let t = app.get(&to, &ada.token).await;
    assert_eq!(
        t["clock"],
        json!({
            "kind": "bank",
            "bank_seconds": 864_000,
            "increment_seconds": 43_200,
            "shrink_after_moves": 10,
            "shrink_percent": 25,
            "minimum_increment_seconds": 10_800,
        })
    );
    let (_, page) = get(&app, None, &to).await;
    assert!(
        page.contains(
            "10 days bank + 12 hours per move, shrinking 25% every 10 moves down to 3 hours"
        ),
        "{page}"
    );
    // A bank without a shrink, and without an increment.
    let (_, to, _) = post(&app, &s, "/tournaments", &with(&[("bank_days", "7")])).await;
    let t = app.get(&to.unwrap(), &ada.token).await;
    assert_eq!(
        t["clock"],
        json!({"kind": "bank", "bank_seconds": 604_800, "increment_seconds": 0})
    );
}

#[tokio::test]
async fn the_create_form_asks_what_a_withdrawal_does_and_the_page_shows_it() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let s = session(&app, &ada).await;
    let (_, form) = get(&app, Some(&s), "/tournaments").await;
    for value in ["forfeit", "annul", "annul_under_half"] {
        assert!(
            form.contains(&format!("value=\"{value}\"")),
            "{value}: {form}"
        );
    }
    // A Swiss tournament cannot annul: refused on the form, in words.
    let swiss = with(&[
        ("format", "swiss"),
        ("rounds", "3"),
        ("withdrawal", "annul"),
    ]);
    let (status, _, page) = post(&app, &s, "/tournaments", &swiss).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let error_at = page.find("id=\"tournament-error\"").expect(&page);
    assert!(
        page[error_at..].contains("a Swiss tournament cannot annul"),
        "{page}"
    );
    let (status, to, _) = post(
        &app,
        &s,
        "/tournaments",
        &with(&[("withdrawal", "annul_under_half")]),
    )
    .await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let to = to.unwrap();
    assert_eq!(
        app.get(&to, &ada.token).await["withdrawal"],
        "annul_under_half"
    );
    let (_, page) = get(&app, None, &to).await;
    let shown = page.find("id=\"tournament-withdrawal\"").expect(&page);
    assert!(
        page[shown..].contains("a withdrawal before half the games annuls them all"),
        "{page}"
    );
}
