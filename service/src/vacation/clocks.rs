//! What a vacation does to clocks: which games it protects, the deadlines it moves when it
//! ends, and the day the scheduler (or a late move) spends before a game is lost on time.
//!
//! A running vacation writes nothing to its games: a game waiting on a player on vacation
//! keeps its stored deadline, which [`kept_by_running_vacation`] looks past, and when the
//! vacation ends each of the player's turns moves on by the time it stood still
//! ([`end_running`]). An automatic day is the opposite: spent whole at once, it moves the
//! deadlines of the games waiting on the player by a day and is written already ended.

use crate::domain::{GameId, PlayerId, Seat, TournamentId};
use crate::store::Conn;
use crate::store::rows::{self, GameRow, VacationRow};

use super::{DAY_MS, allowance};
use crate::events::{EventPayload, VacationEnded, VacationStarted};
use crate::games::game_state;
use crate::{ClockSpec, Emitter, Result};

/// How far a vacation may stop a game's clock for one of its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cover {
    /// Not at all: a short clock, no clock, or a tournament that forbids vacation.
    None,
    Unlimited,
    /// A tournament's cap: at most `left_ms` more of stopped clock for this player.
    UpTo {
        tournament: TournamentId,
        left_ms: i64,
    },
}

impl Cover {
    /// How much of `stopped_ms` this cover stops.
    fn limit(self, stopped_ms: i64) -> i64 {
        match self {
            Cover::None => 0,
            Cover::Unlimited => stopped_ms.max(0),
            Cover::UpTo { left_ms, .. } => stopped_ms.clamp(0, left_ms),
        }
    }
}

/// How far a vacation of `player` may stop the clock of active `game`.
pub(crate) fn cover(c: &Conn<'_>, game: &GameRow, player: PlayerId) -> Result<Cover> {
    if !game.status.is_active()
        || game_state::side_of(game, player).is_none()
        || !ClockSpec::from_row(&game.clock).stops_for_vacation()
    {
        return Ok(Cover::None);
    }
    let Some(tournament) = rows::tournament_of_game(c, game.id)? else {
        return Ok(Cover::Unlimited);
    };
    let Some(days) = rows::tournament_vacation_cap(c, tournament)? else {
        return Ok(Cover::Unlimited);
    };
    let used = rows::tournament_vacation_used(c, tournament, player)?;
    let left_ms = i64::from(days).saturating_mul(DAY_MS) - used;
    Ok(if left_ms > 0 {
        Cover::UpTo {
            tournament,
            left_ms,
        }
    } else {
        Cover::None
    })
}

/// The human to move in `game`, if any.
fn player_to_move(game: &GameRow) -> Option<PlayerId> {
    match game_state::seat(game, game.side_to_move) {
        Seat::Player(p) => Some(p),
        Seat::Ai(_) | Seat::Imported(_) => None,
    }
}

/// Whether `player` is waiting to move in `game` against a deadline.
fn waits_on(game: &GameRow, player: PlayerId) -> bool {
    game.deadline_at.is_some() && player_to_move(game) == Some(player)
}

/// How long `game`'s turn stood still by `now` for a vacation that started at `started_at`:
/// the part of the vacation since the turn began.
fn stopped_ms(game: &GameRow, started_at: i64, now: i64) -> i64 {
    (now - started_at.max(game.turn_started_at)).max(0)
}

/// Moves `game`'s deadline and turn start on by `by` (its clock stood still that long) and
/// writes it; a capped tournament counts it against the player.
fn shift(c: &Conn<'_>, game: &mut GameRow, player: PlayerId, cover: Cover, by: i64) -> Result<()> {
    if by <= 0 {
        return Ok(());
    }
    game.deadline_at = game.deadline_at.map(|d| d.saturating_add(by));
    game.turn_started_at = game.turn_started_at.saturating_add(by);
    rows::update_game(c, game)?;
    if let Cover::UpTo { tournament, .. } = cover {
        rows::add_tournament_vacation_used(c, tournament, player, by)?;
    }
    Ok(())
}

/// `player`'s active games a vacation protects, each with its cover.
pub(crate) fn protected_games(c: &Conn<'_>, player: PlayerId) -> Result<Vec<(GameRow, Cover)>> {
    let mut out = Vec::new();
    for game in rows::active_games_of(c, player)? {
        let cover = cover(c, &game, player)?;
        if cover != Cover::None {
            out.push((game, cover));
        }
    }
    Ok(out)
}

/// `player`'s active games with a clock that a vacation leaves running.
pub fn unprotected_games(c: &Conn<'_>, player: PlayerId) -> Result<Vec<GameId>> {
    let mut out = Vec::new();
    for game in rows::active_games_of(c, player)? {
        let timed = ClockSpec::from_row(&game.clock) != ClockSpec::Unlimited {};
        if timed && cover(c, &game, player)? == Cover::None {
            out.push(game.id);
        }
    }
    Ok(out)
}

/// Tells both players of each game `vacation` protects that it started.
pub(crate) fn announce_start(c: &Conn<'_>, e: &mut Emitter, vacation: &VacationRow) -> Result<()> {
    for (game, _) in protected_games(c, vacation.player_id)? {
        emit_started(c, e, &game, vacation)?;
    }
    Ok(())
}

