//! taflbot: the application.
pub mod discord;
