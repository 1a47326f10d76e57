//! The tasks running in the background of one server, as a drain sees them: each
//! holds a mark while its handler runs, and a deadline, when cut, ends those still
//! running `failed` ("server shut down").

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};
use tokio_util::task::task_tracker::TaskTrackerToken;
use tokio_util::task::TaskTracker;

/// The status message of a task still running when a drain's grace period ends.
pub(crate) const SHUT_DOWN: &str = "server shut down";

/// The running tasks of every session of one server; clones share them. An
/// `McpServer` outside `mcpdesc::http` has its own, which nothing drains.
#[derive(Debug, Clone, Default)]
pub(crate) struct RunningTasks {
    /// One token per task whose handler runs.
    tracker: TaskTracker,
    /// Cancelled at the end of a drain's grace period.
    deadline: CancellationToken,
    /// How many tasks the deadline failed.
    failed: Arc<AtomicU64>,
    /// How many tasks ended (their handler done or dropped).
    ended: Arc<AtomicU64>,
}

/// Held while one task's handler runs; dropped, the task counts as ended.
#[derive(Debug)]
pub(crate) struct Mark {
    _token: TaskTrackerToken,
    ended: Arc<AtomicU64>,
}

impl Drop for Mark {
    fn drop(&mut self) {
        self.ended.fetch_add(1, Ordering::Relaxed);
    }
}

impl RunningTasks {
    /// A mark held while one task's handler runs.
    pub(crate) fn track(&self) -> Mark {
        Mark {
            _token: self.tracker.token(),
            ended: self.ended.clone(),
        }
    }

    /// Resolves when the drain's grace period has ended: the task must end
    /// `failed` with [`SHUT_DOWN`].
    pub(crate) fn deadline(&self) -> WaitForCancellationFuture<'_> {
        self.deadline.cancelled()
    }

    /// Counts one task the deadline failed.
    pub(crate) fn count_failed(&self) {
        self.failed.fetch_add(1, Ordering::Relaxed);
    }
}

/// The drain's side (only `mcpdesc::http` drains).
#[cfg(feature = "http")]
impl RunningTasks {
    /// How many tasks run now.
    pub(crate) fn len(&self) -> usize {
        self.tracker.len()
    }

    /// How many tasks have ended since this server began.
    pub(crate) fn ended(&self) -> u64 {
        self.ended.load(Ordering::Relaxed)
    }

    /// How many tasks the deadline failed.
    pub(crate) fn failed(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    /// Waits until no task runs (tasks may still start meanwhile and are waited
    /// for too).
    pub(crate) async fn idle(&self) {
        self.tracker.close();
        self.tracker.wait().await;
    }

    /// Ends the grace period: every task still running is failed.
    pub(crate) fn cut(&self) {
        self.deadline.cancel();
    }
}
