//! One `tracing` event per MCP request, at `info`, in the request's span: the
//! JSON-RPC method, the primitive's name, the session (`session_id`, the
//! `Mcp-Session-Id` the request names or the one its `initialize` opened), the
//! authenticated principal's subject (`subject`), the outcome and the duration, so
//! that the events serve as an audit trail. No credential and no argument value
//! is ever recorded (see [`super::probe`]). With telemetry (feature `telemetry`),
//! the same moment records the operation's metrics and span.
//!
//! The outcome of a call is in its answer, which may come late in an SSE stream:
//! the response body is watched, and the event is sent when the answer passes (or
//! when the stream ends without one).

use std::fmt;
use std::pin::Pin;
use std::task::{ready, Context as TaskContext, Poll};
use std::time::Instant;

use bytes::{Bytes, BytesMut};
use http::{header, Response};
use hyper::body::{Body, Frame};
use serde::Deserialize;
use serde_json::Value;

use super::body::HttpBody;
use super::probe::Probe;

/// How a request ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// A result.
    Ok,
    /// A tool result with `isError: true`.
    ToolError,
    /// A JSON-RPC error with its code.
    Error(i64),
    /// Refused by the HTTP layer with this status.
    Refused(u16),
    /// Answered with this HTTP status and no JSON-RPC answer (a notification's
    /// `202`, a `GET` stream, a `DELETE`).
    Status(u16),
    /// The stream ended (or the client left) before the answer.
    NoAnswer,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok => f.write_str("ok"),
            Outcome::ToolError => f.write_str("tool_error"),
            Outcome::Error(code) => write!(f, "error {code}"),
            Outcome::Refused(status) => write!(f, "refused {status}"),
            Outcome::Status(status) => write!(f, "status {status}"),
            Outcome::NoAnswer => f.write_str("no_answer"),
        }
    }
}

impl Outcome {
    /// The conventions' `error.type` of the outcome; `None` for a success.
    #[cfg(feature = "telemetry")]
    pub(crate) fn error_type(&self) -> Option<String> {
        match self {
            Outcome::Ok | Outcome::Status(_) => None,
            Outcome::ToolError => Some("tool_error".to_owned()),
            Outcome::Error(code) => Some(code.to_string()),
            Outcome::Refused(status) => Some(status.to_string()),
            Outcome::NoAnswer => Some("no_answer".to_owned()),
        }
    }
}

/// The request an event describes.
#[derive(Debug)]
pub(crate) struct Observation {
    pub(crate) http_method: http::Method,
    pub(crate) probe: Probe,
    pub(crate) started: Instant,
    /// The wall-clock time of `started` (the start of the request's span).
    #[cfg(feature = "telemetry")]
    pub(crate) started_at: std::time::SystemTime,
    /// The session the request names, or the one it opened.
    pub(crate) session_id: Option<String>,
    /// The subject of the principal that authenticated the request.
    pub(crate) subject: Option<String>,
    /// The request's `MCP-Protocol-Version` header (read for telemetry only).
    #[cfg_attr(not(feature = "telemetry"), allow(dead_code))]
    pub(crate) header_version: Option<String>,
    /// Where the operation's metrics and span go.
    #[cfg(feature = "telemetry")]
    pub(crate) telemetry: Option<crate::telemetry::Telemetry>,
}

impl Observation {
    /// The observation of a request that arrived now.
    pub(crate) fn new(http_method: http::Method) -> Observation {
        Observation {
            http_method,
            probe: Probe::default(),
            started: Instant::now(),
            #[cfg(feature = "telemetry")]
            started_at: std::time::SystemTime::now(),
            session_id: None,
            subject: None,
            header_version: None,
            #[cfg(feature = "telemetry")]
            telemetry: None,
        }
    }

