//! The relay's own connection to Discord's gateway (`wss://gateway.discord.gg`): TLS by rustls
//! on ring, trusting the webpki roots (Mozilla's root programme, built into the binary: the
//! host's certificate store is never read, so a container without one still connects).
//!
//! Tests reach a stand-in instead ([`crate::config::DiscordStandIn`], settable only in code):
//! every `wss://` connection then goes to the stand-in's address and trusts its certificate
//! alone. No configuration file or variable can set it, so a deployment can neither trust an
//! extra root nor send its token elsewhere.

use std::sync::Arc;

use tokio::net::TcpStream;
use tokio_rustls::rustls::pki_types::CertificateDer;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};
use tokio_tungstenite::tungstenite::Error as WsError;
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};

use crate::config::DiscordStandIn;

/// A connection to Discord's gateway (or to a plain `ws://` fake).
pub(super) type DiscordSocket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Why the relay cannot make its TLS settings.
#[derive(Debug, thiserror::Error)]
pub enum UpstreamTlsError {
    #[error("the stand-in's certificate is not PEM: {0}")]
    Certificate(#[from] rustls::pki_types::pem::Error),
    #[error("cannot configure TLS for the gateway: {0}")]
    Tls(#[from] rustls::Error),
}

/// How the relay reaches Discord's gateway: which roots it trusts, and where a stand-in is.
#[derive(Clone)]
pub(super) struct Upstream {
    tls: Arc<ClientConfig>,
    /// Where every `wss://` connection goes instead (tests).
    stand_in: Option<std::net::SocketAddr>,
}

impl Upstream {
    /// Discord's gateway with the webpki roots, or the stand-in with its certificate alone.
    pub(super) fn new(stand_in: Option<&DiscordStandIn>) -> Result<Upstream, UpstreamTlsError> {
        let mut roots = RootCertStore::empty();
        match stand_in {
            None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
            Some(stand_in) => {
                let certificate =
                    CertificateDer::from_pem_slice(stand_in.certificate_pem.as_bytes())?;
                roots.add(certificate)?;
            }
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth();
        Ok(Upstream {
            tls: Arc::new(tls),
            stand_in: stand_in.map(|s| s.address),
        })
    }

    /// Opens a WebSocket to `url` (`wss://` as Discord gives it; `ws://` for a local fake).
    pub(super) async fn connect(&self, url: &str) -> Result<DiscordSocket, WsError> {
        let connector = Some(Connector::Rustls(Arc::clone(&self.tls)));
        match self.stand_in {
            Some(address) if url.starts_with("wss://") => {
                let stream = TcpStream::connect(address).await?;
                let (socket, _) =
                    tokio_tungstenite::client_async_tls_with_config(url, stream, None, connector)
                        .await?;
                Ok(socket)
            }
            _ => {
                let (socket, _) =
                    tokio_tungstenite::connect_async_tls_with_config(url, None, true, connector)
                        .await?;
                Ok(socket)
            }
        }
    }
}
