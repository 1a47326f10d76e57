//! The events of resumable SSE streams on Redis: the event methods of `RedisState`
//! when `RedisState::with_resumable_streams` turned them on (the key layout and TTLs
//! are in its module docs, "Events of SSE streams").

use std::time::Duration;

use redis::aio::ConnectionManager;

use super::redis_bounded::bounded;
use super::store::StateError;

/// How events are kept.
#[derive(Debug, Clone, Copy)]
pub(super) struct EventSettings {
    /// A stream's key expires this long after its last event.
    pub(super) ttl: Duration,
    /// About how many events a stream keeps (Redis trims the oldest, `MAXLEN ~`).
    pub(super) max_len: usize,
}

/// The event methods over one Redis connection, with `RedisState`'s settings.
pub(super) struct RedisEvents<'a> {
    pub(super) connection: ConnectionManager,
    pub(super) prefix: &'a str,
    pub(super) timeout: Duration,
    pub(super) settings: EventSettings,
}

impl RedisEvents<'_> {
    fn key(&self, stream: &str) -> String {
        format!("{}events:{stream}", self.prefix)
    }

    /// `XADD` to the stream's Redis stream (trimmed to about `max_len`) and its TTL
    /// restarted, in one transaction; the entry's id is the position.
    pub(super) async fn append(&self, stream: &str, event: &str) -> Result<String, StateError> {
        let key = self.key(stream);
        let mut pipe = redis::pipe();
        pipe.atomic()
            .cmd("XADD")
            .arg(&key)
            .arg("MAXLEN")
            .arg("~")
            .arg(self.settings.max_len)
            .arg("*")
            .arg("e")
            .arg(event)
            .cmd("PEXPIRE")
            .arg(&key)
            .arg(
                i64::try_from(self.settings.ttl.as_millis())
                    .unwrap_or(i64::MAX)
                    .max(1),
            )
            .ignore();
        let mut connection = self.connection.clone();
        let (position,): (String,) =
            bounded(self.timeout, pipe.query_async(&mut connection)).await?;
        Ok(position)
    }

    /// `XRANGE` from just after `position` to the end.
    pub(super) async fn after(
        &self,
        stream: &str,
        position: &str,
    ) -> Result<Vec<(String, String)>, StateError> {
        let mut connection = self.connection.clone();
        let entries: Vec<(String, Vec<(String, String)>)> = bounded(
            self.timeout,
            redis::cmd("XRANGE")
                .arg(self.key(stream))
                .arg(format!("({position}"))
                .arg("+")
                .query_async(&mut connection),
        )
        .await?;
        Ok(entries
            .into_iter()
            .filter_map(|(id, fields)| {
                let event = fields.into_iter().find(|(name, _)| name == "e")?.1;
                Some((id, event))
            })
            .collect())
    }
}
