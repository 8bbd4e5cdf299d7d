//! Every interaction answered in time. Discord fails a command or a click that is not
//! acknowledged within 3 seconds of the event, gateway delivery and the REST round trip
//! included; the work behind an answer (a database write, a thread created over REST, a PNG
//! rendered) may take longer. So each command and each click runs under one budget
//! (`discord.defer_after_ms`, 500 ms): if its answer is not out by then, the interaction is
//! acknowledged with a deferral, and the answer, when ready, edits or follows it.
//!
//! Every answer a handler gives goes through [`command`] (slash commands) or [`ClickAnswer`]
//! (buttons and select menus), which know whether the deferral went out: one lock per
//! interaction orders the deferral and the handler's first answer, so there is never a second
//! callback (Discord: 400 40060), and a private answer after a public deferral stays private.

mod budget;
pub mod command;
mod component;

pub use budget::within_budget;
pub use component::ClickAnswer;
