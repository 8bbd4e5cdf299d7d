use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use taflbot::server::http::{API_PREFIX, route_table};

use crate::common::TestApp;

#[tokio::test]
async fn the_openapi_document_lists_exactly_the_served_routes() {
    let app = TestApp::start().await;
    let doc = app
        .call(Method::GET, "/openapi.json", None, None, StatusCode::OK)
        .await;
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.to_uppercase(), path.clone()))
        })
        .collect();
    let table: BTreeSet<(String, String)> = route_table()
        .iter()
        .map(|(spec, _)| (spec.method.to_owned(), format!("{API_PREFIX}{}", spec.path)))
        .collect();
    assert_eq!(documented, table);
    // Every documented route is served (not the router's "no route" answer), and nothing
    // else under the prefix is.
    for (method, path) in &documented {
        let concrete = path
            .replace("{id}", "1")
            .replace("{handle}", "nobody")
            .replace("{variant}", "brandubh");
        let r = app
            .client
            .request(method.parse().unwrap(), format!("{}{concrete}", app.base))
            .send()
            .await
            .unwrap();
        let status = r.status();
        let body = r.text().await.unwrap();
        assert_ne!(status, StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
        assert!(
            !body.contains("\"no_route\""),
            "{method} {path} is documented but not served"
        );
    }
    for (method, path) in [
        ("DELETE", "/api/v1/players"),
        ("PUT", "/api/v1/games/1"),
        ("GET", "/api/v1/secret"),
    ] {
        let r = app
            .client
            .request(method.parse().unwrap(), format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert!(
            matches!(
                r.status(),
                StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
            ),
            "{method} {path} is served but not documented"
        );
    }
}

#[tokio::test]
async fn a_route_refuses_a_request_without_a_token_exactly_when_its_operation_says_it_needs_one() {
    let app = TestApp::start().await;
    let doc = taflbot::server::http::openapi_document();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            // Needs one: some requirement, and none of them empty (anonymous).
            let declared = operation["security"].as_array().is_some_and(|s| {
                !s.is_empty()
                    && s.iter()
                        .all(|r| r.as_object().is_some_and(|r| !r.is_empty()))
            });
            let concrete = path.strip_prefix(API_PREFIX).unwrap().replace("{id}", "1");
            // Through `send`: each answer is also judged against the document.
            let r = app
                .send(
                    method.to_uppercase().parse().unwrap(),
                    &concrete,
                    None,
                    None,
                )
                .await;
            assert_eq!(
                r.status() == StatusCode::UNAUTHORIZED,
                declared,
                "{method} {path} answered {} without a token",
                r.status()
            );
        }
    }
}

#[tokio::test]
async fn a_clock_with_a_field_it_does_not_have_is_refused_whatever_its_kind() {
    // Found by schemathesis: serde let `unlimited` through with any other field.
    let app = TestApp::start().await;
    let a = app.register("A").await;
    for clock in [
        serde_json::json!({ "kind": "unlimited", "seconds": 5 }),
        serde_json::json!({ "kind": "per_move", "seconds": 5, "bank_seconds": 5 }),
    ] {
        let body = app
            .call(
                Method::POST,
                "/challenges",
                Some(&a.token),
                Some(serde_json::json!({ "ai_level": 1, "clock": clock })),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await;
        assert_eq!(body["error"]["code"], "invalid_body", "{body}");
    }
}

#[tokio::test]
async fn a_webhook_secret_is_counted_in_characters_as_the_document_says() {
    let app = TestApp::start_with(|c| c.webhooks.allow_private = vec!["127.0.0.1".into()]).await;
    let a = app.register("A").await;
    let url = "https://127.0.0.1:9/hook";
    // 256 characters, 512 bytes: the most the document allows.
    let secret = "é".repeat(256);
    app.call(
        Method::POST,
        "/webhooks",
        Some(&a.token),
        Some(serde_json::json!({ "url": url, "secret": secret })),
        StatusCode::CREATED,
    )
    .await;
    let body = app
        .call(
            Method::POST,
            "/webhooks",
            Some(&a.token),
            Some(serde_json::json!({ "url": url, "secret": "é".repeat(257) })),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("8 to 256 characters"),
        "{body}"
    );
}

#[tokio::test]
async fn a_body_without_a_json_content_type_is_refused_as_an_unsupported_media_type() {
    let app = TestApp::start().await;
    let r = app
        .client
        .post(app.url("/players"))
        .header("content-type", "text/plain")
        .body(r#"{"name":"ada"}"#)
        .send()
        .await
        .unwrap();
    let r = crate::common::checked(&Method::POST, "/api/v1/players", r).await;
    assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "missing_content_type", "{body}");
}
