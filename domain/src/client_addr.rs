//! Who a request came from when taflbot runs behind a reverse proxy (nginx, Caddy, a load
//! balancer): every connection then comes from the proxy, and the client's address is in the
//! `X-Forwarded-For` header the proxy appends to. That header is believed only from the
//! proxies the operator lists in `http.trusted_proxies`; anyone else could write any address
//! there and get a fresh allowance from each per-address limit.

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;
use ipnet::IpNet;

/// The address a request is counted against (per-address limits): the connection's, or the
/// client's as a trusted proxy reported it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// The network this client is counted by (see [`ClientNetwork`]).
    pub fn network(self) -> ClientNetwork {
        ClientNetwork::of(self.0)
    }
}

/// What per-address limits count a client by: an IPv4 address itself, an IPv6 address by its
/// /64 (one machine usually holds a whole /64, so its addresses are one client), an
/// IPv4-mapped IPv6 address as the IPv4 one. Written and read back as the address's text
/// (`203.0.113.7`, `2001:db8:1:2::`), which is how a shared count stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientNetwork(IpAddr);

impl ClientNetwork {
    /// The network `ip` belongs to (an address already a network's is its own).
    pub fn of(ip: IpAddr) -> ClientNetwork {
        ClientNetwork(match unmapped(ip) {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => {
                let mask = u128::MAX << 64;
                IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & mask))
            }
        })
    }

    /// The address that stands for the network.
    pub fn ip(self) -> IpAddr {
        self.0
    }
}

impl std::fmt::Display for ClientNetwork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for ClientNetwork {
    type Err = std::net::AddrParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.parse::<IpAddr>().map(ClientNetwork::of)
    }
}

/// The proxies whose `X-Forwarded-For` is believed; none by default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies {
    networks: Vec<IpNet>,
}

/// An entry of `http.trusted_proxies` that is neither an address nor a network.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "http.trusted_proxies: {0:?} is not an address or a network (e.g. \"127.0.0.1\", \"10.0.0.0/8\", \"fd00::/8\")"
)]
pub struct BadProxyEntry(pub String);

impl TrustedProxies {
    /// Reads the entries of `http.trusted_proxies`: addresses and networks.
    pub fn new(entries: &[String]) -> Result<TrustedProxies, BadProxyEntry> {
        let networks = entries
            .iter()
            .map(|raw| {
                let entry = raw.trim();
                entry
                    .parse::<IpNet>()
                    .map(|net| net.trunc())
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| BadProxyEntry(raw.clone()))
            })
            .collect::<Result<_, _>>()?;
        Ok(TrustedProxies { networks })
    }

    /// Whether `ip` is one of the trusted proxies.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = unmapped(ip);
        self.networks.iter().any(|net| net.contains(&ip))
    }

    /// The client of a request that came over a connection from `peer`: `peer` itself unless
    /// it is a trusted proxy; then, walking `X-Forwarded-For` from its end (each proxy appends
    /// the address it was reached from), the first address that is not a trusted proxy. An
    /// entry that is not an address stops the walk at the proxy that passed it on; a chain of
    /// trusted proxies only gives its first.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> ClientAddr {
        let peer = unmapped(peer);
        if !self.trusts(peer) {
            return ClientAddr(peer);
        }
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect();
        let mut client = peer;
        for hop in hops.iter().rev() {
            let Some(ip) = hop_address(hop) else {
                break;
            };
            client = ip;
            if !self.trusts(ip) {
                break;
            }
        }
        ClientAddr(client)
    }
}

/// An `X-Forwarded-For` entry: an address, or one with its port (`203.0.113.7:4711`,
/// `[2001:db8::1]:4711`), as some proxies write them.
fn hop_address(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .or_else(|_| hop.parse::<SocketAddr>().map(|sa| sa.ip()))
        .ok()
        .map(unmapped)
}

/// An IPv4 client reached over an IPv6 socket (`::ffff:203.0.113.7`) is that IPv4 client.
fn unmapped(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn proxies(entries: &[&str]) -> TrustedProxies {
        TrustedProxies::new(&entries.iter().map(|e| e.to_string()).collect::<Vec<_>>()).unwrap()
    }

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn the_header_counts_only_from_a_trusted_proxy() {
        let trusted = proxies(&["127.0.0.1", "10.0.0.0/8"]);
        let headers = forwarded(&["203.0.113.7"]);
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &headers),
            ClientAddr(ip("203.0.113.7"))
        );
        assert_eq!(
            trusted.client(ip("198.51.100.1"), &headers),
            ClientAddr(ip("198.51.100.1")),
            "a client that is not a proxy cannot name another address"
        );
        assert_eq!(
            TrustedProxies::default().client(ip("127.0.0.1"), &headers),
            ClientAddr(ip("127.0.0.1")),
            "no proxy is trusted by default"
        );
    }

    #[test]
    fn the_client_is_the_last_address_no_trusted_proxy_wrote() {
        let trusted = proxies(&["127.0.0.1", "10.0.0.0/8"]);
        // The client wrote the first two itself; the edge proxy 10.1.1.1 appended the
        // address it was reached from, then passed it to the local one.
        let headers = forwarded(&["1.1.1.1, 2.2.2.2", "203.0.113.7, 10.1.1.1"]);
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &headers),
            ClientAddr(ip("203.0.113.7"))
        );
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &forwarded(&["10.2.2.2, 10.1.1.1"])),
            ClientAddr(ip("10.2.2.2")),
            "a chain of trusted proxies gives its first"
        );
        assert_eq!(
            trusted.client(ip("127.0.0.1"), &HeaderMap::new()),
            ClientAddr(ip("127.0.0.1")),
            "without the header the proxy itself is the client"
        );
    }

    #[test]
    fn entries_with_ports_and_garbage() {
        let trusted = proxies(&["::1", "10.0.0.0/8"]);
        assert_eq!(
            trusted.client(ip("::1"), &forwarded(&["[2001:db8::1]:4711"])),
            ClientAddr(ip("2001:db8::1"))
        );
        assert_eq!(
            trusted.client(ip("::1"), &forwarded(&["203.0.113.7:4711"])),
            ClientAddr(ip("203.0.113.7"))
        );
        assert_eq!(
            trusted.client(ip("::1"), &forwarded(&["203.0.113.7, unknown, 10.1.1.1"])),
            ClientAddr(ip("10.1.1.1")),
            "the walk stops at the proxy that passed on what is not an address"
        );
        assert_eq!(
            trusted.client(ip("::ffff:10.0.0.5"), &forwarded(&["203.0.113.7"])),
            ClientAddr(ip("203.0.113.7")),
            "an IPv4 proxy reached over IPv6 is still trusted"
        );
    }

    #[test]
    fn entries_that_are_not_addresses_are_refused() {
        let bad = TrustedProxies::new(&["10.0.0.0/8".into(), "proxy.internal".into()]);
        assert_eq!(bad, Err(BadProxyEntry("proxy.internal".into())));
        assert!(
            bad.unwrap_err()
                .to_string()
                .starts_with("http.trusted_proxies: \"proxy.internal\" is not an address")
        );
        assert!(TrustedProxies::new(&["10.0.0.300".into()]).is_err());
    }
}
