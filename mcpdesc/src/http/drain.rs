//! Graceful shutdown of an MCP endpoint: refuse new work, let the requests in
//! flight finish (their SSE streams included), then close the sessions.

use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use tokio_util::sync::CancellationToken;
use tokio_util::task::task_tracker::TaskTrackerToken;
use tokio_util::task::TaskTracker;

use super::body::HttpBody;

/// The drain switch of one MCP endpoint (`McpHttpService::drain` or
/// `BoundHttpServer::drain`); clones control the same endpoint.
///
/// [`Drain::shutdown`] makes the endpoint answer new requests `503 Service
/// Unavailable` (notifications and responses to the server's own requests still
/// pass, so a call in flight can be cancelled or answered), waits until every
/// request in flight has finished sending its answer, at most `grace`, and then
/// closes every session, which ends the requests still running and the
/// standalone `GET` streams. A hyper or axum server around the endpoint can then
/// finish its connections:
///
/// ```no_run
/// # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
/// use std::time::Duration;
/// let service = mcpdesc::http::HttpServer::new(router).into_service()?;
/// let drain = service.drain();
/// // ... mount `service` in an application and serve it, then on SIGTERM:
/// drain.shutdown(Duration::from_secs(30)).await;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Drain {
    /// Cancelled when draining starts.
    draining: CancellationToken,
    /// rmcp's token: cancelled, it closes every session.
    sessions: CancellationToken,
    /// The requests in flight.
    in_flight: TaskTracker,
}

impl Drain {
    pub(crate) fn new(sessions: CancellationToken) -> Drain {
        Drain {
            draining: CancellationToken::new(),
            sessions,
            in_flight: TaskTracker::new(),
        }
    }

    /// Whether [`Drain::shutdown`] has started.
    pub fn is_draining(&self) -> bool {
        self.draining.is_cancelled()
    }

    /// A token cancelled when draining starts.
    pub fn draining_token(&self) -> CancellationToken {
        self.draining.clone()
    }

    /// A token cancelled once the sessions are closed (the end of
    /// [`Drain::shutdown`]).
    pub fn closed_token(&self) -> CancellationToken {
        self.sessions.clone()
    }

    /// Refuses new requests, waits for those in flight (at most `grace`), then
    /// closes every session. Returns the number of requests still running when the
    /// grace period ended (0: all finished).
    pub async fn shutdown(&self, grace: Duration) -> usize {
        self.draining.cancel();
        self.in_flight.close();
        let _ = tokio::time::timeout(grace, self.in_flight.wait()).await;
        let left = self.in_flight.len();
        self.sessions.cancel();
        left
    }

    /// A mark held while one request is in flight.
    pub(crate) fn track(&self) -> TaskTrackerToken {
        self.in_flight.token()
    }
}

/// A response body that keeps its request counted as in flight until it ends or
/// is dropped.
pub(crate) struct Tracked {
    pub(crate) inner: HttpBody,
    pub(crate) _mark: TaskTrackerToken,
}

impl Body for Tracked {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
