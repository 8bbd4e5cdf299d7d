//! A tournament's withdrawal rule ([`WithdrawalRule`]) applied: refused where the format cannot
//! honour it, decided once for a player when they withdraw (and kept, so later results never
//! change it), and the games and players the standings count because of it.
//!
//! Only where everyone meets everyone can a player's games be taken out: a Swiss tournament's
//! pairings already used every result, so its withdrawals are always forfeits. Groups then
//! knockout apply the rule to the group stage (the first, where every player has a group);
//! a withdrawal in a later stage (the knockout) forfeits, since those players came through
//! on results that are not taken back.

use std::collections::HashSet;

use super::format::Format;
use super::knockout::first_stage_rounds;
use super::round_robin;
use super::rounds::{seeded, seeds};
pub use crate::domain::WithdrawalRule;
use crate::domain::{GameStatus, PlayerId};
use crate::store::rows::{TournamentGameRow, TournamentPlayerRow};
use crate::{Result, ServiceError};

/// Refuses a rule the format cannot honour, in the organiser's terms.
pub(super) fn check_rule(rule: WithdrawalRule, format: Format) -> Result<()> {
    match (format, rule) {
        (Format::Swiss { .. }, WithdrawalRule::Annul | WithdrawalRule::AnnulUnderHalf) => {
            Err(ServiceError::Invalid(format!(
                "withdrawal: a Swiss tournament cannot annul a withdrawn player's games (its \
                 pairings already used their results), so \"{rule}\" is not offered for it; \
                 leave withdrawal out or say \"forfeit\""
            )))
        }
        _ => Ok(()),
    }
}

/// Whether `player`, withdrawing now in round `round`, has their games annulled under `rule`:
/// decided from the games they had finished by now (`games` is every pairing so far, read
/// before the game in progress is resigned).
pub(super) fn annuls_on_withdrawal(
    rule: WithdrawalRule,
    format: Format,
    round: u32,
    player: PlayerId,
    players: &[TournamentPlayerRow],
    games: &[TournamentGameRow],
) -> bool {
    let scheduled = match format {
        Format::Swiss { .. } => return false,
        Format::GroupsKnockout { group_size } => {
            let size = usize::try_from(group_size).unwrap_or(usize::MAX);
            if round > first_stage_rounds(&seeds(players), size) {
                return false;
            }
            super::groups::seed_groups(&seeds(players), size)
                .into_iter()
                .find(|g| g.contains(&player))
                .map_or(0, |g| games_of(player, &round_robin::double(&g)))
        }
        Format::RoundRobin => games_of(player, &round_robin::single(&seeded(players))),
        Format::DoubleRoundRobin => games_of(player, &round_robin::double(&seeded(players))),
    };
    match rule {
        WithdrawalRule::Forfeit => false,
        WithdrawalRule::Annul => true,
        WithdrawalRule::AnnulUnderHalf => finished_by(player, games) * 2 < scheduled,
    }
}

/// How many of the schedule's pairings are `player`'s.
fn games_of(player: PlayerId, schedule: &[super::RoundPlan]) -> usize {
    schedule
        .iter()
        .flat_map(|round| &round.pairings)
        .filter(|p| p.attackers == player || p.defenders == player)
        .count()
}

/// The games `player` has played to a result (a forfeit without a game, or a no-show, was
/// never played).
fn finished_by(player: PlayerId, games: &[TournamentGameRow]) -> usize {
    games
        .iter()
        .filter(|g| g.attackers == player || g.defenders == player)
        .filter(|g| g.game.is_some() && g.status == Some(GameStatus::Finished))
        .count()
}

/// Which games count and which players are ranked, after the withdrawals so far.
#[derive(Debug, Clone, Default)]
pub(super) struct Counting {
    /// Withdrawn with their games annulled.
    annulled: HashSet<PlayerId>,
    /// The last round their games are taken out of: the group stage's in groups then
    /// knockout, every round otherwise.
    through_round: u32,
}

impl Counting {
    pub(super) fn of(format: Format, players: &[TournamentPlayerRow]) -> Counting {
        let annulled: HashSet<PlayerId> = players
            .iter()
            .filter(|p| p.games_annulled)
            .map(|p| p.player)
            .collect();
        let through_round = match format {
            _ if annulled.is_empty() => 0,
            Format::GroupsKnockout { group_size } => first_stage_rounds(
                &seeds(players),
                usize::try_from(group_size).unwrap_or(usize::MAX),
            ),
            _ => u32::MAX,
        };
        Counting {
            annulled,
            through_round,
        }
    }

    /// Whether the pairing's result counts for anyone.
    pub(super) fn counts(&self, g: &TournamentGameRow) -> bool {
        g.round > self.through_round
            || !(self.annulled.contains(&g.attackers) || self.annulled.contains(&g.defenders))
    }

    /// The pairings whose results count.
    pub(super) fn counted(&self, games: &[TournamentGameRow]) -> Vec<TournamentGameRow> {
        games.iter().filter(|g| self.counts(g)).cloned().collect()
    }

    /// Whether `player` has a place in the standings.
    pub(super) fn ranks(&self, player: PlayerId) -> bool {
        !self.annulled.contains(&player)
    }

    /// The players without a place in the standings (their games annulled), by id.
    pub(super) fn unranked(&self) -> Vec<PlayerId> {
        let mut unranked: Vec<PlayerId> = self.annulled.iter().copied().collect();
        unranked.sort();
        unranked
    }
}
