//! What the security gate reads in a JSON-RPC request body: the primitives it
//! calls and the protocol version it names. Every body is parsed: a substring
//! test could be fooled by JSON escapes.
//!
//! The body is read once per request into small typed structs that skip everything
//! else ([`crate::http::reading`]: a call's arguments are never built into a
//! `Value`), the reading the request's probe and the task rewrite use too. Any body
//! that reading refuses is read again as a `Value`, so the answer is always the one
//! the `Value` reading gives (a test checks both on a range of bodies).

use http::HeaderMap;
use serde_json::Value;

use crate::auth::policy::Target;
use crate::http::reading::{header_version, Reading};
use crate::protocol::completions::CompletionTarget;
use crate::protocol::version::ProtocolVersion;

/// The primitives a JSON-RPC body (one message or a batch) calls, and the protocol
/// version it names (`_meta`, else the `MCP-Protocol-Version` header), from the
/// request's one typed [`Reading`].
pub(crate) fn peek(
    headers: &HeaderMap,
    reading: &Reading<'_>,
) -> (Vec<Target>, Option<ProtocolVersion>) {
    reading
        .targets(headers)
        .unwrap_or_else(|| peek_value(headers, reading.body()))
}

/// [`peek`] through a whole `serde_json::Value`: the reference, and the answer for
/// any body the typed reading refuses (duplicate keys, members of unexpected types).
fn peek_value(headers: &HeaderMap, body: &[u8]) -> (Vec<Target>, Option<ProtocolVersion>) {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return (Vec::new(), None);
    };
    let messages = match value {
        Value::Array(items) => items,
        single => vec![single],
    };
    let mut targets = Vec::new();
    let mut version = None;
    for message in &messages {
        let params = message.get("params");
        let text = |key: &str| {
            params
                .and_then(|p| p.get(key))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        if version.is_none() {
            version = params
                .and_then(|p| p.pointer("/_meta/io.modelcontextprotocol~1protocolVersion"))
                .and_then(Value::as_str)
                .and_then(|v| v.parse().ok());
        }
        let target = match message.get("method").and_then(Value::as_str) {
            Some("tools/call") => text("name").map(Target::Tool),
            Some("prompts/get") => text("name").map(Target::Prompt),
            Some("resources/read") => text("uri").map(Target::Resource),
            Some("completion/complete") => {
                let reference = params.and_then(|p| p.get("ref"));
                let field = |key: &str| {
                    reference
                        .and_then(|r| r.get(key))
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                };
                match reference
                    .and_then(|r| r.get("type"))
                    .and_then(Value::as_str)
                {
                    Some("ref/prompt") => field("name").map(CompletionTarget::prompt),
                    Some("ref/resource") => field("uri").map(CompletionTarget::resource_template),
                    _ => None,
                }
                .map(Target::Completion)
            }
            _ => None,
        };
        targets.extend(target);
    }
    (targets, version.or_else(|| header_version(headers)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(body: &str) -> (Vec<Target>, Option<ProtocolVersion>) {
        let mut headers = HeaderMap::new();
        headers.insert("mcp-protocol-version", "2025-06-18".parse().unwrap());
        let typed = peek(&headers, &Reading::of(body.as_bytes()));
        let value = peek_value(&headers, body.as_bytes());
        assert_eq!(format!("{typed:?}"), format!("{value:?}"), "{body}");
        typed
    }

    #[test]
    fn the_typed_reading_answers_as_the_value_reading() {
        let (targets, version) = both(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":"x"}}}"#,
        );
        assert_eq!(targets, vec![Target::Tool("greet".into())]);
        assert_eq!(version, Some(ProtocolVersion::V2025_06_18));
        let (targets, version) = both(
            r#"[{"method":"prompts/get","params":{"name":"p","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}},
                {"method":"resources/read","params":{"uri":"game://1"}},
                {"method":"completion/complete","params":{"ref":{"type":"ref/resource","uri":"game://{id}"}}},
                {"method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"q"}}}]"#,
        );
        assert_eq!(targets.len(), 4);
        assert_eq!(version, Some(ProtocolVersion::V2025_11_25));
        for body in [
            r#"{"method":"tools/call","params":{"name":"a","name":"b"}}"#,
            r#"{"method":"tools/call","params":["a"]}"#,
            r#"[["tools/call",{"name":"a"}],{"method":"tools/call","params":{"name":"c"}}]"#,
            r#"{"method":"tools/call","params":{"name":7}}"#,
            r#"{"method":7,"params":{"name":"a"}}"#,
            r#"{"method":"tools/call","params":null}"#,
            r#"{"method":"tools/call","params":{"name":"a","_meta":"x"}}"#,
            r#"{"method":"tools/c\u0061ll","params":{"n\u0061me":"a"}}"#,
            r#"{"method":"completion/complete","params":{"ref":["ref/prompt","q"]}}"#,
            r#""tools/call""#,
            r#"null"#,
            r#"[]"#,
            r#"not json"#,
        ] {
            both(body);
        }
    }
}
