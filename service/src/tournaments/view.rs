//! Tournaments as every front end shows them.

use serde::Serialize;
use utoipa::ToSchema;

use super::format::FormatKind;
use super::standings::GameScore;
use super::withdrawal_rule::WithdrawalRule;
use crate::domain::{GameId, PlayerId, TournamentId, TournamentStatus};
use crate::{ClockSpec, SeatView, TournamentVacation};

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TournamentView {
    pub id: TournamentId,
    pub name: String,
    pub organiser: SeatView,
    pub format: FormatKind,
    /// How many rounds it plays: a Swiss tournament's as asked, a round robin's once its
    /// players are known (at the start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_rounds: Option<u32>,
    /// The largest group of a groups-then-knockout tournament.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_size: Option<u32>,
    /// The preset variant, if the rules are one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The OpenTafl rules string every game is played on.
    pub rules: String,
    pub clock: ClockSpec,
    /// Whether vacation stops its games' clocks: `"allowed"`, `"forbidden"` or
    /// `{"max_days": N}`.
    pub vacation: TournamentVacation,
    pub rated: bool,
    pub min_players: u32,
    pub max_players: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<i64>,
    /// Rounds at set times: days between round starts (absent: each round as soon as the
    /// one before ends).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_days: Option<u32>,
    /// What a withdrawal does to the player's games: `forfeit`, `annul` or
    /// `annul_under_half`.
    pub withdrawal: WithdrawalRule,
    /// With `round_days`, while it runs: the earliest the next round starts (service clock,
    /// ms); it waits for the round before to be done too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_round_at: Option<i64>,
    pub status: TournamentStatus,
    /// The round being played; 0 before the start.
    pub round: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<PlayerId>,
    pub players: Vec<TournamentPlayerView>,
    pub rounds: Vec<RoundView>,
    /// The players ranked: a player withdrawn with their games annulled has no place.
    pub standings: Vec<StandingView>,
    /// Who scored what against whom, a row per player in the order of the standings, from
    /// the games that count.
    pub crosstable: Vec<CrosstableRow>,
}

/// One player's row of the crosstable: against each player of the standings, in their order,
/// the points scored in each game between them (two in a double round robin; none yet, or
/// against themselves, an empty list).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct CrosstableRow {
    pub player: PlayerId,
    pub against: Vec<Vec<f64>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TournamentPlayerView {
    pub player: SeatView,
    /// The rating that seeded the player (their rating in the variant at sign-up).
    pub seed_rating: i32,
    pub withdrawn: bool,
    /// Withdrawn under a rule that annulled their games: none of them count, and the player
    /// is not in the standings.
    pub games_annulled: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct RoundView {
    pub number: u32,
    pub games: Vec<PairingView>,
    /// Who sat the round out (an odd count), scoring a win.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bye: Option<PlayerId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct PairingView {
    pub attackers: PlayerId,
    pub defenders: PlayerId,
    /// Absent for a forfeit decided without a game (a player had withdrawn).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game_id: Option<GameId>,
    /// `attackers_won`, `defenders_won` or `draw` once decided; absent while played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<PairingResult>,
    /// Whether its result counts in the standings: false for a game of a player whose games
    /// were annulled when they withdrew.
    pub counted: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PairingResult {
    AttackersWon,
    DefendersWon,
    Draw,
    /// Both players had withdrawn: nobody scores.
    NotPlayed,
}

impl From<GameScore> for PairingResult {
    fn from(score: GameScore) -> PairingResult {
        match score {
            GameScore::AttackersWon => PairingResult::AttackersWon,
            GameScore::DefendersWon => PairingResult::DefendersWon,
            GameScore::Draw => PairingResult::Draw,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct StandingView {
    /// 1 for the leader; players level on points and every tie-break share a rank.
    pub rank: u32,
    pub player: PlayerId,
    pub points: f64,
    pub played: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    pub sonneborn_berger: f64,
    pub buchholz: f64,
    pub direct_encounter: f64,
}

/// A tournament in a list.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub format: FormatKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    pub status: TournamentStatus,
    pub round: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<i64>,
}
