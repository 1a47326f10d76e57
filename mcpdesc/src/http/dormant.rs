//! The sessions of one endpoint as this layer sees them, for hibernation: what
//! rebuilds each initialized session (its `initialize` parameters), when it was
//! last active, how many of its requests and streams are in flight, and whether it
//! is live (rmcp holds its worker), closing, or dormant (only this entry is left).
//!
//! It is rmcp's [`SessionStore`]: rmcp stores a session's state after its
//! handshake and, when a request names a session its manager does not hold, loads
//! it to start a fresh worker with the same id and replay the handshake. Loading
//! succeeds only for a dormant session, so a session closed for any other reason
//! (`DELETE`, the handshake or idle timeout, a worker that failed) still gets `404`.
//! The sweeper (`super::hibernate`) decides when a session goes dormant.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http::Response;
use http_body_util::BodyExt;
use hyper::body::{Body, Frame, SizeHint};
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};
use tokio::sync::watch;

use super::body::HttpBody;

/// How long a request waits for a session's worker to finish closing before it
/// looks again (the close normally takes well under a millisecond).
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// Where a session stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// rmcp holds its worker (or is restoring it for the request that woke it).
    Live,
    /// Its worker was told to close; rmcp's task for it has not finished yet.
    Closing,
    /// No worker: the next request restores it from this entry.
    Dormant,
}

/// One initialized session.
struct Entry {
    /// `SessionState` as JSON: a few hundred bytes, one allocation.
    state: Box<[u8]>,
    phase: Phase,
    /// The end of its last request or stream (or its handshake).
    last_active: Instant,
    /// Its requests and streams whose answer has not ended.
    in_flight: u32,
    /// Its handler keeps state a restore would lose: it never hibernates.
    pinned: bool,
}

/// The table, behind one lock.
#[derive(Default)]
struct Table {
    entries: HashMap<Arc<str>, Entry>,
    /// Entries closing or dormant.
    asleep: usize,
}

/// The hibernation bookkeeping of one endpoint.
pub(crate) struct Dormant {
    table: Mutex<Table>,
    /// Bumped when a closing session becomes dormant: wakes the requests waiting
    /// for it.
    woken: watch::Sender<()>,
}

