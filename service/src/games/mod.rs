//! Games: challenges and their answers, moves (one move path for every front end and both
//! backends), resign, draws and aborts, the AI's turns, clocks and the scheduler that ends
//! games on time, and reading games back (lists, boards, legal moves, records).

#[cfg(test)]
mod ai_task_tests;

mod actions;
pub mod ai;
pub mod challenges;
mod clock_text;
mod conditional_lines;
pub mod conditional_moves;
mod game_board;
pub mod game_ended;
pub(crate) mod game_state;
mod history;
pub(crate) mod move_check;
pub mod moves;
mod public_list;
mod queries;
mod rematch;
pub mod requests;
mod scheduler;
pub mod timing;

use super::GamesService;

pub use ai::MovePicker;
pub use clock_text::parse_clock_text;
pub use conditional_lines::ConditionalPlan;
pub use conditional_moves::{ConditionalMovesRequest, ConditionalMovesView};
pub use game_board::GameBoard;
pub use history::{GAMES_PAGE_SIZE, HistoryQuery};
pub use public_list::{PUBLIC_GAMES_LISTED, PublicGames};
pub use queries::{BoardResult, BoardSnapshot, VariantStart, render_board};
pub use requests::{
    DEFAULT_AI_LEVEL, DEFAULT_VARIANT, MoveRequest, NewChallenge, Opponent, RulesChoice,
    SideChoice, ai_level_schema, variant_path_schema, variant_schema,
};
pub use scheduler::SchedulerPass;
pub use timing::{ClockSpec, Shrink};

/// Playing and reading games: `service.games().play(...)`.
#[derive(Clone, Copy)]
pub struct Games<'s> {
    pub(super) service: &'s GamesService,
}

/// Challenges (to a player, open, to the AI), their answers, and rematches.
#[derive(Clone, Copy)]
pub struct Challenges<'s> {
    pub(super) service: &'s GamesService,
}

/// Time-driven work: games out of time, deadline and inactivity reminders, expired
/// challenges.
#[derive(Clone, Copy)]
pub struct Scheduler<'s> {
    pub(super) service: &'s GamesService,
}
