//! Turn notices by mail against a local SMTP sink: an address is confirmed by its mailed link
//! (single use), a confirmed player is mailed when the opponent moves and they are away, none
//! during their quiet hours and one at their end, none to an unconfirmed address, the one-click
//! unsubscribe link stops them, and a dead SMTP server holds up no move.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::COOKIE;
use taflbot_test_support::eventually;
use taflbot_test_support::smtp_sink::{ReceivedMail, SmtpSink};

use taflbot::domain::PlayerId;
use taflbot::service::Clock;

use crate::common::{Player, TestApp};
use crate::web_sessions::{browserless, signed_in};

const WAIT: Duration = Duration::from_secs(10);
const AWAY_MS: i64 = 11 * 60_000;

/// The app, mailing through the SMTP server at `url`, each attempt at most `timeout_ms`.
async fn app_mailing_to(url: String, timeout_ms: u64) -> TestApp {
    TestApp::start_with(move |c| {
        c.mail.smtp_url = url;
        c.mail.from = "taflbot <tafl@test.example>".into();
        c.mail.poll_interval_ms = 20;
        c.mail.timeout_ms = timeout_ms;
    })
    .await
}

/// `player`'s web session posts `fields` to `path`; answers the status and the page.
async fn post_form(
    app: &TestApp,
    session: &(String, String),
    path: &str,
    fields: &[(&str, &str)],
) -> (StatusCode, String) {
    let mut form: Vec<(&str, &str)> = vec![("csrf", session.1.as_str())];
    form.extend_from_slice(fields);
    let answer = browserless()
        .post(format!("{}{path}", app.base))
        .header(COOKIE, &session.0)
        .form(&form)
        .send()
        .await
        .unwrap();
    (answer.status(), answer.text().await.unwrap())
}

