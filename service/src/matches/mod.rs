//! Team matches: two teams (two Discord servers, or any two named lists of players), one
//! board per pair of players, each pair playing both sides, every game started at once; a
//! team scores the points its players score (a win 1, a draw ½), and the match ends with the
//! last game, won by the team with more points or drawn.
//!
//! The facade ([`TeamMatches`]) creates a match (started at once when both teams are named in
//! full, else in sign-up), seats players who join a team, starts it, and reads it; before the
//! start a player may leave and the organiser may call the match off ([`sign_up`]); the games
//! are opened as challenges' are (`open_game`) and the match is scored in the transaction that
//! ends its last game ([`play`]). A team of a Discord server has that server's channel: the
//! match's news and a copy of each of its games are posted there ([`discord_teams`]).

mod discord_teams;
mod facade;
pub mod play;
mod requests;
pub mod score;
mod sign_up;
mod view;

pub use discord_teams::DiscordTeamPlace;
pub(crate) use discord_teams::news_channel;
pub use facade::{MATCHES_PAGE_SIZE, TeamMatches};
pub use requests::{MAX_BOARDS, NewTeam, NewTeamMatch};
pub use sign_up::OPEN_TEAM;
pub use view::{BoardGameView, BoardView, TeamMatchSummary, TeamMatchView, TeamView};
