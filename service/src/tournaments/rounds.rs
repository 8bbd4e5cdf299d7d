//! Playing a tournament in the store: each round's games made at once, the round after
//! started when the last game of one ends (in that game's transaction), the winner named when
//! the last round is done.

use std::collections::HashMap;

use tafl_engine::Side;

use super::format::Format;
use super::groups::Seed;
use super::knockout::{self, Next, RoundResult};
use super::points::Points;
use super::round_plan::{Pairing, RoundPlan};
use super::standings::{GameScore, ScoredGame, Standing, standings};
use super::swiss::{self, SwissEntrant};
use super::withdrawal_rule::Counting;
use super::{round_robin, view::PairingResult};
use crate::domain::{
    GameId, GameStatus, PlayerId, ResultReason, Seat, TournamentId, TournamentStatus,
};
use crate::events::{EventPayload, TournamentEnded, TournamentRound};
use crate::games::challenges::{NewGame, open_game};
use crate::games::game_ended::{EndedGame, GameEndedSubscriber};
use crate::store::Conn;
use crate::store::rows::{
    self, NewTournamentGame, TournamentGameRow, TournamentPlayerRow, TournamentRow,
};
use crate::{ClockSpec, Emitter, Result, ServiceError};

pub(super) fn stored_format(t: &TournamentRow) -> Result<Format> {
    serde_json::from_str(&t.format).map_err(|e| {
        ServiceError::internal(format!(
            "tournament {}: stored format unreadable: {e}",
            t.id
        ))
    })
}

pub(super) fn stored_clock(t: &TournamentRow) -> Result<ClockSpec> {
    serde_json::from_str(&t.clock).map_err(|e| {
        ServiceError::internal(format!("tournament {}: stored clock unreadable: {e}", t.id))
    })
}

/// What a pairing has come to, as standings count it; `None` while its game is played.
pub(super) fn pairing_result(g: &TournamentGameRow) -> Option<PairingResult> {
    if g.game.is_none() {
        return Some(match g.forfeit_winner {
            Some(w) if w == g.attackers => PairingResult::AttackersWon,
            Some(_) => PairingResult::DefendersWon,
            None => PairingResult::NotPlayed,
        });
    }
    game_score(g.status?, g.winner, g.reason, g.side_to_move).map(PairingResult::from)
}

/// What a game has come to, as standings (and team matches) count it; `None` while it is
/// played.
pub(crate) fn game_score(
    status: GameStatus,
    winner: Option<Side>,
    reason: Option<ResultReason>,
    side_to_move: Option<Side>,
) -> Option<GameScore> {
    match (status, winner) {
        (GameStatus::Active, _) => None,
        (GameStatus::Finished, Some(Side::Attackers)) => Some(GameScore::AttackersWon),
        (GameStatus::Finished, Some(Side::Defenders)) => Some(GameScore::DefendersWon),
        (GameStatus::Finished, None) => Some(GameScore::Draw),
        // A no-show: who had to make the first move and did not, loses.
        (GameStatus::Aborted, _) if reason == Some(ResultReason::NoFirstMove) => {
            Some(match side_to_move {
                Some(Side::Attackers) => GameScore::DefendersWon,
                _ => GameScore::AttackersWon,
            })
        }
        (GameStatus::Aborted, _) => Some(GameScore::Draw),
    }
}

/// The decided games as standings count them.
pub(super) fn scored_games(games: &[TournamentGameRow]) -> Vec<ScoredGame> {
    games
        .iter()
        .filter_map(|g| {
            let score = match pairing_result(g)? {
                PairingResult::AttackersWon => GameScore::AttackersWon,
                PairingResult::DefendersWon => GameScore::DefendersWon,
                PairingResult::Draw => GameScore::Draw,
                PairingResult::NotPlayed => return None,
            };
            Some(ScoredGame {
                attackers: g.attackers,
                defenders: g.defenders,
                score,
            })
        })
        .collect()
}

/// The players in seeding order: by rating at sign-up, then who joined first.
pub(super) fn seeded(players: &[TournamentPlayerRow]) -> Vec<PlayerId> {
    let mut seeded = players.to_vec();
    seeded.sort_by_key(|p| (std::cmp::Reverse(p.seed_rating), p.joined_at, p.player));
    seeded.into_iter().map(|p| p.player).collect()
}

