//! The tournaments facade: create, join, leave, start, read.

use super::entries::{EntryChange, emit_entry};
use super::format::Format;
use super::requests::{MAX_NAME_CHARS, MAX_PLAYERS, MAX_ROUND_DAYS, NewTournament};
use super::rounds::{self, current_standings, pairing_result};
use super::standings::crosstable;
use super::view::{
    CrosstableRow, PairingView, RoundView, StandingView, TournamentPlayerView, TournamentSummary,
    TournamentView,
};
use super::withdrawal_rule::{Counting, annuls_on_withdrawal, check_rule};
use crate::Emitter;
use crate::domain::{GameStatus, PlayerId, ResultReason, Seat, TournamentId, TournamentStatus};
use crate::games::challenges::resolve_rules;
use crate::games::game_state;
use crate::games::moves::finish;
use crate::store::Conn;
use crate::store::rows::{self, TournamentPlayerRow, TournamentRow};
use crate::{ClockSpec, GamesService, Missing, Result, ServiceError, TournamentVacation};

/// How many tournaments a list shows.
pub const TOURNAMENTS_PAGE_SIZE: u32 = 50;

/// The rating a player without one in the variant is seeded with (Glicko-2's start).
const UNRATED_SEED: i32 = 1500;

#[derive(Clone, Copy)]
pub struct Tournaments<'s> {
    pub service: &'s GamesService,
}

impl GamesService {
    /// Tournaments: formats, sign-up, rounds, standings.
    pub fn tournaments(&self) -> Tournaments<'_> {
        Tournaments { service: self }
    }
}

