//! Sessions in the shared state ([`crate::state`]), bound to their principal.
//!
//! Every session opened through this layer gets a record in the endpoint's
//! [`StateStore`]: its owner (the principals of its `initialize`, when security is
//! enforced) and, through rmcp's session store (`super::shared`), its `initialize`
//! parameters. Each later request naming the session is admitted here, before rmcp
//! sees it:
//!
//! - A session owned by other principals than the request's (or an anonymous
//!   request on an owned session) gets rmcp's own `404` for an unknown session, byte
//!   for byte, so that whether a session exists does not leak. A session opened
//!   anonymously belongs to the first principal that uses it. Its tasks are its
//!   own: `tasks/*` of another principal's session is refused with it.
//! - With a shared store, a session the store does not know gets `404` on every
//!   instance (deleted elsewhere, expired), even where a worker of it is still
//!   alive; with the in-memory store, rmcp decides as before.
//! - A store that cannot answer makes the request `503` with `Retry-After`.
//!
//! With a shared store an instance remembers what it read of a session for
//! [`StateStore::recheck_after`]: the owner does not change once set, and a session
//! ended elsewhere is noticed at the next read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http::Response;

use super::body::{session_not_found, unavailable, HttpBody};
use crate::server::adapter::http_marks::RestoredStates;
use crate::state::{Owner, StateStore};

/// How long a client is told to wait when the shared state is unavailable.
const RETRY_AFTER_S: u32 = 2;

/// What a request naming a session may do.
pub(crate) enum Admission {
    /// The store knows the session, and the request is its owner's (or nothing is
    /// enforced).
    Known,
    /// The in-memory store does not know it: rmcp decides (normally `404`).
    Unknown,
    /// Refused with this answer.
    Refused(Response<HttpBody>),
}

/// The sessions' records of one endpoint (stateful mode).
pub(crate) struct Binding {
    store: Arc<dyn StateStore>,
    shared: bool,
    /// The session idle timeout: the records' time to live in a shared store.
    ttl: Option<Duration>,
    /// Whether security is enforced: owners are recorded and checked.
    enforce: bool,
    /// [`StateStore::recheck_after`].
    recheck: Duration,
    /// Sessions read lately (shared store): their owner, and when.
    recent: Mutex<HashMap<Arc<str>, Read>>,
    /// The state of sessions being restored here, for their handler.
    restored: Arc<RestoredStates>,
}

/// What an instance read of a session: its owner, and when.
type Read = (Option<Owner>, Instant);

/// Past this many remembered sessions, the old ones are forgotten.
const RECENT_MAX: usize = 10_000;

impl Binding {
    pub(crate) fn new(store: Arc<dyn StateStore>, ttl: Option<Duration>, enforce: bool) -> Binding {
        Binding {
            shared: store.shared(),
            recheck: store.recheck_after(),
            store,
            ttl,
            enforce,
            recent: Mutex::new(HashMap::new()),
            restored: Arc::default(),
        }
    }

    /// The log level and subscriptions of the sessions being restored here
    /// (`super::shared` puts, the handler takes).
    pub(crate) fn restored(&self) -> &Arc<RestoredStates> {
        &self.restored
    }

    /// Whether the store is shared by several instances.
    pub(crate) fn shared(&self) -> bool {
        self.shared
    }

    /// The store.
    pub(crate) fn store(&self) -> &Arc<dyn StateStore> {
        &self.store
    }

    /// The session idle timeout (the records' time to live).
    pub(crate) fn ttl(&self) -> Option<Duration> {
        self.ttl
    }

    /// Admits a request naming session `id`, made by `caller` (`None`: anonymous).
    pub(crate) async fn admit(&self, id: &str, caller: Option<&Owner>) -> Admission {
        let owner = match self.remembered(id) {
            Some(owner) => owner,
            None => {
                let record = match self.store.session(id, self.ttl).await {
                    Ok(record) => record,
                    Err(error) => return Admission::Refused(outage(&error)),
                };
                let Some(record) = record else {
                    self.forget(id);
                    return match self.shared {
                        true => Admission::Refused(session_not_found()),
                        false => Admission::Unknown,
                    };
                };
                self.remember(id, record.owner.clone());
                record.owner
            }
        };
        if !self.enforce {
            return Admission::Known;
        }
        let owner = match (owner, caller) {
            (Some(owner), _) => Some(owner),
            (None, Some(caller)) => match self.store.claim_session(id, caller).await {
                Ok(Some(owner)) => {
                    self.remember(id, Some(owner.clone()));
                    Some(owner)
                }
                // Removed meanwhile.
                Ok(None) => return Admission::Refused(session_not_found()),
                Err(error) => return Admission::Refused(outage(&error)),
            },
            (None, None) => None,
        };
        match (owner, caller) {
            (None, _) => Admission::Known,
            (Some(owner), Some(caller)) if owner.admits(caller) => Admission::Known,
            _ => Admission::Refused(session_not_found()),
        }
    }

    /// Records session `id`, just opened by `caller`.
    pub(crate) async fn opened(
        &self,
        id: &str,
        caller: Option<&Owner>,
    ) -> Result<(), Response<HttpBody>> {
        let owner = caller.filter(|_| self.enforce);
        self.store
            .open_session(id, owner, self.ttl)
            .await
            .map_err(|error| outage(&error))
    }

    /// The owner of session `id` as read within the recheck time (shared store).
    fn remembered(&self, id: &str) -> Option<Option<Owner>> {
        if !self.shared || self.recheck.is_zero() {
            return None;
        }
        let recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        let (owner, read) = recent.get(id)?;
        (read.elapsed() < self.recheck).then(|| owner.clone())
    }

    fn remember(&self, id: &str, owner: Option<Owner>) {
        if !self.shared || self.recheck.is_zero() {
            return;
        }
        let mut recent = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        if recent.len() >= RECENT_MAX {
            let recheck = self.recheck;
            recent.retain(|_, (_, read)| read.elapsed() < recheck);
        }
        recent.insert(Arc::from(id), (owner, Instant::now()));
    }

    fn forget(&self, id: &str) {
        if self.shared {
            self.recent
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(id);
        }
    }

    /// Removes session `id`'s record (its `DELETE`).
    pub(crate) async fn deleted(&self, id: &str) {
        self.forget(id);
        if let Err(error) = self.store.remove_session(id).await {
            tracing::warn!(%error, "mcpdesc: a deleted session's record stays until it expires");
        }
    }

    /// Session `id` ended on this instance (closed, expired): with an in-memory
    /// store, its record goes; a shared store keeps it for the other instances
    /// (it expires there).
    pub(crate) async fn ended(&self, id: &str) {
        self.forget(id);
        if !self.shared {
            let _ = self.store.remove_session(id).await;
        }
    }
}

/// `503` for a store that did not answer.
fn outage(error: &crate::state::StateError) -> Response<HttpBody> {
    tracing::warn!(%error, "mcpdesc: a request needed the shared state");
    unavailable(
        "the session state is unavailable, try again later",
        RETRY_AFTER_S,
    )
}
