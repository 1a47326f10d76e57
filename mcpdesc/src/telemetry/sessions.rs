//! When each open session started, to record `mcp.server.session.duration` when
//! it ends. Only sessions opened on this instance are timed: with a shared state
//! store, a session opened on another instance and ending here is not recorded
//! (its start is not known here).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Each open session's start and protocol version, by id.
type Starts = HashMap<Arc<str>, (Instant, Option<String>)>;

/// The open sessions' starts and protocol versions.
#[derive(Default)]
pub(crate) struct SessionClock {
    open: Mutex<Starts>,
}

impl SessionClock {
    /// Notes that session `id` opened now, speaking `version`.
    pub(crate) fn opened(&self, id: &str, version: Option<&str>) {
        self.table()
            .insert(Arc::from(id), (Instant::now(), version.map(str::to_owned)));
    }

    /// The life and protocol version of session `id`, which ended now; `None`
    /// when it was not opened here (or its end was already reported).
    pub(crate) fn ended(&self, id: &str) -> Option<(Duration, Option<String>)> {
        let (start, version) = self.table().remove(id)?;
        Some((start.elapsed(), version))
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Starts> {
        // A panic while holding this lock leaves a consistent map.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_ends_once() {
        let clock = SessionClock::default();
        clock.opened("a", Some("2025-06-18"));
        let (_, version) = clock.ended("a").expect("timed");
        assert_eq!(version.as_deref(), Some("2025-06-18"));
        assert!(clock.ended("a").is_none());
        assert!(clock.ended("never").is_none());
    }
}
