//! Connecting: over a spawned server's stdio, any byte stream, or streamable HTTP
//! (feature `client-http`), with [`Options`] or the defaults.

use super::error::ConnectError;
use super::handshake;
use super::session::Options;
use super::session::Session;

/// Connects to a server started from `command`, with default [`Options`].
pub async fn stdio(command: tokio::process::Command) -> Result<Session, ConnectError> {
    Options::new().stdio(command).await
}

/// Connects to a streamable HTTP server at `url` (its MCP endpoint, such as
/// `http://127.0.0.1:8080/mcp`), with default [`Options`].
#[cfg(feature = "client-http")]
pub async fn http(url: &str) -> Result<Session, ConnectError> {
    Options::new().http(url).await
}

/// Without the `client-http` feature: a call is one error naming the feature (no
/// type meets `ClientHttpFeature`), where a
/// missing function would only say "cannot find function `http`".
///
/// Not an `async fn`: its future would carry `U`, and every use of it (the call, the
/// `.await`) would repeat the error; a plain future type keeps it to one.
#[cfg(not(feature = "client-http"))]
#[doc(hidden)]
pub fn http<U: crate::features::ClientHttpFeature>(
    url: U,
) -> std::future::Ready<Result<Session, ConnectError>> {
    url.unreachable()
}

impl Options {
    /// Spawns `command` and connects over its stdio. Its stdin, stdout (and, unless
    /// [`Options::inherit_stderr`], stderr) are replaced by pipes, and it is put in a
    /// new process group (Unix) so that the session can end everything it starts.
    pub async fn stdio(self, command: tokio::process::Command) -> Result<Session, ConnectError> {
        handshake::connect_stdio(self, command).await
    }

    /// Connects over a pair of byte streams speaking MCP's stdio framing (for a
    /// server on a socket, or in the same process over `tokio::io::duplex`).
    pub async fn io<R, W>(self, read: R, write: W) -> Result<Session, ConnectError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        handshake::connect_io(self, read, write, "the byte stream".to_owned(), None).await
    }

    /// Connects to a streamable HTTP server at `url`, its MCP endpoint (feature
    /// `client-http`; `https://` needs `client-https`).
    #[cfg(feature = "client-http")]
    pub async fn http(self, url: &str) -> Result<Session, ConnectError> {
        super::http::connect(self, url).await
    }

    /// Without the `client-http` feature: a call is one error naming the feature.
    #[cfg(not(feature = "client-http"))]
    #[doc(hidden)]
    pub fn http<U: crate::features::ClientHttpFeature>(
        self,
        url: U,
    ) -> std::future::Ready<Result<Session, ConnectError>> {
        url.unreachable()
    }
}
