//! [`BoundHttpServer`]: a bound server, its routes (the Protected Resource
//! Metadata, the MCP endpoint, `404`), its drain and its shutdown.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use http::{Request, Response, StatusCode};
use hyper::body::Incoming;
use tokio_util::sync::CancellationToken;

use super::body::{self, HttpBody};
use super::drain::{Drain, DrainReport};
use super::listener::HttpListener;
use super::security::gate::Gate;
use super::service::McpHttpService;
use crate::protocol::error::Error;
use crate::protocol::futures::BoxFuture;

/// The routes of a [`BoundHttpServer`]: the metadata, the endpoint, `404`.
#[derive(Clone)]
struct Endpoint {
    service: McpHttpService,
    gate: Option<Arc<Gate>>,
    path: Arc<str>,
}

impl tower_service::Service<Request<Incoming>> for Endpoint {
    type Response = Response<HttpBody>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<Response<HttpBody>, Infallible>>;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<Incoming>) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            if let Some(gate) = &this.gate {
                if gate.is_metadata_path(request.uri().path()) {
                    return Ok(gate.metadata(request.method(), request.headers()));
                }
            }
            if request.uri().path() != &*this.path {
                return Ok(body::text(
                    StatusCode::NOT_FOUND,
                    format!("Not Found: the MCP endpoint is {}", this.path),
                ));
            }
            Ok(this.service.app.handle(request).await)
        })
    }
}

/// A bound server, ready to [`run`](BoundHttpServer::run). Clones share the
/// server: keep one to [`shutdown`](BoundHttpServer::shutdown) the one running.
#[derive(Clone)]
pub struct BoundHttpServer {
    /// Taken by `run`.
    listener: Arc<Mutex<Option<HttpListener>>>,
    local_addr: SocketAddr,
    endpoint: Endpoint,
    shutdown: CancellationToken,
    drain: Drain,
    /// Cancelled when `run` has returned.
    stopped: CancellationToken,
}

impl std::fmt::Debug for BoundHttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundHttpServer")
            .field("local_addr", &self.local_addr)
            .finish()
    }
}

impl BoundHttpServer {
    /// A server bound to `local_addr` by `listener`, serving `service` at `path`
    /// (and the gate's metadata routes).
    pub(super) fn new(
        listener: HttpListener,
        local_addr: SocketAddr,
        service: McpHttpService,
        gate: Option<Arc<Gate>>,
        path: Arc<str>,
        shutdown: CancellationToken,
    ) -> Self {
        let drain = service.drain();
        BoundHttpServer {
            listener: Arc::new(Mutex::new(Some(listener))),
            local_addr,
            endpoint: Endpoint {
                service,
                gate,
                path,
            },
            shutdown,
            drain,
            stopped: CancellationToken::new(),
        }
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The MCP endpoint, `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{}", self.local_addr, self.endpoint.path)
    }

    /// A token that stops the server at once (and closes its sessions, cutting
    /// the requests in flight) when cancelled; [`BoundHttpServer::shutdown`]
    /// drains first.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// The server's drain switch (see [`Drain`]).
    pub fn drain(&self) -> Drain {
        self.drain.clone()
    }

    /// How many sessions are open now (see [`McpHttpService::open_sessions`]).
    pub async fn open_sessions(&self) -> usize {
        self.endpoint.service.open_sessions().await
    }

    /// How many sessions hold a worker now (see [`McpHttpService::live_sessions`]).
    pub async fn live_sessions(&self) -> usize {
        self.endpoint.service.live_sessions().await
    }

    /// Stops gracefully: new requests get `503`, the requests in flight (their
    /// SSE streams included) and the running tasks finish for at most `grace`,
    /// then the tasks still running end `failed` and every session is closed,
    /// [`BoundHttpServer::run`] stops accepting and returns once its
    /// connections are closed. What the drain did: see [`DrainReport`].
    pub async fn shutdown(&self, grace: Duration) -> DrainReport {
        let cut = self.drain.shutdown(grace).await;
        self.shutdown.cancel();
        let running = self.listener.lock().expect("listener poisoned").is_none();
        if running {
            self.stopped.cancelled().await;
        }
        cut
    }

    /// Accepts connections until [`BoundHttpServer::shutdown_token`] is cancelled
    /// (or [`BoundHttpServer::shutdown`] has drained).
    pub async fn run(self) -> Result<(), Error> {
        let listener = self
            .listener
            .lock()
            .expect("listener poisoned")
            .take()
            .ok_or_else(|| Error::Http("the server is already running".into()))?;
        let shutdown = self.shutdown.clone();
        let outcome = listener
            .serve(
                self.endpoint.clone(),
                async move { shutdown.cancelled().await },
            )
            .await;
        self.stopped.cancel();
        outcome
    }
}
