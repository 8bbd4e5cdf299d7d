use std::collections::BTreeSet;

use reqwest::{Method, StatusCode};
use taflbot::http::{API_PREFIX, route_table};

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
