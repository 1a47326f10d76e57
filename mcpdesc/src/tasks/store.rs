//! One session's tasks: their state, the TTL that discards them, the bound on how
//! many run at once, and the wait of `tasks/result` for a terminal status.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{json, Value};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::clock::rfc3339;
use super::limits::TaskLimits;

/// A task's status (MCP 2025-11-25; `input_required` is never entered: a handler's
/// client requests go to the client directly, as in a plain call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Working,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    fn is_terminal(self) -> bool {
        self != Status::Working
    }
}

/// How the task's request ended: the `tools/call` result (wire JSON), or the JSON-RPC
/// error it would have answered.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    Result(Value),
    Error {
        code: i32,
        message: String,
        data: Option<Value>,
    },
}

/// Why a store operation was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// No such task in this session (never created, or discarded after its TTL).
    NotFound(String),
    /// `tasks/cancel` of a task that already ended.
    Terminal(String, &'static str),
    /// The session already runs [`TaskLimits::max_live`] tasks.
    TooMany(usize),
    /// A `tasks/list` cursor this store did not hand out.
    BadCursor(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NotFound(id) => write!(f, "task not found: {id}"),
            Refusal::Terminal(id, status) => {
                write!(f, "task {id} is already {status}: it cannot be cancelled")
            }
            Refusal::TooMany(max) => write!(
                f,
                "too many tasks: this session already runs {max}, the most it may; \
                 wait for one to finish or cancel one"
            ),
            Refusal::BadCursor(cursor) => write!(f, "invalid tasks/list cursor: {cursor:?}"),
        }
    }
}

struct Entry {
    id: String,
    status: Status,
    message: Option<String>,
    created: SystemTime,
    started: Instant,
    updated: SystemTime,
    ttl: Duration,
    outcome: Option<Outcome>,
    cancel: CancellationToken,
    /// `true` once the task is terminal or discarded; `tasks/result` waits on it.
    done: watch::Sender<bool>,
}

impl Entry {
    fn wire(&self, limits: &TaskLimits) -> Value {
        let mut task = json!({
            "taskId": self.id,
            "status": self.status.as_str(),
            "ttl": u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX),
            "createdAt": rfc3339(self.created),
            "lastUpdatedAt": rfc3339(self.updated),
            "pollInterval": u64::try_from(limits.poll_interval.as_millis()).unwrap_or(u64::MAX),
        });
        if let Some(message) = &self.message {
            task["statusMessage"] = json!(message);
        }
        task
    }

    fn end(&mut self, status: Status, message: Option<String>) {
        self.status = status;
        self.message = message;
        self.updated = SystemTime::now();
        self.done.send_replace(true);
    }
}

#[derive(Default)]
struct Inner {
    /// Tasks by creation sequence number: `tasks/list` order and cursor.
    tasks: BTreeMap<u64, Entry>,
    ids: HashMap<String, u64>,
    next: u64,
}

impl Inner {
    /// Drops the tasks whose TTL elapsed (cancelling any still running) and, past
    /// `max_retained`, the oldest ended ones.
    fn purge(&mut self, limits: &TaskLimits) {
        let expired: Vec<u64> = self
            .tasks
            .iter()
            .filter(|(_, e)| e.started.elapsed() >= e.ttl)
            .map(|(seq, _)| *seq)
            .collect();
        for seq in expired {
            self.remove(seq);
        }
        while self.tasks.len() > limits.max_retained {
            let Some(oldest) = self
                .tasks
                .iter()
                .find(|(_, e)| e.status.is_terminal())
                .map(|(seq, _)| *seq)
            else {
                break;
            };
            self.remove(oldest);
        }
    }

    fn remove(&mut self, seq: u64) {
        if let Some(entry) = self.tasks.remove(&seq) {
            entry.cancel.cancel();
            entry.done.send_replace(true);
            self.ids.remove(&entry.id);
        }
    }

    fn entry(&mut self, id: &str) -> Result<&mut Entry, Refusal> {
        self.ids
            .get(id)
            .and_then(|seq| self.tasks.get_mut(seq))
            .ok_or_else(|| Refusal::NotFound(id.to_owned()))
    }
}

