//! The raw results of the session's own requests, recorded off the wire.
//!
//! rmcp parses every response into its typed `ServerResult`, an untagged union whose
//! variants keep only the members they model (a `tools/list` page loses each tool's
//! `execution`, for one). A session therefore records the JSON of the responses it
//! cares about at the transport, before rmcp parses them, keyed by request id: the
//! transport notes each outgoing request the session wants raw ([`Tap::note_outgoing`])
//! and each incoming response ([`Tap::note_incoming`]); the session takes the raw
//! result once rmcp has delivered the typed one ([`Tap::take`]). Both stdio
//! (`lines.rs`) and streamable HTTP (`http.rs`) feed the same tap.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use rmcp::model::{ClientJsonRpcMessage, ClientRequest, RequestId};
use serde_json::Value;

use super::challenge::AuthRefusal;

/// How many lines of stdout noise a session keeps for its error messages.
const NOISE_KEPT: usize = 16;
/// How many characters of one noise line are kept.
pub(crate) const NOISE_LINE_CHARS: usize = 200;

/// Why the server's side of the connection ended, as seen by the transport.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Hangup {
    /// The server wrote something that is not a JSON-RPC message (stdio).
    NotJsonRpc(String),
    /// A line longer than the limit.
    LineTooLong(usize),
    /// Reading failed (not UTF-8, I/O error).
    Read(String),
}

impl Hangup {
    /// What the server wrote: `a line that is not a JSON-RPC message: `...``, ...
    pub(crate) fn describe(&self) -> String {
        match self {
            Hangup::NotJsonRpc(line) => {
                format!("a line that is not a JSON-RPC message: `{line}`")
            }
            Hangup::LineTooLong(max) => format!("a line longer than {max} bytes"),
            Hangup::Read(error) => format!("unreadable output ({error})"),
        }
    }
}

#[derive(Debug, Default)]
struct State {
    /// Request ids (canonical JSON) whose responses are recorded.
    wanted: HashSet<String>,
    /// Ids of `initialize` and `server/discover` requests.
    handshake_ids: HashSet<String>,
    /// Ids of handshake requests given up on, whose late answers are dropped.
    abandoned: HashSet<String>,
    /// Recorded responses: the whole JSON-RPC response object.
    responses: HashMap<String, Value>,
    /// The raw `params` of the server's client-input requests (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`), by request id, until answered.
    server_requests: HashMap<String, Value>,
    /// The raw result of the last successful handshake request.
    handshake: Option<Value>,
    /// Lines that were not JSON-RPC messages (when tolerated).
    noise: Vec<String>,
    /// Why the transport stopped reading, if it stopped on bad input.
    hangup: Option<Hangup>,
    /// The last `401`/`403` answer (HTTP), until the session takes it for the error
    /// of the request it refused.
    refusal: Option<AuthRefusal>,
}

/// Shared between a session and its transport.
#[derive(Debug, Default)]
pub(crate) struct Tap {
    state: Mutex<State>,
}

/// The canonical key of a request id: its JSON text (`1`, `"a"`).
fn key_of(id: &Value) -> String {
    id.to_string()
}

fn request_key(id: &RequestId) -> String {
    serde_json::to_value(id)
        .map(|v| key_of(&v))
        .unwrap_or_default()
}