    /// Whether anything records the request when no `tracing` subscriber does.
    fn records(&self) -> bool {
        #[cfg(feature = "telemetry")]
        if self.telemetry.is_some() && self.probe.method.is_some() {
            return true;
        }
        false
    }

    /// The protocol version of the request: its `_meta`'s, else its header's, else
    /// (an `initialize`) the one it asks for.
    #[cfg_attr(not(feature = "telemetry"), allow(dead_code))]
    pub(crate) fn protocol_version(&self) -> Option<&str> {
        self.probe
            .meta_version
            .as_deref()
            .or(self.header_version.as_deref())
            .or(self.probe.initialize_version.as_deref())
    }

    /// Sends the request's event (in the current span), and records its
    /// telemetry.
    pub(crate) fn emit(&self, outcome: &Outcome) {
        let duration = self.started.elapsed();
        tracing::info!(
            target: "mcpdesc::http",
            http_method = %self.http_method,
            method = self.probe.method.as_deref().unwrap_or(""),
            name = self.probe.name.as_deref().unwrap_or(""),
            outcome = %outcome,
            duration_ms = duration.as_millis() as u64,
            session_id = self.session_id.as_deref().unwrap_or(""),
            subject = self.subject.as_deref().unwrap_or(""),
            "mcp request"
        );
        #[cfg(feature = "telemetry")]
        self.record(outcome, duration);
    }

    /// Records the operation's metrics and span (a request whose method was not
    /// read, refused before its body, is no MCP operation).
    #[cfg(feature = "telemetry")]
    fn record(&self, outcome: &Outcome, duration: std::time::Duration) {
        use crate::telemetry::operation::{Operation, Target};
        let (Some(telemetry), Some(method)) = (&self.telemetry, self.probe.method.as_deref())
        else {
            return;
        };
        let request_id = self.probe.id.as_ref().and_then(|id| match id {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        });
        telemetry.operation(&Operation {
            method,
            target: Target::of(method, self.probe.name.as_deref()),
            request_id,
            session_id: self.session_id.as_deref(),
            subject: self.subject.as_deref(),
            protocol_version: self.protocol_version(),
            error_type: outcome.error_type(),
            error_code: match outcome {
                Outcome::Error(code) => Some(*code),
                _ => None,
            },
            traceparent: self.probe.traceparent.as_deref(),
            tracestate: self.probe.tracestate.as_deref(),
            started: self.started_at,
            duration,
        });
    }
}

/// `response` with its event sent now (no JSON-RPC answer to wait for) or when
/// its body carries the answer.
pub(crate) fn observe(
    response: Response<HttpBody>,
    observation: Observation,
    span: tracing::Span,
) -> Response<HttpBody> {
    // No subscriber records the event: the answer is not watched (watching copies
    // and parses it, as much work as rmcp's own writing of it).
    if !tracing::enabled!(target: "mcpdesc::http", tracing::Level::INFO) && !observation.records() {
        return response;
    }
    let status = response.status();
    let id = match &observation.probe.id {
        Some(id) if observation.probe.method.is_some() && status.is_success() => id.clone(),
        _ => {
            let _entered = span.enter();
            let outcome = if status.is_success() {
                Outcome::Status(status.as_u16())
            } else {
                Outcome::Refused(status.as_u16())
            };
            observation.emit(&outcome);
            return response;
        }
    };
    let sse = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("text/event-stream"));
    let (parts, body) = response.into_parts();
    let watched = Watched {
        inner: body,
        sse,
        buffer: BytesMut::new(),
        pending: Some((id, observation, span)),
    };
    Response::from_parts(parts, http_body_util::BodyExt::boxed(watched))
}

/// A body passed through unchanged while its answer is looked for.
struct Watched {
    inner: HttpBody,
    /// SSE (`data:` lines) or one JSON message.
    sse: bool,
    /// The bytes of the line (SSE) or message (JSON) not yet complete.
    buffer: BytesMut,
    /// The answer's id and the event to send; `None` once sent.
    pending: Option<(Value, Observation, tracing::Span)>,
}

