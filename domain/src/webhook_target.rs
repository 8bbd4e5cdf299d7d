//! Where a webhook may be delivered. A webhook URL is chosen by any player, so without a check
//! it would let them make the server call into its own network (loopback, the LAN, the cloud
//! metadata service). A target must be `https` and every address its host resolves to must be
//! public, unless the operator lists it in `webhooks.allow_private`.
//!
//! The check runs at registration and again before every delivery, against the addresses the
//! host resolves to at that moment; the delivery then connects to exactly those addresses
//! (see `notify::webhooks`), so a name that answers differently the second time (DNS
//! rebinding) gains nothing.

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use ipnet::IpNet;
use reqwest::Url;

/// Longest wait for the system resolver.
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a webhook target is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("webhook url must be http or https, not {0}")]
    Scheme(String),
    #[error("webhook url has no host")]
    NoHost,
    #[error(
        "webhook url must be https (plain http only to a host listed in webhooks.allow_private)"
    )]
    HttpsRequired,
    #[error("webhook host {host} does not resolve: {reason}")]
    Unresolved { host: String, reason: String },
    #[error(
        "webhook host {host} resolves to {addr}, a {kind} address: webhooks may not reach the \
         server's own network (unless webhooks.allow_private lists it)"
    )]
    Forbidden {
        host: String,
        addr: IpAddr,
        kind: &'static str,
    },
}

/// An entry of `webhooks.allow_private` that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "webhooks.allow_private: {0:?} is not an address, a network (10.0.0.0/8) or a host name \
     with an optional port (hooks.internal:8443)"
)]
pub struct BadAllowEntry(pub String);

/// A host the operator trusts: `name` is a lower-case domain or an IP address as text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AllowedHost {
    name: String,
    port: Option<u16>,
}

/// The operator's exceptions: hosts (optionally one port of them) and networks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TargetPolicy {
    hosts: Vec<AllowedHost>,
    networks: Vec<IpNet>,
}

/// A target that passed the check: the addresses to connect to, and the domain they stand
/// for (absent when the URL names an address).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedTarget {
    pub domain: Option<String>,
    pub addrs: Vec<SocketAddr>,
}

impl TargetPolicy {
    /// Reads the entries of `webhooks.allow_private`: `127.0.0.1`, `10.0.0.0/8`, `fd00::/8`,
    /// `hooks.internal`, `hooks.internal:8443`, `[::1]:8443`.
    pub fn new(entries: &[String]) -> Result<TargetPolicy, BadAllowEntry> {
        let mut policy = TargetPolicy::default();
        for raw in entries {
            let entry = raw.trim();
            let bad = || BadAllowEntry(raw.clone());
            if let Ok(net) = entry.parse::<IpNet>() {
                policy.networks.push(net.trunc());
            } else if let Ok(ip) = entry.parse::<IpAddr>() {
                policy.networks.push(IpNet::from(ip));
            } else if let Ok(sa) = entry.parse::<SocketAddr>() {
                policy.hosts.push(AllowedHost {
                    name: sa.ip().to_string(),
                    port: Some(sa.port()),
                });
            } else {
                let (name, port) = match entry.rsplit_once(':') {
                    Some((name, port)) => (name, Some(port.parse::<u16>().map_err(|_| bad())?)),
                    None => (entry, None),
                };
                let name = normalise_domain(name);
                let valid = !name.is_empty()
                    && name
                        .chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '.');
                if !valid {
                    return Err(bad());
                }
                policy.hosts.push(AllowedHost { name, port });
            }
        }
        Ok(policy)
    }

    /// Checks `url` and resolves its host with `lookup` (the system resolver in production,
    /// a fake in tests). Refuses it unless every address is allowed.
    pub async fn check<F, Fut>(&self, url: &Url, lookup: F) -> Result<CheckedTarget, TargetError>
    where
        F: FnOnce(String, u16) -> Fut,
        Fut: Future<Output = io::Result<Vec<SocketAddr>>>,
    {
        let https = match url.scheme() {
            "https" => true,
            "http" => false,
            other => return Err(TargetError::Scheme(other.to_owned())),
        };
        let port = url.port_or_known_default().ok_or(TargetError::NoHost)?;
        let host = url.host_str().ok_or(TargetError::NoHost)?;
        // The URL parser has already normalised addresses; IPv6 ones come in brackets.
        let literal = host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .ok();
        let name = match literal {
            Some(ip) => ip.to_string(),
            None => normalise_domain(host),
        };
        let listed = self.lists_host(&name, port) || literal.is_some_and(|ip| self.lists_ip(ip));
        if let Some(ip) = literal {
            // No lookup: the address is the URL's own.
            if !listed {
                self.check_addr(&name, ip)?;
                if !https {
                    return Err(TargetError::HttpsRequired);
                }
            }
            return Ok(CheckedTarget {
                domain: None,
                addrs: vec![SocketAddr::new(ip, port)],
            });
        }
        if !https && !listed {
            return Err(TargetError::HttpsRequired);
        }
        let addrs = lookup(name.clone(), port)
            .await
            .map_err(|e| TargetError::Unresolved {
                host: name.clone(),
                reason: e.to_string(),
            })?;
        if addrs.is_empty() {
            return Err(TargetError::Unresolved {
                host: name,
                reason: "no address".into(),
            });
        }
        if !listed {
            for addr in &addrs {
                self.check_addr(&name, addr.ip())?;
            }
        }
        Ok(CheckedTarget {
            domain: Some(name),
            addrs,
        })
    }

    /// [`TargetPolicy::check`] with the system resolver.
    pub async fn check_with_system_resolver(
        &self,
        url: &Url,
    ) -> Result<CheckedTarget, TargetError> {
        self.check(url, system_lookup).await
    }

    fn check_addr(&self, host: &str, ip: IpAddr) -> Result<(), TargetError> {
        match forbidden_kind(ip) {
            Some(kind) if !self.lists_ip(ip) => Err(TargetError::Forbidden {
                host: host.to_owned(),
                addr: ip,
                kind,
            }),
            _ => Ok(()),
        }
    }

    fn lists_host(&self, name: &str, port: u16) -> bool {
        self.hosts
            .iter()
            .any(|h| h.name == name && h.port.is_none_or(|p| p == port))
    }

    fn lists_ip(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.networks.iter().any(|net| net.contains(&ip))
    }
}

