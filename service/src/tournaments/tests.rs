//! Tournaments played through the service to their end on SQLite: results decided by
//! resignations and agreed draws, standings checked against hand-worked values.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use super::*;
use crate::config::GamesConfig;
use crate::domain::{PlayerId, TournamentId, TournamentStatus};
use crate::store::Store;
use crate::webhook_target::TargetPolicy;
use crate::{ClockSpec, GamesService, ManualClock, RulesChoice, ServiceError};

struct World {
    _dir: tempfile::TempDir,
    service: GamesService,
    clock: Arc<ManualClock>,
}

async fn world() -> World {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let store = Store::open(&dir.path().join("t.db"), 2, Duration::from_secs(5), 8)
        .unwrap_or_else(|e| panic!("{e}"));
    let clock = Arc::new(ManualClock::new(1_000));
    let service = GamesService::new(
        store,
        clock.clone(),
        GamesConfig::default(),
        TargetPolicy::new(&[]).unwrap_or_else(|e| panic!("{e}")),
        None,
    );
    World {
        _dir: dir,
        service,
        clock,
    }
}

impl World {
    async fn player(&self, name: &str) -> PlayerId {
        self.service
            .accounts()
            .register(name, None)
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .player
            .id
    }

    /// Players A, B, C and D, registered (and so seeded, all unrated) in that order.
    async fn four_players(&self) -> [PlayerId; 4] {
        [
            self.player("A").await,
            self.player("B").await,
            self.player("C").await,
            self.player("D").await,
        ]
    }

    async fn tournament(&self, organiser: PlayerId, format: Format, max: u32) -> TournamentId {
        self.tournament_with(organiser, format, max, WithdrawalRule::Forfeit)
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .id
    }

    async fn tournament_with(
        &self,
        organiser: PlayerId,
        format: Format,
        max: u32,
        withdrawal: WithdrawalRule,
    ) -> Result<TournamentView, ServiceError> {
        self.service
            .tournaments()
            .create(
                organiser,
                NewTournament {
                    name: "Autumn cup".into(),
                    format,
                    rules: RulesChoice::Variant("brandubh".into()),
                    clock: ClockSpec::PerMove { seconds: 86_400 },
                    rated: None,
                    min_players: 2,
                    max_players: max,
                    starts_at: None,
                    vacation: Default::default(),
                    round_days: None,
                    withdrawal,
                },
            )
            .await
    }

    /// Plays every game of the current round: `winner(attackers, defenders)` names the winner,
    /// `None` a draw; the loser resigns, a draw is offered and accepted.
    async fn play_round(
        &self,
        id: TournamentId,
        winner: impl Fn(PlayerId, PlayerId) -> Option<PlayerId>,
    ) -> TournamentView {
        let t = self.view(id).await;
        let round = t.rounds.last().unwrap_or_else(|| panic!("no round yet"));
        for game in &round.games {
            let Some(game_id) = game.game_id else {
                continue;
            };
            if game.result.is_some() {
                continue;
            }
            let games = self.service.games();
            let done = match winner(game.attackers, game.defenders) {
                Some(w) => {
                    let loser = if w == game.attackers {
                        game.defenders
                    } else {
                        game.attackers
                    };
                    games.resign(loser, game_id).await
                }
                None => match games.offer_draw(game.attackers, game_id).await {
                    Ok(_) => games.accept_draw(game.defenders, game_id).await,
                    Err(e) => Err(e),
                },
            };
            done.unwrap_or_else(|e| panic!("round {}: {e}", round.number));
        }
        self.view(id).await
    }

