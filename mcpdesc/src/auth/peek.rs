//! What the security gate reads in a JSON-RPC request body: the primitives it
//! calls and the protocol version it names. Every body is parsed: a substring
//! test could be fooled by JSON escapes.
//!
//! The body is read into small typed structs that skip everything else (a call's
//! arguments are never built into a `Value`): most of the gate's cost per request
//! was building, and dropping, a `Value` of the whole body. Any body that reading
//! refuses is read again as a `Value`, so the answer is always the one the `Value`
//! reading gives (a test checks both on a range of bodies).

use std::fmt;
use std::marker::PhantomData;

use http::HeaderMap;
use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::Target;
use crate::{CompletionTarget, ProtocolVersion};

/// The primitives a JSON-RPC body (one message or a batch) calls, and the protocol
/// version it names (`_meta`, else the `MCP-Protocol-Version` header).
pub(crate) fn peek(headers: &HeaderMap, body: &[u8]) -> (Vec<Target>, Option<ProtocolVersion>) {
    let Ok(Messages(messages)) = serde_json::from_slice::<Messages>(body) else {
        return peek_value(headers, body);
    };
    let mut targets = Vec::new();
    let mut version = None;
    for Object(message) in messages {
        let params = message.params.map(|Object(p)| p);
        if version.is_none() {
            version = params
                .as_ref()
                .and_then(|p| p.meta.as_ref())
                .and_then(|Object(m)| m.version.as_deref())
                .and_then(|v| v.parse().ok());
        }
        let Some(params) = params else { continue };
        let target = match message.method.as_deref() {
            Some("tools/call") => params.name.map(Target::Tool),
            Some("prompts/get") => params.name.map(Target::Prompt),
            Some("resources/read") => params.uri.map(Target::Resource),
            Some("completion/complete") => params
                .reference
                .and_then(|Object(r)| match r.kind.as_deref() {
                    Some("ref/prompt") => r.name.map(CompletionTarget::prompt),
                    Some("ref/resource") => r.uri.map(CompletionTarget::resource_template),
                    _ => None,
                })
                .map(Target::Completion),
            _ => None,
        };
        targets.extend(target);
    }
    (targets, version.or_else(|| header_version(headers)))
}

fn header_version(headers: &HeaderMap) -> Option<ProtocolVersion> {
    headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// One message or a batch.
struct Messages(Vec<Object<Message>>);

impl<'de> Deserialize<'de> for Messages {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Messages;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON-RPC message or a batch")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Messages, A::Error> {
                let message = Message::deserialize(MapAccessDeserializer::new(map))?;
                Ok(Messages(vec![Object(message)]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Messages, A::Error> {
                let mut messages = Vec::new();
                while let Some(message) = seq.next_element()? {
                    messages.push(message);
                }
                Ok(Messages(messages))
            }
        }
        d.deserialize_any(V)
    }
}

/// A JSON object read as `T`; anything else (an array, which a derived struct
/// would read by position) is an error, so that the `Value` reading decides.
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Object<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Object<T>, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(Object)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

#[derive(Deserialize)]
struct Message {
    #[serde(default, deserialize_with = "string_or_none")]
    method: Option<String>,
    #[serde(default)]
    params: Option<Object<Params>>,
}

#[derive(Deserialize)]
struct Params {
    #[serde(default, deserialize_with = "string_or_none")]
    name: Option<String>,
    #[serde(default, deserialize_with = "string_or_none")]
    uri: Option<String>,
    #[serde(rename = "ref", default)]
    reference: Option<Object<Reference>>,
    #[serde(rename = "_meta", default)]
    meta: Option<Object<Meta>>,
}

#[derive(Deserialize)]
struct Reference {
    #[serde(rename = "type", default, deserialize_with = "string_or_none")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "string_or_none")]
    name: Option<String>,
    #[serde(default, deserialize_with = "string_or_none")]
    uri: Option<String>,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(
        rename = "io.modelcontextprotocol/protocolVersion",
        default,
        deserialize_with = "string_or_none"
    )]
    version: Option<String>,
}

/// A string member; any other value reads as absent, as `Value::as_str` does.
fn string_or_none<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::String(s) => Some(s),
        _ => None,
    })
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
    let version = version.or_else(|| {
        headers
            .get("mcp-protocol-version")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse().ok())
    });
    (targets, version)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(body: &str) -> (Vec<Target>, Option<ProtocolVersion>) {
        let mut headers = HeaderMap::new();
        headers.insert("mcp-protocol-version", "2025-06-18".parse().unwrap());
        let typed = peek(&headers, body.as_bytes());
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