/// `/me/mail` as `session` sees it.
async fn mail_page(app: &TestApp, session: &(String, String)) -> String {
    browserless()
        .get(format!("{}/me/mail", app.base))
        .header(COOKIE, &session.0)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

/// The `n`th message the sink received, once it has.
async fn nth_mail(sink: &SmtpSink, n: usize) -> ReceivedMail {
    eventually(WAIT, &format!("mail number {}", n + 1), || async {
        sink.received().get(n).cloned()
    })
    .await
}

/// The link after `path` in a mail's body (up to the line's end).
fn link_in(mail: &ReceivedMail, path: &str) -> String {
    let body = mail.body_text();
    let start = body
        .find(path)
        .unwrap_or_else(|| panic!("{path} in {body}"));
    let end = body[start..]
        .find(char::is_whitespace)
        .map_or(body.len(), |e| start + e);
    body[start..end].to_owned()
}

/// `player` gives `address` on the web and confirms it with the mailed link; answers their
/// web session.
async fn confirmed(
    app: &TestApp,
    sink: &SmtpSink,
    player: &Player,
    address: &str,
) -> (String, String) {
    let session = signed_in(app, player).await;
    let before = sink.received().len();
    let (status, page) = post_form(app, &session, "/me/mail", &[("address", address)]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("id=\"mail-notice\""), "{page}");
    let mail = nth_mail(sink, before).await;
    assert_eq!(mail.to, vec![address.to_owned()]);
    let confirm = link_in(&mail, "/mail/confirm/");
    let answer = browserless()
        .post(format!("{}{confirm}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.text().await.unwrap().contains("mail-confirmed"));
    session
}

#[tokio::test]
async fn a_confirmed_player_away_is_mailed_when_the_opponent_moves_and_an_unconfirmed_one_is_not() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), 2_000).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    // B gives an address but does not confirm it yet: no notice.
    let session = signed_in(&app, &b).await;
    let (status, _) = post_form(&app, &session, "/me/mail", &[("address", "b@test.example")]).await;
    assert_eq!(status, StatusCode::OK);
    let confirmation = nth_mail(&sink, 0).await;
    assert!(
        confirmation.header("Subject").unwrap().contains("Confirm"),
        "{confirmation:?}"
    );
    app.play_line(game, &a, &b, &["d1-c1"]).await;
    app.clock.advance_ms(AWAY_MS);
    assert_eq!(app.service().mail().make_due_mails().await.unwrap(), 0);
    assert_eq!(
        sink.received().len(),
        1,
        "nothing to an unconfirmed address"
    );

    // The link confirms once; again it is refused.
    let confirm = link_in(&confirmation, "/mail/confirm/");
    let link_page = browserless()
        .get(format!("{}{confirm}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(
        link_page.status(),
        StatusCode::OK,
        "opening it confirms nothing by itself"
    );
    let press = || async {
        browserless()
            .post(format!("{}{confirm}", app.base))
            .send()
            .await
            .unwrap()
    };
    assert_eq!(press().await.status(), StatusCode::OK);
    let again = press().await;
    assert_eq!(again.status(), StatusCode::FORBIDDEN);
    assert!(
        again
            .text()
            .await
            .unwrap()
            .contains("used, expired or unknown")
    );

    // B moves, A answers: B's turn again, B away: one mail after away_minutes, not before.
    app.play_line(game, &b, &a, &["c4-c3", "f4-f5"]).await;
    assert_eq!(app.service().mail().make_due_mails().await.unwrap(), 0);
    app.clock.advance_ms(AWAY_MS);
    let notice = nth_mail(&sink, 1).await;
    assert_eq!(notice.to, vec!["b@test.example".to_owned()]);
    let subject = notice.header("Subject").unwrap();
    assert!(
        subject.starts_with("Your move against @") && subject.ends_with(" (brandubh)"),
        "{subject}"
    );
    assert!(notice.body_text().contains(&format!("/games/{game}")));
    let unsubscribe = notice.header("List-Unsubscribe").unwrap();
    assert!(unsubscribe.starts_with("<http://") && unsubscribe.contains("/mail/unsubscribe/"));
    assert_eq!(
        notice.header("List-Unsubscribe-Post").unwrap(),
        "List-Unsubscribe=One-Click"
    );
    // One mail per game per turn: nothing more for the same turn.
    app.clock.advance_ms(AWAY_MS);
    assert_eq!(app.service().mail().make_due_mails().await.unwrap(), 0);
}

#[tokio::test]
async fn no_notice_during_quiet_hours_and_one_at_their_end() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), 2_000).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    let session = confirmed(&app, &sink, &b, "b@test.example").await;
    // The test clock starts at 22:13 UTC; B's night is 22:00 to 07:00 at UTC+01:00 (23:13 there).
    let (status, page) = post_form(
        &app,
        &session,
        "/me/mail/quiet",
        &[
            ("quiet_start", "22:00"),
            ("quiet_end", "07:00"),
            ("utc_offset", "+01:00"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert!(page.contains("value=\"22:00\""), "{page}");
    app.play_line(game, &a, &b, &["d1-c1"]).await;
    app.clock.advance_ms(AWAY_MS);
    assert_eq!(app.service().mail().make_due_mails().await.unwrap(), 0);
    assert_eq!(sink.received().len(), 1, "only the confirmation");
    // 07:00 at UTC+01:00 is 06:00 UTC: 7 h 46 min 40 s after the start.
    app.clock
        .advance_ms(((7 * 60 + 46) * 60 + 40) * 1000 - AWAY_MS - 60_000);
    assert_eq!(app.service().mail().make_due_mails().await.unwrap(), 0);
    app.clock.advance_ms(60_000);
    let notice = nth_mail(&sink, 1).await;
    assert!(notice.header("Subject").unwrap().starts_with("Your move"));

    // A bad time is refused on the form, in place.
    let (status, page) = post_form(
        &app,
        &session,
        "/me/mail/quiet",
        &[
            ("quiet_start", "25:00"),
            ("quiet_end", "07:00"),
            ("utc_offset", "0"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        page.contains("id=\"mail-error\"") && page.contains("25:00"),
        "{page}"
    );
}

#[tokio::test]
async fn the_one_click_unsubscribe_link_stops_the_notices() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), 2_000).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    let session = confirmed(&app, &sink, &b, "b@test.example").await;
    app.play_line(game, &a, &b, &["d1-c1"]).await;
    app.clock.advance_ms(AWAY_MS);
    let notice = nth_mail(&sink, 1).await;
    let url = notice.header("List-Unsubscribe").unwrap();
    let url = url.trim_start_matches('<').trim_end_matches('>');
    // What a mail program sends for one click (RFC 8058): no cookie, no Origin.
    let answer = browserless()
        .post(url)
        .form(&[("List-Unsubscribe", "One-Click")])
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.text().await.unwrap().contains("mail-stopped"));
    app.play_line(game, &b, &a, &["c4-c3", "f4-f5"]).await;
    app.clock.advance_ms(AWAY_MS);
    assert_eq!(app.service().mail().make_due_mails().await.unwrap(), 0);
    assert_eq!(sink.received().len(), 2);
    let page = mail_page(&app, &session).await;
    assert!(page.contains("notices stopped"), "{page}");
}

