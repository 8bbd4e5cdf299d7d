//! The AI the service uses by default.

use std::sync::Arc;

use crate::service::MovePicker;

/// The engine's AI, once it is part of the engine crate; until then none, so the service
/// refuses games against the AI rather than pretend.
pub fn default_picker() -> Option<Arc<dyn MovePicker>> {
    None
}