/// The tasks of one MCP session. A task is only reachable from the session that
/// created it, so its id need not be unguessable: ids are `task-N`.
pub(crate) struct TaskStore {
    limits: TaskLimits,
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for TaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskStore")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl TaskStore {
    pub(crate) fn new(limits: TaskLimits) -> Self {
        TaskStore {
            limits,
            inner: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A new working task with the requested TTL (milliseconds) bounded by the
    /// limits: its id, its cancellation token and its wire `Task`.
    pub(crate) fn create(
        &self,
        requested_ttl: Option<u64>,
    ) -> Result<(String, CancellationToken, Value), Refusal> {
        let limits = &self.limits;
        let ttl = requested_ttl
            .map(Duration::from_millis)
            .unwrap_or(limits.default_ttl)
            .min(limits.max_ttl);
        let mut inner = self.lock();
        inner.purge(limits);
        let live = inner
            .tasks
            .values()
            .filter(|e| !e.status.is_terminal())
            .count();
        if live >= limits.max_live {
            return Err(Refusal::TooMany(limits.max_live));
        }
        inner.next += 1;
        let seq = inner.next;
        let id = format!("task-{seq}");
        let now = SystemTime::now();
        let entry = Entry {
            id: id.clone(),
            status: Status::Working,
            message: None,
            created: now,
            started: Instant::now(),
            updated: now,
            ttl,
            outcome: None,
            cancel: CancellationToken::new(),
            done: watch::Sender::new(false),
        };
        let (token, wire) = (entry.cancel.clone(), entry.wire(limits));
        inner.tasks.insert(seq, entry);
        inner.ids.insert(id.clone(), seq);
        Ok((id, token, wire))
    }

    /// Records how the task's request ended; a task cancelled or discarded in the
    /// meantime keeps its state.
    pub(crate) fn finish(&self, id: &str, outcome: Outcome) {
        let mut inner = self.lock();
        let Ok(entry) = inner.entry(id) else { return };
        if entry.status.is_terminal() {
            return;
        }
        let (status, message) = match &outcome {
            Outcome::Result(result) if result.get("isError") == Some(&Value::Bool(true)) => (
                Status::Failed,
                Some("the tool returned an execution error (isError)".to_owned()),
            ),
            Outcome::Result(_) => (Status::Completed, None),
            Outcome::Error { message, .. } => (Status::Failed, Some(message.clone())),
        };
        entry.outcome = Some(outcome);
        entry.end(status, message);
    }

    /// Ends a running task `failed` with `message` (the drain's deadline), its
    /// `tasks/result` the internal error `-32603` with that message; an ended or
    /// discarded task keeps its state. Whether it was running.
    pub(crate) fn fail(&self, id: &str, message: &str) -> bool {
        let mut inner = self.lock();
        let Ok(entry) = inner.entry(id) else {
            return false;
        };
        if entry.status.is_terminal() {
            return false;
        }
        entry.cancel.cancel();
        // `tasks/result` answers what the request would have: an internal error.
        entry.outcome = Some(Outcome::Error {
            code: -32603,
            message: message.to_owned(),
            data: None,
        });
        entry.end(Status::Failed, Some(message.to_owned()));
        true
    }

    /// The wire `Task` of `id`.
    pub(crate) fn get(&self, id: &str) -> Result<Value, Refusal> {
        let mut inner = self.lock();
        inner.purge(&self.limits);
        inner.entry(id).map(|e| e.wire(&self.limits))
    }

    /// Cancels a running task: its handler's token is cancelled and it is
    /// `cancelled` at once. The wire `Task` after.
    pub(crate) fn cancel(&self, id: &str) -> Result<Value, Refusal> {
        let mut inner = self.lock();
        inner.purge(&self.limits);
        let entry = inner.entry(id)?;
        if entry.status.is_terminal() {
            return Err(Refusal::Terminal(id.to_owned(), entry.status.as_str()));
        }
        entry.cancel.cancel();
        entry.end(
            Status::Cancelled,
            Some("cancelled by the client".to_owned()),
        );
        Ok(entry.wire(&self.limits))
    }

    /// One page of the session's tasks, oldest first, and the cursor of the next.
    pub(crate) fn list(
        &self,
        cursor: Option<&str>,
    ) -> Result<(Vec<Value>, Option<String>), Refusal> {
        let after = match cursor {
            None => 0,
            Some(text) => text
                .parse::<u64>()
                .map_err(|_| Refusal::BadCursor(text.to_owned()))?,
        };
        let mut inner = self.lock();
        inner.purge(&self.limits);
        let page = self.limits.page_size.max(1);
        let mut items = inner.tasks.range(after + 1..);
        let tasks: Vec<Value> = items
            .by_ref()
            .take(page)
            .map(|(_, e)| e.wire(&self.limits))
            .collect();
        let next = match items.next() {
            Some(_) => inner
                .tasks
                .range(after + 1..)
                .nth(page - 1)
                .map(|(seq, _)| seq.to_string()),
            None => None,
        };
        Ok((tasks, next))
    }

    /// Waits until `id` is terminal; its status and outcome (`None` for a cancelled
    /// task, which has none).
    pub(crate) async fn wait(&self, id: &str) -> Result<(Value, Option<Outcome>), Refusal> {
        let mut done = {
            let mut inner = self.lock();
            inner.purge(&self.limits);
            inner.entry(id)?.done.subscribe()
        };
        // An error means the entry (and its sender) is gone: discarded.
        let _ = done.wait_for(|done| *done).await;
        let mut inner = self.lock();
        let entry = inner.entry(id)?;
        Ok((entry.wire(&self.limits), entry.outcome.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> TaskLimits {
        TaskLimits {
            max_live: 2,
            page_size: 2,
            ..TaskLimits::default()
        }
    }

    #[test]
    fn the_ttl_is_bounded_and_live_tasks_are_counted() {
        let store = TaskStore::new(limits());
        let (a, _, wire) = store.create(Some(u64::MAX)).unwrap();
        assert_eq!(wire["ttl"], json!(3_600_000));
        assert_eq!(wire["status"], "working");
        let (_, _, wire) = store.create(None).unwrap();
        assert_eq!(wire["ttl"], json!(300_000));
        assert!(matches!(store.create(None), Err(Refusal::TooMany(2))));
        store.finish(&a, Outcome::Result(json!({"content": []})));
        assert_eq!(store.get(&a).unwrap()["status"], "completed");
        assert!(store.create(None).is_ok());
    }

    #[test]
    fn cancel_ends_a_running_task_once() {
        let store = TaskStore::new(limits());
        let (id, token, _) = store.create(None).unwrap();
        assert_eq!(store.cancel(&id).unwrap()["status"], "cancelled");
        assert!(token.is_cancelled());
        assert_eq!(
            store.cancel(&id),
            Err(Refusal::Terminal(id.clone(), "cancelled"))
        );
        // The handler's late result does not revive it.
        store.finish(&id, Outcome::Result(json!({"content": []})));
        assert_eq!(store.get(&id).unwrap()["status"], "cancelled");
        assert_eq!(store.get("task-9"), Err(Refusal::NotFound("task-9".into())));
    }

    #[test]
    fn a_task_failed_by_the_drain_stays_failed() {
        let store = TaskStore::new(limits());
        let (id, token, _) = store.create(None).unwrap();
        assert!(store.fail(&id, "server shut down"));
        let task = store.get(&id).unwrap();
        assert_eq!(task["status"], "failed");
        assert_eq!(task["statusMessage"], "server shut down");
        assert!(token.is_cancelled());
        store.finish(&id, Outcome::Result(json!({"content": []})));
        assert_eq!(store.get(&id).unwrap()["status"], "failed");
        assert!(!store.fail(&id, "server shut down"));
    }

    #[test]
    fn an_error_result_fails_the_task() {
        let store = TaskStore::new(limits());
        let (id, _, _) = store.create(None).unwrap();
        store.finish(
            &id,
            Outcome::Result(json!({"content": [], "isError": true})),
        );
        assert_eq!(store.get(&id).unwrap()["status"], "failed");
    }

    #[test]
    fn tasks_are_listed_in_pages() {
        let store = TaskStore::new(TaskLimits {
            page_size: 2,
            ..TaskLimits::default()
        });
        for _ in 0..5 {
            store.create(None).unwrap();
        }
        let (first, next) = store.list(None).unwrap();
        assert_eq!(first.len(), 2);
        assert_eq!(first[0]["taskId"], "task-1");
        let (second, next) = store.list(next.as_deref()).unwrap();
        assert_eq!(second[0]["taskId"], "task-3");
        let (third, next) = store.list(next.as_deref()).unwrap();
        assert_eq!((third.len(), next), (1, None));
        assert!(matches!(store.list(Some("x")), Err(Refusal::BadCursor(_))));
    }

    #[test]
    fn an_elapsed_ttl_discards_and_cancels_the_task() {
        let store = TaskStore::new(limits());
        let (id, token, _) = store.create(Some(0)).unwrap();
        assert_eq!(store.get(&id), Err(Refusal::NotFound(id.clone())));
        assert!(token.is_cancelled());
    }
}