#[tokio::test]
async fn a_player_on_the_web_since_their_turn_began_gets_no_mail() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), 2_000).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    let session = confirmed(&app, &sink, &b, "b@test.example").await;
    app.play_line(game, &a, &b, &["d1-c1"]).await;
    // Two minutes later B opens a page: they are here, they will see it.
    app.clock.advance_ms(120_000);
    let page = browserless()
        .get(format!("{}/games/{game}", app.base))
        .header(COOKIE, &session.0)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let visit = app.clock.now_ms();
    eventually(WAIT, "B's visit to be written", || async {
        let seen = app.service().mail().subscription(b_id(&b)).await.unwrap()?;
        (seen.last_seen_at == visit).then_some(())
    })
    .await;
    app.clock.advance_ms(AWAY_MS);
    assert_eq!(app.service().mail().make_due_mails().await.unwrap(), 0);
    assert_eq!(sink.received().len(), 1, "only the confirmation");
}

#[tokio::test]
async fn a_dead_smtp_server_holds_up_no_move() {
    let sink = SmtpSink::silent().await;
    let app = app_mailing_to(sink.url(), 10_000).await;
    let (a, b, game) = app.game_between_a_and_b("brandubh").await;
    let session = signed_in(&app, &b).await;
    let (status, _) = post_form(&app, &session, "/me/mail", &[("address", "b@test.example")]).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "a mail is queued, not sent in the request"
    );
    eventually(
        WAIT,
        "the worker to be stuck on the silent server",
        || async { (sink.connections() > 0).then_some(()) },
    )
    .await;
    // The worker waits mail.timeout_ms (10 s here) on the server; the moves go on meanwhile.
    let moves = app.play_line(game, &a, &b, &["d1-c1", "c4-c3", "f4-f5", "e4-e1"]);
    let played = tokio::time::timeout(Duration::from_secs(4), moves).await;
    assert!(
        played.is_ok(),
        "four moves took over 4 s beside a dead SMTP server"
    );
    // The attempt ends at its timeout and counts as a failure.
    eventually(WAIT * 2, "the failed attempt in the metrics", || async {
        let metrics = app
            .client
            .get(format!("{}/metrics", app.base))
            .send()
            .await
            .ok()?
            .text()
            .await
            .ok()?;
        metrics
            .contains("taflbot_mail_failures_total")
            .then_some(())
    })
    .await;
}

#[tokio::test]
async fn confirmation_mails_are_limited_per_day_even_when_the_address_is_forgotten_between() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), 2_000).await;
    let b = app.register("B").await;
    let session = signed_in(&app, &b).await;
    let give = |address: &'static str| {
        let (app, session) = (&app, &session);
        async move { post_form(app, session, "/me/mail", &[("address", address)]).await }
    };
    assert_eq!(give("one@test.example").await.0, StatusCode::OK);
    let (status, page) = post_form(&app, &session, "/me/mail/off", &[]).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(give("two@test.example").await.0, StatusCode::OK);
    assert_eq!(give("three@test.example").await.0, StatusCode::OK);
    // mail.confirmations_per_day is 3.
    let (status, page) = give("four@test.example").await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{page}");
    assert!(page.contains("id=\"mail-error\""), "{page}");
    eventually(WAIT, "the third address's confirmation", || async {
        sink.received()
            .iter()
            .any(|m| m.to == vec!["three@test.example".to_owned()])
            .then_some(())
    })
    .await;
    assert!(
        sink.received()
            .iter()
            .all(|m| m.to != vec!["four@test.example".to_owned()])
    );
}