impl Dormant {
    pub(crate) fn new() -> Dormant {
        Dormant {
            table: Mutex::new(Table::default()),
            woken: watch::Sender::new(()),
        }
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many sessions are closing or dormant (not holding a worker).
    pub(crate) fn asleep(&self) -> usize {
        self.table().asleep
    }

    /// Counts a request on session `id` as in flight until the returned hold is
    /// dropped; `pins` marks the session as never hibernating. Waits while the
    /// session's worker is closing, so that rmcp sees it either live or dormant.
    /// `None` when this layer does not know the session (rmcp answers `404`, or it
    /// is still in its `initialize`).
    pub(crate) async fn hold(self: &Arc<Self>, id: &str, pins: bool) -> Option<Hold> {
        loop {
            // Subscribed before the look, so a wake-up after it is not missed.
            let mut woken = self.woken.subscribe();
            {
                let mut table = self.table();
                let (key, entry) = table.entries.get_key_value(id)?;
                if entry.phase != Phase::Closing {
                    // The table's own key: no allocation per request.
                    let id = key.clone();
                    let entry = table.entries.get_mut(&id)?;
                    entry.in_flight += 1;
                    entry.pinned |= pins;
                    return Some(Hold {
                        dormant: self.clone(),
                        id,
                    });
                }
            }
            let _ = tokio::time::timeout(CLOSE_WAIT, woken.changed()).await;
        }
    }

    /// Marks for hibernation every live session that is not pinned, has nothing in
    /// flight, has been idle for `after` and is not `excluded` (still in its
    /// handshake): they are `Closing` when this returns, and their ids are
    /// returned. Also drops the dormant sessions idle past `expire_after` (the
    /// idle timeout of a live one; their ids go to `expired`), and wakes sessions
    /// stuck closing for `stuck_after` (a worker task that never reported its end).
    pub(crate) fn sweep(
        &self,
        now: Instant,
        after: Duration,
        expire_after: Option<Duration>,
        stuck_after: Duration,
        excluded: impl Fn(&str) -> bool,
        expired_ids: &mut Vec<Arc<str>>,
    ) -> Vec<Arc<str>> {
        let mut table = self.table();
        let mut closing = Vec::new();
        let mut expired = 0;
        let mut unstuck = false;
        table.entries.retain(|id, entry| {
            let idle = now.saturating_duration_since(entry.last_active);
            match entry.phase {
                Phase::Live => {
                    if !entry.pinned && entry.in_flight == 0 && idle >= after && !excluded(id) {
                        entry.phase = Phase::Closing;
                        closing.push(id.clone());
                    }
                    true
                }
                Phase::Dormant => {
                    let keep = expire_after.is_none_or(|limit| idle < limit);
                    if !keep {
                        expired += 1;
                        expired_ids.push(id.clone());
                    }
                    keep
                }
                Phase::Closing => {
                    if idle >= after + stuck_after {
                        tracing::warn!("a hibernating session's worker did not report its end");
                        entry.phase = Phase::Dormant;
                        unstuck = true;
                    }
                    true
                }
            }
        });
        table.asleep += closing.len();
        table.asleep -= expired;
        drop(table);
        if unstuck {
            self.woken.send_replace(());
        }
        closing
    }

    /// rmcp closed session `id` (its worker task ended, or a `DELETE`). A session
    /// this layer was closing is dormant now; any other has ended for good.
    /// Returns whether it was a hibernation.
    pub(crate) fn closed(&self, id: &str) -> bool {
        let mut table = self.table();
        let hibernated = match table.entries.get_mut(id) {
            Some(entry) if entry.phase == Phase::Closing => {
                entry.phase = Phase::Dormant;
                true
            }
            Some(_) => {
                remove(&mut table, id);
                false
            }
            None => false,
        };
        drop(table);
        if hibernated {
            self.woken.send_replace(());
        }
        hibernated
    }

    /// Session `id`, marked for hibernation, had no worker left: it ended.
    pub(crate) fn ended(&self, id: &str) {
        remove(&mut self.table(), id);
        self.woken.send_replace(());
    }

    /// Forgets session `id` (closed by this layer: the handshake timeout).
    pub(crate) fn forget(&self, id: &str) {
        remove(&mut self.table(), id);
    }

    /// Forgets every session (the endpoint shut down).
    pub(crate) fn clear(&self) {
        *self.table() = Table::default();
        self.woken.send_replace(());
    }

    fn released(&self, id: &str) {
        let mut table = self.table();
        if let Some(entry) = table.entries.get_mut(id) {
            entry.in_flight = entry.in_flight.saturating_sub(1);
            entry.last_active = Instant::now();
        }
    }
}

fn remove(table: &mut Table, id: &str) {
    if let Some(entry) = table.entries.remove(id) {
        if entry.phase != Phase::Live {
            table.asleep -= 1;
        }
    }
}

/// Whether a request of `method` makes its session keep state in its handler that
/// a restore would lose (see `struct Session` in `server/adapter/mcp_server.rs`): its log level,
/// its resource subscriptions, its tasks. `task` says the request is a
/// task-augmented `tools/call` (or another request `tasks::wire` rewrote).
pub(crate) fn pins(method: Option<&str>, task: bool) -> bool {
    task || matches!(method, Some("logging/setLevel" | "resources/subscribe"))
        || method.is_some_and(|m| m.starts_with("tasks/"))
}

#[async_trait::async_trait]
impl SessionStore for Dormant {
    /// The state of a dormant session, which is live again from here on (rmcp
    /// restores it right after). Nothing for any other: rmcp answers `404`.
    async fn load(&self, id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let mut table = self.table();
        let Some(entry) = table.entries.get_mut(id) else {
            return Ok(None);
        };
        if entry.phase != Phase::Dormant {
            return Ok(None);
        }
        let state = serde_json::from_slice(&entry.state)?;
        entry.phase = Phase::Live;
        entry.last_active = Instant::now();
        table.asleep -= 1;
        Ok(Some(state))
    }

