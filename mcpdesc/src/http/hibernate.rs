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
//! - [`Schedule`]: when the sweeper of the endpoint's sessions (`sessions.rs`)
//!   hibernates the idle sessions and drops the dormant ones idle past the session
//!   idle timeout.

use std::sync::Arc;
use std::time::Duration;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

use super::binding::Binding;
use super::dormant::Dormant;

/// rmcp's `LocalSessionManager`, told about hibernations.
pub(crate) struct Manager {
    pub(crate) inner: LocalSessionManager,
    /// The sessions' bookkeeping, when sessions hibernate.
    pub(crate) dormant: Option<Arc<Dormant>>,
    /// The sessions' records (stateful mode): told when a session ends here.
    pub(crate) binding: Option<Arc<Binding>>,
    /// Told when a session ends here (`mcp.server.session.duration`).
    #[cfg(feature = "telemetry")]
    pub(crate) telemetry: Option<crate::telemetry::Telemetry>,
}

impl Manager {
    /// Tells telemetry that session `id` ended.
    pub(crate) fn ended(&self, id: &str) {
        #[cfg(feature = "telemetry")]
        if let Some(telemetry) = &self.telemetry {
            telemetry.session_ended(id);
        }
        #[cfg(not(feature = "telemetry"))]
        let _ = id;
    }
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
        if let Some(binding) = &self.binding {
            binding.ended(id).await;
        }
        self.ended(id);
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
    pub(crate) fn period(&self) -> Duration {
        (self.after / 4).clamp(Duration::from_millis(10), Duration::from_secs(1))
    }
}
