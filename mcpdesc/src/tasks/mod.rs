//! MCP 2025-11-25 core tasks: a task-augmented `tools/call` of a tool whose
//! `execution.taskSupport` is `optional` or `required` answers a `CreateTaskResult`
//! at once and runs the tool's handler in the background; `tasks/get`,
//! `tasks/result`, `tasks/list` and `tasks/cancel` follow it. See
//! `docs/serving.md` ("Tasks") for what is served and the defaults of
//! [`TaskLimits`].
//!
//! One job per file: [`TaskSupport`] (which tools, which capability), the
//! per-session store (state, TTL, bounds), the server's handling of the requests,
//! the raw-message rewrites that carry the 2025-11-25 form through rmcp 3.11, and
//! the transport that applies them ([`routed`]).

use std::time::Duration;

mod support;
pub(crate) use support::capability;
pub use support::TaskSupport;

#[cfg(feature = "rmcp")]
mod clock;
#[cfg(feature = "rmcp")]
pub(crate) mod store;
#[cfg(feature = "rmcp")]
mod transport;
#[cfg(feature = "rmcp")]
pub mod wire;
#[cfg(feature = "rmcp")]
pub use transport::routed;

/// The bounds of one session's tasks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskLimits {
    /// The TTL of a task whose request names none: 5 minutes.
    pub default_ttl: Duration,
    /// The longest TTL granted, whatever the request asks: 1 hour. A task is
    /// discarded (and cancelled if still running) when its TTL has elapsed since
    /// its creation.
    pub max_ttl: Duration,
    /// How many tasks of a session may be `working` at once: 16. One more
    /// task-augmented call is refused (`-32600`).
    pub max_live: usize,
    /// How many tasks (ended ones included) a session keeps: 256. Past it the
    /// oldest ended task is discarded.
    pub max_retained: usize,
    /// Tasks per `tasks/list` page: 50.
    pub page_size: usize,
    /// The `pollInterval` suggested to clients: 200 ms.
    pub poll_interval: Duration,
}

impl Default for TaskLimits {
    fn default() -> Self {
        TaskLimits {
            default_ttl: Duration::from_secs(300),
            max_ttl: Duration::from_secs(3600),
            max_live: 16,
            max_retained: 256,
            page_size: 50,
            poll_interval: Duration::from_millis(200),
        }
    }
}
