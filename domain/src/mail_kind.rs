//! What a mail in the mail outbox is.

/// A mail to a player's address: `confirmation` (the link that confirms the address) or
/// `turns` (a turn notice: the games waiting for their move, several in one digest).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailKind {
    Confirmation,
    Turns,
}
