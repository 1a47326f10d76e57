//! The shared store on Redis (feature `redis`).
//!
//! # Key layout
//!
//! One hash per session, `{prefix}session:{id}` (the prefix is `mcpdesc:` unless
//! [`RedisState::with_prefix`] sets another, so that several services can share
//! one Redis):
//!
//! | field    | value                                                     |
//! |----------|-----------------------------------------------------------|
//! | `opened` | `1`: the session was opened (the key exists from then on) |
//! | `init`   | the `initialize` parameters, JSON                         |
//! | `owner`  | the owner ([`Owner`]), JSON; absent: anonymous            |
//! | `level`  | the level of its last `logging/setLevel`, e.g. `warning`  |
//! | `sub:{uri}` | `1`: the session is subscribed to `{uri}` (one field per URI, removed by `resources/unsubscribe`) |
//!
//! `level` and the `sub:` fields are written only while the key exists (a script
//! checks it), so a session deleted meanwhile is not brought back; they share the
//! key's TTL. A session restored on another instance reads them with the rest.
//!
//! Change announcements (`ChangeNotifier`: `resources/updated`, `list_changed`)
//! are published on the pub/sub channel `{prefix}changes` as the JSON of a
//! [`ChangeAnnouncement`]; each HTTP server subscribes to it on a connection of its
//! own (`redis_feed`) and delivers what other instances announced to its subscribed
//! sessions. The same channel carries the internal announcements that keep a
//! session's live workers on other instances in step with its `level` and `sub:`
//! fields (`mcpdesc/session/subscribe`, `.../unsubscribe`, `.../level`, with the
//! session's id; never sent to a client). Nothing is stored for them (no key, no
//! TTL): an instance that is not subscribed at that moment (Redis down,
//! reconnecting) misses the announcement.
//!
//! A session's messages between instances (`http/relay.rs`) go on the pub/sub
//! channel `{prefix}relay` as the JSON of a [`RelayedMessage`] (the relaying
//! instance's id, the session's id, which way, the JSON-RPC message and its SSE event
//! id), read by each HTTP server on a connection of its own; nothing is stored for
//! them either.
//!
//! # Time to live
//!
//! The key's TTL is the session idle timeout (`HttpServer::session_idle_timeout`,
//! 300 s by default), restarted by the requests of the session on any instance (the
//! read that checks its owner sets it again, in the same transaction). An instance
//! reads a session's record at most once per [`RedisState::with_recheck`] (1 s by
//! default) while requests keep coming: so a `DELETE` on one instance reaches the
//! others within that time, and the CPU a request spends on Redis stays small. A
//! session idle for the idle timeout is gone on every instance; with no idle timeout
//! the key has none either and only `DELETE` removes it.
//!
//! # Tasks
//!
//! MCP 2025-11-25 tasks ([`StateStore::keeps_tasks`] is `true`; the methods are in
//! `redis_tasks.rs`), under the same prefix:
//!
//! | key | type | value | TTL |
//! |---|---|---|---|
//! | `{prefix}task:{id}` | hash | `status` (`working`, `completed`, `failed`, `cancelled`), `task` (the [`TaskRecord`], JSON, its outcome included), `lease` (until when, in ms since the Unix epoch, the instance running the handler holds it) | the task's TTL (its requested `ttl`, bounded by `TaskLimits`), set at creation and never restarted |
//! | `{prefix}tasks:{scope}` | sorted set | the ids of a scope's tasks (`session:{id}`, `owner:{principals}`, or `anonymous:{task id}` for a task of an anonymous stateless request), scored by creation time | at least the TTL of its newest task (raised at each creation); ids of expired tasks are removed when listed |
//!
//! and the pub/sub channel `{prefix}task-cancels`, on which `tasks/cancel` publishes
//! the id of the task it cancelled (the instance running its handler subscribes,
//! on a connection of its own, from its first task on).
//!
//! A task's terminal status and its outcome are written together by one Lua script,
//! which writes only while the stored status is still `working` (so a late handler
//! does not revive a cancelled task, and no reader sees `completed` without its
//! result). The lease is renewed by another script every third of the lease
//! (`HttpServer::task_lease`, 10 s by default); a `working` task whose lease has
//! passed is ended `failed` ("the instance running this task stopped") by the next
//! instance that reads it. The `pollInterval`, the creation and update times are in
//! the record.
//!
//! # Events of SSE streams
//!
//! With [`RedisState::with_resumable_streams`] (off by default), every event rmcp
//! sends on an SSE stream is appended first to a Redis stream, `{prefix}events:{id}`
//! (the SSE stream's id: a UUID for a request's stream, `{session}:common` for a
//! session's standalone stream, which every instance of the session appends to), each
//! entry one field `e` (the event, JSON). The SSE event id the client receives is
//! `{id}#{entry id}`; a `GET` with `Last-Event-ID` on any instance replays the
//! entries after it (`XRANGE`). Each stream keeps about its last 1,000 events
//! (`MAXLEN ~`); its key expires the given TTL after its last event.
//!
//! # Outages
//!
//! Every operation is bounded by [`RedisState::with_timeout`] (2 s by default): past
//! it, or when Redis refuses, the operation fails with a [`StateError`] and the
//! request that needed it gets `503` with `Retry-After`. The connection manager
//! reconnects on its own; when Redis is back, sessions work again. When Redis loses
//! its data (restarted without persistence, flushed), every session is gone: the
//! next request of each gets `404`, and clients re-initialize.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, Script};
use serde_json::Value;

