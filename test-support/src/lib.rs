//! What taflbot's tests share, whichever crate they are in: a real PostgreSQL server of their own
//! ([`pg_server`]) and [`eventually`], the one way a test waits for something to happen.

mod eventually;
pub mod pg_server;

pub use eventually::eventually;
