//! The withdrawal rules played through the service: a 4-player round robin (A, B, C, D; every
//! pair once) where D withdraws, under each rule, with standings worked by hand.
//!
//! The rounds (Berger tables, players in the order they joined): 1: A-D, B-C; 2: A-C, B-D;
//! 3: A-B, C-D. The results: D beats A and B beats C (round 1), A draws C and B beats D (round
//! 2), A beats B and C beats D (round 3). D withdraws either at the start of round 2 (one game
//! finished; their game with B is resigned, their game with C forfeited) or at the start of
//! round 3 (two games finished; their game with C is resigned): either way every result is the
//! one above, and only the rule decides what counts.

use super::*;
use crate::domain::PlayerId;

struct Played {
    view: TournamentView,
    players: [PlayerId; 4],
}

/// D withdraws after `rounds_before` rounds; the rest is played to the end.
async fn d_withdraws(rule: WithdrawalRule, rounds_before: u32) -> Played {
    let w = world().await;
    let organiser = w.player("Organiser").await;
    let [a, b, c, d] = w.four_players().await;
    let id = w
        .tournament_with(organiser, Format::RoundRobin, 4, rule)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .id;
    w.join_all(id, &[a, b, c, d]).await;
    w.service
        .tournaments()
        .start(organiser, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let result = move |x: PlayerId, y: PlayerId| -> Option<PlayerId> {
        let pair = (x.min(y), x.max(y));
        match pair {
            p if p == (a, d) => Some(d),
            p if p == (b, c) => Some(b),
            p if p == (a, c) => None,
            p if p == (b, d) => Some(b),
            p if p == (a, b) => Some(a),
            _ => Some(c),
        }
    };
    for _ in 0..rounds_before {
        w.play_round(id, result).await;
    }
    let left = w
        .service
        .tournaments()
        .leave(d, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        left.round,
        rounds_before + 1,
        "D withdrew while this round ran"
    );
    let mut view = left;
    while view.status == TournamentStatus::Running {
        view = w.play_round(id, result).await;
    }
    assert_eq!(view.status, TournamentStatus::Finished);
    assert_eq!(view.withdrawal, rule);
    Played {
        view,
        players: [a, b, c, d],
    }
}

/// (player, rank, points, Sonneborn-Berger) in the standings' order.
fn table(view: &TournamentView) -> Vec<(PlayerId, u32, f64, f64)> {
    view.standings
        .iter()
        .map(|s| (s.player, s.rank, s.points, s.sonneborn_berger))
        .collect()
}

fn annulled(view: &TournamentView, player: PlayerId) -> bool {
    view.players
        .iter()
        .any(|p| p.player.player_id == Some(player) && p.games_annulled)
}

/// How many pairings count and how many do not.
fn counted(view: &TournamentView) -> (usize, usize) {
    let all: Vec<bool> = view
        .rounds
        .iter()
        .flat_map(|r| &r.games)
        .map(|g| g.counted)
        .collect();
    let yes = all.iter().filter(|c| **c).count();
    (yes, all.len() - yes)
}

/// Every result stands: points A 1½, B 2, C 1½, D 1.
/// Sonneborn-Berger: A = B's 2 (won) + ½ × C's 1½ = 2¾; B = C's 1½ + D's 1 = 2½;
/// C = ½ × A's 1½ + D's 1 = 1¾; D = A's 1½ = 1½.
fn every_result_stands(played: &Played) {
    let [a, b, c, d] = played.players;
    assert_eq!(
        table(&played.view),
        vec![
            (b, 1, 2.0, 2.5),
            (a, 2, 1.5, 2.75),
            (c, 3, 1.5, 1.75),
            (d, 4, 1.0, 1.5)
        ]
    );
    assert_eq!(played.view.winner, Some(b));
    assert!(!annulled(&played.view, d));
    assert_eq!(counted(&played.view), (6, 0));
}

/// D's games do not count: A beat B and drew C, B beat C. Points A 1½, B 1, C ½, and D is not
/// ranked. Sonneborn-Berger: A = B's 1 + ½ × C's ½ = 1¼ (2¾ with D's games); B = C's ½ = ½;
/// C = ½ × A's 1½ = ¾. B loses the point of D's resigned game, C the forfeit's, and A wins.
fn ds_games_are_annulled(played: &Played) {
    let [a, b, c, d] = played.players;
    assert_eq!(
        table(&played.view),
        vec![(a, 1, 1.5, 1.25), (b, 2, 1.0, 0.5), (c, 3, 0.5, 0.75)]
    );
    assert_eq!(played.view.winner, Some(a));
    assert!(annulled(&played.view, d));
    assert_eq!(
        counted(&played.view),
        (3, 3),
        "D's three pairings do not count"
    );
    let cross: Vec<PlayerId> = played.view.crosstable.iter().map(|r| r.player).collect();
    assert_eq!(
        cross,
        vec![a, b, c],
        "the crosstable holds the ranked players"
    );
    assert!(
        played.view.crosstable[0].against.iter().flatten().count() == 2,
        "A's two counted games: {:?}",
        played.view.crosstable[0]
    );
}

#[tokio::test]
async fn forfeit_keeps_every_result_of_a_player_who_withdraws() {
    every_result_stands(&d_withdraws(WithdrawalRule::Forfeit, 1).await);
}

#[tokio::test]
async fn annul_takes_every_game_of_a_player_who_withdraws_out_of_the_standings() {
    ds_games_are_annulled(&d_withdraws(WithdrawalRule::Annul, 1).await);
}

#[tokio::test]
async fn annul_under_half_annuls_a_player_who_withdraws_after_one_game_of_three() {
    ds_games_are_annulled(&d_withdraws(WithdrawalRule::AnnulUnderHalf, 1).await);
}

#[tokio::test]
async fn annul_under_half_keeps_the_results_of_a_player_past_half_their_games() {
    every_result_stands(&d_withdraws(WithdrawalRule::AnnulUnderHalf, 2).await);
}

#[tokio::test]
async fn a_swiss_tournament_is_refused_a_rule_that_annuls() {
    let w = world().await;
    let organiser = w.player("Organiser").await;
    for rule in [WithdrawalRule::Annul, WithdrawalRule::AnnulUnderHalf] {
        match w
            .tournament_with(organiser, Format::Swiss { rounds: 3 }, 8, rule)
            .await
        {
            Err(ServiceError::Invalid(message)) => {
                assert!(
                    message.contains("a Swiss tournament cannot annul"),
                    "{message}"
                );
                assert!(message.contains(&format!("\"{rule}\"")), "{message}");
            }
            other => panic!("{rule}: {other:?}"),
        }
    }
    let forfeit = w
        .tournament_with(
            organiser,
            Format::Swiss { rounds: 3 },
            8,
            WithdrawalRule::Forfeit,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(forfeit.withdrawal, WithdrawalRule::Forfeit);
}

/// Groups then knockout under `annul`, eight players in groups of four (P1, P4, P5, P8 | P2,
/// P3, P6, P7), the higher seed winning every game: P8 withdraws in the group stage (their six
/// group games annulled, and they are unranked), P2 in the final (the knockout: forfeited, not
/// annulled), and P1 wins.
#[tokio::test]
async fn groups_then_knockout_annul_only_in_the_group_stage() {
    let w = world().await;
    let organiser = w.player("Organiser").await;
    let mut p = Vec::new();
    for i in 1..=8 {
        p.push(w.player(&format!("P{i}")).await);
    }
    let id = w
        .tournament_with(
            organiser,
            Format::GroupsKnockout { group_size: 4 },
            8,
            WithdrawalRule::Annul,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .id;
    w.join_all(id, &p).await;
    let t = w.service.tournaments();
    t.start(organiser, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut view = t.leave(p[7], id).await.unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..20 {
        if view.status != TournamentStatus::Running {
            break;
        }
        view = if view.round == 7 {
            t.leave(p[1], id).await.unwrap_or_else(|e| panic!("{e}"))
        } else {
            w.play_round(id, |x, y| Some(x.min(y))).await
        };
    }
    assert_eq!(view.status, TournamentStatus::Finished);
    assert_eq!(
        view.rounds.len(),
        8,
        "six group rounds and a two-game final"
    );
    assert_eq!(view.winner, Some(p[0]));
    assert!(annulled(&view, p[7]), "withdrew in the group stage");
    assert!(!annulled(&view, p[1]), "withdrew in the knockout");
    assert_eq!(counted(&view), (20, 6), "P8's six group games do not count");
    assert!(view.standings.iter().all(|s| s.player != p[7]));
    assert!(view.standings.iter().any(|s| s.player == p[1]));
}
