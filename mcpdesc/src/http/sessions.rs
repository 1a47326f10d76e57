//! Bounds on stateful sessions: a cap on how many are open, and a handshake
//! timeout that closes a session whose client never sends another message after
//! `initialize` (the shape of an `initialize` flood). The sessions counted are live
//! (rmcp holds their worker) and dormant ones (see [`super::hibernate`]).

use std::collections::HashSet;
use std::sync::{Arc, Mutex, Once, Weak};
use std::time::{Duration, Instant};

use rmcp::transport::streamable_http_server::session::SessionManager;
use tokio_util::sync::CancellationToken;

use super::dormant::{self, Hold};
use super::hibernate::{Manager, Schedule};

/// The default cap on open sessions.
pub const DEFAULT_MAX_SESSIONS: usize = 10_000;

/// The default cap on sessions still in their handshake (opened by `initialize`,
/// nothing heard since): what an `initialize` flood fills.
pub const DEFAULT_MAX_PENDING_SESSIONS: usize = 1_000;

/// The default time a new session has to send its next message (normally
/// `notifications/initialized`) after `initialize`.
pub const DEFAULT_INITIALIZE_TIMEOUT: Duration = Duration::from_secs(10);

/// The default time an idle session keeps its worker before it hibernates.
pub const DEFAULT_HIBERNATE_AFTER: Duration = Duration::from_secs(5);

/// The default time an idle session (live or dormant) stays open: rmcp's default.
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// The sessions of one endpoint.
pub(crate) struct Sessions {
    pub(crate) manager: Arc<Manager>,
    max: usize,
    max_pending: usize,
    handshake_timeout: Duration,
    /// Sessions opened whose client has sent nothing since `initialize`.
    pending: Mutex<HashSet<Arc<str>>>,
    /// When sessions hibernate, and the endpoint's shutdown (which ends the
    /// sweeper).
    hibernation: Option<(Schedule, CancellationToken)>,
    /// Starts the sweeper with the first session (inside the runtime that serves
    /// it: the endpoint may be built outside one).
    sweeper: Once,
}

impl Sessions {
    pub(crate) fn new(
        manager: Arc<Manager>,
        max: usize,
        max_pending: usize,
        handshake_timeout: Duration,
        hibernation: Option<(Schedule, CancellationToken)>,
    ) -> Sessions {
        Sessions {
            manager,
            max,
            max_pending,
            handshake_timeout,
            pending: Mutex::new(HashSet::new()),
            hibernation,
            sweeper: Once::new(),
        }
    }

    /// Whether a cap is reached (a new session must be refused): all sessions, or
    /// those still in their handshake. Requests racing past the check can open a
    /// few more than the cap, never unboundedly more.
    pub(crate) async fn full(&self) -> bool {
        let pending = self.pending.lock().expect("session set poisoned").len();
        pending >= self.max_pending || self.open().await >= self.max
    }

    /// How many sessions are open: live and dormant.
    pub(crate) async fn open(&self) -> usize {
        let asleep = self.manager.dormant.as_ref().map_or(0, |d| d.asleep());
        self.live().await + asleep
    }

    /// How many sessions hold a worker in rmcp.
    pub(crate) async fn live(&self) -> usize {
        self.manager.inner.sessions.read().await.len()
    }

    /// Whether session `id` is still in its handshake.
    pub(crate) fn pending(&self, id: &str) -> bool {
        self.pending
            .lock()
            .expect("session set poisoned")
            .contains(id)
    }

    /// Counts a request of `method` on session `id` in flight until the hold is
    /// dropped (with the answer's body), waking the session if it is dormant;
    /// `task` says `tasks::wire` rewrote the request (a task-augmented call). A
    /// request that makes the handler keep state pins the session live.
    pub(crate) async fn hold(&self, id: &str, method: Option<&str>, task: bool) -> Option<Hold> {
        let dormant = self.manager.dormant.as_ref()?;
        dormant.hold(id, dormant::pins(method, task)).await
    }

    /// Notes the session `id` just opened: closed unless its client speaks again
    /// within the handshake timeout.
    pub(crate) fn opened(self: &Arc<Self>, id: &str) {
        if let Some((schedule, stop)) = &self.hibernation {
            self.sweeper
                .call_once(|| spawn_sweeper(self, *schedule, stop.clone()));
        }
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
                // Not restorable either.
                if let Some(dormant) = &sessions.manager.dormant {
                    dormant.forget(&id);
                }
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

/// How long a session being hibernated may take to report its worker's end before
/// it is taken as dormant anyway.
const STUCK_AFTER: Duration = Duration::from_secs(30);

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
    let mut expired = Vec::new();
    let closing = dormant.sweep(
        Instant::now(),
        schedule.after,
        schedule.expire_after,
        STUCK_AFTER,
        |id| sessions.pending(id),
        &mut expired,
    );
    for id in expired {
        sessions.manager.ended(&id);
        if let Some(binding) = &sessions.manager.binding {
            binding.ended(&id).await;
        }
    }
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
