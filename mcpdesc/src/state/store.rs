//! The seam: [`StateStore`], what it keeps of a session ([`SessionRecord`]) and its
//! error ([`StateError`]).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::changes::{ChangeAnnouncement, ChangeFeed};
use super::owner::Owner;

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
}
