//! State shared by every command and button handler.

/// What the commands need to do their work; cloned cheaply into every handler.
#[derive(Debug, Clone, Default)]
pub struct Data {}

impl Data {
    pub fn new() -> Self {
        Data {}
    }
}