fn emit_started(c: &Conn<'_>, e: &mut Emitter, game: &GameRow, v: &VacationRow) -> Result<()> {
    e.emit(
        c,
        Some(game.id),
        None,
        game_state::humans(game),
        EventPayload::VacationStarted(VacationStarted {
            player: v.player_id,
            until: v.ends_at,
            automatic: v.automatic,
            deadline_at: game.deadline_at,
            context: game.context.clone(),
        }),
    )
}

/// Ends running `vacation` at `at`: each game waiting on its player moves on by the time its
/// turn stood still (within a tournament's cap), both players of each protected game are told,
/// and the vacation costs the days begun. `current`, the game a move is being decided in, is
/// updated in place (it is written again with the move).
pub(crate) fn end_running(
    c: &Conn<'_>,
    e: &mut Emitter,
    vacation: &VacationRow,
    at: i64,
    mut current: Option<&mut GameRow>,
) -> Result<()> {
    let player = vacation.player_id;
    let days = allowance::days_spent(vacation.started_at, at, vacation.days);
    if !rows::end_vacation(c, vacation.id, at, days)? {
        return Ok(());
    }
    for (mut game, cover) in protected_games(c, player)? {
        let in_hand = current.as_deref_mut().filter(|g| g.id == game.id);
        let game = match in_hand {
            Some(row) => row,
            None => &mut game,
        };
        let by = if waits_on(game, player) {
            cover.limit(stopped_ms(game, vacation.started_at, at))
        } else {
            0
        };
        shift(c, game, player, cover, by)?;
        e.emit(
            c,
            Some(game.id),
            None,
            game_state::humans(game),
            EventPayload::VacationEnded(VacationEnded {
                player,
                stopped_ms: by,
                deadline_at: game.deadline_at,
                context: game.context.clone(),
            }),
        )?;
    }
    Ok(())
}

/// Whether `game`, whose deadline has passed, goes on anyway: its player to move is on a
/// vacation that stops its clock (within a tournament's cap), or has made a move in it and
/// has vacation days left, which are spent a day at a time until its deadline is ahead again. Writes any day spent
/// (and `game`, whose deadline it moved).
pub(crate) fn keeps_going(c: &Conn<'_>, e: &mut Emitter, game: &mut GameRow) -> Result<bool> {
    let per_year = e.vacation_days_per_year();
    let Some(player) = player_to_move(game) else {
        return Ok(false);
    };
    if kept_by_running_vacation(c, game, e.now())? {
        return Ok(true);
    }
    if rows::running_vacation(c, player)?.is_some() {
        // On vacation, but not covered here (any more): no day is spent on top.
        return Ok(false);
    }
    // A player who never moved is a no-show, aborted as before (plies alternate from the
    // first mover, so before ply 2 the side to move has not moved): no day is spent on them.
    if game.ply < 2 {
        return Ok(false);
    }
    while game.deadline_at.is_some_and(|d| d <= e.now()) {
        if !spend_a_day(c, e, game, player, per_year)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether a running vacation of the player to move stops `game`'s clock at `now`, so its
/// stored deadline (moved when the vacation ends) is not to be read as passed.
pub(crate) fn kept_by_running_vacation(c: &Conn<'_>, game: &GameRow, now: i64) -> Result<bool> {
    let (Some(player), Some(deadline)) = (player_to_move(game), game.deadline_at) else {
        return Ok(false);
    };
    let Some(vacation) = rows::running_vacation(c, player)? else {
        return Ok(false);
    };
    let cover = cover(c, game, player)?;
    Ok(cover != Cover::None
        && deadline.saturating_add(cover.limit(stopped_ms(game, vacation.started_at, now))) > now)
}

/// When the vacation of `game`'s player to move ends, if they are on one that stops its clock.
pub(crate) fn vacation_of_player_to_move(c: &Conn<'_>, game: &GameRow) -> Result<Option<i64>> {
    let Some(player) = player_to_move(game).filter(|_| game.deadline_at.is_some()) else {
        return Ok(None);
    };
    let Some(vacation) = rows::running_vacation(c, player)? else {
        return Ok(None);
    };
    Ok((cover(c, game, player)? != Cover::None).then_some(vacation.ends_at))
}

/// Spends one automatic vacation day of `player`, late in `late`: the deadlines of every game
/// waiting on them that vacation protects move on by a day (within tournament caps). Answers
/// false, spending nothing, when `late` is not protected or no day is left.
fn spend_a_day(
    c: &Conn<'_>,
    e: &mut Emitter,
    late: &mut GameRow,
    player: PlayerId,
    per_year: u32,
) -> Result<bool> {
    let now = e.now();
    if cover(c, late, player)? == Cover::None
        || allowance::balance(c, player, per_year, now)?.1 == 0
    {
        return Ok(false);
    }
    let mut day = VacationRow {
        id: 0,
        player_id: player,
        started_at: now,
        ends_at: now + DAY_MS,
        ended_at: Some(now + DAY_MS),
        days: 1,
        automatic: true,
    };
    day.id = rows::insert_vacation(c, &day)?;
    for (mut game, cover) in protected_games(c, player)? {
        let game = if game.id == late.id {
            &mut *late
        } else {
            &mut game
        };
        if !waits_on(game, player) {
            continue;
        }
        shift(c, game, player, cover, cover.limit(DAY_MS))?;
        emit_started(c, e, game, &day)?;
    }
    Ok(true)
}
