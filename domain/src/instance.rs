//! Which running `taflbot` this is, among the instances that share one database: the name its
//! claims on jobs carry (an AI turn, a webhook delivery, a Discord post).

use std::fmt;

/// This process's name among the instances: its process id and 8 random bytes, so two
/// instances (on one machine or many, or one restarted) never share one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct InstanceId(String);

impl InstanceId {
    /// A new name for this process.
    pub fn new() -> InstanceId {
        let mut bytes = [0u8; 8];
        // Without randomness the time stands in: instances still differ by process id.
        if getrandom::fill(&mut bytes).is_err() {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or_default();
            bytes = nanos.to_le_bytes();
        }
        InstanceId(format!("{}-{}", std::process::id(), hex::encode(bytes)))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for InstanceId {
    fn default() -> Self {
        InstanceId::new()
    }
}

impl fmt::Display for InstanceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
