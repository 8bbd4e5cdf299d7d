//! A local stand-in for `discord.com` (the e2e tests' fake Discord): set by code, never by a
//! config file or variable, so no deployment can send its token elsewhere by mistake.
//!
//! serenity 0.12 builds every request for `https://discord.com` while its rate limiter is on
//! (a proxy base is honoured only with the limiter off). The supported way to keep the limiter
//! and still reach a local server is the HTTP client serenity is given: it resolves
//! `discord.com` to the stand-in's address and trusts the stand-in's certificate besides the
//! usual roots. Requests still name `discord.com`, so everything else stays as in production.

use std::net::SocketAddr;

/// Where requests for `discord.com` go instead of Discord.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscordStandIn {
    /// A TLS server that answers for `discord.com` (its port included).
    pub address: SocketAddr,
    /// The PEM certificate that server presents for `discord.com`, trusted as a root.
    pub certificate_pem: String,
}
