//! The fake's stand-in for `https://discord.com` and `wss://gateway.discord.gg`: a TLS listener
//! that serves the same REST routes, and the gateway at `/`, with a certificate for both hosts
//! made at start. The bot reaches it through an
//! HTTP client that resolves `discord.com` to this address and trusts this certificate
//! ([`taflbot::config::DiscordStandIn`]), so serenity runs with its rate limiter on, as
//! against Discord: it builds every request for `https://discord.com` then.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tower::ServiceExt;

/// The hosts the certificate is made for: the REST API's and the gateway's.
const DISCORD_HOSTS: [&str; 2] = ["discord.com", "gateway.discord.gg"];

/// A handshake that has not finished by then is dropped (a stuck client holds nothing).
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why the TLS stand-in could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot make the stand-in's certificate: {0}")]
    Certificate(#[from] rcgen::Error),
    #[error("cannot configure TLS: {0}")]
    Config(#[from] rustls::Error),
}

/// The certificate the stand-in presents, and the acceptor that presents it.
pub(crate) struct TlsIdentity {
    pub certificate_pem: String,
    acceptor: TlsAcceptor,
}

impl TlsIdentity {
    /// A new self-signed certificate for `discord.com` and `gateway.discord.gg`, and its key.
    pub fn new() -> Result<TlsIdentity, TlsError> {
        let made = rcgen::generate_simple_self_signed(DISCORD_HOSTS.map(str::to_owned).to_vec())?;
        let certificate_pem = made.cert.pem();
        let key = rustls::pki_types::PrivateKeyDer::Pkcs8(made.signing_key.serialize_der().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()?
            .with_no_client_auth()
            .with_single_cert(vec![made.cert.der().clone()], key)?;
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(TlsIdentity {
            certificate_pem,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        })
    }
}

/// Serves `app` over TLS on `listener` until the task is aborted.
pub(crate) async fn serve(listener: TcpListener, identity: Arc<TlsIdentity>, app: Router) {
    loop {
        let (stream, remote) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                tracing::warn!("fake Discord (TLS): accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let acceptor = identity.acceptor.clone();
        let app = app.clone();
        tokio::spawn(async move { serve_connection(stream, remote, acceptor, app).await });
    }
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    remote: SocketAddr,
    acceptor: TlsAcceptor,
    app: Router,
) {
    let stream = match tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await {
        Ok(Ok(stream)) => stream,
        Ok(Err(e)) => {
            tracing::info!(%remote, "fake Discord (TLS): handshake failed: {e}");
            return;
        }
        Err(_) => return,
    };
    let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
        app.clone().oneshot(request.map(axum::body::Body::new))
    });
    let builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    if let Err(e) = builder
        .serve_connection_with_upgrades(TokioIo::new(stream), service)
        .await
    {
        tracing::debug!(%remote, "fake Discord (TLS): connection ended: {e}");
    }
}