    async fn join_all(&self, id: TournamentId, players: &[PlayerId]) {
        for &p in players {
            self.service
                .tournaments()
                .join(p, id)
                .await
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }

    async fn view(&self, id: TournamentId) -> TournamentView {
        self.service
            .tournaments()
            .get(id)
            .await
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

#[tokio::test]
async fn a_four_player_round_robin_is_played_to_its_end_with_hand_worked_standings() {
    let w = world().await;
    let organiser = w.player("Organiser").await;
    let [a, b, c, d] = w.four_players().await;
    let id = w.tournament(organiser, Format::RoundRobin, 8).await;
    w.join_all(id, &[a, b, c, d]).await;
    let started = w
        .service
        .tournaments()
        .start(organiser, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (started.status, started.round),
        (TournamentStatus::Running, 1)
    );
    assert_eq!(
        started.rounds[0].games.len(),
        2,
        "round 1's games begin at once"
    );

    // A beats B, A draws C, D beats A; B beats C and D; C draws D.
    let results: HashMap<(PlayerId, PlayerId), Option<PlayerId>> = [
        ((a, b), Some(a)),
        ((a, c), None),
        ((a, d), Some(d)),
        ((b, c), Some(b)),
        ((b, d), Some(b)),
        ((c, d), None),
    ]
    .into_iter()
    .flat_map(|((x, y), r)| [((x, y), r), ((y, x), r)])
    .collect();
    let mut view = started;
    let mut met = HashSet::new();
    for round in 1..=3 {
        assert_eq!(view.round, round);
        for g in &view.rounds[round as usize - 1].games {
            assert!(met.insert((g.attackers.min(g.defenders), g.attackers.max(g.defenders))));
        }
        view = w.play_round(id, |x, y| results[&(x, y)]).await;
    }
    assert_eq!(view.status, TournamentStatus::Finished);
    assert_eq!(view.winner, Some(b));
    assert_eq!(met.len(), 6, "every pair met once");
    let table: Vec<(PlayerId, u32, f64, f64)> = view
        .standings
        .iter()
        .map(|s| (s.player, s.rank, s.points, s.sonneborn_berger))
        .collect();
    assert_eq!(
        table,
        vec![
            (b, 1, 2.0, 2.5),
            (a, 2, 1.5, 2.5),
            (d, 3, 1.5, 2.0),
            (c, 4, 1.0, 1.5)
        ]
    );
    // The crosstable in the standings' order (B, A, D, C): B lost to A, beat D and C; ...
    let cross: Vec<(PlayerId, Vec<Vec<f64>>)> = view
        .crosstable
        .iter()
        .map(|r| (r.player, r.against.clone()))
        .collect();
    let none: Vec<f64> = Vec::new();
    assert_eq!(
        cross,
        vec![
            (b, vec![none.clone(), vec![0.0], vec![1.0], vec![1.0]]),
            (a, vec![vec![1.0], none.clone(), vec![0.0], vec![0.5]]),
            (d, vec![vec![0.0], vec![1.0], none.clone(), vec![0.5]]),
            (c, vec![vec![0.0], vec![0.5], vec![0.5], none]),
        ]
    );
    // Each player heard of their joining, the start, each round and the end, once each.
    let heard: Vec<String> = w
        .service
        .events()
        .of_player(c, crate::domain::EventId(0), 500)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .map(|e| e.kind().to_owned())
        .filter(|k| k.contains("tournament") || k == "round_started")
        .collect();
    assert_eq!(
        heard,
        vec![
            "tournament_joined",
            "tournament_started",
            "round_started",
            "round_started",
            "round_started",
            "tournament_ended"
        ]
    );
}

#[tokio::test]
async fn a_five_player_swiss_gives_one_bye_a_round_and_no_rematch() {
    let w = world().await;
    let organiser = w.player("Organiser").await;
    let mut players = Vec::new();
    for name in ["P1", "P2", "P3", "P4", "P5"] {
        players.push(w.player(name).await);
    }
    let id = w
        .tournament(organiser, Format::Swiss { rounds: 3 }, 8)
        .await;
    w.join_all(id, &players).await;
    let mut view = w
        .service
        .tournaments()
        .start(organiser, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mut byes = HashSet::new();
    let mut met = HashSet::new();
    for round in 1..=3u32 {
        let r = &view.rounds[round as usize - 1];
        assert_eq!(r.games.len(), 2, "round {round}");
        let bye = r.bye.unwrap_or_else(|| panic!("round {round} has no bye"));
        assert!(byes.insert(bye), "{bye:?} sat out twice");
        for g in &r.games {
            assert!(
                met.insert((g.attackers.min(g.defenders), g.attackers.max(g.defenders))),
                "a rematch in round {round}"
            );
        }
        // The lower id (who joined first) wins.
        view = w.play_round(id, |x, y| Some(x.min(y))).await;
    }
    assert_eq!(view.status, TournamentStatus::Finished);
    let total: f64 = view.standings.iter().map(|s| s.points).sum();
    assert_eq!(total, 6.0 + 3.0, "six games and three byes");
    assert_eq!(view.winner, Some(players[0]), "who won every game");
}

#[tokio::test]
async fn a_withdrawal_resigns_the_game_in_progress_and_forfeits_the_rest() {
    let w = world().await;
    let [a, b, c] = [
        w.player("A").await,
        w.player("B").await,
        w.player("C").await,
    ];
    let id = w.tournament(a, Format::DoubleRoundRobin, 8).await;
    w.join_all(id, &[a, b, c]).await;
    let view = w
        .service
        .tournaments()
        .start(a, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let first = &view.rounds[0].games[0];
    let quitter = first.attackers;
    let view = w
        .service
        .tournaments()
        .leave(quitter, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        view.players
            .iter()
            .any(|p| p.withdrawn && p.player.player_id == Some(quitter))
    );
    // Play out whatever games remain: the lower id wins.
    let mut view = view;
    for _ in 0..6 {
        if view.status == TournamentStatus::Finished {
            break;
        }
        view = w.play_round(id, |x, y| Some(x.min(y))).await;
    }
    assert_eq!(view.status, TournamentStatus::Finished);
    assert_eq!(
        view.rounds.len(),
        6,
        "three players: six rounds of a double round robin"
    );
    let quitter_points = view
        .standings
        .iter()
        .find(|s| s.player == quitter)
        .map(|s| s.points);
    assert_eq!(quitter_points, Some(0.0));
    let forfeits = view
        .rounds
        .iter()
        .flat_map(|r| &r.games)
        .filter(|g| g.game_id.is_none())
        .count();
    assert_eq!(
        forfeits, 3,
        "the quitter's three later pairings, decided without a game"
    );
}

#[tokio::test]
async fn what_cannot_be_done_is_refused_in_the_players_terms() {
    let w = world().await;
    let [a, b, c] = [
        w.player("A").await,
        w.player("B").await,
        w.player("C").await,
    ];
    let id = w.tournament(a, Format::RoundRobin, 2).await;
    let t = w.service.tournaments();
    let err = |r: Result<TournamentView, ServiceError>| match r {
        Ok(_) => panic!("accepted"),
        Err(e) => (e.code(), e.to_string()),
    };
    t.join(b, id).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        err(t.join(b, id).await).1,
        format!("you have already joined tournament {id}")
    );
    assert_eq!(
        err(t.start(a, id).await).1,
        format!("tournament {id} needs at least 2 players to start; 1 joined")
    );
    t.join(c, id).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        err(t.join(a, id).await).1,
        format!("tournament {id} is full (2 players)")
    );
    assert_eq!(err(t.start(b, id).await).0, "forbidden");
    t.start(a, id).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        err(t.join(a, id).await).1,
        format!("tournament {id} is already running")
    );
    let unknown = TournamentId(id.get() + 100);
    assert_eq!(err(t.get(unknown).await).0, "not_found");
    let bad = t
        .create(
            a,
            NewTournament {
                name: "  ".into(),
                format: Format::RoundRobin,
                rules: RulesChoice::Variant("brandubh".into()),
                clock: ClockSpec::Unlimited {},
                rated: None,
                min_players: 2,
                max_players: 4,
                starts_at: None,
                vacation: Default::default(),
                round_days: None,
                withdrawal: Default::default(),
            },
        )
        .await;
    assert_eq!(
        err(bad).1,
        format!("a tournament's name must be 1 to {MAX_NAME_CHARS} characters")
    );
}

#[tokio::test]
async fn at_its_start_time_a_tournament_starts_by_itself_or_is_called_off() {
    let w = world().await;
    let [a, b, c] = [
        w.player("A").await,
        w.player("B").await,
        w.player("C").await,
    ];
    let new = |starts_at: i64, min_players: u32| NewTournament {
        name: "Timed".into(),
        format: Format::RoundRobin,
        rules: RulesChoice::Variant("brandubh".into()),
        clock: ClockSpec::PerMove { seconds: 86_400 },
        rated: None,
        min_players,
        max_players: 8,
        starts_at: Some(starts_at),
        vacation: Default::default(),
        round_days: None,
        withdrawal: Default::default(),
    };
    let t = w.service.tournaments();
    let full = t
        .create(a, new(60_000, 2))
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .id;
    let empty = t
        .create(a, new(60_000, 3))
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .id;
    for p in [b, c] {
        t.join(p, full).await.unwrap_or_else(|e| panic!("{e}"));
    }
    t.join(b, empty).await.unwrap_or_else(|e| panic!("{e}"));

    let early = w
        .service
        .scheduler()
        .run_due()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(early.tournaments_started, 0, "not before its time");
    w.clock.advance_ms(60_000);
    let pass = w
        .service
        .scheduler()
        .run_due()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(pass.tournaments_started, 2);
    assert_eq!(w.view(full).await.status, TournamentStatus::Running);
    assert_eq!(w.view(full).await.round, 1);
    assert_eq!(w.view(empty).await.status, TournamentStatus::Cancelled);
    let again = w
        .service
        .scheduler()
        .run_due()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.tournaments_started, 0, "each is acted on once");

    let told: Vec<String> = w
        .service
        .events()
        .of_player(b, crate::domain::EventId(0), 100)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .iter()
        .filter_map(|e| match &e.payload {
            crate::EventPayload::TournamentEnded(ended) => {
                Some(format!("{} {}", ended.tournament_id, ended.status))
            }
            _ => None,
        })
        .collect();
    assert_eq!(told, vec![format!("{empty} cancelled")]);
    let refused = t.create(a, new(500, 2)).await;
    assert!(
        matches!(refused, Err(ServiceError::Invalid(_))),
        "a start in the past"
    );
}

/// Eight players in groups of four: two groups, each a double round robin (six rounds, four
/// games a round), then the two group winners play each other once on each side. The higher
/// seed (the first to sign up, all rated alike) wins every game.
#[tokio::test]
async fn groups_then_knockout_with_eight_players_is_played_to_a_winner() {
    let w = world().await;
    let organiser = w.player("Organiser").await;
    let mut players = Vec::new();
    for i in 1..=8 {
        players.push(w.player(&format!("P{i}")).await);
    }
    let id = w
        .tournament(organiser, Format::GroupsKnockout { group_size: 4 }, 8)
        .await;
    w.join_all(id, &players).await;
    w.service
        .tournaments()
        .start(organiser, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let stronger = |a: PlayerId, d: PlayerId| Some(a.min(d));
    let mut view = w.view(id).await;
    for _ in 0..20 {
        if view.status != TournamentStatus::Running {
            break;
        }
        view = w.play_round(id, stronger).await;
    }
    assert_eq!(view.status, TournamentStatus::Finished);
    assert_eq!(view.winner, Some(players[0]));
    assert_eq!(
        view.rounds.len(),
        8,
        "six group rounds and a two-game final"
    );
    let group_games: Vec<usize> = view.rounds[..6].iter().map(|r| r.games.len()).collect();
    assert_eq!(group_games, [4; 6]);
    // The snake puts P1 and P2 in different groups: they meet only in the final.
    let final_games: HashSet<(PlayerId, PlayerId)> = view.rounds[6..]
        .iter()
        .flat_map(|r| r.games.iter().map(|g| (g.attackers, g.defenders)))
        .collect();
    let (p1, p2) = (players[0], players[1]);
    assert_eq!(final_games, HashSet::from([(p1, p2), (p2, p1)]));
    let met_before = view.rounds[..6].iter().flat_map(|r| &r.games).any(|g| {
        (g.attackers == p1 && g.defenders == p2) || (g.attackers == p2 && g.defenders == p1)
    });
    assert!(!met_before, "group winners come from different groups");
}

#[tokio::test]
async fn discord_news_goes_once_to_each_channel_and_each_game_to_each_of_its_players_channels() {
    use std::collections::BTreeSet;
    let w = world().await;
    let organiser = w.player("Organiser").await;
    let [a, b, c] = [
        w.player("A").await,
        w.player("B").await,
        w.player("C").await,
    ];
    let id = w.tournament(organiser, Format::RoundRobin, 8).await;
    // A and B play from one server's channel, C from another server's.
    let north = DiscordJoinPlace {
        guild_id: 1,
        channel_id: 100,
    };
    let south = DiscordJoinPlace {
        guild_id: 2,
        channel_id: 200,
    };
    for (p, place) in [(a, north), (b, north), (c, south)] {
        w.service
            .tournaments()
            .join_from_discord(p, id, place)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    let t = w
        .service
        .tournaments()
        .start(organiser, id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let posts: Vec<(i64, String, Option<i64>)> = w
        .service
        .read(|c| {
            Ok(c.query_all(
                "SELECT o.channel_id, e.kind, e.game_id FROM discord_outbox o \
                 JOIN events e ON e.id = o.event_id WHERE o.dm_user_id IS NULL ORDER BY o.id",
                crate::store::params![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?)
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let channels_of = |kind: &str, game: Option<i64>| -> Vec<i64> {
        posts
            .iter()
            .filter(|(_, k, g)| k == kind && *g == game)
            .map(|(ch, _, _)| *ch)
            .collect()
    };
    // Every player is sent the news; each channel posts it once.
    assert_eq!(channels_of("tournament_started", None), vec![100, 200]);
    assert_eq!(channels_of("round_started", None), vec![100, 200]);
    // Each game of round 1 is posted once in each of its players' channels.
    let place = |p: PlayerId| if p == c { 200 } else { 100 };
    for g in &t.rounds[0].games {
        let game = g.game_id.unwrap_or_else(|| panic!("a game")).0;
        let wanted: BTreeSet<i64> = [place(g.attackers), place(g.defenders)].into();
        let posted = channels_of("game_started", Some(game));
        assert_eq!(posted.len(), wanted.len(), "{posted:?}");
        assert_eq!(posted.into_iter().collect::<BTreeSet<_>>(), wanted);
    }
    // Leaving in sign-up forgets the place: a tournament left before its start posts nothing.
    let quiet = w.tournament(organiser, Format::RoundRobin, 8).await;
    w.service
        .tournaments()
        .join_from_discord(a, quiet, north)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    w.service
        .tournaments()
        .leave(a, quiet)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let places = w
        .service
        .read(move |c| Ok(crate::store::rows::tournament_discord_places(c, quiet)?))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(places.is_empty());
}

#[tokio::test]
async fn rounds_at_set_times_wait_for_their_day_and_for_the_round_before() {
    const DAY: i64 = 86_400_000;
    let w = world().await;
    let players = [
        w.player("A").await,
        w.player("B").await,
        w.player("C").await,
        w.player("D").await,
    ];
    let t = w.service.tournaments();
    let id = t
        .create(
            players[0],
            NewTournament {
                name: "Weekly".into(),
                format: Format::RoundRobin,
                rules: RulesChoice::Variant("brandubh".into()),
                // Long enough that a week passed does not end a game on time.
                clock: ClockSpec::PerMove {
                    seconds: 30 * 86_400,
                },
                rated: None,
                min_players: 2,
                max_players: 4,
                starts_at: None,
                vacation: Default::default(),
                round_days: Some(7),
                withdrawal: Default::default(),
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .id;
    w.join_all(id, &players).await;
    let started = t
        .start(players[0], id)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(started.round_days, Some(7));
    assert_eq!(started.next_round_at, Some(w.service.now_ms() + 7 * DAY));
    let pass = || async {
        w.service
            .scheduler()
            .run_due()
            .await
            .unwrap_or_else(|e| panic!("{e}"))
            .rounds_started
    };

    // Round 1 is over on its first day: round 2 waits for day 7, and starts then, once.
    let after_one = w.play_round(id, |attackers, _| Some(attackers)).await;
    assert_eq!(after_one.round, 1, "round 2 waits for its day");
    w.clock.advance_ms(7 * DAY - 1);
    assert_eq!(pass().await, 0, "not before its day");
    w.clock.advance_ms(1);
    assert_eq!(pass().await, 1);
    assert_eq!(w.view(id).await.round, 2);
    assert_eq!(pass().await, 0, "a round starts once");

    // Round 2 runs past day 14: round 3 waits for it, then starts with its last game.
    w.clock.advance_ms(8 * DAY);
    assert_eq!(pass().await, 0, "not before the round before is done");
    assert_eq!(w.view(id).await.round, 2);
    let after_two = w.play_round(id, |attackers, _| Some(attackers)).await;
    assert_eq!(
        after_two.round, 3,
        "its day passed: round 3 starts with round 2's last game"
    );
    assert!(
        after_two.rounds[2]
            .games
            .iter()
            .all(|g| g.game_id.is_some())
    );

    // The last round over: the tournament ends at once, no day to wait for.
    let done = w.play_round(id, |attackers, _| Some(attackers)).await;
    assert_eq!(done.status, TournamentStatus::Finished);
    assert_eq!(done.next_round_at, None);
}

mod withdrawal;
