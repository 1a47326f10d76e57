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

use futures::future::Either;
use futures::{Stream, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, GetExtensions, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager, SessionRestoreMarker,
};

use super::binding::Binding;
use super::dormant::Dormant;
use super::events::resumes_standalone;
use super::relay::Relay;
use crate::server::adapter::http_marks::OpenedSession;

/// rmcp's `LocalSessionManager`, told about hibernations, and relaying a session's
/// messages between instances when the store is shared.
pub(crate) struct Manager {
    pub(crate) inner: Arc<LocalSessionManager>,
    /// The sessions' bookkeeping, when sessions hibernate.
    pub(crate) dormant: Option<Arc<Dormant>>,
    /// The sessions' records (stateful mode): told when a session ends here.
    pub(crate) binding: Option<Arc<Binding>>,
    /// The session messages' relays between instances (a shared store).
    pub(crate) relay: Option<Arc<Relay>>,
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
        // With a shared store, the handler of a session opened here learns its id
        // (`server/adapter/kept.rs`); a restore names it already.
        let mut message = message;
        let restoring = match &message {
            JsonRpcMessage::Request(request) => request
                .request
                .extensions()
                .get::<SessionRestoreMarker>()
                .is_some(),
            _ => true,
        };
        if !restoring && self.binding.as_ref().is_some_and(|b| b.shared()) {
            message.insert_extension(OpenedSession(id.to_string()));
        }
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
        if let Some(relay) = &self.relay {
            relay.forget(id);
        }
        self.ended(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let stream = self.inner.create_stream(id, message).await?;
        if let Some(relay) = &self.relay {
            relay.cover(&self.inner, id).await;
        }
        Ok(stream)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        match &self.relay {
            Some(relay) => {
                relay.client_message(id, &message).await;
                self.inner.accept_message(id, message).await?;
                relay.cover(&self.inner, id).await;
                Ok(())
            }
            None => self.inner.accept_message(id, message).await,
        }
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        match &self.relay {
            Some(relay) => Ok(Either::Left(
                relay
                    .listen(id, self.inner.create_standalone_stream(id))
                    .await?,
            )),
            None => Ok(Either::Right(
                self.inner.create_standalone_stream(id).await?,
            )),
        }
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let standalone = resumes_standalone(&last_event_id);
        match &self.relay {
            // The session's standalone stream, its events in the shared store: the
            // replay (finite: what every instance appended after the id), then the
            // live stream with what other instances relay.
            Some(relay) if standalone && self.inner.event_store().is_some() => {
                let replay = self.inner.resume(id, last_event_id).await?;
                let live = relay
                    .listen(id, self.inner.create_standalone_stream(id))
                    .await?;
                Ok(Either::Left(Either::Left(replay.chain(live))))
            }
            Some(relay) if standalone => Ok(Either::Left(Either::Right(
                relay
                    .listen(id, self.inner.resume(id, last_event_id))
                    .await?,
            ))),
            _ => Ok(Either::Right(self.inner.resume(id, last_event_id).await?)),
        }
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