impl Tournaments<'_> {
    /// Creates a tournament in sign-up, organised by `organiser` (who does not join by it).
    pub async fn create(
        self,
        organiser: PlayerId,
        request: NewTournament,
    ) -> Result<TournamentView> {
        let name = checked_name(&request.name)?;
        let (variant, rules, _) = resolve_rules(&request.rules)?;
        let clock = request.clock.validate()?;
        let vacation = request.vacation.validate()?;
        check_rule(request.withdrawal, request.format)?;
        let withdrawal = request.withdrawal;
        let rated = match request.rated {
            Some(true) if variant.is_none() => {
                return Err(ServiceError::Invalid(
                    "tournaments on custom rules are never rated (only preset variants have \
                     ratings); leave rated out or set it to false"
                        .into(),
                ));
            }
            Some(rated) => rated,
            None => variant.is_some() && clock != (ClockSpec::Unlimited {}),
        };
        let (min, max) = (request.min_players, request.max_players);
        if min < 2 || max < min || max > MAX_PLAYERS {
            return Err(ServiceError::Invalid(format!(
                "players: the minimum must be at least 2 and the maximum between the minimum and \
                 {MAX_PLAYERS} (asked {min} to {max})"
            )));
        }
        if let Format::Swiss { rounds } = request.format
            && rounds == 0
        {
            return Err(ServiceError::Invalid(
                "a Swiss tournament needs at least one round".into(),
            ));
        }
        if let Some(days) = request.round_days
            && !(1..=MAX_ROUND_DAYS).contains(&days)
        {
            return Err(ServiceError::Invalid(format!(
                "round_days: rounds may start 1 to {MAX_ROUND_DAYS} days apart (asked {days})"
            )));
        }
        let round_days = request.round_days;
        let now = self.service.now_ms();
        if request.starts_at.is_some_and(|at| at <= now) {
            return Err(ServiceError::Invalid(
                "starts_at must be in the future".into(),
            ));
        }
        let format = serde_json::to_string(&request.format)
            .map_err(|e| ServiceError::internal(format!("format unwritable: {e}")))?;
        let clock_text = serde_json::to_string(&clock)
            .map_err(|e| ServiceError::internal(format!("clock unwritable: {e}")))?;
        let starts_at = request.starts_at;
        let id = self
            .service
            .commit(move |c, e| {
                let row = TournamentRow {
                    id: TournamentId(0),
                    name,
                    organiser,
                    format,
                    variant,
                    rules,
                    clock: clock_text,
                    rated,
                    min_players: min,
                    max_players: max,
                    starts_at,
                    status: TournamentStatus::SignUp,
                    round: 0,
                    winner: None,
                    created_at: e.now(),
                    started_at: None,
                    finished_at: None,
                    round_days,
                    withdrawal,
                };
                let id = rows::insert_tournament(c, &row)?;
                rows::set_tournament_vacation_cap(c, id, vacation.to_cap())?;
                Ok(id)
            })
            .await?;
        self.get(id).await
    }

    /// Signs `player` up.
    pub async fn join(self, player: PlayerId, id: TournamentId) -> Result<TournamentView> {
        self.service
            .commit(move |c, e| join_in(c, e, player, id))
            .await?;
        self.get(id).await
    }

    /// Takes `player` out: before the start they simply leave; once it runs they withdraw,
    /// their games in progress are resigned and their later pairings forfeited, and the
    /// tournament's withdrawal rule decides (now, once) whether all their games are annulled.
    pub async fn leave(self, player: PlayerId, id: TournamentId) -> Result<TournamentView> {
        self.service
            .commit(move |c, e| {
                let t = rounds::load(c, id)?;
                let not_in = || ServiceError::Conflict {
                    message: format!("you are not playing in tournament {id}"),
                    game: None,
                };
                match t.status {
                    TournamentStatus::SignUp => {
                        if !rows::delete_tournament_player(c, id, player)? {
                            return Err(not_in());
                        }
                        rows::delete_tournament_discord_place(c, id, player)?;
                        emit_entry(c, e, &t, player, EntryChange::Left)?;
                    }
                    TournamentStatus::Running => {
                        let annulled = annuls_on_withdrawal(
                            t.withdrawal,
                            rounds::stored_format(&t)?,
                            t.round,
                            player,
                            &rows::tournament_players(c, id)?,
                            &rows::tournament_games(c, id)?,
                        );
                        if !rows::withdraw_tournament_player(c, id, player, e.now(), annulled)? {
                            return Err(not_in());
                        }
                        emit_entry(c, e, &t, player, EntryChange::Withdrew)?;
                        for pairing in rows::tournament_games(c, id)? {
                            let Some(game) = pairing.game else { continue };
                            if pairing.status != Some(GameStatus::Active) {
                                continue;
                            }
                            let mut row = game_state::load(c, game)?;
                            let Some(side) = game_state::side_of(&row, player) else {
                                continue;
                            };
                            finish(
                                c,
                                e,
                                &mut row,
                                Some(side.opponent()),
                                ResultReason::Resignation,
                            )?;
                        }
                    }
                    TournamentStatus::Finished | TournamentStatus::Cancelled => {
                        return Err(closed(&t));
                    }
                }
                Ok(())
            })
            .await?;
        self.get(id).await
    }

    /// Starts the tournament now (its organiser only): round 1's games begin at once.
    pub async fn start(self, player: PlayerId, id: TournamentId) -> Result<TournamentView> {
        self.service
            .commit(move |c, e| {
                let mut t = rounds::load(c, id)?;
                if t.organiser != player {
                    return Err(ServiceError::Forbidden(format!(
                        "only the organiser of tournament {id} can start it"
                    )));
                }
                if t.status != TournamentStatus::SignUp {
                    return Err(closed(&t));
                }
                let count = rows::tournament_players(c, id)?.len();
                if count < t.min_players as usize {
                    return Err(ServiceError::Conflict {
                        message: format!(
                            "tournament {id} needs at least {} players to start; {count} joined",
                            t.min_players
                        ),
                        game: None,
                    });
                }
                rounds::stored_format(&t)?
                    .check(count)
                    .map_err(|e| ServiceError::Conflict {
                        message: e.to_string(),
                        game: None,
                    })?;
                rounds::start(c, e, &mut t)
            })
            .await?;
        self.get(id).await
    }

    /// Starts a tournament whose `starts_at` has come (the scheduler's pass), or cancels it
    /// when too few players joined; answers whether it did either (another instance may
    /// have been first).
    pub async fn start_when_due(self, id: TournamentId) -> Result<bool> {
        self.service
            .commit(move |c, e| {
                let mut t = rounds::load(c, id)?;
                let due = t.starts_at.is_some_and(|at| at <= e.now());
                if t.status != TournamentStatus::SignUp || !due {
                    return Ok(false);
                }
                let count = rows::tournament_players(c, id)?.len();
                let playable = rounds::stored_format(&t)?.check(count).is_ok();
                if count >= t.min_players as usize && playable {
                    rounds::start(c, e, &mut t)?;
                } else {
                    rounds::cancel(c, e, &mut t)?;
                }
                Ok(true)
            })
            .await
    }

    /// Starts the next round of a tournament whose rounds start at set times, when its time
    /// has come and the round before is done (the scheduler's pass); answers whether it did.
    pub async fn start_round_when_due(self, id: TournamentId) -> Result<bool> {
        self.service
            .commit(move |c, e| {
                let mut t = rounds::load(c, id)?;
                rounds::start_scheduled_round(c, e, &mut t)
            })
            .await
    }

    /// The tournament with its players, rounds and standings.
    pub async fn get(self, id: TournamentId) -> Result<TournamentView> {
        self.service.read(move |c| view(c, id)).await
    }

    /// The newest tournaments.
    pub async fn list(self) -> Result<Vec<TournamentSummary>> {
        self.service
            .read(|c| {
                rows::tournaments(c, TOURNAMENTS_PAGE_SIZE)?
                    .iter()
                    .map(|t| {
                        Ok(TournamentSummary {
                            id: t.id,
                            name: t.name.clone(),
                            format: rounds::stored_format(t)?.kind(),
                            variant: t.variant.clone(),
                            status: t.status,
                            round: t.round,
                            starts_at: t.starts_at,
                        })
                    })
                    .collect()
            })
            .await
    }
}