use super::changes::{ChangeAnnouncement, ChangeFeed, FEED_CAPACITY};
use super::owner::Owner;
use super::redis_bounded::bounded;
use super::redis_events::{EventSettings, RedisEvents};
use super::redis_feed::{spawn_feed, Feed};
use super::redis_tasks::RedisTasks;
use super::relay::{RelayFeed, RelayedMessage};
use super::store::{SessionRecord, StateError, StateStore};
use super::task_record::{TaskEnd, TaskRecord, TaskStatus};

/// Sets the owner of a session that has none, if the session exists; answers the
/// owner after (nil: no such session).
const CLAIM: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSETNX', KEYS[1], 'owner', ARGV[1])
return redis.call('HGET', KEYS[1], 'owner')
";

/// Sets (`ARGV[2]` not empty) or removes field `ARGV[1]` of a session that
/// exists, and restarts its TTL (`ARGV[3]` ms, `0`: none); answers whether it
/// exists.
const SET_FIELD: &str = r"
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[2] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
end
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
";

/// The hash field of a subscription to `uri`.
const SUBSCRIPTION_FIELD: &str = "sub:";

/// Sessions' records in a Redis server shared by every instance (see the module
/// docs for the key layout, the TTLs and what an outage does).
#[derive(Clone)]
pub struct RedisState {
    /// Opens the pub/sub connections (relayed messages, task cancellations), one
    /// of their own each.
    client: redis::Client,
    connection: ConnectionManager,
    prefix: String,
    timeout: Duration,
    recheck: Duration,
    claim: Script,
    /// The events of SSE streams, when kept ([`RedisState::with_resumable_streams`]).
    events: Option<EventSettings>,
    set_field: Script,
}

impl std::fmt::Debug for RedisState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisState")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .field("recheck", &self.recheck)
            .finish_non_exhaustive()
    }
}

impl RedisState {
    /// The default key prefix.
    pub const DEFAULT_PREFIX: &'static str = "mcpdesc:";

    /// The default bound on one operation.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);

    /// How long an instance serves a session before it reads its record again, by
    /// default.
    pub const DEFAULT_RECHECK: Duration = Duration::from_secs(1);