/// The players as groups seed them: with their rating at sign-up, in the order they joined.
pub(super) fn seeds(players: &[TournamentPlayerRow]) -> Vec<Seed> {
    players
        .iter()
        .map(|p| Seed {
            player: p.player,
            rating: p.seed_rating,
        })
        .collect()
}

/// The standings now: the games that count under the withdrawal rule, among the players it
/// ranks (a player whose games were annulled has no place, and no tie-break counts their
/// games).
pub(super) fn current_standings(
    format: Format,
    players: &[TournamentPlayerRow],
    games: &[TournamentGameRow],
    byes: &[(u32, PlayerId)],
) -> Vec<Standing> {
    let counting = Counting::of(format, players);
    let ranked: Vec<PlayerId> = seeded(players)
        .into_iter()
        .filter(|&p| counting.ranks(p))
        .collect();
    let byes: Vec<PlayerId> = byes.iter().map(|(_, p)| *p).collect();
    standings(
        &ranked,
        &scored_games(&counting.counted(games)),
        &byes,
        format.tie_breaks(),
    )
}

/// Starts the tournament: round 1's games.
pub(super) fn start(c: &Conn<'_>, e: &mut Emitter, t: &mut TournamentRow) -> Result<()> {
    t.status = TournamentStatus::Running;
    t.started_at = Some(e.now());
    t.round = 0;
    let players = rows::tournament_players(c, t.id)?;
    tell_players(c, e, &players, || {
        EventPayload::TournamentStarted(TournamentRound {
            tournament_id: t.id,
            name: t.name.clone(),
            round: 1,
        })
    })?;
    advance(c, e, t)
}

/// Calls the tournament off (its start came with too few players) and tells those who joined.
pub(super) fn cancel(c: &Conn<'_>, e: &mut Emitter, t: &mut TournamentRow) -> Result<()> {
    t.status = TournamentStatus::Cancelled;
    t.finished_at = Some(e.now());
    rows::update_tournament_state(c, t)?;
    let players = rows::tournament_players(c, t.id)?;
    tell_players(c, e, &players, || {
        EventPayload::TournamentEnded(TournamentEnded {
            tournament_id: t.id,
            name: t.name.clone(),
            status: t.status,
            winner: None,
        })
    })
}

/// Emits `payload` to each player still in the tournament, one event each (an event names at
/// most two players).
fn tell_players(
    c: &Conn<'_>,
    e: &mut Emitter,
    players: &[TournamentPlayerRow],
    payload: impl Fn() -> EventPayload,
) -> Result<()> {
    for p in players.iter().filter(|p| p.withdrawn_at.is_none()) {
        e.emit(c, None, None, vec![p.player], payload())?;
    }
    Ok(())
}

/// A tournament game's end may end its round: the next round starts (or the tournament ends).
pub(crate) struct AdvanceRound;

impl GameEndedSubscriber for AdvanceRound {
    fn react(&self, c: &Conn<'_>, e: &mut Emitter, ended: &EndedGame<'_>) -> Result<()> {
        game_ended(c, e, ended.id())
    }
}

/// Called in the transaction that ends `game`: when it was the last of its tournament's
/// round, the next round starts (or the tournament ends).
fn game_ended(c: &Conn<'_>, e: &mut Emitter, game: GameId) -> Result<()> {
    let Some(id) = rows::tournament_of_game(c, game)? else {
        return Ok(());
    };
    let Some(mut t) = rows::tournament(c, id)? else {
        return Ok(());
    };
    if t.status != TournamentStatus::Running {
        return Ok(());
    }
    if round_done(&t, &rows::tournament_games(c, id)?) {
        advance(c, e, &mut t)?;
    }
    Ok(())
}

/// A day in milliseconds.
const DAY_MS: i64 = 86_400_000;

/// When round `round` may start, for a tournament whose rounds start at set times.
pub(super) fn round_time(t: &TournamentRow, round: u32) -> Option<i64> {
    let days = i64::from(t.round_days?);
    let started = t.started_at?;
    Some(started.saturating_add(i64::from(round.saturating_sub(1)) * days * DAY_MS))
}

/// Whether every pairing of the tournament's current round has a result.
fn round_done(t: &TournamentRow, games: &[TournamentGameRow]) -> bool {
    games
        .iter()
        .filter(|g| g.round == t.round)
        .all(|g| pairing_result(g).is_some())
}