/// The largest JSON answer kept to read its outcome; a larger one counts as `ok`
/// when it ends (the outcome members come first in what rmcp writes).
const MAX_WATCHED: usize = 1024 * 1024;

impl Watched {
    fn finish(&mut self, outcome: Outcome) {
        if let Some((_, observation, span)) = self.pending.take() {
            let _entered = span.enter();
            observation.emit(&outcome);
        }
        self.buffer = BytesMut::new();
    }

    fn watch(&mut self, data: &[u8]) {
        let Some((id, ..)) = &self.pending else {
            return;
        };
        if !self.sse {
            if self.buffer.len() + data.len() <= MAX_WATCHED {
                self.buffer.extend_from_slice(data);
            }
            return;
        }
        self.buffer.extend_from_slice(data);
        let mut found = None;
        while let Some(at) = self.buffer.iter().position(|b| *b == b'\n') {
            let line = self.buffer.split_to(at + 1);
            let Some(json) = line.strip_prefix(b"data:") else {
                continue;
            };
            if let Some(outcome) = outcome_of(json, id) {
                found = Some(outcome);
                break;
            }
        }
        if let Some(outcome) = found {
            self.finish(outcome);
        }
    }

    fn end(&mut self) {
        if self.pending.is_none() {
            return;
        }
        let outcome = if self.sse {
            Outcome::NoAnswer
        } else {
            let id = &self.pending.as_ref().expect("pending").0;
            outcome_of(&self.buffer, id).unwrap_or(Outcome::Ok)
        };
        self.finish(outcome);
    }
}

/// The outcome of `json` when it is the answer with `id`.
fn outcome_of(json: &[u8], id: &Value) -> Option<Outcome> {
    #[derive(Deserialize)]
    struct Answer {
        id: Option<Value>,
        result: Option<AnswerResult>,
        error: Option<AnswerError>,
    }
    #[derive(Deserialize)]
    struct AnswerResult {
        #[serde(rename = "isError", default)]
        is_error: Option<bool>,
    }
    #[derive(Deserialize)]
    struct AnswerError {
        code: i64,
    }
    let answer: Answer = serde_json::from_slice(json.trim_ascii()).ok()?;
    if answer.id.as_ref() != Some(id) {
        return None;
    }
    Some(match (answer.error, answer.result) {
        (Some(error), _) => Outcome::Error(error.code),
        (None, Some(result)) if result.is_error == Some(true) => Outcome::ToolError,
        _ => Outcome::Ok,
    })
}

impl Body for Watched {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = &mut *self;
        let frame = ready!(Pin::new(&mut this.inner).poll_frame(cx));
        match &frame {
            Some(Ok(frame)) => {
                if let Some(data) = frame.data_ref() {
                    let data = data.clone();
                    this.watch(&data);
                }
            }
            Some(Err(never)) => match *never {},
            None => this.end(),
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
}

impl Drop for Watched {
    fn drop(&mut self) {
        // The client left before the answer (or before the JSON body ended).
        if self.sse {
            self.finish(Outcome::NoAnswer);
        } else {
            self.end();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_are_read_from_answers() {
        let id = Value::from(3);
        assert_eq!(
            outcome_of(br#" {"jsonrpc":"2.0","id":3,"result":{"content":[]}}"#, &id),
            Some(Outcome::Ok)
        );
        assert_eq!(
            outcome_of(
                br#"{"jsonrpc":"2.0","id":3,"result":{"isError":true}}"#,
                &id
            ),
            Some(Outcome::ToolError)
        );
        assert_eq!(
            outcome_of(
                br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"m"}}"#,
                &id
            ),
            Some(Outcome::Error(-32602))
        );
        assert_eq!(
            outcome_of(br#"{"jsonrpc":"2.0","id":4,"result":{}}"#, &id),
            None
        );
    }
}