    /// A store on the Redis server at `url` (`redis://host:port/db`). It does not
    /// connect yet: the first operation does (so a server starts while Redis is
    /// down, and answers `503` until it is up). Fails on a malformed URL, and
    /// outside a Tokio runtime (the connection manager runs a task of its own).
    pub fn open(url: &str) -> Result<RedisState, StateError> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(StateError::new(
                "RedisState::open needs a Tokio runtime (call it from async code)",
            ));
        }
        let client = redis::Client::open(url).map_err(StateError::new)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Self::DEFAULT_TIMEOUT))
            .set_response_timeout(Some(Self::DEFAULT_TIMEOUT))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_millis(500));
        let connection = ConnectionManager::new_lazy_with_config(client.clone(), config)
            .map_err(StateError::new)?;
        Ok(RedisState {
            client,
            connection,
            prefix: Self::DEFAULT_PREFIX.to_owned(),
            timeout: Self::DEFAULT_TIMEOUT,
            recheck: Self::DEFAULT_RECHECK,
            claim: Script::new(CLAIM),
            events: None,
            set_field: Script::new(SET_FIELD),
        })
    }

    /// Keys start with `prefix` instead of `mcpdesc:`.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> RedisState {
        self.prefix = prefix.into();
        self
    }

    /// Bounds each operation to `timeout` instead of 2 s.
    pub fn with_timeout(mut self, timeout: Duration) -> RedisState {
        self.timeout = timeout;
        self
    }

    /// Reads a session's record again after `recheck` instead of 1 s (zero: at
    /// every request; see the module docs).
    pub fn with_recheck(mut self, recheck: Duration) -> RedisState {
        self.recheck = recheck;
        self
    }

    /// The task methods (`redis_tasks.rs`).
    /// Keeps the events of SSE streams (each stream about its last 1,000), so that a
    /// client resumes a stream with `Last-Event-ID` on any instance; a stream's
    /// events expire `ttl` after its last one. Off by default: every event is then
    /// a write to Redis (about one per `tools/call`; `docs/benchmarks.md`).
    pub fn with_resumable_streams(mut self, ttl: Duration) -> RedisState {
        self.events = Some(EventSettings {
            ttl,
            max_len: 1_000,
        });
        self
    }

    fn events(&self) -> Result<RedisEvents<'_>, StateError> {
        let settings = self.events.ok_or_else(|| {
            StateError::new("SSE events are not kept (RedisState::with_resumable_streams)")
        })?;
        Ok(RedisEvents {
            connection: self.connection.clone(),
            prefix: &self.prefix,
            timeout: self.timeout,
            settings,
        })
    }

    fn tasks(&self) -> RedisTasks<'_> {
        RedisTasks {
            connection: self.connection.clone(),
            client: &self.client,
            prefix: &self.prefix,
            timeout: self.timeout,
        }
    }

    fn key(&self, id: &str) -> String {
        format!("{}session:{id}", self.prefix)
    }

    /// The pub/sub channel of change announcements.
    fn changes_channel(&self) -> String {
        format!("{}changes", self.prefix)
    }

    /// Sets (`value` not empty) or removes `field` of session `id` if it exists.
    async fn set_field(
        &self,
        id: &str,
        field: &str,
        value: &str,
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        let mut connection = self.connection.clone();
        let mut invocation = self.set_field.key(self.key(id));
        invocation.arg(field).arg(value).arg(ttl.map_or(0, millis));
        self.bounded(invocation.invoke_async::<i64>(&mut connection))
            .await
            .map(drop)
    }

    /// `operation`, bounded by the timeout.
    async fn bounded<T>(
        &self,
        operation: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, StateError> {
        bounded(self.timeout, operation).await
    }

    /// Sets `fields` of session `id` and its TTL, in one transaction.
    async fn set(
        &self,
        id: &str,
        fields: &[(&str, String)],
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        let key = self.key(id);
        let mut pipe = redis::pipe();
        pipe.atomic();
        for (field, value) in fields {
            pipe.hset(&key, *field, value).ignore();
        }
        if let Some(ttl) = ttl {
            pipe.pexpire(&key, millis(ttl)).ignore();
        }
        let mut connection = self.connection.clone();
        self.bounded(pipe.query_async::<()>(&mut connection)).await
    }
}

fn millis(ttl: Duration) -> i64 {
    i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX).max(1)
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, StateError> {
    serde_json::to_string(value).map_err(StateError::new)
}

#[async_trait::async_trait]
impl StateStore for RedisState {
    fn shared(&self) -> bool {
        true
    }

    fn recheck_after(&self) -> Duration {
        self.recheck
    }

    async fn open_session(
        &self,
        id: &str,
        owner: Option<&Owner>,
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        let mut fields = vec![("opened", "1".to_owned())];
        if let Some(owner) = owner {
            fields.push(("owner", json(owner)?));
        }
        self.set(id, &fields, ttl).await
    }

    async fn save_initialize(
        &self,
        id: &str,
        initialize: &Value,
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        self.set(
            id,
            &[("opened", "1".to_owned()), ("init", json(initialize)?)],
            ttl,
        )
        .await
    }

    async fn session(
        &self,
        id: &str,
        ttl: Option<Duration>,
    ) -> Result<Option<SessionRecord>, StateError> {
        let key = self.key(id);
        let mut pipe = redis::pipe();
        pipe.atomic().hgetall(&key);
        if let Some(ttl) = ttl {
            pipe.pexpire(&key, millis(ttl)).ignore();
        }
        let mut connection = self.connection.clone();
        let (fields,): (HashMap<String, String>,) =
            self.bounded(pipe.query_async(&mut connection)).await?;
        if fields.is_empty() {
            return Ok(None);
        }
        let parse = |field: &str| -> Result<Option<Value>, StateError> {
            fields
                .get(field)
                .map(|text| serde_json::from_str(text).map_err(StateError::new))
                .transpose()
        };
        let owner = match parse("owner")? {
            Some(owner) => Some(serde_json::from_value(owner).map_err(StateError::new)?),
            None => None,
        };
        let mut subscriptions: Vec<String> = fields
            .keys()
            .filter_map(|field| field.strip_prefix(SUBSCRIPTION_FIELD))
            .map(str::to_owned)
            .collect();
        subscriptions.sort();
        Ok(Some(SessionRecord {
            initialize: parse("init")?,
            owner,
            log_level: fields.get("level").cloned(),
            subscriptions,
        }))
    }

