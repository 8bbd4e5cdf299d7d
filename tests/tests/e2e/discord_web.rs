//! `/web`: a private sign-in link to the web client, through the fake Discord.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use taflbot_e2e::world::World;

#[tokio::test]
async fn web_sends_a_private_sign_in_link_that_works_once() {
    let world = World::start().await;
    let alice = world.fake.new_user("alice");
    let channel = world.fake.new_channel("tafl");
    let reply = world.slash(&alice, channel, "web", &[]).await;
    assert!(reply.is_ephemeral(), "the link is for alice only");
    let text = reply.text();
    let base = world.api().trim_end_matches("/api/v1").to_owned();
    let prefix = format!("{base}/login/");
    let start = text
        .find(&prefix)
        .unwrap_or_else(|| panic!("no link in {text}"));
    let token = text[start + prefix.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // The link's page gives the form its token (and the browser its cookie).
    let page = client
        .get(format!("{base}/login/{token}"))
        .send()
        .await
        .unwrap();
    let cookies: Vec<String> = page
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    let html = page.text().await.unwrap();
    let (cookie, form_token) =
        taflbot_test_support::signed_out_form(cookies.iter().map(String::as_str), &html);
    let redeem = || {
        client
            .post(format!("{base}/login"))
            .header(reqwest::header::COOKIE, cookie.as_str())
            .form(&[
                ("token", token.as_str()),
                ("form_token", form_token.as_str()),
            ])
            .send()
    };
    let first = redeem().await.unwrap();
    assert_eq!(first.status(), reqwest::StatusCode::SEE_OTHER);
    assert!(first.headers().get(reqwest::header::SET_COOKIE).is_some());
    let again = redeem().await.unwrap();
    assert_eq!(again.status(), reqwest::StatusCode::FORBIDDEN);
    world.assert_clean();
    world.stop().await;
}
