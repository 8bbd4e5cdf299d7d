//! The kinds of turn reminder the scheduler sends.

/// Why a player to move is reminded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ReminderKind {
    /// Their deadline is near (one of `games.reminders_before_secs`).
    Deadline,
    /// A game without a clock has waited on them for long (`games.inactivity_reminder_secs`).
    Inactivity,
}