/// Signs `player` up to tournament `id`, in the caller's transaction.
pub(super) fn join_in(
    c: &Conn<'_>,
    e: &mut Emitter,
    player: PlayerId,
    id: TournamentId,
) -> Result<()> {
    let t = rounds::load(c, id)?;
    if t.status != TournamentStatus::SignUp {
        return Err(closed(&t));
    }
    let players = rows::tournament_players(c, id)?;
    if players.iter().any(|p| p.player == player) {
        return Err(ServiceError::Conflict {
            message: format!("you have already joined tournament {id}"),
            game: None,
        });
    }
    if players.len() >= t.max_players as usize {
        return Err(ServiceError::Conflict {
            message: format!("tournament {id} is full ({} players)", t.max_players),
            game: None,
        });
    }
    let seed_rating = match &t.variant {
        Some(pool) => {
            rows::rating(c, player, pool)?.map_or(UNRATED_SEED, |r| r.glicko.rating.round() as i32)
        }
        None => UNRATED_SEED,
    };
    rows::insert_tournament_player(
        c,
        id,
        TournamentPlayerRow {
            player,
            seed_rating,
            joined_at: e.now(),
            withdrawn_at: None,
            games_annulled: false,
        },
    )?;
    emit_entry(c, e, &t, player, EntryChange::Joined)
}

fn checked_name(name: &str) -> Result<String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(ServiceError::Invalid(format!(
            "a tournament's name must be 1 to {MAX_NAME_CHARS} characters"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ServiceError::Invalid(
            "a tournament's name cannot contain control characters".into(),
        ));
    }
    Ok(name.to_owned())
}

