//! What one look at a JSON-RPC request body tells the HTTP layer: its method, id,
//! the primitive it names and the protocol version in its `_meta`. Arguments are
//! skipped, never kept.

use serde::Deserialize;
use serde_json::Value;

/// The members of a request body the HTTP layer uses.
#[derive(Debug, Default, Clone)]
pub(crate) struct Probe {
    /// `method`, absent for a response, a batch or a body that is not JSON.
    pub(crate) method: Option<String>,
    /// `id`, absent for a notification.
    pub(crate) id: Option<Value>,
    /// The tool or prompt named by `tools/call` and `prompts/get` (a resource URI
    /// is left out: a template's URI carries argument values).
    pub(crate) name: Option<String>,
    /// The protocol version named in the request's `_meta`.
    pub(crate) meta_version: Option<String>,
    /// The protocol version an `initialize` asks for (`params.protocolVersion`).
    #[cfg_attr(not(feature = "telemetry"), allow(dead_code))]
    pub(crate) initialize_version: Option<String>,
    /// The caller's W3C trace context in `params._meta` (`traceparent`,
    /// `tracestate`): telemetry continues its trace.
    #[cfg_attr(not(feature = "telemetry"), allow(dead_code))]
    pub(crate) traceparent: Option<String>,
    #[cfg_attr(not(feature = "telemetry"), allow(dead_code))]
    pub(crate) tracestate: Option<String>,
}

impl Probe {
    /// The probe of `body`; empty when it is not one JSON-RPC message.
    pub(crate) fn of(body: &[u8]) -> Probe {
        let Ok(raw) = serde_json::from_slice::<Raw>(body) else {
            return Probe::default();
        };
        let params = raw.params.unwrap_or_default();
        let name = match raw.method.as_deref() {
            Some("tools/call" | "prompts/get") => params.name,
            _ => None,
        };
        let initialize_version = match raw.method.as_deref() {
            Some("initialize") => params.protocol_version,
            _ => None,
        };
        let meta = params.meta.unwrap_or_default();
        Probe {
            method: raw.method,
            id: raw.id,
            name,
            meta_version: meta.version,
            initialize_version,
            traceparent: meta.traceparent,
            tracestate: meta.tracestate,
        }
    }

    /// Whether the body is a request (a method and an id): new work for the server.
    pub(crate) fn is_request(&self) -> bool {
        self.method.is_some() && self.id.is_some()
    }
}

#[derive(Deserialize)]
struct Raw {
    method: Option<String>,
    id: Option<Value>,
    params: Option<RawParams>,
}

#[derive(Deserialize, Default)]
struct RawParams {
    // Only a string name is kept; any other value is not a primitive's name.
    #[serde(default, deserialize_with = "string_or_none")]
    name: Option<String>,
    #[serde(
        rename = "protocolVersion",
        default,
        deserialize_with = "string_or_none"
    )]
    protocol_version: Option<String>,
    #[serde(rename = "_meta")]
    meta: Option<RawMeta>,
}

#[derive(Deserialize, Default)]
struct RawMeta {
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        deserialize_with = "string_or_none"
    )]
    version: Option<String>,
    // Unprefixed, as the OpenTelemetry MCP conventions (SEP-414) write them.
    #[serde(default, deserialize_with = "string_or_none")]
    traceparent: Option<String>,
    #[serde(default, deserialize_with = "string_or_none")]
    tracestate: Option<String>,
}

/// A string member; any other value reads as absent, as `Value::as_str` does.
pub(super) fn string_or_none<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_gives_its_tool_name_not_its_arguments() {
        let probe = Probe::of(
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"analyze_game","arguments":{"secret":"x"}}}"#,
        );
        assert_eq!(probe.method.as_deref(), Some("tools/call"));
        assert_eq!(probe.id, Some(Value::from(7)));
        assert_eq!(probe.name.as_deref(), Some("analyze_game"));
        assert!(probe.is_request());
    }

    #[test]
    fn a_resource_uri_is_not_kept_and_batches_are_empty() {
        let probe = Probe::of(
            br#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"game://42","name":"x"}}"#,
        );
        assert_eq!(probe.name, None);
        let batch = Probe::of(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
        assert!(batch.method.is_none() && !batch.is_request());
    }

    #[test]
    fn the_meta_version_is_read() {
        let probe = Probe::of(
            br#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}"#,
        );
        assert_eq!(probe.meta_version.as_deref(), Some("2025-06-18"));
    }

    #[test]
    fn the_trace_context_and_the_initialize_version_are_read() {
        let probe = Probe::of(
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"a=b"}}}"#,
        );
        assert_eq!(
            probe.traceparent.as_deref(),
            Some("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        );
        assert_eq!(probe.tracestate.as_deref(), Some("a=b"));
        let init = Probe::of(
            br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
        );
        assert_eq!(init.initialize_version.as_deref(), Some("2025-06-18"));
    }
}
