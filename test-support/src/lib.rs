//! What taflbot's tests share, whichever crate they are in: a real PostgreSQL server of their own
//! ([`pg_server`]), a local SMTP server that keeps what it is sent ([`smtp_sink`]), and
//! [`eventually`], the one way a test waits for something to happen.

mod eventually;
pub mod pg_server;
pub mod smtp_sink;

pub use eventually::eventually;
