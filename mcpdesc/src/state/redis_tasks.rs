//! MCP 2025-11-25 tasks on Redis: the task methods of `RedisState` (the key
//! layout and TTLs are in its module docs, "Tasks").

use std::future::Future;
use std::time::Duration;

use futures::stream::{BoxStream, StreamExt};
use redis::aio::ConnectionManager;
use redis::{AsyncCommands, Script};

use super::redis_bounded::bounded;
use super::store::StateError;
use super::task_record::{TaskEnd, TaskRecord, TaskStatus};

/// Stores a new task and lists it in its scope; the scope's list lives at least
/// as long as its newest task.
const CREATE: &str = r"
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'task', ARGV[2], 'lease', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[4]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return 1
";

/// Ends a `working` task (status and record in one write); answers
/// `{ended, record, lease}`, nil for an unknown task.
const END: &str = r"
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
if status ~= 'working' then
  return {0, redis.call('HGET', KEYS[1], 'task'), redis.call('HGET', KEYS[1], 'lease') or '0'}
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'task', ARGV[2])
return {1, ARGV[2], redis.call('HGET', KEYS[1], 'lease') or '0'}
";

/// Renews the lease of a `working` task; answers its status (nil: unknown).
const RENEW: &str = r"
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return false end
if status == 'working' then redis.call('HSET', KEYS[1], 'lease', ARGV[1]) end
return status
";

/// The task methods over one Redis connection, with `RedisState`'s settings.
pub(super) struct RedisTasks<'a> {
    pub(super) connection: ConnectionManager,
    pub(super) client: &'a redis::Client,
    pub(super) prefix: &'a str,
    pub(super) timeout: Duration,
}

impl RedisTasks<'_> {
    fn task_key(&self, id: &str) -> String {
        format!("{}task:{id}", self.prefix)
    }

    fn scope_key(&self, scope: &str) -> String {
        format!("{}tasks:{scope}", self.prefix)
    }

    fn channel(&self) -> String {
        format!("{}task-cancels", self.prefix)
    }

    /// `operation`, bounded by the timeout.
    async fn bounded<T>(
        &self,
        operation: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, StateError> {
        bounded(self.timeout, operation).await
    }

    pub(super) async fn create(&self, task: &TaskRecord) -> Result<(), StateError> {
        let script = Script::new(CREATE);
        let mut invocation = script.prepare_invoke();
        invocation
            .key(self.task_key(&task.id))
            .key(self.scope_key(&task.scope))
            .arg(task.status.as_str())
            .arg(json(task)?)
            .arg(task.lease_until_ms)
            .arg(task.ttl_ms.max(1))
            .arg(task.created_ms)
            .arg(&task.id);
        let mut connection = self.connection.clone();
        self.bounded(invocation.invoke_async::<i64>(&mut connection))
            .await
            .map(drop)
    }

    pub(super) async fn get(&self, id: &str) -> Result<Option<TaskRecord>, StateError> {
        let mut connection = self.connection.clone();
        let (task, lease): (Option<String>, Option<u64>) = self
            .bounded(connection.hmget(self.task_key(id), &["task", "lease"]))
            .await?;
        task.map(|task| record(&task, lease.unwrap_or(0)))
            .transpose()
    }

    pub(super) async fn end(&self, task: &TaskRecord) -> Result<TaskEnd, StateError> {
        let script = Script::new(END);
        let mut invocation = script.prepare_invoke();
        invocation
            .key(self.task_key(&task.id))
            .arg(task.status.as_str())
            .arg(json(task)?);
        let mut connection = self.connection.clone();
        let after: Option<(i64, String, u64)> = self
            .bounded(invocation.invoke_async(&mut connection))
            .await?;
        Ok(match after {
            None => TaskEnd::Gone,
            Some((1, text, lease)) => TaskEnd::Ended(record(&text, lease)?),
            Some((_, text, lease)) => TaskEnd::AlreadyEnded(record(&text, lease)?),
        })
    }

    pub(super) async fn renew(
        &self,
        id: &str,
        until_ms: u64,
    ) -> Result<Option<TaskStatus>, StateError> {
        let script = Script::new(RENEW);
        let mut invocation = script.prepare_invoke();
        invocation.key(self.task_key(id)).arg(until_ms);
        let mut connection = self.connection.clone();
        let status: Option<String> = self
            .bounded(invocation.invoke_async(&mut connection))
            .await?;
        Ok(status.as_deref().and_then(TaskStatus::parse))
    }

    pub(super) async fn list(&self, scope: &str) -> Result<Vec<TaskRecord>, StateError> {
        let scope_key = self.scope_key(scope);
        let mut connection = self.connection.clone();
        let ids: Vec<String> = self.bounded(connection.zrange(&scope_key, 0, -1)).await?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut pipe = redis::pipe();
        for id in &ids {
            pipe.hmget(self.task_key(id), &["task", "lease"]);
        }
        let rows: Vec<(Option<String>, Option<u64>)> =
            self.bounded(pipe.query_async(&mut connection)).await?;
        let mut tasks = Vec::new();
        let mut gone = Vec::new();
        for (id, row) in ids.iter().zip(rows) {
            match row {
                (Some(task), lease) => tasks.push(record(&task, lease.unwrap_or(0))?),
                // Past its TTL: out of the list too.
                (None, _) => gone.push(id.clone()),
            }
        }
        if !gone.is_empty() {
            let _: Result<i64, _> = self.bounded(connection.zrem(&scope_key, gone)).await;
        }
        Ok(tasks)
    }

    pub(super) async fn announce_cancel(&self, id: &str) -> Result<(), StateError> {
        let mut connection = self.connection.clone();
        self.bounded(connection.publish::<_, _, i64>(self.channel(), id))
            .await
            .map(drop)
    }

    pub(super) async fn cancels(&self) -> Result<BoxStream<'static, String>, StateError> {
        let mut pubsub = self.bounded(self.client.get_async_pubsub()).await?;
        self.bounded(pubsub.subscribe(self.channel())).await?;
        Ok(pubsub
            .into_on_message()
            .filter_map(|message| async move { message.get_payload::<String>().ok() })
            .boxed())
    }
}

fn json(task: &TaskRecord) -> Result<String, StateError> {
    serde_json::to_string(task).map_err(StateError::new)
}

/// A stored record, its lease as last renewed.
fn record(text: &str, lease: u64) -> Result<TaskRecord, StateError> {
    let mut task: TaskRecord = serde_json::from_str(text).map_err(StateError::new)?;
    task.lease_until_ms = lease;
    Ok(task)
}
