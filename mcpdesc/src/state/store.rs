//! The seam: [`StateStore`], what it keeps of a session ([`SessionRecord`]) and its
//! error ([`StateError`]).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::changes::{ChangeAnnouncement, ChangeFeed};
use super::owner::Owner;
use super::relay::{RelayFeed, RelayedMessage};
use super::task_record::{TaskEnd, TaskRecord, TaskStatus};

/// What a store keeps of one session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// The parameters of the session's `initialize` request, as JSON (rmcp's
    /// `InitializeRequestParams`): negotiated version, client info and
    /// capabilities. `None` until the handshake has been stored.
    pub initialize: Option<Value>,
    /// Who opened the session, when security is enforced and the `initialize`
    /// request was authenticated; a session opened anonymously is owned by the first
    /// principal that uses it ([`StateStore::claim_session`]).
    pub owner: Option<Owner>,
    /// The level of the session's last `logging/setLevel` (its wire name, e.g.
    /// `"warning"`); `None` before the first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_level: Option<String>,
    /// The URIs of the session's `resources/subscribe` calls (not unsubscribed
    /// since), sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subscriptions: Vec<String>,
}

/// A store could not be reached or answered with an error: the request that needed
/// it gets `503 Service Unavailable` with `Retry-After`.
#[derive(Debug, thiserror::Error)]
#[error("the shared state is unavailable: {0}")]
pub struct StateError(pub String);

impl StateError {
    /// An error with `message`.
    pub fn new(message: impl std::fmt::Display) -> StateError {
        StateError(message.to_string())
    }
}

