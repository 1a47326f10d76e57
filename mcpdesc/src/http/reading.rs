//! The one reading of a request body the HTTP layer makes before rmcp reads it
//! itself. Three parts of the layer look into the body: the request's [`Probe`]
//! (its event and the `tools/list` write-back), the security gate (the primitives
//! it calls and the protocol version it names, `super::security::gate`) and the
//! MCP 2025-11-25 task rewrite ([`crate::tasks::wire::inbound`]). Each used to parse
//! the body on its own; now one typed reading serves all three.
//!
//! The typed reading skips everything else (a call's arguments are never built).
//! It is stricter than each reader it replaces (duplicate members, a `params`
//! that is not an object, a batch for the probe): for any body it refuses, each
//! reader reads the body as it always did, so every answer is the one that reader
//! gives alone (the tests check the three on a range of bodies).

use std::fmt;
use std::marker::PhantomData;

use http::HeaderMap;
use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::probe::{string_or_none, Probe};
use crate::auth::policy::Target;
use crate::protocol::completions::CompletionTarget;
use crate::protocol::version::ProtocolVersion;

/// A request body and what the typed reading found in it.
pub(crate) struct Reading<'a> {
    body: &'a [u8],
    /// `None` where the typed reading refused the body.
    typed: Option<Messages>,
}

impl<'a> Reading<'a> {
    /// Reads `body` once.
    pub(crate) fn of(body: &'a [u8]) -> Reading<'a> {
        Reading {
            body,
            typed: serde_json::from_slice::<Messages>(body).ok(),
        }
    }

    /// The body read.
    pub(crate) fn body(&self) -> &'a [u8] {
        self.body
    }

    /// What [`Probe::of`] gives for the body.
    pub(crate) fn probe(&self) -> Probe {
        let Some(Messages {
            batch: false,
            messages,
        }) = &self.typed
        else {
            // A batch is read by position, as a derived struct reads an array.
            return Probe::of(self.body);
        };
        let Some(Object(message)) = messages.first() else {
            return Probe::default();
        };
        let method = match &message.method {
            Method::Absent => None,
            Method::Named(name) => Some(name.clone()),
            // The probe reads `method` as a string or nothing: another value
            // refuses the whole message.
            Method::Other => return Probe::default(),
        };
        let params = message.params.as_ref().map(|Object(p)| p);
        let name = match method.as_deref() {
            Some("tools/call" | "prompts/get") => params.and_then(|p| p.name.clone()),
            _ => None,
        };
        let meta = params.and_then(|p| p.meta.as_ref()).map(|Object(m)| m);
        let initialize_version = match method.as_deref() {
            Some("initialize") => params.and_then(|p| p.protocol_version.clone()),
            _ => None,
        };
        Probe {
            method,
            id: message.id.clone(),
            name,
            meta_version: meta.and_then(|m| m.version.clone()),
            initialize_version,
            traceparent: meta.and_then(|m| m.traceparent.clone()),
            tracestate: meta.and_then(|m| m.tracestate.clone()),
        }
    }

    /// The primitives the body (one message or a batch) calls, and the protocol
    /// version it names (`_meta`, else the `MCP-Protocol-Version` header): the
    /// security gate's reading (`super::security::peek`); `None` where the typed
    /// reading refused the body (the gate then reads it as a `Value`).
    pub(crate) fn targets(
        &self,
        headers: &HeaderMap,
    ) -> Option<(Vec<Target>, Option<ProtocolVersion>)> {
        let Messages { messages, .. } = self.typed.as_ref()?;
        let mut targets = Vec::new();
        let mut version = None;
        for Object(message) in messages {
            let params = message.params.as_ref().map(|Object(p)| p);
            if version.is_none() {
                version = params
                    .and_then(|p| p.meta.as_ref())
                    .and_then(|Object(m)| m.version.as_deref())
                    .and_then(|v| v.parse().ok());
            }
            let Some(params) = params else { continue };
            let target = match message.method.name() {
                Some("tools/call") => params.name.clone().map(Target::Tool),
                Some("prompts/get") => params.name.clone().map(Target::Prompt),
                Some("resources/read") => params.uri.clone().map(Target::Resource),
                Some("completion/complete") => params
                    .reference
                    .as_ref()
                    .and_then(|Object(r)| match r.kind.as_deref() {
                        Some("ref/prompt") => r.name.clone().map(CompletionTarget::prompt),
                        Some("ref/resource") => {
                            r.uri.clone().map(CompletionTarget::resource_template)
                        }
                        _ => None,
                    })
                    .map(Target::Completion),
                _ => None,
            };
            targets.extend(target);
        }
        Some((targets, version.or_else(|| header_version(headers))))
    }

    /// What [`crate::tasks::wire::inbound`] gives for the body: the rewrite runs
    /// only for a message it may apply to (`tasks/get`, `tasks/cancel`, a
    /// `tools/call` with a `task` object), which most bodies are not.
    pub(crate) fn tasks_inbound(&self) -> Option<Vec<u8>> {
        let Some(Messages { batch, messages }) = &self.typed else {
            return crate::tasks::wire::inbound(self.body);
        };
        // The rewrite applies to one message, never to a batch.
        let [Object(message)] = messages.as_slice() else {
            return None;
        };
        if *batch {
            return None;
        }
        let params = message.params.as_ref().map(|Object(p)| p);
        let may_apply = match message.method.name() {
            Some("tasks/get" | "tasks/cancel") => true,
            Some("tools/call") => params.is_some_and(|p| matches!(p.task, Some(Value::Object(_)))),
            _ => false,
        };
        if may_apply {
            crate::tasks::wire::inbound(self.body)
        } else {
            None
        }
    }
}

