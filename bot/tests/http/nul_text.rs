//! A NUL character in every text a client sends, over the API and the web client: each is
//! refused with a 400 naming the field, never a 500 or the database's words. One table of
//! every route with a text field; `http_postgres` runs it again on PostgreSQL, which refuses
//! a NUL in text (SQLite would store it).

use reqwest::header::{CONTENT_TYPE, COOKIE};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::web_sessions::{browserless, csrf_of, signed_in};

const NUL: &str = "a\u{0}b";

/// One API request with a NUL in one text: method, path (`{game}` for a game's id), body,
/// the field the refusal must name.
struct Case {
    method: Method,
    path: &'static str,
    body: Option<Value>,
    field: &'static str,
}

fn cases() -> Vec<Case> {
    let body = |method: Method, path, body: Value, field| Case {
        method,
        path,
        body: Some(body),
        field,
    };
    let get = |path, field| Case {
        method: Method::GET,
        path,
        body: None,
        field,
    };
    vec![
        body(Method::POST, "/players", json!({ "name": NUL }), "name"),
        body(
            Method::POST,
            "/players",
            json!({ "name": "Cy", "handle": NUL }),
            "handle",
        ),
        body(Method::PATCH, "/me", json!({ "handle": NUL }), "handle"),
        body(Method::POST, "/tokens", json!({ "name": NUL }), "name"),
        body(
            Method::POST,
            "/challenges",
            json!({ "opponent": NUL }),
            "opponent",
        ),
        body(
            Method::POST,
            "/challenges",
            json!({ "variant": NUL }),
            "variant",
        ),
        body(
            Method::POST,
            "/challenges",
            json!({ "rules": NUL }),
            "rules",
        ),
        body(
            Method::POST,
            "/challenges",
            json!({ "context": NUL }),
            "context",
        ),
        body(
            Method::POST,
            "/challenges",
            json!({ "clock": { "kind": NUL } }),
            "clock.kind",
        ),
        body(
            Method::POST,
            "/games/{game}/moves",
            json!({ "move": NUL, "ply": 0 }),
            "move",
        ),
        body(
            Method::POST,
            "/webhooks",
            json!({ "url": format!("https://example.org/{NUL}"), "secret": "0123456789abcdef" }),
            "url",
        ),
        body(
            Method::POST,
            "/webhooks",
            json!({ "url": "https://example.org/hook", "secret": format!("0123456789abcdef{NUL}") }),
            "secret",
        ),
        get("/players?prefix=a%00b", "prefix"),
        get("/players/a%00b", "handle"),
        get("/players/a%00b/games", "handle"),
        get("/players/ada/games?variant=a%00b", "variant"),
        get("/players/a%00b/games.otg", "handle"),
        get("/players/ada/ratings/a%00b", "variant"),
        get("/leaderboards/a%00b", "variant"),
        get("/games/{game}/legal-moves?from=a%00b", "from"),
    ]
}

#[tokio::test]
async fn a_nul_in_any_text_of_the_api_is_refused_with_400_naming_the_field() {
    let app = TestApp::start().await;
    let (a, _b, game) = app.game_between_a_and_b("brandubh").await;
    let mut failures = Vec::new();
    for case in cases() {
        let path = case.path.replace("{game}", &game.to_string());
        let r = app
            .send(
                case.method.clone(),
                &path,
                Some(&a.token),
                case.body.clone(),
            )
            .await;
        let status = r.status();
        let text = r.text().await.unwrap();
        let named = text.contains(&format!(
            "{} must not contain the NUL character",
            case.field
        ));
        if status != StatusCode::BAD_REQUEST || !named {
            failures.push(format!("{} {path}: {status} {text}", case.method));
        }
    }
    assert!(
        failures.is_empty(),
        "not refused as asked:\n{}",
        failures.join("\n")
    );
    // Nothing was stored: Ada's handle and tokens are as they were.
    let me = app.get("/me", &a.token).await;
    assert!(!me.to_string().contains("\\u0000"), "{me}");
}