#[tokio::test]
async fn an_address_no_mail_reaches_is_refused_and_spends_no_confirmation() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), 2_000).await;
    let b = app.register("B").await;
    let session = signed_in(&app, &b).await;
    let refused = [
        "x@[127.0.0.1]",
        "x@[IPv6:2001:db8::1]",
        "x@127.0.0.1",
        "x@localhost",
        "\"x\"@test.example",
    ];
    for address in refused {
        let (status, page) = post_form(&app, &session, "/me/mail", &[("address", address)]).await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{address}: {page}"
        );
        assert!(
            page.contains("id=\"mail-error\"") && page.contains("is not taken"),
            "{address}: {page}"
        );
    }
    // The day's confirmations (mail.confirmations_per_day is 3) are all still there.
    for address in ["one@test.example", "two@test.example", "three@test.example"] {
        let (status, page) = post_form(&app, &session, "/me/mail", &[("address", address)]).await;
        assert_eq!(status, StatusCode::OK, "{address}: {page}");
    }
    let (status, page) = post_form(
        &app,
        &session,
        "/me/mail",
        &[("address", "four@test.example")],
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{page}");
    eventually(WAIT, "the third address's confirmation", || async {
        sink.received()
            .iter()
            .any(|m| m.to == vec!["three@test.example".to_owned()])
            .then_some(())
    })
    .await;
    let sent_to: Vec<Vec<String>> = sink.received().iter().map(|m| m.to.clone()).collect();
    assert!(
        sent_to
            .iter()
            .flatten()
            .all(|to| to.ends_with("@test.example") && !to.starts_with('"')),
        "no mail went to a refused address: {sent_to:?}"
    );
}

#[tokio::test]
async fn a_confirmation_link_expires() {
    let sink = SmtpSink::start().await;
    let app = app_mailing_to(sink.url(), 2_000).await;
    let b = app.register("B").await;
    let session = signed_in(&app, &b).await;
    let (status, _) = post_form(&app, &session, "/me/mail", &[("address", "b@test.example")]).await;
    assert_eq!(status, StatusCode::OK);
    let confirm = link_in(&nth_mail(&sink, 0).await, "/mail/confirm/");
    // mail.confirm_link_hours is 24.
    app.clock.advance_ms(24 * 3_600_000 + 1);
    let late = browserless()
        .post(format!("{}{confirm}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(late.status(), StatusCode::FORBIDDEN);
    assert!(
        mail_page(&app, &session)
            .await
            .contains("not confirmed yet")
    );
}

#[tokio::test]
async fn a_mail_waiting_for_a_dead_smtp_server_survives_a_restart() {
    // Nothing listens on this port: every attempt is refused at once.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let dead_url = format!("smtp://{}", closed.local_addr().unwrap());
    drop(closed);
    let app = app_mailing_to(dead_url, 2_000).await;
    let b = app.register("B").await;
    let session = signed_in(&app, &b).await;
    let (status, _) = post_form(&app, &session, "/me/mail", &[("address", "b@test.example")]).await;
    assert_eq!(status, StatusCode::OK);
    // The server comes back (at another address) while the app restarts.
    let sink = SmtpSink::start().await;
    let mut app = app;
    app.config.mail.smtp_url = sink.url();
    let app = app.restart().await;
    // Past the first back-off (at most mail.initial_backoff_ms, 60 s) and any claim.
    app.clock.advance_ms(2 * 60_000);
    let mail = nth_mail(&sink, 0).await;
    assert!(mail.body_text().contains("/mail/confirm/"));
}

#[tokio::test]
async fn without_an_smtp_server_the_settings_page_says_mail_is_off() {
    let app = TestApp::start().await;
    let b = app.register("B").await;
    let session = signed_in(&app, &b).await;
    let page = mail_page(&app, &session).await;
    assert!(page.contains("id=\"mail-off\""), "{page}");
    let (status, page) =
        post_form(&app, &session, "/me/mail", &[("address", "b@test.example")]).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{page}");
    assert!(page.contains("not set up"), "{page}");
}

fn b_id(player: &Player) -> PlayerId {
    PlayerId(player.id)
}