/// The scheduler's pass over a tournament with rounds at set times: the next round starts when
/// its time has come and the round before is done; answers whether it moved on.
pub(super) fn start_scheduled_round(
    c: &Conn<'_>,
    e: &mut Emitter,
    t: &mut TournamentRow,
) -> Result<bool> {
    if t.status != TournamentStatus::Running
        || round_time(t, t.round.saturating_add(1)).is_none_or(|at| at > e.now())
        || !round_done(t, &rows::tournament_games(c, t.id)?)
    {
        return Ok(false);
    }
    let before = (t.round, t.status);
    advance(c, e, t)?;
    Ok((t.round, t.status) != before)
}

/// Starts the next round, or ends the tournament after its last. A round whose every
/// pairing is decided without a game (withdrawals) is passed at once.
fn advance(c: &Conn<'_>, e: &mut Emitter, t: &mut TournamentRow) -> Result<()> {
    let format = stored_format(t)?;
    let players = rows::tournament_players(c, t.id)?;
    loop {
        let games = rows::tournament_games(c, t.id)?;
        let byes = rows::tournament_byes(c, t.id)?;
        let next = t.round.saturating_add(1);
        let step = match format {
            Format::GroupsKnockout { group_size } => {
                let size = usize::try_from(group_size).unwrap_or(usize::MAX);
                let counting = Counting::of(format, &players);
                knockout::next_round(
                    &seeds(&players),
                    size,
                    &round_results(&counting.counted(&games)),
                    next,
                    &counting.unranked(),
                )
            }
            _ if t.round >= format.planned_rounds(players.len()).unwrap_or(0) => {
                let table = current_standings(format, &players, &games, &byes);
                match table.first() {
                    Some(first) => Next::Won(first.player),
                    None => Next::Round(RoundPlan {
                        pairings: Vec::new(),
                        bye: None,
                    }),
                }
            }
            _ => Next::Round(plan_round(format, next, &players, &games, &byes)?),
        };
        let plan = match step {
            Next::Won(winner) => return finish(c, e, t, &players, Some(winner)),
            // Nobody left to pair (every player withdrew): the tournament ends without one.
            Next::Round(plan) if plan.pairings.is_empty() && plan.bye.is_none() => {
                return finish(c, e, t, &players, None);
            }
            Next::Round(plan) => plan,
        };
        // A round at a set time waits for it (the scheduler starts it then).
        if round_time(t, next).is_some_and(|at| at > e.now()) {
            return Ok(());
        }
        t.round = next;
        let started = open_round(c, e, t, &players, &plan)?;
        rows::update_tournament_state(c, t)?;
        if started > 0 {
            return tell_players(c, e, &players, || {
                EventPayload::RoundStarted(TournamentRound {
                    tournament_id: t.id,
                    name: t.name.clone(),
                    round: t.round,
                })
            });
        }
    }
}

/// Ends the tournament with `winner` and tells its players.
fn finish(
    c: &Conn<'_>,
    e: &mut Emitter,
    t: &mut TournamentRow,
    players: &[TournamentPlayerRow],
    winner: Option<PlayerId>,
) -> Result<()> {
    t.status = TournamentStatus::Finished;
    t.finished_at = Some(e.now());
    t.winner = winner;
    rows::update_tournament_state(c, t)?;
    tell_players(c, e, players, || {
        EventPayload::TournamentEnded(TournamentEnded {
            tournament_id: t.id,
            name: t.name.clone(),
            status: t.status,
            winner: t.winner,
        })
    })
}

/// The decided games with their rounds, as the knockout stages count them.
fn round_results(games: &[TournamentGameRow]) -> Vec<RoundResult> {
    games
        .iter()
        .filter_map(|g| {
            let scored = scored_games(std::slice::from_ref(g)).pop()?;
            Some(RoundResult {
                round: g.round,
                game: scored,
            })
        })
        .collect()
}

