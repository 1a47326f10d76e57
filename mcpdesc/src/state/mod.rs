//! The shared state of an HTTP endpoint: what outlives a request, kept where every
//! instance of a service can read it.
//!
//! A stateful streamable HTTP server keeps, for each session, a record
//! ([`SessionRecord`]): the parameters of its `initialize` (what rebuilds its worker
//! on an instance that has not seen it, by replaying the handshake through rmcp's
//! session store) and the principal(s) that own it ([`Owner`]). The record is kept by a
//! [`StateStore`]:
//!
//! - [`MemoryState`], the default: one process's memory. The record lives exactly as
//!   long as the session does on this instance (it is removed when the session ends
//!   here), and rmcp's sessions stay the truth about which sessions exist.
//! - `RedisState` (feature `redis`): a Redis server shared by every instance. The
//!   store is then the truth: a session whose record is gone (`DELETE` on any
//!   instance, its idle timeout, Redis losing its data) answers `404`, and a session
//!   opened on another instance is restored on this one from its record.
//!
//! A store for another database implements [`StateStore`]; [`StateStore::shared`]
//! says which of the two rules above applies.
//!
//! What a record does not hold yet: a session's log level, its resource
//! subscriptions and its MCP 2025-11-25 tasks live in its worker, on the instance
//! that received them (the HTTP layer keeps such a session's worker from
//! hibernating; a request on another instance does not see them).

mod memory;
mod owner;
#[cfg(feature = "redis")]
mod redis;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use memory::MemoryState;
pub use owner::Owner;
#[cfg(feature = "redis")]
pub use redis::RedisState;

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

    /// Removes session `id`'s record; whether there was one.
    async fn remove_session(&self, id: &str) -> Result<bool, StateError>;
}
