//! A session's messages between the instances sharing a store
//! (`StateStore::publish_relayed`, `StateStore::relay_feed`): what a client sent to
//! one instance for a request another instance runs, and what a session's worker on
//! one instance sent to a client whose stream is held by another.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Which way a relayed message goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RelayDirection {
    /// From the client to the session's workers: a notification (`notifications/cancelled`,
    /// `notifications/progress`, `notifications/roots/list_changed`) or the answer to a
    /// request the server sent (elicitation, sampling, roots, ping). Every instance
    /// running the session hands it to its worker; the one that runs the request
    /// concerned acts on it, the others ignore it as rmcp ignores an unknown id.
    Server,
    /// From a session's worker to its client: a message rmcp sends on the session's
    /// standalone stream (a log message, a server request not tied to a client
    /// request), relayed to the instance holding the client's `GET` stream.
    Client,
}

/// One message of one session, as an instance relayed it.
///
/// ```
/// use mcpdesc::state::{RelayDirection, RelayedMessage};
/// use serde_json::json;
///
/// let relayed = RelayedMessage {
///     origin: "instance-1".into(),
///     session: "6f1c…".into(),
///     direction: RelayDirection::Server,
///     message: json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
///                     "params": {"requestId": 7}}),
///     event_id: None,
/// };
/// let text = serde_json::to_string(&relayed).unwrap();
/// assert_eq!(RelayedMessage::from_json(text.as_bytes()).unwrap(), relayed);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelayedMessage {
    /// The relaying instance (random, one per HTTP server): it skips its own
    /// messages when they come back.
    pub origin: String,
    /// The session's id.
    pub session: String,
    /// Which way it goes.
    pub direction: RelayDirection,
    /// The JSON-RPC message.
    pub message: Value,
    /// Its SSE event id, when the store keeps the events of SSE streams (the client
    /// resumes after it on any instance); `None` otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
}

impl RelayedMessage {
    /// The message written as `bytes` (its JSON form); `None` for anything else.
    pub fn from_json(bytes: &[u8]) -> Option<RelayedMessage> {
        serde_json::from_slice(bytes).ok()
    }
}

/// The messages a store receives from every instance (this one's included), from the
/// moment it was asked for; the store stops feeding it once it is dropped.
pub type RelayFeed = tokio::sync::mpsc::Receiver<RelayedMessage>;