    /// A session that completed its `initialize`: live.
    async fn store(&self, id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let state = serde_json::to_vec(state)?.into_boxed_slice();
        let mut table = self.table();
        remove(&mut table, id);
        table.entries.insert(
            Arc::from(id),
            Entry {
                state,
                phase: Phase::Live,
                last_active: Instant::now(),
                in_flight: 0,
                pinned: false,
            },
        );
        Ok(())
    }

    /// rmcp's `DELETE`: the session has ended.
    async fn delete(&self, id: &str) -> Result<(), SessionStoreError> {
        remove(&mut self.table(), id);
        Ok(())
    }
}

/// One request or stream of a session in flight: counted until dropped.
pub(crate) struct Hold {
    dormant: Arc<Dormant>,
    id: Arc<str>,
}

impl Drop for Hold {
    fn drop(&mut self) {
        self.dormant.released(&self.id);
    }
}

impl Hold {
    /// `response` whose body keeps this hold until it ends or is dropped.
    pub(crate) fn around(self, response: Response<HttpBody>) -> Response<HttpBody> {
        let (parts, inner) = response.into_parts();
        Response::from_parts(parts, Held { inner, _hold: self }.boxed())
    }
}

/// A response body holding its session's [`Hold`].
struct Held {
    inner: HttpBody,
    _hold: Hold,
}

impl Body for Held {
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

#[cfg(test)]
mod tests {
    use rmcp::model::InitializeRequestParams;

    use super::*;

    fn state() -> SessionState {
        let params: InitializeRequestParams = serde_json::from_value(serde_json::json!({
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}))
        .unwrap();
        SessionState::new(params)
    }

    fn sweep(dormant: &Dormant, now: Instant) -> Vec<Arc<str>> {
        dormant.sweep(
            now,
            Duration::from_secs(5),
            Some(Duration::from_secs(300)),
            Duration::from_secs(30),
            |_| false,
            &mut Vec::new(),
        )
    }

    #[tokio::test]
    async fn an_idle_session_sleeps_and_only_a_dormant_one_loads() {
        let dormant = Arc::new(Dormant::new());
        dormant.store("a", &state()).await.unwrap();
        let start = Instant::now();
        assert!(sweep(&dormant, start).is_empty(), "not idle long enough");
        assert!(
            dormant.load("a").await.unwrap().is_none(),
            "live: not loaded"
        );
        let closing = sweep(&dormant, start + Duration::from_secs(6));
        assert_eq!(closing, vec![Arc::from("a")]);
        assert_eq!(dormant.asleep(), 1);
        assert!(dormant.load("a").await.unwrap().is_none(), "closing");
        assert!(dormant.closed("a"), "the worker's end makes it dormant");
        let loaded = dormant.load("a").await.unwrap().expect("dormant: loaded");
        assert_eq!(
            loaded.initialize_params.protocol_version.as_str(),
            "2025-06-18"
        );
        assert_eq!(dormant.asleep(), 0);
        // A live session whose worker ends otherwise is gone.
        assert!(!dormant.closed("a"));
        assert!(dormant.hold("a", false).await.is_none());
    }

    #[tokio::test]
    async fn held_and_pinned_sessions_stay_live_and_dormant_ones_expire() {
        let dormant = Arc::new(Dormant::new());
        for id in ["held", "pinned", "idle"] {
            dormant.store(id, &state()).await.unwrap();
        }
        let hold = dormant.hold("held", false).await.unwrap();
        drop(
            dormant
                .hold("pinned", pins(Some("logging/setLevel"), false))
                .await,
        );
        let later = Instant::now() + Duration::from_secs(6);
        assert_eq!(sweep(&dormant, later), vec![Arc::from("idle")]);
        drop(hold);
        dormant.closed("idle");
        assert_eq!(
            sweep(&dormant, later + Duration::from_secs(400)),
            vec![Arc::from("held")]
        );
        assert!(dormant.load("idle").await.unwrap().is_none(), "expired");
        assert_eq!(dormant.asleep(), 1, "held is closing");
    }

    #[test]
    fn the_requests_that_pin() {
        assert!(pins(Some("resources/subscribe"), false));
        assert!(pins(Some("tasks/list"), false));
        assert!(pins(Some("tools/call"), true));
        assert!(!pins(Some("tools/call"), false));
        assert!(!pins(Some("resources/unsubscribe"), false));
        assert!(!pins(None, false));
    }
}
