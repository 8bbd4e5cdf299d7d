//! The limits several instances on one database count together.

/// What a shared limit counts, per client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SharedLimit {
    /// A sign-in to the web client that was refused (a wrong token, a used link).
    SignInFailure,
    /// A registration (`POST /api/v1/players`).
    Registration,
}
