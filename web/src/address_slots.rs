//! How many connections one address may hold open at once. The accept loop's global cap
//! (`http.max_connections`) alone lets one client take every place with connections that
//! never finish a request (a slow body, one byte at a time), and then nobody else is served.
//! With a cap per address, one address holds at most `http.max_connections_per_address`
//! places and everyone else keeps the rest.
//!
//! The address is the connection's own (what the server sees at accept time: no header has
//! been read yet), an IPv6 peer by its /64 as the rate limits count it. Connections from a
//! trusted proxy are not capped here: every client behind it shares its address, and the
//! proxy is the operator's to limit.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use super::rate_limit::client_key;

#[derive(Debug)]
pub struct AddressSlots {
    per_address: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// A connection's place; dropping it frees the place.
#[derive(Debug)]
pub struct AddressSlot {
    slots: Arc<AddressSlots>,
    key: IpAddr,
}

impl AddressSlots {
    pub fn new(per_address: usize) -> AddressSlots {
        AddressSlots {
            per_address: per_address.max(1),
            open: Mutex::default(),
        }
    }

    /// The counts are plain numbers, each change made whole under the lock: after a panic
    /// elsewhere they are still right, so a poisoned lock is taken as it is.
    fn open(&self) -> MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more connection from `peer`, unless it holds its share already.
    pub fn take(self: &Arc<Self>, peer: IpAddr) -> Option<AddressSlot> {
        let key = client_key(peer);
        let mut open = self.open();
        let held = open.entry(key).or_insert(0);
        if *held >= self.per_address {
            return None;
        }
        *held += 1;
        Some(AddressSlot {
            slots: Arc::clone(self),
            key,
        })
    }

    /// Connections `peer` holds now.
    #[cfg(test)]
    fn held(&self, peer: IpAddr) -> usize {
        self.open().get(&client_key(peer)).copied().unwrap_or(0)
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self.slots.open();
        if let Some(held) = open.get_mut(&self.key) {
            *held = held.saturating_sub(1);
            // Forgotten at zero: the map holds only addresses with connections open.
            if *held == 0 {
                open.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))
    }

    #[test]
    fn an_address_holds_its_share_and_no_more_and_gets_places_back() {
        let slots = Arc::new(AddressSlots::new(2));
        let a = slots.take(ip("203.0.113.7"));
        let b = slots.take(ip("203.0.113.7"));
        assert!(a.is_some() && b.is_some());
        assert!(
            slots.take(ip("203.0.113.7")).is_none(),
            "a third is refused"
        );
        assert!(
            slots.take(ip("203.0.113.8")).is_some(),
            "others have theirs"
        );
        // One /64 is one client.
        let v6 = slots.take(ip("2001:db8:1::1"));
        let v6b = slots.take(ip("2001:db8:1::2"));
        assert!(v6.is_some() && v6b.is_some());
        assert!(slots.take(ip("2001:db8:1::ffff")).is_none());
        drop(a);
        assert_eq!(slots.held(ip("203.0.113.7")), 1);
        assert!(slots.take(ip("203.0.113.7")).is_some());
        drop(b);
        assert_eq!(slots.open().len(), 1, "only the /64 still holds places");
    }
}