#[tokio::test]
async fn a_nul_in_a_web_form_or_address_is_refused_with_400_naming_the_field() {
    let app = TestApp::start().await;
    let ada = app.register("Ada").await;
    let (cookie, csrf) = signed_in(&app, &ada).await;
    let form = |path: &str, fields: String| {
        browserless()
            .post(format!("{}{path}", app.base))
            .header(COOKIE, cookie.clone())
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(fields)
    };
    let cases = [
        (
            form(
                "/challenges",
                format!("csrf={csrf}&opponent=player&handle=a%00b"),
            ),
            "handle",
        ),
        (
            form(
                "/challenges",
                format!("csrf={csrf}&opponent=open&variant=a%00b"),
            ),
            "variant",
        ),
        (
            form("/games/import", format!("csrf={csrf}&record=a%00b")),
            "record",
        ),
        (form("/login/token", "token=a%00b".into()), "token"),
        (form("/login", "token=a%00b".into()), "token"),
        (
            browserless()
                .get(format!("{}/players/a%00b", app.base))
                .header(COOKIE, cookie.clone()),
            "the page's address",
        ),
        (
            browserless()
                .get(format!("{}/games/1?theme=a%00b", app.base))
                .header(COOKIE, cookie.clone()),
            "theme",
        ),
    ];
    let mut failures = Vec::new();
    for (request, field) in cases {
        let r = request.send().await.unwrap();
        let status = r.status();
        let text = r.text().await.unwrap();
        if status != StatusCode::BAD_REQUEST
            || !text.contains(&format!("{field} must not contain the NUL character"))
        {
            failures.push(format!("{field}: {status} {text}"));
        }
    }
    assert!(
        failures.is_empty(),
        "not refused as asked:\n{}",
        failures.join("\n")
    );
    assert!(csrf_of(&app, &cookie).await.is_some(), "still signed in");
}

/// A Brandubh record with tags, a comment on each side's first move and a variation with a
/// comment; the attackers resigned.
fn clean_record() -> String {
    let rules = tafl_engine::variant("brandubh")
        .unwrap()
        .rules()
        .to_opentafl();
    format!(
        "[event:Club night]\n[attackers:Xerxes]\n[defenders:Animals]\n[resigned:attackers]\n\
         [rules:{rules}]\n\n\
         1. d2-e2 c4-c5\n\
         [The attackers open.|]\n\
         2. f4-f5 c5-a5\n\
         2b.1.1a. ..... c5-c6\n\
         [|Quieter.]\n"
    )
}

/// Imports `text` as `who`; `None` when it is refused with 400 `nul_character` naming
/// `place`, else what was answered instead.
async fn nul_refusal_missing(
    app: &TestApp,
    who: &crate::common::Player,
    query: &str,
    text: &str,
    place: &str,
) -> Option<String> {
    let (status, body) = crate::study_import::import(app, who, query, text).await;
    let expected = format!("{place} must not contain the NUL character (\\u0000)");
    let refused = status == StatusCode::BAD_REQUEST
        && body["error"]["code"] == "nul_character"
        && body["error"]["message"] == expected.as_str();
    (!refused).then(|| format!("{place}: {status} {body}"))
}

#[tokio::test]
async fn a_nul_in_an_imported_record_is_refused_with_400_naming_where_and_nothing_is_stored() {
    let app = TestApp::start().await;
    let ann = app.register("Ann").await;
    let clean = clean_record();
    // (the text the NUL goes into, where the refusal must say it is)
    let otg_cases = [
        ("Club night", "the [event] tag"),
        ("Xerxes", "the [attackers] tag"),
        ("open.", "the comment on move 1 (d2-e2)"),
        ("Quieter.", "the comment on move 4 (c5-c6) in a variation"),
        ("f4-f5 c5-a5", "line 9 of the record"),
    ];
    let mut failures = Vec::new();
    for (text, place) in otg_cases {
        assert!(clean.contains(text), "{text}");
        let with_nul = clean.replacen(text, &format!("{}\0{}", &text[..2], &text[2..]), 1);
        failures.extend(nul_refusal_missing(&app, &ann, "", &with_nul, place).await);
    }
    let archive = crate::study_import::ARCHIVE_MOVES.replacen("Xerxes", "Xer\0xes", 1);
    failures.extend(
        nul_refusal_missing(
            &app,
            &ann,
            "?format=moves&variant=brandubh",
            &archive,
            "the [attackers] tag",
        )
        .await,
    );
    assert!(
        failures.is_empty(),
        "not refused as asked:\n{}",
        failures.join("\n")
    );
    // Nothing was stored: the clean record, imported now, is the first game there is.
    let (status, imported) = crate::study_import::import(&app, &ann, "", &clean).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["game_id"], 1, "{imported}");
    let notes = app
        .client
        .get(app.url("/games/1/annotations"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!notes.contains("\\u0000"), "{notes}");
}
