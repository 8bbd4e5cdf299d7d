//! The crowd benchmark (`discord-load`) measured at a tiny scale, in debug: its counters add
//! up, every move the crowd played is owed a post that arrived once, and a post that went
//! missing or arrived twice would be noticed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failure must stop the test loudly"
)]

use std::time::Duration;

use taflbot_e2e::load::{LoadOptions, PostIdentity, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_crowd_run_adds_up_and_would_notice_a_lost_or_doubled_post() {
    taflbot_e2e::bot::init_logging();
    let options = LoadOptions {
        servers: 2,
        games: 4,
        ai_games: 1,
        ai_level: 1,
        latency_ms: 20,
        jitter_ms: 10,
        secs: 3,
        rate: 10.0,
        instances: 1,
        database_url: None,
        drain_secs: 30,
        seed: 3,
        setup_at_once: 4,
        progress_every: Duration::from_secs(1),
    };
    let finished = run(&options, &|line| eprintln!("{line}"))
        .await
        .expect("the crowd run measures");
    let report = &finished.report;
    eprintln!("{report:#?}");
    assert!(
        (25..=31).contains(&report.interactions),
        "3 s at 10 a second: {}",
        report.interactions
    );
    assert!(report.moves > 0, "the crowd played moves");
    assert!(report.failed <= report.interactions);
    assert!(
        report.requests > report.interactions,
        "every answer is a request"
    );
    assert!(report.problems.is_empty(), "{:#?}", report.problems);
    assert_eq!((report.posts.lost, report.posts.duplicated), (0, 0));
    assert!(
        report.posts.owed >= usize::try_from(report.moves).unwrap(),
        "each move played is owed its post (the AI's too): {} owed, {} played",
        report.posts.owed,
        report.moves
    );
    assert_eq!(
        report.last_line(),
        format!(
            "discord-load: {} interactions, {} failed, p99 first answer {} ms, 0 posts lost, 0 duplicated, {} invalid requests",
            report.interactions, report.failed, report.p99_ms, report.invalid_requests
        )
    );

    // A post received twice is a duplicate; one owed and never received is lost.
    let moved = finished
        .owed
        .iter()
        .position(|o| o.through_ply > o.after_ply)
        .expect("a game that moved");
    let last = PostIdentity {
        game: finished.owed[moved].game,
        ply: finished.owed[moved].through_ply,
    };
    let mut doubled = finished.ledger.clone();
    doubled.note(last);
    assert_eq!(doubled.verdict(&finished.owed).duplicated, 1);
    let mut one_more = finished.owed.clone();
    one_more[moved].through_ply += 1;
    let verdict = finished.ledger.verdict(&one_more);
    assert_eq!(verdict.lost, 1);
    assert_eq!(
        verdict.lost_examples,
        vec![PostIdentity {
            ply: last.ply + 1,
            ..last
        }]
    );
}
