//! Bounds on stateful sessions: a cap on how many are open, and a handshake
//! timeout that closes a session whose client never sends another message after
//! `initialize` (the shape of an `initialize` flood).

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::SessionManager;

/// The default cap on open sessions.
pub const DEFAULT_MAX_SESSIONS: usize = 10_000;

/// The default cap on sessions still in their handshake (opened by `initialize`,
/// nothing heard since): what an `initialize` flood fills.
pub const DEFAULT_MAX_PENDING_SESSIONS: usize = 1_000;

/// The default time a new session has to send its next message (normally
/// `notifications/initialized`) after `initialize`.
pub const DEFAULT_INITIALIZE_TIMEOUT: Duration = Duration::from_secs(10);

/// The sessions of one endpoint.
pub(crate) struct Sessions {
    pub(crate) manager: Arc<LocalSessionManager>,
    max: usize,
    max_pending: usize,
    handshake_timeout: Duration,
    /// Sessions opened whose client has sent nothing since `initialize`.
    pending: Mutex<HashSet<Arc<str>>>,
}

impl Sessions {
    pub(crate) fn new(
        manager: Arc<LocalSessionManager>,
        max: usize,
        max_pending: usize,
        handshake_timeout: Duration,
    ) -> Sessions {
        Sessions {
            manager,
            max,
            max_pending,
            handshake_timeout,
            pending: Mutex::new(HashSet::new()),
        }
    }

    /// Whether a cap is reached (a new session must be refused): all sessions, or
    /// those still in their handshake. Requests racing past the check can open a
    /// few more than the cap, never unboundedly more.
    pub(crate) async fn full(&self) -> bool {
        let pending = self.pending.lock().expect("session set poisoned").len();
        pending >= self.max_pending || self.manager.sessions.read().await.len() >= self.max
    }

    /// How many sessions rmcp holds.
    pub(crate) async fn open(&self) -> usize {
        self.manager.sessions.read().await.len()
    }

    /// Notes the session `id` just opened: closed unless its client speaks again
    /// within the handshake timeout.
    pub(crate) fn opened(self: &Arc<Self>, id: &str) {
        let id: Arc<str> = Arc::from(id);
        self.pending
            .lock()
            .expect("session set poisoned")
            .insert(id.clone());
        let sessions = Arc::downgrade(self);
        let timeout = self.handshake_timeout;
        tokio::spawn(async move {
            tokio::time::sleep(timeout).await;
            let Some(sessions) = sessions.upgrade() else {
                return;
            };
            let silent = sessions
                .pending
                .lock()
                .expect("session set poisoned")
                .remove(&id);
            if silent {
                tracing::debug!("closing a session that did not complete its handshake");
                let _ = sessions.manager.close_session(&id).await;
            }
        });
    }

    /// Notes a message on session `id`.
    pub(crate) fn seen(&self, id: &str) {
        let mut pending = self.pending.lock().expect("session set poisoned");
        if !pending.is_empty() {
            pending.remove(id);
        }
    }
}
