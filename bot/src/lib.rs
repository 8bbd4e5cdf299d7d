//! taflbot: the application (command line, service, front ends).

pub mod cli;
pub mod discord;