/// Where an HTTP server keeps its sessions' records (see the module docs).
///
/// `ttl` arguments are the session idle timeout (`HttpServer::session_idle_timeout`):
/// a shared store lets a record that nobody touched for that long expire; `None`
/// keeps it until [`StateStore::remove_session`].
#[async_trait::async_trait]
pub trait StateStore: Send + Sync + 'static {
    /// Whether other instances see the same records: the store is then the truth
    /// about which sessions exist, and sessions move between instances.
    fn shared(&self) -> bool;

    /// How long an instance may serve a session it checked against the store
    /// without checking again (a shared store): a `DELETE` on another instance
    /// reaches it within this time, and the record's time to live is restarted at
    /// most this often. Zero (the default): every request checks.
    fn recheck_after(&self) -> Duration {
        Duration::ZERO
    }

    /// Records the opening of session `id` by `owner` (`None`: anonymous), keeping
    /// any `initialize` already stored.
    async fn open_session(
        &self,
        id: &str,
        owner: Option<&Owner>,
        ttl: Option<Duration>,
    ) -> Result<(), StateError>;

    /// Stores the `initialize` parameters of session `id`.
    async fn save_initialize(
        &self,
        id: &str,
        initialize: &Value,
        ttl: Option<Duration>,
    ) -> Result<(), StateError>;

    /// The record of session `id`, its time to live restarted; `None` when the
    /// store does not know the session.
    async fn session(
        &self,
        id: &str,
        ttl: Option<Duration>,
    ) -> Result<Option<SessionRecord>, StateError>;

    /// Makes `owner` the owner of session `id` unless it has one already, at once
    /// (two principals racing for an anonymous session: one wins). Returns the
    /// owner after the call: `owner`, or the earlier one; `None` when the store does
    /// not know the session.
    async fn claim_session(&self, id: &str, owner: &Owner) -> Result<Option<Owner>, StateError>;

    // ---- What a session's requests set, kept for a restore on another instance,
    // and change announcements between instances. The defaults keep nothing and
    // announce nothing (a store that is not shared needs neither).

    /// Stores the level of session `id`'s `logging/setLevel` (its wire name), for
    /// [`SessionRecord::log_level`]. Does not create a record the store does not
    /// have. Default: nothing.
    async fn save_log_level(
        &self,
        id: &str,
        level: &str,
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        let _ = (id, level, ttl);
        Ok(())
    }

    /// Adds (`subscribed`) or removes `uri` from session `id`'s
    /// [`SessionRecord::subscriptions`]. Does not create a record the store does not
    /// have. Default: nothing.
    async fn save_subscription(
        &self,
        id: &str,
        uri: &str,
        subscribed: bool,
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        let _ = (id, uri, subscribed, ttl);
        Ok(())
    }

    /// Hands `announcement` to every instance reading a [`StateStore::change_feed`]
    /// of this store (best-effort: an instance not listening at that moment misses
    /// it). Default: nothing (the announcing instance delivered it to its own
    /// sessions already).
    async fn publish_change(&self, announcement: &ChangeAnnouncement) -> Result<(), StateError> {
        let _ = announcement;
        Ok(())
    }

    /// The announcements published from now on by any instance, this one's
    /// included; `None` when the store carries none (the default). The store keeps
    /// the feed going across its own outages (reconnecting) until the receiver is
    /// dropped. Called once per HTTP server, inside a Tokio runtime.
    fn change_feed(&self) -> Option<ChangeFeed> {
        None
    }

    // ---- End of the session-state and announcement block.

    /// Removes session `id`'s record; whether there was one.
    async fn remove_session(&self, id: &str) -> Result<bool, StateError>;

    // ---- MCP 2025-11-25 tasks (`state::task_record`) ----
    //
    // A store that keeps tasks lets every instance serve every task (see
    // `TaskRecord`). The defaults keep none: tasks then stay in each session's
    // worker, on the instance that created them (`MemoryState` does so).

    /// Whether this store keeps tasks (the methods below work). Default: `false`.
    fn keeps_tasks(&self) -> bool {
        false
    }

    /// Stores a new `working` task, kept until `task.ttl_ms` after now, and lists
    /// it in its scope.
    async fn create_task(&self, task: &TaskRecord) -> Result<(), StateError> {
        let _ = task;
        Err(no_tasks())
    }

    /// The record of task `id` (its lease as last renewed); `None` when the store
    /// does not know it.
    async fn task(&self, id: &str) -> Result<Option<TaskRecord>, StateError> {
        let _ = id;
        Err(no_tasks())
    }

    /// Replaces the record of task `task.id` by `task` (a terminal status with its
    /// outcome, in one write: a reader never sees the status without the outcome),
    /// at once and only if the stored task is still `working`.
    async fn end_task(&self, task: &TaskRecord) -> Result<TaskEnd, StateError> {
        let _ = task;
        Err(no_tasks())
    }

    /// Renews the lease of task `id` until `until_ms` if it is `working`; its
    /// status (`None`: the store does not know it).
    async fn renew_task_lease(
        &self,
        id: &str,
        until_ms: u64,
    ) -> Result<Option<TaskStatus>, StateError> {
        let _ = (id, until_ms);
        Err(no_tasks())
    }

    /// The tasks of `scope` the store still knows, in any order.
    async fn list_tasks(&self, scope: &str) -> Result<Vec<TaskRecord>, StateError> {
        let _ = scope;
        Err(no_tasks())
    }

    /// Tells every instance that task `id` was cancelled (the one running its
    /// handler cancels it).
    async fn announce_task_cancel(&self, id: &str) -> Result<(), StateError> {
        let _ = id;
        Err(no_tasks())
    }

    /// The ids of the tasks cancelled from now on, on any instance
    /// ([`StateStore::announce_task_cancel`]). The stream ends when the
    /// subscription is lost; the caller subscribes again (a cancellation missed
    /// meanwhile is still noticed at the next lease renewal).
    async fn task_cancels(
        &self,
    ) -> Result<futures::stream::BoxStream<'static, String>, StateError> {
        Err(no_tasks())
    }

    // ---- A session's messages between instances (see `crate::state::RelayedMessage`).
    // The defaults relay nothing: a store that is not shared serves every session on
    // one instance.

    /// Hands `message` to every instance reading a [`StateStore::relay_feed`] of this
    /// store (best-effort: an instance not listening at that moment misses it).
    /// Default: nothing.
    async fn publish_relayed(&self, message: &RelayedMessage) -> Result<(), StateError> {
        let _ = message;
        Ok(())
    }

    /// The messages relayed from now on by any instance, this one's included; `None`
    /// when the store carries none (the default). The store keeps the feed going
    /// across its own outages until the receiver is dropped. Called once per HTTP
    /// server, inside a Tokio runtime.
    fn relay_feed(&self) -> Option<RelayFeed> {
        None
    }

    // ---- The events of resumable SSE streams (`Last-Event-ID`). The defaults keep
    // none: rmcp then resumes a stream from the worker's own cache, on the instance
    // that sent it.

    /// Whether this store keeps the events of SSE streams (the two methods below
    /// work), so that a client resumes a stream with `Last-Event-ID` on any
    /// instance. Default: `false`.
    fn keeps_events(&self) -> bool {
        false
    }

    /// Appends `event` (an opaque text) to stream `stream`; its position in the
    /// stream, an opaque text that orders the stream's events (`events_after`
    /// compares nothing else). The event is stored when this returns.
    async fn append_event(&self, stream: &str, event: &str) -> Result<String, StateError> {
        let _ = (stream, event);
        Err(StateError::new(
            "this store keeps no SSE events (StateStore::keeps_events is false)",
        ))
    }

    /// The events of stream `stream` after `position`, in order, with their
    /// positions (empty once the stream expired).
    async fn events_after(
        &self,
        stream: &str,
        position: &str,
    ) -> Result<Vec<(String, String)>, StateError> {
        let _ = (stream, position);
        Err(StateError::new(
            "this store keeps no SSE events (StateStore::keeps_events is false)",
        ))
    }
}

/// The error of the task methods of a store that keeps no task.
fn no_tasks() -> StateError {
    StateError::new("this store keeps no task (StateStore::keeps_tasks is false)")
}
