//! Tournaments: round robin, double round robin, Swiss, and groups then knockout, on any
//! variant and correspondence clock.
//!
//! The pairing of each format ([`round_robin`], [`swiss`], [`groups`] and [`knockout`]), the scores
//! ([`points`]) and the standings with their tie-breaks and the crosstable ([`standings`])
//! are pure functions over players and results, tested against hand-worked tables. The
//! facade ([`Tournaments`]) keeps tournaments in the store: sign-up, the start, each round's
//! games made at once, the next round started in the transaction that ends the last game of
//! one ([`rounds`]), withdrawals under the organiser's rule ([`withdrawal_rule`]), and the view
//! every front end shows.

mod discord_places;
mod entries;
mod facade;
pub mod format;
pub mod groups;
pub mod knockout;
pub mod points;
mod requests;
pub mod round_plan;
pub mod round_robin;
pub mod rounds;
pub mod standings;
mod start_time;
pub mod swiss;
#[cfg(test)]
mod tests;
mod view;
mod withdrawal_rule;

pub use discord_places::DiscordJoinPlace;
pub(crate) use discord_places::news_channel;
pub use facade::{TOURNAMENTS_PAGE_SIZE, Tournaments};
pub use format::{Format, FormatError, FormatKind};
pub use groups::{GroupOutcome, Seed, group_outcome, seed_groups};
pub use points::{Points, score_text};
pub use requests::{MAX_NAME_CHARS, MAX_PLAYERS, MAX_ROUND_DAYS, NewTournament};
pub use round_plan::{Pairing, RoundPlan};
pub use standings::{
    Crosstable, GameScore, Quarters, ScoredGame, Standing, TieBreak, crosstable, standings,
};
pub use start_time::{StartTimeError, read_start_time, utc_minute_ms};
pub use swiss::{SwissEntrant, SwissError, pair_round};
pub use view::{
    CrosstableRow, PairingResult, PairingView, RoundView, StandingView, TournamentPlayerView,
    TournamentSummary, TournamentView,
};
pub use withdrawal_rule::WithdrawalRule;
