//! What the HTTP layer (`mcpdesc::http`) leaves in a request for the handler, in the
//! extensions of the request's `http::request::Parts`, which rmcp hands to the
//! handler in the request context's extensions: the mark of a server without
//! sessions ([`Stateless`]) and what the security gate verified
//! ([`RequestSecurity`]). The HTTP layer writes them; [`McpServer`] reads them. A
//! hand-written handler given to `HttpServer::with_handler` that delegates to an
//! `McpServer` passes the same context on, so the marks reach it too.
//!
//! A handler cannot tell the two modes apart from the request alone: `initialize`
//! names no session in either, and rmcp answers it through the handler in both. So
//! the HTTP layer marks each request of a stateless server (`HttpServer::stateless`),
//! and [`McpServer`] leaves out what no session would keep (MCP 2025-11-25 tasks).
//!
//! [`McpServer`]: super::mcp_server::McpServer

use std::sync::Arc;

use rmcp::service::RequestContext;
use rmcp::RoleServer;

use crate::auth;
#[cfg(feature = "http")]
use crate::auth::declaration::TransportChoice;
#[cfg(feature = "http")]
use crate::auth::principal::Authentication;

/// The mark itself: present in a request's `Parts` extensions when the server keeps
/// no session.
#[cfg(feature = "http")]
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stateless;

#[cfg(feature = "http")]
/// What the gate found out about a request, handed to the handler adapter in the
/// HTTP request's extensions (rmcp passes them on).
#[derive(Debug, Clone)]
pub(crate) struct RequestSecurity {
    pub(crate) authentication: Arc<Authentication>,
    pub(crate) choice: TransportChoice,
    /// Schemes whose authenticator could not decide on the request's credential.
    pub(crate) unavailable: Vec<String>,
}

/// The shared store a stateful request's session is kept in, left by the HTTP
/// layer when its store is shared (`HttpServer::shared_state`): where
/// [`McpServer`] writes the session's log level and resource subscriptions, and
/// reads them back when it restores the session on this instance.
///
/// [`McpServer`]: super::mcp_server::McpServer
#[cfg(feature = "http")]
#[derive(Clone)]
pub(crate) struct SessionKeeper {
    pub(crate) store: Arc<dyn crate::state::StateStore>,
    /// The session idle timeout: the record's time to live.
    pub(crate) ttl: Option<std::time::Duration>,
    /// What the restores of this endpoint read of their sessions' state.
    pub(crate) restored: Arc<RestoredStates>,
}

/// The log level and subscriptions of the sessions being restored, as the HTTP
/// layer read them from the store (rmcp's session-store load) for the replayed
/// `initialize` to apply: the record is read once per restore. Only sessions that
/// have either are kept, and not for long (bounded; taken at the replay).
#[cfg(feature = "http")]
#[derive(Debug, Default)]
pub(crate) struct RestoredStates(
    std::sync::Mutex<std::collections::HashMap<String, crate::state::SessionRecord>>,
);

#[cfg(feature = "http")]
impl RestoredStates {
    /// Past this many restores not replayed (failed ones), the table is cleared.
    const MAX: usize = 1_000;

    /// Keeps what `record` holds of session `id`'s state, when it holds any.
    pub(crate) fn put(&self, id: &str, record: &crate::state::SessionRecord) {
        if record.log_level.is_none() && record.subscriptions.is_empty() {
            return;
        }
        let mut table = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if table.len() >= Self::MAX {
            table.clear();
        }
        let kept = crate::state::SessionRecord {
            log_level: record.log_level.clone(),
            subscriptions: record.subscriptions.clone(),
            ..Default::default()
        };
        table.insert(id.to_owned(), kept);
    }

    /// What was kept of session `id`, taken out.
    pub(crate) fn take(&self, id: &str) -> Option<crate::state::SessionRecord> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(id)
    }
}

