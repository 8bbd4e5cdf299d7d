//! One place decides what a challenge may be: the service's `check_challenge`, which front ends
//! call before acknowledging a command, refuses exactly what creating it would refuse.

use taflbot::domain::PlayerId;
use taflbot::service::{ClockSpec, NewChallenge, Opponent, Place, RulesChoice, SideChoice};

use crate::common::TestApp;

fn ai_game(level: u8, rules: RulesChoice) -> NewChallenge {
    NewChallenge {
        opponent: Opponent::Ai { level },
        rules,
        side: SideChoice::Defenders,
        clock: ClockSpec::Unlimited {},
        context: None,
        rated: None,
        private: false,
    }
}

#[tokio::test]
async fn check_challenge_refuses_what_create_challenge_refuses_and_writes_nothing() {
    let app = TestApp::start().await;
    let a = app.register("A").await;
    let refused = [
        ai_game(0, RulesChoice::default()),
        ai_game(9, RulesChoice::default()),
        ai_game(1, RulesChoice::Variant("chess".into())),
        ai_game(
            1,
            RulesChoice::Rules("dim:7 start:/7/7/7/3K3/7/7/7/".into()),
        ),
        NewChallenge {
            context: Some(Place::Label("discord:channel:1".into())),
            ..ai_game(1, RulesChoice::default())
        },
    ];
    for request in refused {
        let checked = app.service().challenges().check(&request).unwrap_err();
        let created = app
            .service()
            .challenges()
            .create(PlayerId(a.id), request.clone())
            .await
            .unwrap_err();
        assert_eq!(checked.to_string(), created.to_string(), "{request:?}");
    }
    assert!(
        app.service()
            .games()
            .list_games(PlayerId(a.id))
            .await
            .unwrap()
            .is_empty()
    );

    // The default is the same everywhere: copenhagen.
    let fine = ai_game(1, RulesChoice::default());
    app.service().challenges().check(&fine).unwrap();
    let created = app
        .service()
        .challenges()
        .create(PlayerId(a.id), fine)
        .await
        .unwrap();
    assert_eq!(created.game.unwrap().variant.as_deref(), Some("copenhagen"));
}
