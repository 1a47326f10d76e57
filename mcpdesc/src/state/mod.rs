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
//! What a record does not hold yet: a session's MCP 2025-11-25 tasks live in its
//! worker, on the instance that received them (the HTTP layer keeps such a
//! session's worker from hibernating).

mod changes;
mod memory;
mod owner;
#[cfg(feature = "redis")]
mod redis;
#[cfg(feature = "redis")]
mod redis_bus;
mod store;

pub use changes::{ChangeAnnouncement, ChangeFeed, FEED_CAPACITY};
pub use memory::MemoryState;
pub use owner::Owner;
#[cfg(feature = "redis")]
pub use redis::RedisState;
pub use store::{SessionRecord, StateError, StateStore};
