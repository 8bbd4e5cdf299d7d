//! What taflbot's tests share, whichever crate they are in: a real PostgreSQL server of their own
//! ([`pg_server`]), a local SMTP server that keeps what it is sent ([`smtp_sink`]), what a
//! browser holds before it posts a signed-out form ([`signed_out_form`]), and [`eventually`],
//! the one way a test waits for something to happen.

mod eventually;
pub mod pg_server;
mod signed_out_form;
pub mod smtp_sink;

pub use eventually::eventually;
pub use signed_out_form::signed_out_form;
