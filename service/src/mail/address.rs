//! A mail address turn notices may go to, checked where a player gives it and before a
//! confirmation mail is counted or written. Only the form a mail server delivers to across the
//! internet is taken: `name@domain.tld`. RFC 5322 allows more (an address literal such as
//! `x@[127.0.0.1]`, a bare host `x@localhost`, a quoted name `"a b"@example.org`), and the mail
//! parser takes them, but none of them reaches a person's mailbox from here: an address literal
//! points the server's SMTP relay at a machine of the sender's choosing, a host without a dot is
//! a name on the server's own network, and each would spend one of the day's confirmation mails
//! on nothing.

use std::net::IpAddr;

use crate::ServiceError;

/// The longest address taken (RFC 5321's limit on a path).
const MAX_ADDRESS_CHARS: usize = 254;

/// An address a confirmation can be delivered to, as the mail server takes it (no display
/// name, no spaces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct MailAddress(String);

/// Why a text is not an address mail is sent to, in the player's words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum AddressRefusal {
    #[error("give a mail address")]
    Empty,
    #[error("{0:?} is not a mail address: too long")]
    TooLong(String),
    #[error("{0:?} is not a mail address: it holds spaces or control characters")]
    SpacesOrControls(String),
    #[error("{0:?} is not a mail address: write it as name@example.org")]
    Malformed(String),
    #[error(
        "{0:?} is not taken: mail goes to a domain name, not to a machine's address \
         (write it as name@example.org)"
    )]
    AddressLiteral(String),
    #[error("{0:?} is not taken: a quoted name before the @ is not delivered everywhere")]
    QuotedName(String),
    #[error(
        "{0:?} is not taken: after the @ comes no mail domain of the internet (one has a dot \
         and ends in a name: write it as name@example.org)"
    )]
    NoMailDomain(String),
}

impl From<AddressRefusal> for ServiceError {
    fn from(refusal: AddressRefusal) -> Self {
        ServiceError::Invalid(refusal.to_string())
    }
}

impl MailAddress {
    /// Reads an address a player gave (spaces around it are dropped).
    pub(super) fn parse(text: &str) -> Result<MailAddress, AddressRefusal> {
        let text = text.trim();
        let owned = || text.to_owned();
        if text.is_empty() {
            return Err(AddressRefusal::Empty);
        }
        if text.chars().count() > MAX_ADDRESS_CHARS {
            return Err(AddressRefusal::TooLong(owned()));
        }
        if text.chars().any(|c| c.is_control() || c.is_whitespace()) {
            return Err(AddressRefusal::SpacesOrControls(owned()));
        }
        // Judged on the text before the mail parser, which takes each of these forms.
        let (user, domain) = text
            .rsplit_once('@')
            .ok_or_else(|| AddressRefusal::Malformed(owned()))?;
        if domain.starts_with('[') || domain.parse::<IpAddr>().is_ok() {
            return Err(AddressRefusal::AddressLiteral(owned()));
        }
        if user.starts_with('"') {
            return Err(AddressRefusal::QuotedName(owned()));
        }
        // A mail domain has a dot, and its last label is a name, never a number (`x@10.1`
        // would be an address in a shorthand form).
        let top_level = domain.rsplit('.').next().unwrap_or_default();
        if !domain.contains('.') || top_level.chars().all(|c| c.is_ascii_digit()) {
            return Err(AddressRefusal::NoMailDomain(owned()));
        }
        let address: lettre::Address = text
            .parse()
            .map_err(|_| AddressRefusal::Malformed(owned()))?;
        Ok(MailAddress(address.to_string()))
    }

    pub(super) fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(text: &str) -> AddressRefusal {
        match MailAddress::parse(text) {
            Err(refusal) => refusal,
            Ok(address) => panic!("{text:?} was taken as {address:?}"),
        }
    }

    #[test]
    fn a_deliverable_address_is_taken_as_the_mail_server_writes_it() {
        assert_eq!(
            MailAddress::parse(" ada@example.org ").unwrap().as_str(),
            "ada@example.org"
        );
        assert_eq!(
            MailAddress::parse("ada.l+tafl@mail.example.co.uk")
                .unwrap()
                .as_str(),
            "ada.l+tafl@mail.example.co.uk"
        );
    }

    #[test]
    fn undeliverable_forms_are_refused_in_the_players_terms() {
        assert_eq!(refusal(""), AddressRefusal::Empty);
        assert!(matches!(refusal("ada"), AddressRefusal::Malformed(_)));
        assert!(matches!(
            refusal("ada@example.org\r\nBcc: x@y.z"),
            AddressRefusal::SpacesOrControls(_)
        ));
        assert!(matches!(
            refusal("Ada <ada@example.org>"),
            AddressRefusal::SpacesOrControls(_)
        ));
        assert!(matches!(
            refusal(&format!("{}@example.org", "a".repeat(300))),
            AddressRefusal::TooLong(_)
        ));
        for literal in [
            "x@[127.0.0.1]",
            "x@[IPv6:::1]",
            "x@[::1]",
            "x@127.0.0.1",
            "x@[example.org]",
        ] {
            assert_eq!(
                refusal(literal),
                AddressRefusal::AddressLiteral(literal.into()),
                "{literal}"
            );
        }
        assert_eq!(
            refusal("\"ada\"@example.org"),
            AddressRefusal::QuotedName("\"ada\"@example.org".into())
        );
        for host in ["x@localhost", "x@example", "x@10.1"] {
            assert_eq!(
                refusal(host),
                AddressRefusal::NoMailDomain(host.into()),
                "{host}"
            );
        }
        assert!(
            refusal("x@[127.0.0.1]").to_string().contains("domain name"),
            "the refusal says what is taken"
        );
    }
}
