//! Graceful shutdown of an MCP endpoint: refuse new work, let the requests in
//! flight and the running tasks finish (their SSE streams included), fail the
//! tasks still running at the deadline, then close the sessions.

use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Body, Frame, SizeHint};
use tokio_util::sync::CancellationToken;
use tokio_util::task::task_tracker::TaskTrackerToken;
use tokio_util::task::TaskTracker;

use super::body::HttpBody;
use crate::tasks::running::RunningTasks;

/// How long, past the grace period, the tasks failed at its end and the
/// `tasks/result` requests waiting for them get to record and answer it before the
/// sessions close (it is immediate: the handlers are dropped at once); a drain
/// that fails no task does not wait it.
const TASK_CUT_WAIT: Duration = Duration::from_secs(1);

/// The requests a draining endpoint still serves on an open session: they are
/// about tasks already accepted (their status, their result, their
/// cancellation), which a client could not learn otherwise.
const SERVED_WHILE_DRAINING: &[&str] = &["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"];

/// What a drain did ([`Drain::shutdown`], `BoundHttpServer::shutdown`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct DrainReport {
    /// Requests still running when the grace period ended, cut by the closing
    /// of their sessions.
    pub requests_cut: usize,
    /// MCP 2025-11-25 tasks (task-augmented `tools/call`) that were running
    /// during the drain and ended within the grace period (completed, failed or
    /// cancelled as usual).
    pub tasks_finished: u64,
    /// Tasks still running when the grace period ended: they ended `failed` with
    /// the status message "server shut down", and their handlers were dropped.
    pub tasks_failed: u64,
}

impl std::fmt::Display for DrainReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} request(s) cut, {} task(s) finished, {} task(s) failed (server shut down)",
            self.requests_cut, self.tasks_finished, self.tasks_failed
        )
    }
}

/// The drain switch of one MCP endpoint (`McpHttpService::drain` or
/// `BoundHttpServer::drain`); clones control the same endpoint.
///
/// [`Drain::shutdown`] makes the endpoint answer new requests `503 Service
/// Unavailable` (notifications and responses to the server's own requests still
/// pass, so a call in flight can be cancelled or answered; so do `tasks/get`,
/// `tasks/result`, `tasks/list` and `tasks/cancel`, so that a task's client can
/// follow it), waits until every request in flight has finished sending its
/// answer and every running MCP 2025-11-25 task has ended, at most `grace`; then
/// a task still running ends `failed` ("server shut down", so that a client
/// polling it sees a terminal status) and every session is closed, which ends
/// the requests still running and the standalone `GET` streams. A hyper or axum server around the endpoint can then
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
    /// The running tasks of the endpoint's sessions.
    tasks: RunningTasks,
}

impl Drain {
    pub(crate) fn new(sessions: CancellationToken, tasks: RunningTasks) -> Drain {
        Drain {
            draining: CancellationToken::new(),
            sessions,
            in_flight: TaskTracker::new(),
            tasks,
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

    /// Refuses new requests, waits for those in flight and for the running tasks
    /// (at most `grace`), fails the tasks still running (and lets the requests
    /// waiting for them answer, at most one second more), then closes every
    /// session. What it did: see [`DrainReport`].
    pub async fn shutdown(&self, grace: Duration) -> DrainReport {
        self.draining.cancel();
        self.in_flight.close();
        let (ended, failed) = (self.tasks.ended(), self.tasks.failed());
        let _ = tokio::time::timeout(grace, self.settled()).await;
        if self.tasks.len() > 0 {
            // The tasks fail at once; a `tasks/result` waiting for one answers
            // then, before its session closes.
            self.tasks.cut();
            let _ = tokio::time::timeout(TASK_CUT_WAIT, self.settled()).await;
        }
        let requests_cut = self.in_flight.len();
        self.sessions.cancel();
        let tasks_failed = self.tasks.failed() - failed;
        DrainReport {
            requests_cut,
            tasks_finished: (self.tasks.ended() - ended).saturating_sub(tasks_failed),
            tasks_failed,
        }
    }

    /// Waits until no request is in flight and no task runs at the same time: a
    /// task's end may answer a `tasks/result` in flight, and a request in flight
    /// may start a task.
    async fn settled(&self) {
        while !self.in_flight.is_empty() || self.tasks.len() > 0 {
            self.in_flight.wait().await;
            self.tasks.idle().await;
        }
    }

    /// Whether a request of `method` is still served while draining (see
    /// [`Drain`]).
    pub(crate) fn serves_while_draining(method: Option<&str>) -> bool {
        method.is_some_and(|m| SERVED_WHILE_DRAINING.contains(&m))
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