/// The id of the session an `initialize` opens, left by the HTTP layer's session
/// manager in the message's extensions when its store is shared (rmcp makes the id
/// after the request was read, so the request's `Parts` cannot carry it): what the
/// session's worker is known by in the internal session announcements
/// (`server/subscriptions.rs`).
#[cfg(feature = "http")]
#[derive(Debug, Clone)]
pub(crate) struct OpenedSession(pub(crate) String);

/// The store keeping the session of `context`, when the HTTP layer has a shared
/// one.
#[cfg(feature = "http")]
pub(super) fn session_keeper(context: &RequestContext<RoleServer>) -> Option<SessionKeeper> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    parts.extensions.get::<SessionKeeper>().cloned()
}

/// The id of the session of `context`: the `Mcp-Session-Id` the request names, or
/// the one an `initialize` opens ([`OpenedSession`]); and whether it names it (for
/// an `initialize`: a restore, replayed by rmcp).
#[cfg(feature = "http")]
pub(super) fn session_id(context: &RequestContext<RoleServer>) -> Option<(String, bool)> {
    let named = context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.headers.get("mcp-session-id"))
        .and_then(|v| v.to_str().ok());
    match named {
        Some(id) => Some((id.to_owned(), true)),
        None => context
            .extensions
            .get::<OpenedSession>()
            .map(|opened| (opened.0.clone(), false)),
    }
}

/// What `mcpdesc::http` verified for this request, passed on by rmcp in the HTTP
/// request's extensions.
#[cfg(feature = "http")]
pub(super) fn request_security(
    context: &RequestContext<RoleServer>,
) -> Option<(
    Arc<auth::principal::Authentication>,
    auth::declaration::TransportChoice,
)> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    let security = parts.extensions.get::<RequestSecurity>()?;
    Some((security.authentication.clone(), security.choice.clone()))
}

/// Whether `context` is a streamable HTTP request that no session follows: marked so
/// by `mcpdesc::http` ([`marked_stateless`]), or, from rmcp's own HTTP service,
/// naming no session (`Mcp-Session-Id`; of a stateful server's requests only
/// `initialize` names none, so [`McpServer::initialize`] asks the mark alone).
#[cfg(feature = "http")]
pub(crate) fn stateless_http(context: &RequestContext<RoleServer>) -> bool {
    marked_stateless(context)
        || context
            .extensions
            .get::<http::request::Parts>()
            .is_some_and(|parts| !parts.headers.contains_key("mcp-session-id"))
}

/// Whether `mcpdesc::http` marked `context` as a request to a server without
/// sessions (`http/stateless.rs`).
#[cfg(feature = "http")]
pub(super) fn marked_stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .extensions
        .get::<http::request::Parts>()
        .is_some_and(|parts| parts.extensions.get::<Stateless>().is_some())
}

/// Whether `mcpdesc::http` keeps this request's tasks in a shared store
/// (`shared_tasks.rs`): then tasks are served without sessions too.
#[cfg(feature = "http")]
pub(crate) fn shared_tasks(context: &RequestContext<RoleServer>) -> bool {
    context
        .extensions
        .get::<http::request::Parts>()
        .is_some_and(|parts| {
            parts
                .extensions
                .get::<super::shared_tasks::SharedTaskScope>()
                .is_some()
        })
}

#[cfg(not(feature = "http"))]
pub(crate) fn shared_tasks(_context: &RequestContext<RoleServer>) -> bool {
    false
}

#[cfg(not(feature = "http"))]
pub(crate) fn stateless_http(_context: &RequestContext<RoleServer>) -> bool {
    false
}

#[cfg(not(feature = "http"))]
pub(super) fn marked_stateless(_context: &RequestContext<RoleServer>) -> bool {
    false
}

#[cfg(not(feature = "http"))]
pub(super) fn request_security(
    _context: &RequestContext<RoleServer>,
) -> Option<(
    Arc<auth::principal::Authentication>,
    auth::declaration::TransportChoice,
)> {
    None
}