/// The system resolver, bounded in time.
async fn system_lookup(host: String, port: u16) -> io::Result<Vec<SocketAddr>> {
    match tokio::time::timeout(
        LOOKUP_TIMEOUT,
        tokio::net::lookup_host((host.as_str(), port)),
    )
    .await
    {
        Ok(found) => Ok(found?.collect()),
        Err(_) => Err(io::Error::new(io::ErrorKind::TimedOut, "lookup timed out")),
    }
}

fn normalise_domain(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as the IPv4 address it reaches.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// What kind of address `ip` is, when it is not a public unicast one.
pub fn forbidden_kind(ip: IpAddr) -> Option<&'static str> {
    match canonical(ip) {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(match () {
        _ if a == 0 => "\"this network\" (0.0.0.0/8)",
        _ if ip.is_loopback() => "loopback",
        _ if ip.is_private() => "private (RFC 1918)",
        _ if a == 100 && (b & 0xc0) == 64 => "shared (CGNAT, 100.64.0.0/10)",
        _ if ip.is_link_local() => "link-local",
        _ if a == 192 && b == 0 && c == 0 => "IETF protocol (192.0.0.0/24)",
        _ if ip.is_documentation() => "documentation",
        _ if a == 198 && (b & 0xfe) == 18 => "benchmarking (198.18.0.0/15)",
        _ if ip.is_broadcast() => "broadcast",
        _ if ip.is_multicast() => "multicast",
        _ if a >= 240 => "reserved (240.0.0.0/4)",
        _ => return None,
    })
}

fn forbidden_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    let embedded_v4 = |hi: u16, lo: u16| {
        let [a, b] = hi.to_be_bytes();
        let [c, d] = lo.to_be_bytes();
        Ipv4Addr::new(a, b, c, d)
    };
    Some(match () {
        _ if ip.is_unspecified() => "unspecified",
        _ if ip.is_loopback() => "loopback",
        // ::a.b.c.d (deprecated IPv4-compatible form).
        _ if s[..6] == [0; 6] => "IPv4-compatible",
        _ if ip.is_multicast() => "multicast",
        _ if ip.is_unique_local() => "unique-local (fc00::/7)",
        _ if ip.is_unicast_link_local() => "link-local",
        _ if (s[0] & 0xffc0) == 0xfec0 => "site-local (fec0::/10)",
        _ if s[0] == 0x2001 && s[1] == 0x0db8 => "documentation",
        _ if s[..4] == [0x100, 0, 0, 0] => "discard-only (100::/64)",
        // Teredo hides an IPv4 address: refuse the whole prefix.
        _ if s[0] == 0x2001 && s[1] == 0 => "Teredo (2001::/32)",
        _ if s[..3] == [0x64, 0xff9b, 1] => "NAT64 local-use (64:ff9b:1::/48)",
        // NAT64 and 6to4 reach the IPv4 address they carry.
        _ if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] => return forbidden_v4(embedded_v4(s[6], s[7])),
        _ if s[0] == 0x2002 => return forbidden_v4(embedded_v4(s[1], s[2])),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "a failed unwrap is a failed test")]

    use super::*;

    fn policy(entries: &[&str]) -> TargetPolicy {
        TargetPolicy::new(&entries.iter().map(|e| (*e).to_owned()).collect::<Vec<_>>()).unwrap()
    }

    /// A resolver that answers `addrs` for every name.
    fn answering(
        addrs: &[&str],
    ) -> impl FnOnce(String, u16) -> std::future::Ready<io::Result<Vec<SocketAddr>>> {
        let ips: Vec<IpAddr> = addrs.iter().map(|a| a.parse().unwrap()).collect();
        move |_, port| {
            std::future::ready(Ok(ips
                .iter()
                .map(|ip| SocketAddr::new(*ip, port))
                .collect()))
        }
    }

    async fn check(
        p: &TargetPolicy,
        url: &str,
        addrs: &[&str],
    ) -> Result<CheckedTarget, TargetError> {
        p.check(&Url::parse(url).unwrap(), answering(addrs)).await
    }

    #[test]
    fn addresses_inside_the_network_are_forbidden_and_public_ones_are_not() {
        for (ip, kind) in [
            ("127.0.0.1", "loopback"),
            ("127.9.9.9", "loopback"),
            ("10.1.2.3", "private (RFC 1918)"),
            ("172.16.0.1", "private (RFC 1918)"),
            ("192.168.1.1", "private (RFC 1918)"),
            ("169.254.169.254", "link-local"),
            ("100.64.0.1", "shared (CGNAT, 100.64.0.0/10)"),
            ("100.127.255.255", "shared (CGNAT, 100.64.0.0/10)"),
            ("0.0.0.0", "\"this network\" (0.0.0.0/8)"),
            ("255.255.255.255", "broadcast"),
            ("224.0.0.1", "multicast"),
            ("240.0.0.1", "reserved (240.0.0.0/4)"),
            ("198.18.0.1", "benchmarking (198.18.0.0/15)"),
            ("::", "unspecified"),
            ("::1", "loopback"),
            ("fc00::1", "unique-local (fc00::/7)"),
            ("fd12:3456::1", "unique-local (fc00::/7)"),
            ("fe80::1", "link-local"),
            ("ff02::1", "multicast"),
            ("::ffff:127.0.0.1", "loopback"),
            ("::ffff:10.0.0.1", "private (RFC 1918)"),
            ("::127.0.0.1", "IPv4-compatible"),
            ("64:ff9b::a00:1", "private (RFC 1918)"),
            ("2002:7f00:1::", "loopback"),
            ("2001:db8::1", "documentation"),
        ] {
            assert_eq!(forbidden_kind(ip.parse().unwrap()), Some(kind), "{ip}");
        }
        for ip in [
            "1.1.1.1",
            "93.184.216.34",
            "100.128.0.1",
            "172.32.0.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
        ] {
            assert_eq!(forbidden_kind(ip.parse().unwrap()), None, "{ip}");
        }
    }

    #[test]
    fn allow_entries_are_addresses_networks_or_hosts() {
        let p = policy(&[
            "127.0.0.1",
            "10.0.0.0/8",
            "fd00::/8",
            "Hooks.Internal:8443",
            "lan-box",
            "[::1]:9000",
        ]);
        assert!(p.lists_ip("127.0.0.1".parse().unwrap()));
        assert!(p.lists_ip("::ffff:10.9.9.9".parse().unwrap()));
        assert!(p.lists_ip("fd00::5".parse().unwrap()));
        assert!(!p.lists_ip("127.0.0.2".parse().unwrap()));
        assert!(p.lists_host("hooks.internal", 8443));
        assert!(!p.lists_host("hooks.internal", 443));
        assert!(p.lists_host("lan-box", 80));
        assert!(p.lists_host("::1", 9000));
        for bad in ["", "host:port", "a b", "10.0.0.0/40", "http://x/"] {
            assert!(TargetPolicy::new(&[bad.to_owned()]).is_err(), "{bad:?}");
        }
    }

    #[tokio::test]
    async fn https_is_required_unless_the_host_is_listed() {
        let none = TargetPolicy::default();
        assert_eq!(
            check(&none, "http://example.com/", &["93.184.216.34"]).await,
            Err(TargetError::HttpsRequired)
        );
        assert_eq!(
            check(&none, "http://1.1.1.1/", &[]).await,
            Err(TargetError::HttpsRequired)
        );
        assert_eq!(
            check(&none, "ftp://example.com/", &[]).await,
            Err(TargetError::Scheme("ftp".into()))
        );
        let ok = check(&none, "https://example.com/x", &["93.184.216.34"]).await;
        assert_eq!(
            ok.unwrap().addrs,
            ["93.184.216.34:443".parse::<SocketAddr>().unwrap()]
        );
        let listed = policy(&["example.com"]);
        assert!(
            check(&listed, "http://example.com/", &["93.184.216.34"])
                .await
                .is_ok()
        );
        // A listed network does not license plain http to a name that resolves into it.
        let net = policy(&["10.0.0.0/8"]);
        assert_eq!(
            check(&net, "http://hooks.lan/", &["10.0.0.1"]).await,
            Err(TargetError::HttpsRequired)
        );
        assert!(
            check(&net, "https://hooks.lan/", &["10.0.0.1"])
                .await
                .is_ok()
        );
        assert!(check(&net, "http://10.0.0.1:8080/", &[]).await.is_ok());
    }

    #[tokio::test]
    async fn every_resolved_address_is_checked_and_named_when_refused() {
        let none = TargetPolicy::default();
        let err = check(
            &none,
            "https://rebind.test/",
            &["93.184.216.34", "127.0.0.1"],
        )
        .await
        .unwrap_err();
        assert_eq!(
            err,
            TargetError::Forbidden {
                host: "rebind.test".into(),
                addr: "127.0.0.1".parse().unwrap(),
                kind: "loopback"
            }
        );
        assert!(
            err.to_string()
                .contains("resolves to 127.0.0.1, a loopback address")
        );
        let err = check(&none, "https://[::1]/", &[]).await.unwrap_err();
        assert!(err.to_string().contains("::1, a loopback"), "{err}");
        let err = check(&none, "http://192.168.0.1/", &[]).await.unwrap_err();
        assert!(err.to_string().contains("private"), "{err}");
        // Each check asks the resolver afresh: a name that answered a public address at
        // registration and a private one now is refused now.
        assert!(
            check(&none, "https://rebind.test/", &["93.184.216.34"])
                .await
                .is_ok()
        );
        assert!(
            check(&none, "https://rebind.test/", &["169.254.169.254"])
                .await
                .is_err()
        );
        // Listed networks and hosts pass.
        let p = policy(&["127.0.0.0/8", "hooks.internal:8443"]);
        assert!(
            check(&p, "https://rebind.test/", &["127.0.0.1"])
                .await
                .is_ok()
        );
        assert!(
            check(&p, "http://hooks.internal:8443/", &["10.0.0.1"])
                .await
                .is_ok()
        );
        assert!(
            check(&p, "https://hooks.internal/", &["10.0.0.1"])
                .await
                .is_err()
        );
    }

    #[tokio::test]
    async fn a_name_that_does_not_resolve_is_refused() {
        let none = TargetPolicy::default();
        assert!(matches!(
            check(&none, "https://nothing.test/", &[]).await,
            Err(TargetError::Unresolved { .. })
        ));
        let failing = |_: String, _: u16| {
            std::future::ready(Err::<Vec<SocketAddr>, _>(io::Error::other("no such host")))
        };
        let err = none
            .check(&Url::parse("https://nothing.test/").unwrap(), failing)
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("does not resolve: no such host"),
            "{err}"
        );
    }
}