/// The pairings of round `round` (counted from 1).
fn plan_round(
    format: Format,
    round: u32,
    players: &[TournamentPlayerRow],
    games: &[TournamentGameRow],
    byes: &[(u32, PlayerId)],
) -> Result<RoundPlan> {
    let index = usize::try_from(round.saturating_sub(1)).unwrap_or(usize::MAX);
    let seeds = seeded(players);
    let scheduled = match format {
        Format::RoundRobin => round_robin::single(&seeds).into_iter().nth(index),
        Format::DoubleRoundRobin => round_robin::double(&seeds).into_iter().nth(index),
        Format::Swiss { .. } => {
            return swiss_round(players, games, byes).map_err(|e| ServiceError::Conflict {
                message: format!("round {round} cannot be paired: {e}"),
                game: None,
            });
        }
        // Its rounds are planned by the stages in `advance`.
        Format::GroupsKnockout { .. } => None,
    };
    scheduled.ok_or_else(|| ServiceError::internal(format!("no round {round} in the schedule")))
}

fn swiss_round(
    players: &[TournamentPlayerRow],
    games: &[TournamentGameRow],
    byes: &[(u32, PlayerId)],
) -> std::result::Result<RoundPlan, swiss::SwissError> {
    let scored = scored_games(games);
    let mut entrants: HashMap<PlayerId, SwissEntrant> = players
        .iter()
        .filter(|p| p.withdrawn_at.is_none())
        .map(|p| {
            (
                p.player,
                SwissEntrant {
                    player: p.player,
                    points: Points::ZERO,
                    rating: p.seed_rating,
                    opponents: Vec::new(),
                    sides: Vec::new(),
                    had_bye: false,
                },
            )
        })
        .collect();
    for g in games {
        for (player, opponent, side) in [
            (g.attackers, g.defenders, Side::Attackers),
            (g.defenders, g.attackers, Side::Defenders),
        ] {
            if let Some(entrant) = entrants.get_mut(&player) {
                entrant.opponents.push(opponent);
                entrant.sides.push(side);
            }
        }
    }
    for game in &scored {
        let (a, d) = game.score.points();
        if let Some(entrant) = entrants.get_mut(&game.attackers) {
            entrant.points += a;
        }
        if let Some(entrant) = entrants.get_mut(&game.defenders) {
            entrant.points += d;
        }
    }
    for (_, player) in byes {
        if let Some(entrant) = entrants.get_mut(player) {
            entrant.points += Points::ONE;
            entrant.had_bye = true;
        }
    }
    let mut entrants: Vec<SwissEntrant> = entrants.into_values().collect();
    entrants.sort_by_key(|e| e.player);
    swiss::pair_round(&entrants)
}

/// Makes the round's games (a forfeit where a player has withdrawn) and records its bye;
/// answers how many games started.
fn open_round(
    c: &Conn<'_>,
    e: &mut Emitter,
    t: &TournamentRow,
    players: &[TournamentPlayerRow],
    plan: &RoundPlan,
) -> Result<usize> {
    let withdrawn: Vec<PlayerId> = players
        .iter()
        .filter(|p| p.withdrawn_at.is_some())
        .map(|p| p.player)
        .collect();
    let clock = stored_clock(t)?;
    let mut started = 0;
    for &Pairing {
        attackers,
        defenders,
    } in &plan.pairings
    {
        let gone = |p: PlayerId| withdrawn.contains(&p);
        let (game, forfeit_winner) = match (gone(attackers), gone(defenders)) {
            (false, false) => {
                let row = open_game(
                    c,
                    e,
                    NewGame {
                        variant: t.variant.clone(),
                        rules: &t.rules,
                        attackers: Seat::Player(attackers),
                        defenders: Seat::Player(defenders),
                        clock,
                        context: None,
                        rated: t.rated,
                        private: false,
                    },
                    None,
                )?;
                super::discord_places::show_in_discord(c, e, t.id, row.id, [attackers, defenders])?;
                started += 1;
                (Some(row.id), None)
            }
            (true, false) => (None, Some(defenders)),
            (false, true) => (None, Some(attackers)),
            (true, true) => (None, None),
        };
        rows::insert_tournament_game(
            c,
            t.id,
            NewTournamentGame {
                round: t.round,
                attackers,
                defenders,
                game,
                forfeit_winner,
            },
        )?;
    }
    if let Some(bye) = plan.bye.filter(|p| !withdrawn.contains(p)) {
        rows::insert_tournament_bye(c, t.id, t.round, bye)?;
    }
    Ok(started)
}

/// The tournament of `id`, for a write.
pub(super) fn load(c: &Conn<'_>, id: TournamentId) -> Result<TournamentRow> {
    rows::tournament(c, id)?.ok_or(ServiceError::NotFound(crate::Missing::Tournament(id)))
}