/// The refusal for a tournament past sign-up, in the player's terms.
fn closed(t: &TournamentRow) -> ServiceError {
    let state = match t.status {
        TournamentStatus::SignUp => "still in sign-up",
        TournamentStatus::Running => "already running",
        TournamentStatus::Finished => "over",
        TournamentStatus::Cancelled => "cancelled",
    };
    ServiceError::Conflict {
        message: format!("tournament {} is {state}", t.id),
        game: None,
    }
}

fn view(c: &Conn<'_>, id: TournamentId) -> Result<TournamentView> {
    let t = rows::tournament(c, id)?.ok_or(ServiceError::NotFound(Missing::Tournament(id)))?;
    let format = rounds::stored_format(&t)?;
    let players = rows::tournament_players(c, id)?;
    let games = rows::tournament_games(c, id)?;
    let byes = rows::tournament_byes(c, id)?;
    let table = current_standings(format, &players, &games, &byes);
    let counting = Counting::of(format, &players);
    let order: Vec<PlayerId> = table.iter().map(|s| s.player).collect();
    let cross = crosstable(&order, &rounds::scored_games(&counting.counted(&games)));
    let mut round_views: Vec<RoundView> = (1..=t.round)
        .map(|number| RoundView {
            number,
            games: Vec::new(),
            bye: byes.iter().find(|(r, _)| *r == number).map(|(_, p)| *p),
        })
        .collect();
    for g in &games {
        if let Some(round) = round_views.get_mut(g.round.saturating_sub(1) as usize) {
            round.games.push(PairingView {
                attackers: g.attackers,
                defenders: g.defenders,
                game_id: g.game,
                result: pairing_result(g),
                counted: counting.counts(g),
            });
        }
    }
    let player_views = rounds::seeded(&players)
        .into_iter()
        .filter_map(|p| players.iter().find(|row| row.player == p))
        .map(|row| {
            Ok(TournamentPlayerView {
                player: game_state::seat_view(c, Seat::Player(row.player))?,
                seed_rating: row.seed_rating,
                withdrawn: row.withdrawn_at.is_some(),
                games_annulled: row.games_annulled,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(TournamentView {
        id: t.id,
        name: t.name.clone(),
        organiser: game_state::seat_view(c, Seat::Player(t.organiser))?,
        format: format.kind(),
        planned_rounds: match (format, t.status) {
            (Format::Swiss { rounds }, _) => Some(rounds),
            (_, TournamentStatus::SignUp) => None,
            _ => format.planned_rounds(players.len()),
        },
        group_size: match format {
            Format::GroupsKnockout { group_size } => Some(group_size),
            _ => None,
        },
        variant: t.variant.clone(),
        rules: t.rules.clone(),
        clock: rounds::stored_clock(&t)?,
        vacation: TournamentVacation::from_cap(rows::tournament_vacation_cap(c, t.id)?),
        rated: t.rated,
        min_players: t.min_players,
        max_players: t.max_players,
        starts_at: t.starts_at,
        round_days: t.round_days,
        withdrawal: t.withdrawal,
        next_round_at: match t.status {
            TournamentStatus::Running => rounds::round_time(&t, t.round.saturating_add(1)),
            _ => None,
        },
        status: t.status,
        round: t.round,
        winner: t.winner,
        players: player_views,
        rounds: round_views,
        standings: table
            .iter()
            .map(|s| StandingView {
                rank: s.rank,
                player: s.player,
                points: s.points.as_f64(),
                played: s.played,
                wins: s.wins,
                draws: s.draws,
                losses: s.losses,
                byes: s.byes,
                sonneborn_berger: s.sonneborn_berger.as_f64(),
                buchholz: s.buchholz.as_f64(),
                direct_encounter: s.direct_encounter.as_f64(),
            })
            .collect(),
        crosstable: cross
            .players
            .iter()
            .zip(cross.cells)
            .map(|(&player, row)| CrosstableRow {
                player,
                against: row
                    .into_iter()
                    .map(|games| games.into_iter().map(|p| p.as_f64()).collect())
                    .collect(),
            })
            .collect(),
    })
}
