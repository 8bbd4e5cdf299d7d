//! taflbot: the application.

pub mod ai_picker;
pub mod app;
pub mod cli;
pub mod config;
pub mod http;
pub mod notify;
pub mod service;
pub mod store;
