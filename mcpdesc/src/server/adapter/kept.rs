//! What a session sets that outlives the instance serving it: its log level
//! (`logging/setLevel`) and its resource subscriptions, written to the shared store
//! the HTTP layer names ([`SessionKeeper`](super::http_marks::SessionKeeper)), and
//! read back when the session is restored on another instance (the replayed
//! `initialize`), so that a session subscribed on one instance and restored on
//! another still hears the updates (announced on any instance, `crate::state`).
//!
//! A session may have live workers on several instances at once: each change is
//! also announced to the others (`ChangeNotifier::session_changed`), which apply
//! it to their worker of the session (known by its id, given at `initialize`).
//!
//! Without a shared store (stdio, one instance) nothing is written: the session's
//! worker keeps both, as before.

use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};

use super::mcp_server::McpServer;
use crate::protocol::version::ProtocolVersion;
use crate::server::notifications::LogLevel;
#[cfg(feature = "http")]
use crate::server::subscriptions::{SESSION_LEVEL, SESSION_SUBSCRIBE, SESSION_UNSUBSCRIBE};

impl McpServer {
    /// Stores the session's new log level and tells the session's other workers; a
    /// store that cannot be reached fails the request (`-32603`), so the client
    /// knows to set it again.
    pub(super) async fn keep_log_level(
        &self,
        context: &RequestContext<RoleServer>,
        level: LogLevel,
    ) -> Result<(), ErrorData> {
        #[cfg(feature = "http")]
        if let (Some(keeper), Some((id, _))) = (
            super::http_marks::session_keeper(context),
            super::http_marks::session_id(context),
        ) {
            keeper
                .store
                .save_log_level(&id, level.as_str(), keeper.ttl)
                .await
                .map_err(unavailable)?;
            self.router
                .changes()
                .session_changed(SESSION_LEVEL, &id, level.as_str());
        }
        #[cfg(not(feature = "http"))]
        let _ = (context, level);
        Ok(())
    }

    /// Stores a `resources/subscribe` (`subscribed`) or `resources/unsubscribe` of
    /// `uri` and tells the session's other workers; a store that cannot be reached
    /// fails the request (`-32603`).
    pub(super) async fn keep_subscription(
        &self,
        context: &RequestContext<RoleServer>,
        uri: &str,
        subscribed: bool,
    ) -> Result<(), ErrorData> {
        #[cfg(feature = "http")]
        if let (Some(keeper), Some((id, _))) = (
            super::http_marks::session_keeper(context),
            super::http_marks::session_id(context),
        ) {
            keeper
                .store
                .save_subscription(&id, uri, subscribed, keeper.ttl)
                .await
                .map_err(unavailable)?;
            let method = match subscribed {
                true => SESSION_SUBSCRIBE,
                false => SESSION_UNSUBSCRIBE,
            };
            self.router.changes().session_changed(method, &id, uri);
        }
        #[cfg(not(feature = "http"))]
        let _ = (context, uri, subscribed);
        Ok(())
    }

    /// At `initialize`, with a shared store: the session's worker takes its id (for
    /// the session announcements); when rmcp replays the `initialize` to restore the
    /// session (it names it), the stored log level and subscriptions, which the
    /// restore read with the rest of the record, are applied.
    pub(super) async fn restore_kept(
        &self,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) {
        #[cfg(feature = "http")]
        if let (Some(keeper), Some((id, restored))) = (
            super::http_marks::session_keeper(context),
            super::http_marks::session_id(context),
        ) {
            let link = self.join(version, context);
            link.identify(&id);
            if !restored {
                return;
            }
            // Read by the restore a moment before (`http/shared.rs`).
            let Some(record) = keeper.restored.take(&id) else {
                return;
            };
            if let Some(level) = record.log_level.and_then(|l| l.parse::<LogLevel>().ok()) {
                link.set_level(level);
            }
            for uri in &record.subscriptions {
                link.subscribe(uri);
            }
        }
        #[cfg(not(feature = "http"))]
        let _ = (version, context);
    }
}

/// The answer to a request whose session state could not be stored.
#[cfg(feature = "http")]
fn unavailable(error: crate::state::StateError) -> ErrorData {
    tracing::warn!(%error, "mcpdesc: a session's state could not be stored");
    ErrorData::internal_error("the session state is unavailable, try again later", None)
}
