//! The HTTP API end to end: the real app on port 0, a temporary database file, reqwest.

mod auth;
mod clocks;
mod common;
mod events;
mod games;
mod openapi;