impl Tap {
    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while holding the lock cannot leave the maps inconsistent (each
        // update is one insert or remove), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes a `401`/`403` answer (HTTP): the next request error is that refusal.
    #[cfg(feature = "client-http")]
    pub(crate) fn note_refusal(&self, refusal: AuthRefusal) {
        self.state().refusal = Some(refusal);
    }

    /// The last `401`/`403` answer not yet taken.
    pub(crate) fn take_refusal(&self) -> Option<AuthRefusal> {
        self.state().refusal.take()
    }

    /// Notes an outgoing message: the responses of custom requests (everything the
    /// session sends raw) and of the handshake are recorded.
    pub(crate) fn note_outgoing(&self, message: &ClientJsonRpcMessage) {
        let ClientJsonRpcMessage::Request(request) = message else {
            return;
        };
        let handshake = matches!(
            request.request,
            ClientRequest::InitializeRequest(_) | ClientRequest::DiscoverRequest(_)
        );
        if !handshake && !matches!(request.request, ClientRequest::CustomRequest(_)) {
            return;
        }
        let key = request_key(&request.id);
        let mut state = self.state();
        if handshake {
            state.handshake_ids.insert(key.clone());
        }
        state.wanted.insert(key);
    }

    /// Notes an incoming JSON value (one JSON-RPC message, or a batch array).
    pub(crate) fn note_incoming(&self, message: &Value) {
        if let Value::Array(batch) = message {
            batch.iter().for_each(|m| self.note_incoming(m));
            return;
        }
        let Some(object) = message.as_object() else {
            return;
        };
        if let Some(method) = object.get("method") {
            // A request or notification from the server: the params of a client-input
            // request are kept so that it is answered from what the server sent.
            let input = ["elicitation/create", "sampling/createMessage", "roots/list"];
            if let (Some(id), true) = (object.get("id"), input.iter().any(|m| method == m)) {
                let params = object.get("params").cloned().unwrap_or(Value::Null);
                self.state().server_requests.insert(key_of(id), params);
            }
            return;
        }
        let Some(id) = object.get("id") else {
            return;
        };
        let key = key_of(id);
        let mut state = self.state();
        if !state.wanted.remove(&key) {
            return;
        }
        if state.handshake_ids.remove(&key) {
            if let Some(result) = object.get("result") {
                state.handshake = Some(result.clone());
            }
            return;
        }
        state.responses.insert(key, message.clone());
    }

    /// The raw `result` member of the response to `id`, once it has arrived; `None`
    /// when it was not recorded (or was an error response).
    pub(crate) fn take_result(&self, id: &RequestId) -> Option<Value> {
        let response = self.state().responses.remove(&request_key(id))?;
        match response {
            Value::Object(mut object) => object.remove("result"),
            _ => None,
        }
    }

    /// The raw `params` of the server's client-input request `id` (see
    /// [`Tap::note_incoming`]), once.
    pub(crate) fn take_server_request(&self, id: &RequestId) -> Option<Value> {
        self.state().server_requests.remove(&request_key(id))
    }

    /// Forgets a request whose response will not be taken (it failed or timed out).
    pub(crate) fn forget(&self, id: &RequestId) {
        let key = request_key(id);
        let mut state = self.state();
        state.wanted.remove(&key);
        state.responses.remove(&key);
    }

    /// Gives up on the handshake requests still unanswered: their answers, should
    /// they come, are dropped ([`Tap::is_abandoned`]) rather than confuse the next
    /// handshake.
    pub(crate) fn abandon_pending_handshakes(&self) {
        let mut state = self.state();
        let pending: Vec<String> = state.handshake_ids.drain().collect();
        for key in pending {
            state.wanted.remove(&key);
            state.abandoned.insert(key);
        }
    }

    /// Whether `message` answers an abandoned handshake request.
    pub(crate) fn is_abandoned(&self, message: &Value) -> bool {
        let Some(object) = message.as_object() else {
            return false;
        };
        if object.contains_key("method") {
            return false;
        }
        let Some(id) = object.get("id") else {
            return false;
        };
        self.state().abandoned.remove(&key_of(id))
    }

    /// The raw result of the handshake (`initialize`, or `server/discover`).
    pub(crate) fn handshake(&self) -> Option<Value> {
        self.state().handshake.clone()
    }

    /// Records a line that is not a JSON-RPC message and was skipped.
    pub(crate) fn note_noise(&self, line: &str) {
        let mut state = self.state();
        if state.noise.len() < NOISE_KEPT {
            state.noise.push(shorten(line, NOISE_LINE_CHARS));
        }
    }

    /// The skipped lines (at most 16, each at most 200 characters).
    pub(crate) fn noise(&self) -> Vec<String> {
        self.state().noise.clone()
    }

    /// Records why the transport stopped reading (the first reason wins).
    pub(crate) fn hang_up(&self, hangup: Hangup) {
        self.state().hangup.get_or_insert(hangup);
    }

    /// Why the transport stopped reading, if on bad input.
    pub(crate) fn hangup(&self) -> Option<Hangup> {
        self.state().hangup.clone()
    }
}

/// `line` cut to `max` characters (an ellipsis marks the cut), for a message.
pub(crate) fn shorten(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{CustomRequest, NumberOrString};
    use serde_json::json;

    use super::*;

    fn custom(id: i64) -> ClientJsonRpcMessage {
        ClientJsonRpcMessage::request(
            ClientRequest::CustomRequest(CustomRequest::new("tools/list", None)),
            NumberOrString::Number(id),
        )
    }

    #[test]
    fn records_only_wanted_responses() {
        let tap = Tap::default();
        tap.note_outgoing(&custom(3));
        tap.note_incoming(&json!({"jsonrpc": "2.0", "id": 4, "result": {"x": 1}}));
        tap.note_incoming(
            &json!({"jsonrpc": "2.0", "id": 3, "result": {"tools": [{"execution": {}}]}}),
        );
        assert_eq!(tap.take_result(&NumberOrString::Number(4)), None);
        assert_eq!(
            tap.take_result(&NumberOrString::Number(3)),
            Some(json!({"tools": [{"execution": {}}]}))
        );
        // Taken once.
        assert_eq!(tap.take_result(&NumberOrString::Number(3)), None);
    }

    #[test]
    fn batches_and_errors() {
        let tap = Tap::default();
        tap.note_outgoing(&custom(1));
        tap.note_outgoing(&custom(2));
        tap.note_incoming(&json!([
            {"jsonrpc": "2.0", "id": 1, "result": {}},
            {"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}}
        ]));
        assert_eq!(tap.take_result(&NumberOrString::Number(1)), Some(json!({})));
        assert_eq!(tap.take_result(&NumberOrString::Number(2)), None);
        tap.forget(&NumberOrString::Number(2));
    }

    #[test]
    fn noise_is_bounded() {
        let tap = Tap::default();
        for i in 0..40 {
            tap.note_noise(&format!("line {i} {}", "x".repeat(300)));
        }
        let noise = tap.noise();
        assert_eq!(noise.len(), 16);
        assert!(noise[0].ends_with('…'));
        assert_eq!(noise[0].chars().count(), 201);
    }
}
