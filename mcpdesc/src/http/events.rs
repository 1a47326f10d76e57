//! The events of resumable SSE streams in a shared store: rmcp's `EventStore` over
//! [`StateStore::append_event`] and [`StateStore::events_after`], when the store keeps
//! them ([`StateStore::keeps_events`]; `RedisState::with_resumable_streams`).
//!
//! rmcp stores every event it sends on an SSE stream before sending it, with the id
//! the store gives (`{stream}#{position}`), and answers a `GET` with `Last-Event-ID`
//! from the store: so a client whose connection broke resumes its stream on any
//! instance. A session's standalone stream (`{session}:common`) is one stream for
//! every instance (each appends what its worker sends there), so its replay holds
//! what any instance sent; the session's `GET` that resumes it goes on live after the
//! replay (`super::hibernate`).
//!
//! [`StateStore::append_event`]: crate::state::StateStore::append_event
//! [`StateStore::events_after`]: crate::state::StateStore::events_after
//! [`StateStore::keeps_events`]: crate::state::StateStore::keeps_events

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::ServerJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::{
    EventId, EventStore, EventStoreError, EventStream, ServerSseMessage,
};
use serde::{Deserialize, Serialize};

use crate::state::StateStore;

/// Separates a stream's id from the event's position in an event id.
const SEPARATOR: char = '#';

/// rmcp's event store over a shared [`StateStore`].
pub(crate) struct SharedEvents {
    pub(crate) store: Arc<dyn StateStore>,
}

/// An event as stored: its message (none for a priming event) and retry hint.
#[derive(Serialize, Deserialize)]
struct Stored {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    message: Option<ServerJsonRpcMessage>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    retry_ms: Option<u64>,
}

#[async_trait::async_trait]
impl EventStore for SharedEvents {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<EventId, EventStoreError> {
        let stored = Stored {
            message: event.message.as_deref().cloned(),
            retry_ms: event
                .retry
                .map(|retry| u64::try_from(retry.as_millis()).unwrap_or(u64::MAX)),
        };
        let text = serde_json::to_string(&stored)?;
        let position = self.store.append_event(stream_id, &text).await?;
        Ok(format!("{stream_id}{SEPARATOR}{position}"))
    }

    async fn replay_events_after(
        &self,
        last_event_id: &str,
    ) -> Result<EventStream, EventStoreError> {
        let (stream, position) = last_event_id
            .rsplit_once(SEPARATOR)
            .ok_or("not an event id of this server")?;
        let events = self.store.events_after(stream, position).await?;
        let stream = stream.to_owned();
        let replayed = events.into_iter().filter_map(move |(position, text)| {
            let stored: Stored = serde_json::from_str(&text).ok()?;
            let mut event = match (stored.message, stored.retry_ms) {
                (Some(message), _) => ServerSseMessage::from_message(message),
                (None, Some(ms)) => ServerSseMessage::retry(Duration::from_millis(ms)),
                (None, None) => return None,
            };
            event.event_id = Some(format!("{stream}{SEPARATOR}{position}"));
            Some(event)
        });
        Ok(Box::pin(futures::stream::iter(
            replayed.collect::<Vec<_>>(),
        )))
    }
}

/// Whether `last_event_id` (of a `GET` with `Last-Event-ID`) resumes a session's
/// standalone stream, rather than a request's: with a shared store, a stream named
/// `{session}:common`; else rmcp's own ids, whose standalone stream's have no
/// `/{request}` part.
pub(crate) fn resumes_standalone(last_event_id: &str) -> bool {
    match last_event_id.rsplit_once(SEPARATOR) {
        Some((stream, _)) => stream.ends_with(":common"),
        None => !last_event_id.contains('/'),
    }
}

#[cfg(test)]
mod tests {
    use super::resumes_standalone;

    #[test]
    fn standalone_streams_are_told_from_requests_streams() {
        assert!(resumes_standalone("6f1c-aa:common#1733590000000-0"));
        assert!(!resumes_standalone(
            "0b4d1c8e-3f5a-4c2e-9d7b-1a2b3c4d5e6f#1733590000000-3"
        ));
        assert!(resumes_standalone("12"));
        assert!(!resumes_standalone("3/7"));
    }
}
