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
//! A record also holds the session's log level (`logging/setLevel`) and its
//! resource subscriptions, written when the session sets them: a session restored
//! on another instance keeps both. Change notifications cross instances through the
//! store too ([`ChangeAnnouncement`], [`StateStore::publish_change`],
//! [`StateStore::change_feed`]): a `ChangeNotifier` announcement on one instance
//! reaches the subscribed sessions on every instance.
//!
//! A session's other messages cross instances through the store as well
//! ([`RelayedMessage`], [`StateStore::publish_relayed`], [`StateStore::relay_feed`]):
//! what the client posts for a request running elsewhere, and what a worker sends
//! to a client whose stream another instance holds; and, when the store keeps them
//! ([`StateStore::keeps_events`]), the events of SSE streams, so that a client
//! resumes a stream with `Last-Event-ID` on any instance.
//!
//! MCP 2025-11-25 tasks are kept by a store whose [`StateStore::keeps_tasks`] is
//! `true` (`RedisState`): each as a [`TaskRecord`] (status, status message, outcome,
//! TTL, poll interval, scope and owner, and the lease of the instance running it),
//! so that every instance serves every task, in both HTTP modes; the task methods
//! close the [`StateStore`] trait and have defaults that keep no task (then, as with
//! [`MemoryState`], tasks stay in the session's worker on its instance). A store for
//! another database implements them to keep tasks too.

mod changes;
mod memory;
mod owner;
#[cfg(feature = "redis")]
mod redis;
#[cfg(feature = "redis")]
mod redis_bounded;
#[cfg(feature = "redis")]
mod redis_events;
#[cfg(feature = "redis")]
mod redis_feed;
#[cfg(feature = "redis")]
mod redis_tasks;
mod relay;
mod store;
mod task_record;

pub use changes::{ChangeAnnouncement, ChangeFeed, FEED_CAPACITY};
pub use memory::MemoryState;
pub use owner::Owner;
#[cfg(feature = "redis")]
pub use redis::RedisState;
pub use relay::{RelayDirection, RelayFeed, RelayedMessage};
pub use store::{SessionRecord, StateError, StateStore};
pub use task_record::{TaskEnd, TaskOutcome, TaskRecord, TaskStatus};