    async fn claim_session(&self, id: &str, owner: &Owner) -> Result<Option<Owner>, StateError> {
        let mut connection = self.connection.clone();
        let mut invocation = self.claim.key(self.key(id));
        invocation.arg(json(owner)?);
        let after: Option<String> = self
            .bounded(invocation.invoke_async(&mut connection))
            .await?;
        after
            .map(|text| serde_json::from_str(&text).map_err(StateError::new))
            .transpose()
    }

    // ---- Session state kept for a restore, and announcements (`redis_feed`).

    async fn save_log_level(
        &self,
        id: &str,
        level: &str,
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        self.set_field(id, "level", level, ttl).await
    }

    async fn save_subscription(
        &self,
        id: &str,
        uri: &str,
        subscribed: bool,
        ttl: Option<Duration>,
    ) -> Result<(), StateError> {
        let field = format!("{SUBSCRIPTION_FIELD}{uri}");
        let value = if subscribed { "1" } else { "" };
        self.set_field(id, &field, value, ttl).await
    }

    async fn publish_change(&self, announcement: &ChangeAnnouncement) -> Result<(), StateError> {
        let mut connection = self.connection.clone();
        let payload = json(announcement)?;
        let _: i64 = self
            .bounded(connection.publish(self.changes_channel(), payload))
            .await?;
        Ok(())
    }

    fn change_feed(&self) -> Option<ChangeFeed> {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::warn!("mcpdesc: RedisState::change_feed needs a Tokio runtime; announcements from other instances are not delivered");
            return None;
        }
        let feed = Feed {
            channel: self.changes_channel(),
            parse: ChangeAnnouncement::from_json,
            capacity: FEED_CAPACITY,
            what: "change announcements",
        };
        Some(spawn_feed(self.client.clone(), feed, self.timeout))
    }

    async fn remove_session(&self, id: &str) -> Result<bool, StateError> {
        let mut connection = self.connection.clone();
        let removed: usize = self.bounded(connection.del(self.key(id))).await?;
        Ok(removed > 0)
    }

    // ---- MCP 2025-11-25 tasks (`redis_tasks.rs`) ----

    fn keeps_tasks(&self) -> bool {
        true
    }

    async fn create_task(&self, task: &TaskRecord) -> Result<(), StateError> {
        self.tasks().create(task).await
    }

    async fn task(&self, id: &str) -> Result<Option<TaskRecord>, StateError> {
        self.tasks().get(id).await
    }

    async fn end_task(&self, task: &TaskRecord) -> Result<TaskEnd, StateError> {
        self.tasks().end(task).await
    }

    async fn renew_task_lease(
        &self,
        id: &str,
        until_ms: u64,
    ) -> Result<Option<TaskStatus>, StateError> {
        self.tasks().renew(id, until_ms).await
    }

    async fn list_tasks(&self, scope: &str) -> Result<Vec<TaskRecord>, StateError> {
        self.tasks().list(scope).await
    }

    async fn announce_task_cancel(&self, id: &str) -> Result<(), StateError> {
        self.tasks().announce_cancel(id).await
    }

    async fn task_cancels(
        &self,
    ) -> Result<futures::stream::BoxStream<'static, String>, StateError> {
        self.tasks().cancels().await
    }

    async fn publish_relayed(&self, message: &RelayedMessage) -> Result<(), StateError> {
        let mut connection = self.connection.clone();
        let channel = format!("{}relay", self.prefix);
        self.bounded(connection.publish::<_, _, ()>(channel, json(message)?))
            .await
    }

    fn keeps_events(&self) -> bool {
        self.events.is_some()
    }

    async fn append_event(&self, stream: &str, event: &str) -> Result<String, StateError> {
        self.events()?.append(stream, event).await
    }

    async fn events_after(
        &self,
        stream: &str,
        position: &str,
    ) -> Result<Vec<(String, String)>, StateError> {
        self.events()?.after(stream, position).await
    }

    fn relay_feed(&self) -> Option<RelayFeed> {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::warn!("mcpdesc: RedisState::relay_feed needs a Tokio runtime; messages from other instances are not delivered");
            return None;
        }
        let feed = Feed {
            channel: format!("{}relay", self.prefix),
            parse: RelayedMessage::from_json,
            capacity: RELAY_FEED_CAPACITY,
            what: "session messages",
        };
        Some(spawn_feed(self.client.clone(), feed, self.timeout))
    }
}

/// How many relayed session messages a feed holds for its reader.
const RELAY_FEED_CAPACITY: usize = 1024;
