//! Hibernation of idle sessions: an idle stateful session's rmcp worker (two tasks
//! and seven channels, about 119 KB) is closed, and only what rebuilds it is kept
//! ([`Dormant`]: its `initialize` parameters, well under 1 KB); its next request is
//! restored by rmcp from that state, transparently for the client.
//!
//! Two pieces:
//! - [`Manager`], rmcp's `LocalSessionManager` with one change: when rmcp's task
//!   of a session being hibernated reports its end (`close_session`), the session
//!   becomes dormant instead of ending. That report is what makes a restore safe:
//!   the task calls `close_session(id)` once its service loop has stopped, and
//!   that call must not reach a worker restored under the same id meanwhile, so a
//!   session is restorable only from then on.
//! - one sweeper task per endpoint ([`spawn_sweeper`]), which hibernates the idle
//!   sessions and drops the dormant ones idle past the session idle timeout.

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};
use tokio_util::sync::CancellationToken;

use super::dormant::Dormant;
use super::sessions::Sessions;

/// How long a session being hibernated may take to report its worker's end before
/// it is taken as dormant anyway.
const STUCK_AFTER: Duration = Duration::from_secs(30);

/// rmcp's `LocalSessionManager`, told about hibernations.
pub(crate) struct Manager {
    pub(crate) inner: LocalSessionManager,
    /// The sessions' bookkeeping, when sessions hibernate.
    pub(crate) dormant: Option<Arc<Dormant>>,
}

impl SessionManager for Manager {
    type Error = LocalSessionManagerError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        self.inner.create_session().await
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    /// Called by rmcp for a `DELETE`, and by a session's task when its service
    /// loop has ended: the end of a hibernation (the handle is gone already), or
    /// of the session.
    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        if let Some(dormant) = &self.dormant {
            if dormant.closed(id) {
                return Ok(());
            }
        }
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner.restore_session(id).await
    }

    fn event_store(&self) -> Option<Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}

/// When sessions hibernate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Schedule {
    /// Idle this long (nothing in flight), a session hibernates.
    pub(crate) after: Duration,
    /// Idle this long, a dormant session ends (rmcp's idle timeout of a live one).
    pub(crate) expire_after: Option<Duration>,
}

impl Schedule {
    /// How often the sweeper looks: a quarter of the hibernation delay, between
    /// 10 ms and 1 s (so a session hibernates at most a second late).
    fn period(&self) -> Duration {
        (self.after / 4).clamp(Duration::from_millis(10), Duration::from_secs(1))
    }
}

/// Starts the endpoint's sweeper: it runs until the endpoint is dropped or `stop`
/// (the endpoint's shutdown) is cancelled, which forgets the dormant sessions.
pub(crate) fn spawn_sweeper(sessions: &Arc<Sessions>, schedule: Schedule, stop: CancellationToken) {
    let sessions = Arc::downgrade(sessions);
    tokio::spawn(async move {
        loop {
            tokio::select! {
                _ = stop.cancelled() => {
                    if let Some(dormant) = sessions.upgrade().and_then(|s| s.manager.dormant.clone()) {
                        dormant.clear();
                    }
                    return;
                }
                _ = tokio::time::sleep(schedule.period()) => {}
            }
            if !sweep(&sessions, schedule).await {
                return;
            }
        }
    });
}

/// One look; `false` once the endpoint is gone.
async fn sweep(sessions: &Weak<Sessions>, schedule: Schedule) -> bool {
    let Some(sessions) = sessions.upgrade() else {
        return false;
    };
    let Some(dormant) = &sessions.manager.dormant else {
        return false;
    };
    let closing = dormant.sweep(
        Instant::now(),
        schedule.after,
        schedule.expire_after,
        STUCK_AFTER,
        |id| sessions.pending(id),
    );
    for id in closing {
        let handle = sessions.manager.inner.sessions.write().await.remove(&id);
        match handle {
            // The worker stops; its task reports the end (`Manager::close_session`).
            Some(handle) => {
                let _ = handle.close().await;
            }
            // Its worker had ended already, and with it the session.
            None => dormant.ended(&id),
        }
    }
    true
}
