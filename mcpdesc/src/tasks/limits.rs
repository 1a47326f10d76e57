//! The bounds of one session's tasks ([`TaskLimits`]) and their defaults.

use std::time::Duration;

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
