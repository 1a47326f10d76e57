//! MCP 2025-11-25 tasks kept in a shared store (`mcpdesc::state`, a store whose
//! `keeps_tasks` is true, given to `HttpServer::shared_state`): any instance
//! answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` for a task
//! started on any of them, stateless instances included.
//!
//! - **Who sees a task.** A task belongs to the session that created it (stateful
//!   mode) or, without sessions, to the principals of the request that created it.
//!   A task of another session or principal answers exactly as an unknown task.
//!   An anonymous request without a session has nothing that tells its client from
//!   another: its task is reachable by its id alone (an unguessable UUID), is in no
//!   `tasks/list` (which lists nothing for such a request, lest one client learn
//!   another's ids), and counts in no `max_live` bound.
//! - **Cancellation across instances.** `tasks/cancel` on any instance ends the
//!   task `cancelled` in the store and announces it (`StateStore::announce_task_cancel`,
//!   Redis pub/sub); the instance running the handler hears it
//!   (`StateStore::task_cancels`) and cancels the handler's `Context`. A missed
//!   announcement (the subscription was reconnecting) is caught at the next lease
//!   renewal, which reads the task's status.
//! - **Leases.** The instance running a handler renews the task's lease every third
//!   of [`DEFAULT_TASK_LEASE`] (or `HttpServer::task_lease`). A `working` task whose
//!   lease ran out (its instance died) is ended `failed` with the status message
//!   [`STOPPED`] by the next instance that reads it; it stays readable until its
//!   TTL.
//! - **Results.** A task's outcome is stored with its terminal status, in one
//!   write: no reader sees `completed` without the result.
//! - **`tasks/result`** polls the store at the task's poll interval until the task
//!   is terminal.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use futures::StreamExt;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::state::{Owner, StateError, StateStore, TaskEnd, TaskOutcome, TaskRecord, TaskStatus};
use crate::tasks::clock::rfc3339;
use crate::tasks::limits::TaskLimits;
use crate::tasks::running::{Mark, RunningTasks, SHUT_DOWN};
use crate::tasks::store::Outcome;

/// How long a task's lease lasts unless `HttpServer::task_lease` says otherwise:
/// an instance that stops is noticed this long after its last renewal at most.
pub(crate) const DEFAULT_TASK_LEASE: Duration = Duration::from_secs(10);

/// The status message of a task whose instance stopped (its lease ran out).
pub(crate) const STOPPED: &str = "the instance running this task stopped";

/// The tasks of one HTTP endpoint in its shared store, and the cancellation
/// tokens of the handlers running here.
pub(crate) struct SharedTasks {
    store: Arc<dyn StateStore>,
    lease: Duration,
    /// The handlers running on this instance, by task id.
    local: Arc<Mutex<HashMap<String, CancellationToken>>>,
    /// Set once this instance listens to cancellations.
    listening: tokio::sync::OnceCell<()>,
    /// Cancelled when the endpoint shuts down: the listener stops.
    stop: CancellationToken,
}

impl SharedTasks {
    pub(crate) fn new(
        store: Arc<dyn StateStore>,
        lease: Duration,
        stop: CancellationToken,
    ) -> SharedTasks {
        SharedTasks {
            store,
            lease: lease.max(Duration::from_millis(30)),
            local: Arc::default(),
            listening: tokio::sync::OnceCell::new(),
            stop,
        }
    }

    /// Starts listening to cancellations announced by any instance (once), and
    /// waits until the subscription is made (at most 2 s).
    async fn listen(&self) {
        self.listening
            .get_or_init(|| async {
                let (ready, subscribed) = tokio::sync::oneshot::channel();
                tokio::spawn(listen(
                    self.store.clone(),
                    self.local.clone(),
                    self.stop.clone(),
                    ready,
                ));
                let _ = tokio::time::timeout(Duration::from_secs(2), subscribed).await;
            })
            .await;
    }
}

