//! What the HTTP layer tells telemetry about one finished MCP operation (a
//! request or a notification), and about a session.

use std::time::{Duration, SystemTime};

/// The primitive an operation is about, when it names one with a low-cardinality
/// name (a resource URI is left out: a template's URI carries argument values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target<'a> {
    /// `tools/call`.
    Tool(&'a str),
    /// `prompts/get`.
    Prompt(&'a str),
    /// Any other method.
    None,
}

impl<'a> Target<'a> {
    /// The target of `method` naming `name`.
    pub(crate) fn of(method: &str, name: Option<&'a str>) -> Target<'a> {
        match (method, name) {
            ("tools/call", Some(name)) => Target::Tool(name),
            ("prompts/get", Some(name)) => Target::Prompt(name),
            _ => Target::None,
        }
    }

    pub(crate) fn name(&self) -> Option<&'a str> {
        match self {
            Target::Tool(name) | Target::Prompt(name) => Some(name),
            Target::None => None,
        }
    }
}

/// One operation, finished.
#[derive(Debug, Clone)]
pub(crate) struct Operation<'a> {
    /// `mcp.method.name`.
    pub(crate) method: &'a str,
    pub(crate) target: Target<'a>,
    /// The JSON-RPC id as a string; `None` for a notification.
    pub(crate) request_id: Option<String>,
    pub(crate) session_id: Option<&'a str>,
    /// The authenticated principal's subject.
    pub(crate) subject: Option<&'a str>,
    pub(crate) protocol_version: Option<&'a str>,
    /// `error.type`; `None` on success.
    pub(crate) error_type: Option<String>,
    /// The JSON-RPC error code, when the answer was one.
    pub(crate) error_code: Option<i64>,
    /// `params._meta.traceparent` and `tracestate` (W3C trace context).
    pub(crate) traceparent: Option<&'a str>,
    pub(crate) tracestate: Option<&'a str>,
    /// When the request arrived, and how long it took to answer.
    pub(crate) started: SystemTime,
    pub(crate) duration: Duration,
}