pub(crate) fn header_version(headers: &HeaderMap) -> Option<ProtocolVersion> {
    headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

/// One message or a batch.
struct Messages {
    batch: bool,
    messages: Vec<Object<Message>>,
}

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
                Ok(Messages {
                    batch: false,
                    messages: vec![Object(message)],
                })
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Messages, A::Error> {
                let mut messages = Vec::new();
                while let Some(message) = seq.next_element()? {
                    messages.push(message);
                }
                Ok(Messages {
                    batch: true,
                    messages,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// A JSON object read as `T`; anything else (an array, which a derived struct
/// would read by position) is an error, so that each reader reads the body itself.
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
    #[serde(default)]
    method: Method,
    #[serde(default)]
    id: Option<Value>,
    #[serde(default)]
    params: Option<Object<Params>>,
}

/// A message's `method` member.
#[derive(Default)]
enum Method {
    /// Absent or `null`.
    #[default]
    Absent,
    /// A string.
    Named(String),
    /// Any other value.
    Other,
}

impl Method {
    /// The method's name; `None` for anything but a string.
    fn name(&self) -> Option<&str> {
        match self {
            Method::Named(name) => Some(name),
            Method::Absent | Method::Other => None,
        }
    }
}

impl<'de> Deserialize<'de> for Method {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::String(s) => Method::Named(s),
            Value::Null => Method::Absent,
            _ => Method::Other,
        })
    }
}

#[derive(Deserialize)]
struct Params {
    #[serde(default, deserialize_with = "string_or_none")]
    name: Option<String>,
    #[serde(default, deserialize_with = "string_or_none")]
    uri: Option<String>,
    /// What an `initialize` asks for.
    #[serde(
        rename = "protocolVersion",
        default,
        deserialize_with = "string_or_none"
    )]
    protocol_version: Option<String>,
    #[serde(rename = "ref", default)]
    reference: Option<Object<Reference>>,
    #[serde(rename = "_meta", default)]
    meta: Option<Object<Meta>>,
    /// The 2025-11-25 task parameter of a `tools/call` (small when present).
    #[serde(default)]
    task: Option<Value>,
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
    /// The caller's W3C trace context (unprefixed, as the OpenTelemetry MCP
    /// conventions write it).
    #[serde(default, deserialize_with = "string_or_none")]
    traceparent: Option<String>,
    #[serde(default, deserialize_with = "string_or_none")]
    tracestate: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bodies of every shape the readers meet: calls, task messages, batches, and
    /// those the typed reading refuses.
    const BODIES: &[&str] = &[
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"analyze_game","arguments":{"secret":"x"}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"game://42","name":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{"ttl":5}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01","tracestate":"a=b"}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"traceparent":7}}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"tools/list","params":{"protocolVersion":"2025-06-18"}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":null}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":7}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","t\u0061sk":{}}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"task":1}}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"a"}}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"taskId":"a"}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tasks/get","method":"tasks/get"}"#,
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":null}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
        r#"["tools/call",3,{"name":"a"}]"#,
        r#"[{"method":"tasks/get","params":{"taskId":"a"}}]"#,
        r#"{"method":"tools/call","params":{"name":"a","name":"b"}}"#,
        r#"{"method":"tools/call","params":["a"]}"#,
        r#"{"method":"tools/call","params":{"name":7}}"#,
        r#"{"method":7,"id":1,"params":{"name":"a"}}"#,
        r#"{"method":"tools/call","params":null}"#,
        r#"{"method":"tools/call","params":{"name":"a","_meta":"x"}}"#,
        r#"{"method":"tools/call","params":{"name":"a","_meta":{"io.modelcontextprotocol/protocolVersion":3}}}"#,
        r#"{"method":"tools/c\u0061ll","params":{"n\u0061me":"a"}}"#,
        r#"{"method":"completion/complete","params":{"ref":["ref/prompt","q"]}}"#,
        r#"{"method":"prompts/get","params":"p"}"#,
        r#""tools/call""#,
        r#"null"#,
        r#"[]"#,
        r#"{}"#,
        r#""#,
        r#"not json"#,
    ];

    #[test]
    fn the_probe_is_the_one_the_probe_reads() {
        for body in BODIES {
            let reading = Reading::of(body.as_bytes());
            assert_eq!(
                format!("{:?}", reading.probe()),
                format!("{:?}", Probe::of(body.as_bytes())),
                "{body}"
            );
        }
    }

    #[test]
    fn the_task_rewrite_is_the_one_the_wire_makes() {
        let mut rewritten = 0;
        for body in BODIES {
            let shared = Reading::of(body.as_bytes()).tasks_inbound();
            assert_eq!(
                shared,
                crate::tasks::wire::inbound(body.as_bytes()),
                "{body}"
            );
            rewritten += usize::from(shared.is_some());
        }
        // The task call and `tasks/get`, `tasks/cancel`, and the duplicate method.
        assert_eq!(rewritten, 4);
    }

    #[test]
    fn the_typed_reading_refuses_what_a_reader_would_read_otherwise() {
        for body in [
            r#"{"method":"tools/call","params":{"name":"a","name":"b"}}"#,
            r#"{"method":"tools/call","params":["a"]}"#,
            r#"not json"#,
        ] {
            assert!(Reading::of(body.as_bytes()).typed.is_none(), "{body}");
        }
        let batch = Reading::of(br#"[{"method":"ping"}]"#);
        assert!(batch.typed.as_ref().is_some_and(|m| m.batch));
    }
}