/// Cancels the local handlers of the tasks announced cancelled, until `stop`;
/// subscribes again (after a second) when the subscription is lost.
async fn listen(
    store: Arc<dyn StateStore>,
    local: Arc<Mutex<HashMap<String, CancellationToken>>>,
    stop: CancellationToken,
    ready: tokio::sync::oneshot::Sender<()>,
) {
    let mut ready = Some(ready);
    loop {
        match store.task_cancels().await {
            Ok(mut cancels) => {
                if let Some(ready) = ready.take() {
                    let _ = ready.send(());
                }
                loop {
                    let id = tokio::select! {
                        () = stop.cancelled() => return,
                        id = cancels.next() => id,
                    };
                    let Some(id) = id else { break };
                    let token = lock(&local).get(&id).cloned();
                    if let Some(token) = token {
                        token.cancel();
                    }
                }
            }
            Err(error) => {
                tracing::warn!(%error, "mcpdesc: cannot hear task cancellations yet");
                ready.take();
            }
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(Duration::from_secs(1)) => {}
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// What the HTTP layer leaves in a request's `Parts` extensions when its endpoint
/// keeps tasks in a shared store: the store and who the request is.
#[derive(Clone)]
pub(crate) struct SharedTaskScope {
    pub(crate) tasks: Arc<SharedTasks>,
    /// The request's session (stateful mode).
    pub(crate) session: Option<String>,
    /// The request's principals (security enforced).
    pub(crate) owner: Option<Owner>,
}

/// The scope the HTTP layer left in `context`, if any.
pub(crate) fn shared_scope(context: &RequestContext<RoleServer>) -> Option<SharedTaskScope> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    parts.extensions.get::<SharedTaskScope>().cloned()
}

/// The scope of the task `id` of an anonymous request without a session: its
/// own.
fn anonymous_scope(id: &str) -> String {
    format!("anonymous:{id}")
}

fn now_ms() -> u64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

fn ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// A store that cannot answer: an internal error naming it.
fn outage(error: StateError) -> ErrorData {
    tracing::warn!(%error, "mcpdesc: a task request needed the shared state");
    ErrorData::internal_error(format!("{error}; try again later"), None)
}

fn not_found(id: &str) -> ErrorData {
    ErrorData::invalid_params(format!("task not found: {id}"), None)
}

/// The wire `Task` of `task`.
pub(crate) fn wire(task: &TaskRecord) -> Value {
    let at = |ms: u64| rfc3339(UNIX_EPOCH + Duration::from_millis(ms));
    let mut wire = json!({
        "taskId": task.id,
        "status": task.status.as_str(),
        "ttl": task.ttl_ms,
        "createdAt": at(task.created_ms),
        "lastUpdatedAt": at(task.updated_ms),
        "pollInterval": task.poll_interval_ms,
    });
    if let Some(message) = &task.status_message {
        wire["statusMessage"] = json!(message);
    }
    wire
}

/// The adapter's outcome of a stored one.
fn outcome(task: &TaskRecord) -> Option<Outcome> {
    Some(match task.outcome.clone()? {
        TaskOutcome::Result(result) => Outcome::Result(result),
        TaskOutcome::Error {
            code,
            message,
            data,
        } => Outcome::Error {
            code,
            message,
            data,
        },
    })
}

/// `task` ended `status` with `message` and `outcome`, now.
fn ended(
    task: &TaskRecord,
    status: TaskStatus,
    message: Option<String>,
    outcome: Option<TaskOutcome>,
) -> TaskRecord {
    TaskRecord {
        status,
        status_message: message,
        outcome,
        updated_ms: now_ms(),
        ..task.clone()
    }
}

/// The internal error `-32603` with `message`: what a failed task's result is when
/// its handler did not end it.
fn internal(message: &str) -> TaskOutcome {
    TaskOutcome::Error {
        code: -32603,
        message: message.to_owned(),
        data: None,
    }
}

impl SharedTaskScope {
    /// The scope of the tasks this request creates and sees; `None` for an
    /// anonymous request without a session, whose tasks each have their own
    /// ([`anonymous_scope`]).
    fn key(&self) -> Option<String> {
        match (&self.session, &self.owner) {
            (Some(session), _) => Some(format!("session:{session}")),
            (None, Some(owner)) => Some(format!(
                "owner:{}",
                serde_json::to_string(owner.principals()).unwrap_or_default()
            )),
            (None, None) => None,
        }
    }

    /// Whether this request may see `task`.
    fn sees(&self, task: &TaskRecord) -> bool {
        let scope = self.key().unwrap_or_else(|| anonymous_scope(&task.id));
        task.scope == scope
            && match (&task.owner, &self.owner) {
                (None, None) => true,
                (Some(owner), Some(caller)) => owner.admits(caller),
                _ => false,
            }
    }

    /// `task` as it is now: a `working` task whose lease ran out is ended
    /// `failed` ([`STOPPED`]) first; `None` when it is gone.
    async fn settle(&self, task: TaskRecord, now: u64) -> Result<Option<TaskRecord>, ErrorData> {
        if task.status.is_terminal() || task.lease_until_ms >= now {
            return Ok(Some(task));
        }
        let stopped = ended(
            &task,
            TaskStatus::Failed,
            Some(STOPPED.to_owned()),
            Some(internal(STOPPED)),
        );
        match self.tasks.store.end_task(&stopped).await.map_err(outage)? {
            TaskEnd::Ended(task) | TaskEnd::AlreadyEnded(task) => Ok(Some(task)),
            TaskEnd::Gone => Ok(None),
        }
    }

    /// Task `id` as this request may see it.
    async fn read(&self, id: &str) -> Result<TaskRecord, ErrorData> {
        let task = self.tasks.store.task(id).await.map_err(outage)?;
        let now = now_ms();
        let task = task
            .filter(|task| self.sees(task))
            .filter(|task| now < task.created_ms.saturating_add(task.ttl_ms))
            .ok_or_else(|| not_found(id))?;
        self.settle(task, now).await?.ok_or_else(|| not_found(id))
    }

    /// A new `working` task held by this instance: its id, the token that
    /// cancels its handler, and its wire `Task`.
    pub(crate) async fn create(
        &self,
        limits: &TaskLimits,
        requested_ttl: Option<u64>,
    ) -> Result<(String, CancellationToken, Value), ErrorData> {
        let ttl = requested_ttl
            .map(Duration::from_millis)
            .unwrap_or(limits.default_ttl)
            .min(limits.max_ttl);
        let live = match self.key() {
            Some(_) => {
                let (tasks, _) = self.page(None, usize::MAX).await?;
                tasks.iter().filter(|t| t["status"] == "working").count()
            }
            None => 0,
        };
        if live >= limits.max_live {
            return Err(ErrorData::invalid_request(
                format!(
                    "too many tasks: this session already runs {}, the most it may; \
                     wait for one to finish or cancel one",
                    limits.max_live
                ),
                None,
            ));
        }
        // Before the task exists, so that no cancellation of it is missed.
        self.tasks.listen().await;
        let now = now_ms();
        let id = rmcp::transport::common::server_side_http::session_id().to_string();
        let task = TaskRecord {
            scope: self.key().unwrap_or_else(|| anonymous_scope(&id)),
            id,
            owner: self.owner.clone(),
            status: TaskStatus::Working,
            status_message: None,
            created_ms: now,
            updated_ms: now,
            ttl_ms: ms(ttl),
            poll_interval_ms: ms(limits.poll_interval),
            outcome: None,
            lease_until_ms: now.saturating_add(ms(self.tasks.lease)),
        };
        self.tasks.store.create_task(&task).await.map_err(outage)?;
        let token = CancellationToken::new();
        lock(&self.tasks.local).insert(task.id.clone(), token.clone());
        Ok((task.id.clone(), token, wire(&task)))
    }

    /// `tasks/get`.
    pub(crate) async fn get(&self, id: &str) -> Result<Value, ErrorData> {
        Ok(wire(&self.read(id).await?))
    }

    /// `tasks/cancel`: the task ends `cancelled`, and its handler, wherever it
    /// runs, is cancelled.
    pub(crate) async fn cancel(&self, id: &str) -> Result<Value, ErrorData> {
        let task = self.read(id).await?;
        let terminal = |task: &TaskRecord| {
            ErrorData::invalid_params(
                format!(
                    "task {id} is already {}: it cannot be cancelled",
                    task.status.as_str()
                ),
                None,
            )
        };
        if task.status.is_terminal() {
            return Err(terminal(&task));
        }
        let cancelled = ended(
            &task,
            TaskStatus::Cancelled,
            Some("cancelled by the client".to_owned()),
            None,
        );
        match self
            .tasks
            .store
            .end_task(&cancelled)
            .await
            .map_err(outage)?
        {
            TaskEnd::Ended(task) => {
                let token = lock(&self.tasks.local).get(id).cloned();
                match token {
                    Some(token) => token.cancel(),
                    None => {
                        if let Err(error) = self.tasks.store.announce_task_cancel(id).await {
                            // The running instance notices at its next renewal.
                            tracing::warn!(%error, "mcpdesc: a task cancellation was not announced");
                        }
                    }
                }
                Ok(wire(&task))
            }
            TaskEnd::AlreadyEnded(task) => Err(terminal(&task)),
            TaskEnd::Gone => Err(not_found(id)),
        }
    }

    /// `tasks/list`: a page of this scope's tasks, oldest first, and the cursor
    /// of the next (`{createdMs}.{taskId}` of the page's last task).
    pub(crate) async fn list(
        &self,
        limits: &TaskLimits,
        cursor: Option<&str>,
    ) -> Result<(Vec<Value>, Option<String>), ErrorData> {
        let after = match cursor {
            None => None,
            Some(text) => {
                let bad = || {
                    ErrorData::invalid_params(format!("invalid tasks/list cursor: {text:?}"), None)
                };
                let (created, id) = text.split_once('.').ok_or_else(bad)?;
                Some((created.parse::<u64>().map_err(|_| bad())?, id.to_owned()))
            }
        };
        self.page(after, limits.page_size.max(1)).await
    }

    /// A page of `size` of this scope's tasks after `after`, and the cursor of the
    /// next.
    async fn page(
        &self,
        after: Option<(u64, String)>,
        size: usize,
    ) -> Result<(Vec<Value>, Option<String>), ErrorData> {
        let Some(scope) = self.key() else {
            return Ok((Vec::new(), None));
        };
        let stored = self.tasks.store.list_tasks(&scope).await.map_err(outage)?;
        let now = now_ms();
        let mut tasks = Vec::new();
        for task in stored {
            if !self.sees(&task) || now >= task.created_ms.saturating_add(task.ttl_ms) {
                continue;
            }
            if let Some(task) = self.settle(task, now).await? {
                tasks.push(task);
            }
        }
        tasks.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        let mut rest = tasks.iter().filter(|t| {
            after
                .as_ref()
                .is_none_or(|(c, id)| (t.created_ms, &t.id) > (*c, id))
        });
        let page: Vec<&TaskRecord> = rest.by_ref().take(size).collect();
        let next = match (rest.next(), page.last()) {
            (Some(_), Some(last)) => Some(format!("{}.{}", last.created_ms, last.id)),
            _ => None,
        };
        Ok((page.into_iter().map(wire).collect(), next))
    }

    /// `tasks/result`'s wait: polls until the task is terminal; its wire `Task`
    /// and outcome (`None` for a cancelled task).
    pub(crate) async fn wait(&self, id: &str) -> Result<(Value, Option<Outcome>), ErrorData> {
        loop {
            let task = self.read(id).await?;
            if task.status.is_terminal() {
                return Ok((wire(&task), outcome(&task)));
            }
            let interval = Duration::from_millis(task.poll_interval_ms.clamp(10, 5_000));
            tokio::time::sleep(interval).await;
        }
    }

    /// Runs the handler of task `id` (`call`) on this instance: renews its lease,
    /// cancels it when the task is cancelled anywhere (it then gets `grace` to wind
    /// down), fails it at the drain's deadline ([`SHUT_DOWN`]), and stores how it
    /// ended.
    pub(crate) async fn run(
        self,
        id: String,
        token: CancellationToken,
        running: RunningTasks,
        mark: Mark,
        grace: Duration,
        call: impl std::future::Future<Output = Outcome>,
    ) {
        let _mark = mark;
        tokio::pin!(call);
        let renewal = self.renew(&id, &token);
        tokio::pin!(renewal);
        let outcome = tokio::select! {
            biased;
            outcome = &mut call => outcome,
            () = running.deadline() => {
                let failed = TaskStatus::Failed;
                if self.end(&id, failed, Some(SHUT_DOWN.to_owned()), Some(internal(SHUT_DOWN))).await {
                    running.count_failed();
                }
                self.forget(&id);
                return;
            }
            () = token.cancelled() => {
                // Cancelled (here or elsewhere) or gone past its TTL: the store has
                // it ended already.
                self.forget(&id);
                tokio::select! {
                    _ = tokio::time::timeout(grace, call) => {}
                    () = running.deadline() => {}
                }
                return;
            }
            () = &mut renewal => return,
        };
        self.forget(&id);
        let (status, message, stored) = match outcome {
            Outcome::Result(result) if result.get("isError") == Some(&Value::Bool(true)) => (
                TaskStatus::Failed,
                Some("the tool returned an execution error (isError)".to_owned()),
                TaskOutcome::Result(result),
            ),
            Outcome::Result(result) => (TaskStatus::Completed, None, TaskOutcome::Result(result)),
            Outcome::Error {
                code,
                message,
                data,
            } => (
                TaskStatus::Failed,
                Some(message.clone()),
                TaskOutcome::Error {
                    code,
                    message,
                    data,
                },
            ),
        };
        self.end(&id, status, message, Some(stored)).await;
    }

    /// Renews the lease every third of it; cancels `token` when the task is no
    /// longer `working` (cancelled, past its TTL). Never resolves.
    async fn renew(&self, id: &str, token: &CancellationToken) {
        let lease = self.tasks.lease;
        loop {
            tokio::time::sleep(lease / 3).await;
            let until = now_ms().saturating_add(ms(lease));
            match self.tasks.store.renew_task_lease(id, until).await {
                Ok(Some(TaskStatus::Working)) => {}
                Ok(_) => token.cancel(),
                Err(error) => {
                    tracing::warn!(%error, "mcpdesc: a task's lease was not renewed");
                }
            }
        }
    }

    /// Ends task `id` if it is still `working`; whether it did (a store outage is
    /// retried while the lease lasts).
    async fn end(
        &self,
        id: &str,
        status: TaskStatus,
        message: Option<String>,
        outcome: Option<TaskOutcome>,
    ) -> bool {
        let deadline = tokio::time::Instant::now() + self.tasks.lease;
        loop {
            let task = match self.tasks.store.task(id).await {
                Ok(Some(task)) => task,
                Ok(None) => return false,
                Err(error) => {
                    tracing::warn!(%error, "mcpdesc: a task's end is not stored yet");
                    if tokio::time::Instant::now() >= deadline {
                        return false;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            };
            let after = ended(&task, status, message.clone(), outcome.clone());
            match self.tasks.store.end_task(&after).await {
                Ok(TaskEnd::Ended(_)) => return true,
                Ok(_) => return false,
                Err(error) => {
                    tracing::warn!(%error, "mcpdesc: a task's end is not stored yet");
                    if tokio::time::Instant::now() >= deadline {
                        return false;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    /// Task `id`'s handler no longer runs here.
    fn forget(&self, id: &str) {
        lock(&self.tasks.local).remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::SessionRecord;

    /// A store that keeps tasks in memory: the seam as another store implements
    /// it (sessions left out).
    #[derive(Default)]
    struct Tasks(Mutex<HashMap<String, TaskRecord>>);

    #[async_trait::async_trait]
    impl StateStore for Tasks {
        fn shared(&self) -> bool {
            true
        }
        async fn open_session(
            &self,
            _: &str,
            _: Option<&Owner>,
            _: Option<Duration>,
        ) -> Result<(), StateError> {
            Ok(())
        }
        async fn save_initialize(
            &self,
            _: &str,
            _: &Value,
            _: Option<Duration>,
        ) -> Result<(), StateError> {
            Ok(())
        }
        async fn session(
            &self,
            _: &str,
            _: Option<Duration>,
        ) -> Result<Option<SessionRecord>, StateError> {
            Ok(None)
        }
        async fn claim_session(&self, _: &str, _: &Owner) -> Result<Option<Owner>, StateError> {
            Ok(None)
        }
        async fn remove_session(&self, _: &str) -> Result<bool, StateError> {
            Ok(false)
        }
        fn keeps_tasks(&self) -> bool {
            true
        }
        async fn create_task(&self, task: &TaskRecord) -> Result<(), StateError> {
            lock(&self.0).insert(task.id.clone(), task.clone());
            Ok(())
        }
        async fn task(&self, id: &str) -> Result<Option<TaskRecord>, StateError> {
            Ok(lock(&self.0).get(id).cloned())
        }
        async fn end_task(&self, task: &TaskRecord) -> Result<TaskEnd, StateError> {
            let mut tasks = lock(&self.0);
            let Some(stored) = tasks.get_mut(&task.id) else {
                return Ok(TaskEnd::Gone);
            };
            if stored.status.is_terminal() {
                return Ok(TaskEnd::AlreadyEnded(stored.clone()));
            }
            *stored = TaskRecord {
                lease_until_ms: stored.lease_until_ms,
                ..task.clone()
            };
            Ok(TaskEnd::Ended(stored.clone()))
        }
        async fn list_tasks(&self, scope: &str) -> Result<Vec<TaskRecord>, StateError> {
            Ok(lock(&self.0)
                .values()
                .filter(|t| t.scope == scope)
                .cloned()
                .collect())
        }
    }

    fn scope(store: &Arc<Tasks>, session: Option<&str>, owner: Option<&str>) -> SharedTaskScope {
        let tasks = SharedTasks::new(store.clone(), DEFAULT_TASK_LEASE, CancellationToken::new());
        SharedTaskScope {
            tasks: Arc::new(tasks),
            session: session.map(str::to_owned),
            owner: owner.and_then(|o| Owner::new([("bearer", o)])),
        }
    }

    fn id_of(task: &Value) -> String {
        task["taskId"].as_str().unwrap().to_owned()
    }

    #[tokio::test]
    async fn tasks_are_listed_in_pages_of_their_scope_only() {
        let store = Arc::new(Tasks::default());
        let (alice, bob) = (
            scope(&store, None, Some("alice")),
            scope(&store, None, Some("bob")),
        );
        let limits = TaskLimits {
            page_size: 2,
            ..TaskLimits::default()
        };
        let mut created = Vec::new();
        for _ in 0..5 {
            created.push(alice.create(&limits, None).await.unwrap().0);
        }
        bob.create(&limits, None).await.unwrap();
        let (mut listed, mut cursor) = alice.list(&limits, None).await.unwrap();
        while let Some(next) = cursor {
            let (page, after) = alice.list(&limits, Some(&next)).await.unwrap();
            assert!(page.len() <= 2);
            listed.extend(page);
            cursor = after;
        }
        let mut listed: Vec<String> = listed.iter().map(id_of).collect();
        listed.sort();
        created.sort();
        assert_eq!(listed, created);
        assert!(alice.list(&limits, Some("x")).await.is_err());
        // Bob sees his own task only, and Alice's as unknown.
        assert_eq!(bob.list(&limits, None).await.unwrap().0.len(), 1);
        let refused = bob.get(&created[0]).await.unwrap_err();
        assert_eq!(refused.message, format!("task not found: {}", created[0]));
        // The same principal in another session sees none of Alice's stateless ones.
        let session = scope(&store, Some("s1"), Some("alice"));
        assert!(session.get(&created[0]).await.is_err());
    }

    #[tokio::test]
    async fn a_task_past_its_lease_is_read_failed_and_stays() {
        let store = Arc::new(Tasks::default());
        let alice = scope(&store, Some("s1"), None);
        let limits = TaskLimits::default();
        let (id, _, _) = alice.create(&limits, None).await.unwrap();
        assert_eq!(alice.get(&id).await.unwrap()["status"], "working");
        lock(&store.0).get_mut(&id).unwrap().lease_until_ms = now_ms() - 1;
        let task = alice.get(&id).await.unwrap();
        assert_eq!(task["status"], "failed");
        assert_eq!(task["statusMessage"], STOPPED);
        let (_, outcome) = alice.wait(&id).await.unwrap();
        assert_eq!(
            outcome,
            Some(Outcome::Error {
                code: -32603,
                message: STOPPED.to_owned(),
                data: None
            })
        );
        // A cancel after the end is refused; the failed status stays.
        assert!(alice.cancel(&id).await.is_err());
        assert_eq!(alice.get(&id).await.unwrap()["status"], "failed");
    }

    #[tokio::test]
    async fn too_many_working_tasks_are_refused_except_anonymous_ones() {
        let store = Arc::new(Tasks::default());
        let limits = TaskLimits {
            max_live: 1,
            ..TaskLimits::default()
        };
        let alice = scope(&store, None, Some("alice"));
        let (id, _, _) = alice.create(&limits, None).await.unwrap();
        assert_eq!(
            alice.create(&limits, None).await.unwrap_err().code.0,
            -32600
        );
        alice.cancel(&id).await.unwrap();
        alice.create(&limits, None).await.unwrap();
        let anonymous = scope(&store, None, None);
        let (a, _, _) = anonymous.create(&limits, None).await.unwrap();
        anonymous.create(&limits, None).await.unwrap();
        assert!(anonymous.list(&limits, None).await.unwrap().0.is_empty());
        assert_eq!(anonymous.get(&a).await.unwrap()["status"], "working");
    }
}
