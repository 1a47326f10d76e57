//! Serving HTTP/1.1 connections for any tower service (an axum `Router`, an
//! [`McpHttpService`](super::service::McpHttpService)) with the connection bounds a public
//! server needs: a header read timeout, a cap on open connections, a head size
//! limit, and a graceful stop.

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http::{Request, Response};
use hyper::body::{Body, Incoming};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::peer::PeerAddr;
use crate::protocol::error::Error;

/// The default header read timeout: 10 s.
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The default cap on open connections: 4,096.
pub const DEFAULT_MAX_CONNECTIONS: usize = 4_096;

/// The default limit of a request's head (request line and headers): 32 KiB.
pub const DEFAULT_MAX_HEADER_BYTES: usize = 32 * 1024;

/// The bounds on the connections of one listener.
#[derive(Debug, Clone)]
pub struct ConnectionLimits {
    /// A client that has not sent a whole request head this long after it started
    /// one is disconnected. Default [`DEFAULT_HEADER_READ_TIMEOUT`].
    pub header_read_timeout: Duration,
    /// Connections open at once; past it new connections wait in the kernel's
    /// accept queue. Default [`DEFAULT_MAX_CONNECTIONS`].
    pub max_connections: usize,
    /// The largest request head; a larger one gets `431`. Default
    /// [`DEFAULT_MAX_HEADER_BYTES`].
    pub max_header_bytes: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_header_bytes: DEFAULT_MAX_HEADER_BYTES,
        }
    }
}

/// A bound TCP listener that serves HTTP/1.1 connections to a tower service within
/// [`ConnectionLimits`]: the way to serve an axum application that mounts
/// `HttpServer::into_router` (feature `axum`) with the same
/// connection bounds as `HttpServer::bind`.
///
/// ```no_run
/// # #[cfg(feature = "axum")]
/// # async fn f(
/// #     router: mcpdesc::Router,
/// #     sigterm: impl std::future::Future<Output = ()>,
/// # ) -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// use mcpdesc::http::{HttpListener, HttpServer};
///
/// let server = HttpServer::new(router);
/// let drain = server.drain();
/// let app = axum::Router::new()
///     .route("/healthz", axum::routing::get(|| async { "ok" }))
///     .merge(server.into_router()?);
/// let listener = HttpListener::bind("127.0.0.1:8080").await?;
/// listener
///     .serve(app, async move {
///         sigterm.await;
///         drain.shutdown(Duration::from_secs(30)).await;
///     })
///     .await?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct HttpListener {
    listener: TcpListener,
    local_addr: SocketAddr,
    limits: ConnectionLimits,
}

impl HttpListener {
    /// Binds `addr` with the default limits (port 0 picks a free port).
    pub async fn bind(addr: impl ToSocketAddrs) -> Result<HttpListener, Error> {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| Error::Http(format!("cannot listen: {e}")))?;
        HttpListener::from_tcp(listener)
    }

    /// Serves on a listener bound elsewhere.
    pub fn from_tcp(listener: TcpListener) -> Result<HttpListener, Error> {
        let local_addr = listener
            .local_addr()
            .map_err(|e| Error::Http(format!("cannot read the bound address: {e}")))?;
        Ok(HttpListener {
            listener,
            local_addr,
            limits: ConnectionLimits::default(),
        })
    }

    /// The bounds on its connections.
    pub fn limits(mut self, limits: ConnectionLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves `service` until `stop` completes, then stops accepting, asks every
    /// connection to close once its request in flight is answered, and returns when
    /// they all have. Run a [`Drain`](super::drain::Drain) inside `stop` so that the MCP
    /// requests in flight finish and the sessions' streams end first.
    pub async fn serve<S, B>(self, service: S, stop: impl Future<Output = ()>) -> Result<(), Error>
    where
        S: tower_service::Service<Request<Incoming>, Response = Response<B>, Error = Infallible>
            + Clone
            + Send
            + 'static,
        S::Future: Send + 'static,
        B: Body + Send + 'static,
        B::Data: Send,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let permits = Arc::new(Semaphore::new(self.limits.max_connections.max(1)));
        let closing = CancellationToken::new();
        let connections = TaskTracker::new();
        let mut stop = std::pin::pin!(stop);
        loop {
            let permit = tokio::select! {
                permit = permits.clone().acquire_owned() => permit.expect("never closed"),
                () = &mut stop => break,
            };
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                () = &mut stop => break,
            };
            let (stream, peer) = match accepted {
                Ok((stream, peer)) => (without_nagle(stream), PeerAddr(peer)),
                Err(e) => {
                    // Out of file descriptors and the like: wait, do not spin.
                    tracing::warn!(error = %e, "mcpdesc: accepting an HTTP connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let service = service.clone();
            let closing = closing.clone();
            let limits = self.limits.clone();
            connections.spawn(async move {
                let _permit = permit;
                let hyper_service =
                    hyper::service::service_fn(move |mut request: Request<Incoming>| {
                        request.extensions_mut().insert(peer);
                        let mut service = service.clone();
                        async move {
                            futures::future::poll_fn(|cx| service.poll_ready(cx)).await?;
                            service.call(request).await
                        }
                    });
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder
                    .timer(TokioTimer::new())
                    .header_read_timeout(limits.header_read_timeout)
                    .max_header_size(limits.max_header_bytes);
                let connection = builder.serve_connection(TokioIo::new(stream), hyper_service);
                let mut connection = std::pin::pin!(connection);
                tokio::select! {
                    _ = connection.as_mut() => return,
                    () = closing.cancelled() => {}
                }
                // Finish the request in flight, then close.
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            });
        }
        closing.cancel();
        connections.close();
        connections.wait().await;
        Ok(())
    }
}

/// `stream` with `TCP_NODELAY` set. An answer goes out in pieces (the SSE frames
/// of a streamable HTTP response); with Nagle's algorithm and the client's delayed
/// ACK each small write after the first waits about 40 ms for an ACK, capping
/// one-at-a-time calls at ~20 per second.
fn without_nagle(stream: TcpStream) -> TcpStream {
    if let Err(e) = stream.set_nodelay(true) {
        tracing::debug!(error = %e, "mcpdesc: cannot set TCP_NODELAY");
    }
    stream
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_accepted_connection_has_nagle_off() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (client, accepted) = tokio::join!(TcpStream::connect(address), listener.accept());
        let _client = client.unwrap();
        let (stream, _) = accepted.unwrap();
        assert!(!stream.nodelay().unwrap(), "a fresh socket has Nagle on");
        assert!(without_nagle(stream).nodelay().unwrap());
    }
}
