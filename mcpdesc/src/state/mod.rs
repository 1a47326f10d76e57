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
//! What a record does not hold yet: a session's log level and its resource
//! subscriptions live in its worker, on the instance that received them (the HTTP
//! layer keeps such a session's worker from hibernating; a request on another
//! instance does not see them).
//!
//! MCP 2025-11-25 tasks are kept by a store whose [`StateStore::keeps_tasks`] is
//! `true` (`RedisState`): each as a [`TaskRecord`] (status, status message, outcome,
//! TTL, poll interval, scope and owner, and the lease of the instance running it),
//! so that every instance serves every task, in both HTTP modes; the task methods
//! close the [`StateStore`] trait and have defaults that keep no task (then, as with
//! [`MemoryState`], tasks stay in the session's worker on its instance). A store for
//! another database implements them to keep tasks too.

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

pub use memory::MemoryState;
pub use owner::Owner;
#[cfg(feature = "redis")]
pub use redis::RedisState;
pub use relay::{RelayDirection, RelayFeed, RelayedMessage};
pub use store::{SessionRecord, StateError, StateStore};
pub use task_record::{TaskEnd, TaskOutcome, TaskRecord, TaskStatus};
