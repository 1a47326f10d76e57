//! Implementation tests: an example replayed against the implementation, through the
//! real [`Router`] (argument validation, version projection, result shaping), and the
//! answer compared with the example's result.
//!
//! The generated `#[cfg(test)]` module calls these checks when the description is
//! generated with a test server (`Builder::test_server("crate::Greeter::for_examples()")`,
//! the macro key `test_server = "..."`, `mcpdesc generate --test-server EXPR`): one test
//! per Tool Example, Tool Interaction Example, Prompt, Resource and Resource Template
//! Example and completion example, each on a fresh server built by that expression:
//!
//! ```text
//! #[test]
//! fn analyze_game_example_scholars_mate() {
//!     // the type checks of the example, as without a test server, then:
//!     if let Err(e) = ::mcpdesc::implementation::check_example(
//!         &super::router(crate::ChessServer::new()),
//!         &examples::analyze_game::ALL.tool,
//!         &examples::analyze_game::ALL.examples[1usize],
//!         ::mcpdesc::implementation::Compare::Exact,
//!     ) { panic!("{e}") }
//! }
//! ```
//!
//! A failure names the tool (or prompt, resource, ...), the example, the MCP version the
//! call ran in and the JSON pointer of the first difference, inside the result and in
//! the description, with the expected and the actual value:
//!
//! ```text
//! tool `get_player_rating`, example `new-player-blitz` (MCP 2025-11-25): the
//! implementation's result differs from the example at /content/0/text
//! (/tools/1/examples/new-player-blitz/result/content/0/text)
//!     expected: "fictional-player-1 (blitz): 1500, 0 games"
//!     actual:   "fictional-player-1 (blitz): 1200, 0 games"
//! ```
//!
//! # What is compared
//!
//! Each call runs in the latest protocol version of the declaration's scope (an
//! interaction example: in each version of it, see below), and the
//! result is compared as the client would receive it in that version
//! ([`ToolResult::to_wire`](crate::ToolResult::to_wire) and the other results' wire
//! forms), without the wire-only members an example does not carry (`resultType:
//! "complete"` of MCP 2026-07-28, `isError: false`).
//!
//! - [`Compare::Exact`] (the default): the whole result, text included, as JSON data
//!   ([`first_difference`]); a `text` that holds a JSON object or array on both sides
//!   is compared as JSON, as `mcpdesc check` compares it (member order and spacing
//!   aside), and a failure's message notes each such text, saying when it differs
//!   only in formatting.
//! - [`Compare::Shape`], chosen per example with the extension `"x-mcpdesc-compare":
//!   "shape"` on the example object, for examples whose text is illustrative: for a
//!   tool, `isError`, the number and kinds of content blocks, whether there is
//!   `structuredContent` and, for a tool with `outputSchema`, that it is valid against
//!   it; for a prompt, the messages' roles and content kinds; for a resource or
//!   template, the contents' URIs, MIME types and whether each is text or a blob; for a
//!   completion, the number of values.
//!
//! An Interaction Example is replayed with a [`ScriptedClient`] of its steps, as the
//! example mock's tests do, in every version of the tool's scope (a fresh server per
//! version): every elicitation, sampling or roots request the implementation makes
//! must match the next step, each is answered with the step's response, and every
//! step must be used.
//! In MCP 2026-07-28 the requests go through input-required rounds, the handler
//! replayed as `McpServer` replays it.

use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::examples::testing::{
    completion_request, latest, parse_json, validate_if_compilable, Example, InteractionExample,
    RequestExample, ScriptedClient, ToolCase,
};
use crate::server::input_rounds::InputRounds;
use crate::{CompletionTarget, Context, ProtocolVersion, Router};

pub use crate::examples::difference::{first_difference, Difference};

/// How an example's result is compared with the implementation's; see the
/// [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Compare {
    /// The whole result, text included (the default).
    #[default]
    Exact,
    /// Only the result's shape (`"x-mcpdesc-compare": "shape"` on the example).
    Shape,
}

impl Compare {
    /// The extension member on an example object that chooses the comparison.
    pub const EXTENSION: &'static str = "x-mcpdesc-compare";

    /// `"exact"` or `"shape"`, the values of [`Compare::EXTENSION`].
    ///
    /// ```
    /// use mcpdesc::implementation::Compare;
    /// assert_eq!(Compare::parse("shape"), Some(Compare::Shape));
    /// assert_eq!(Compare::parse("loose"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Compare> {
        match text {
            "exact" => Some(Compare::Exact),
            "shape" => Some(Compare::Shape),
            _ => None,
        }
    }
}

/// Runs `future` to completion on the current thread: on a fresh single-threaded tokio
/// runtime when the runtime crate has tokio (features `client` or `http`) and no tokio
/// runtime is running on this thread, so that handlers may use tokio's timers and
/// tasks; otherwise with `futures`' executor.
pub fn run<F: Future>(future: F) -> F::Output {
    #[cfg(any(feature = "client", feature = "http"))]
    if tokio::runtime::Handle::try_current().is_err() {
        if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            return rt.block_on(future);
        }
    }
    futures::executor::block_on(future)
}

/// The test of one Tool Example against an implementation: `router` (built from a fresh
/// test server) is called with the example's `input` in the latest version of the
/// tool's scope, and its result compared with the example's ([module docs](self)).
pub fn check_example(
    router: &Router,
    tool: &ToolCase,
    example: &Example,
    compare: Compare,
) -> Result<(), String> {
    let what = format!("tool `{}`, example `{}`", tool.tool, example.name);
    let input = parse_json(example.input, &what)?;
    let expected = parse_json(example.result, &what)?;
    let version = latest(tool.scope);
    let actual = run(router.call_tool(tool.tool, Some(input), Context::new(version)))
        .map_err(|e| protocol_error(&what, version, e))?;
    let at = Site::new(&what, example.pointer, version);
    compare_tool_result(&at, tool, compare, &expected, &actual.to_wire(version))
}

/// The test of one Tool Interaction Example against an implementation, in each
/// version of the tool's scope: for each, `router` builds a fresh server (one call per
/// server: a stateful implementation answers a repeated call differently), which is
/// called with the example's `input`, a [`ScriptedClient`] of the example's steps
/// answering the implementation's client requests as a live client would: during the
/// call before MCP 2026-07-28, through input-required rounds in 2026-07-28 (the handler
/// replayed with the answers and `requestState`, as `McpServer` does). In each version
/// every step must be requested, in order, and the terminal result compared
/// ([module docs](self)); the first failure is returned, naming the version.
pub fn check_interaction_example(
    router: impl Fn() -> Router,
    tool: &ToolCase,
    example: &InteractionExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!(
        "tool `{}`, interaction example `{}`",
        tool.tool, example.name
    );
    let input = parse_json(example.input, &what)?;
    let steps = parse_json(example.steps, &what)?;
    let expected = parse_json(example.result, &what)?;
    for &version in tool.scope {
        let router = router();
        // The scripted client's messages name the version too.
        let in_version = format!("{what} (MCP {version})");
        let client = Arc::new(ScriptedClient::new(&in_version, example.pointer, &steps)?);
        let actual = if version >= ProtocolVersion::V2026_07_28 {
            run(input_rounds(
                &router, tool.tool, &input, version, &client, &what,
            ))?
        } else {
            let cx = Context::with_peer(version, client.clone());
            run(router.call_tool(tool.tool, Some(input.clone()), cx))
                .map_err(|e| protocol_error(&what, version, e))?
        };
        client.finish()?;
        let at = Site::new(&what, example.pointer, version);
        compare_tool_result(&at, tool, compare, &expected, &actual.to_wire(version))?;
    }
    Ok(())
}

/// A call in MCP 2026-07-28 as `McpServer` serves it: each round runs the handler with
/// an [`InputRounds`] peer; while it asks for input, `client` answers the requests and
/// the call is made again with the answers and the state. At most one round per step,
/// plus the last.
async fn input_rounds(
    router: &Router,
    tool: &str,
    input: &Value,
    version: ProtocolVersion,
    client: &ScriptedClient,
    what: &str,
) -> Result<crate::ToolResult, String> {
    // Everything a step may ask for is declared: requirements are not what is tested.
    let capabilities = serde_json::json!({"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}, "context": {}}, "roots": {}});
    let mut state: Option<String> = None;
    let mut responses = std::collections::BTreeMap::new();
    for _ in 0..=client.steps() {
        let rounds = Arc::new(
            InputRounds::resume(
                tool,
                Some(input),
                state.as_deref(),
                std::mem::take(&mut responses),
                Some(capabilities.clone()),
            )
            .map_err(|e| format!("{what} (MCP {version}): {e}"))?,
        );
        let cx = Context::with_peer(version, rounds.clone());
        let result = router
            .call_tool(tool, Some(input.clone()), cx)
            .await
            .map_err(|e| protocol_error(what, version, e))?;
        let Some(required) = rounds.input_required() else {
            return Ok(result);
        };
        for (key, request) in required.requests {
            match client.answer_input_request(&request).await {
                Ok(answer) => {
                    responses.insert(key, answer);
                }
                // The scripted client keeps the failure; `finish` reports it.
                Err(_) => return Ok(result),
            }
        }
        state = Some(required.request_state);
    }
    Err(format!(
        "{what} (MCP {version}): the implementation still asked for input after {} rounds",
        client.steps() + 1
    ))
}

/// The test of one Prompt Example against an implementation: `prompts/get` with the
/// example's arguments in the latest version of `scope`.
pub fn check_prompt_example(
    router: &Router,
    prompt: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!("prompt `{prompt}`, example `{}`", example.name);
    let arguments = parse_json(example.request, &what)?;
    let version = latest(scope);
    let cx = Context::new(version);
    let actual = run(router.get_prompt(prompt, arguments.as_object().cloned(), cx))
        .map_err(|e| protocol_error(&what, version, e))?;
    compare_request_result(
        &Site::new(&what, example.pointer, version),
        Kind::Prompt,
        compare,
        example,
        &actual.to_wire(version),
    )
}

/// The test of one Resource Example against an implementation: `resources/read` of
/// `uri` in the latest version of `scope`.
pub fn check_resource_example(
    router: &Router,
    uri: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!("resource `{uri}`, example `{}`", example.name);
    read(router, &what, uri, scope, example, compare)
}

/// The test of one Resource Template Example against an implementation:
/// `resources/read` of the example's `uri` in the latest version of `scope`.
pub fn check_template_example(
    router: &Router,
    uri_template: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!(
        "resource template `{uri_template}`, example `{}`",
        example.name
    );
    let uri = parse_json(example.request, &what)?;
    let uri = uri
        .as_str()
        .ok_or_else(|| format!("{what} ({}/uri): not a string", example.pointer))?;
    read(router, &what, uri, scope, example, compare)
}

/// The test of one completion example against an implementation: `completion/complete`
/// for `target` with the example's argument and context in the latest version of
/// `scope`.
pub fn check_completion_example(
    router: &Router,
    target: &CompletionTarget,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!(
        "{} `{}`, completion example `{}`",
        target.kind(),
        target.id(),
        example.name
    );
    let request = completion_request(&parse_json(example.request, &what)?);
    let version = latest(scope);
    let actual = run(router.complete(target, request, Context::new(version)))
        .map_err(|e| protocol_error(&what, version, e))?;
    compare_request_result(
        &Site::new(&what, example.pointer, version),
        Kind::Completion,
        compare,
        example,
        &actual.to_wire(version),
    )
}

fn read(
    router: &Router,
    what: &str,
    uri: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let version = latest(scope);
    let actual = run(router.read_resource(uri, Context::new(version)))
        .map_err(|e| protocol_error(what, version, e))?;
    compare_request_result(
        &Site::new(what, example.pointer, version),
        Kind::Resource,
        compare,
        example,
        &actual.to_wire(version),
    )
}

/// Who is checked, for messages: the example, its pointer, the version of the call.
struct Site<'a> {
    what: &'a str,
    pointer: &'a str,
    version: ProtocolVersion,
}

impl<'a> Site<'a> {
    fn new(what: &'a str, pointer: &'a str, version: ProtocolVersion) -> Self {
        Site {
            what,
            pointer,
            version,
        }
    }

    /// The failure message of a difference found in the result (`compared` says what
    /// was compared when it was not the whole result).
    fn differs(&self, d: &Difference, compared: &str) -> String {
        let show = |v: &Option<Value>| v.as_ref().map_or("(absent)".to_owned(), Value::to_string);
        format!(
            "{} (MCP {}): the implementation's result differs from the example{compared} at {} ({}/result{})\n    expected: {}\n    actual:   {}",
            self.what,
            self.version,
            if d.pointer.is_empty() { "the result" } else { &d.pointer },
            self.pointer,
            d.pointer,
            show(&d.expected),
            show(&d.actual)
        )
    }
}

fn protocol_error(what: &str, version: ProtocolVersion, e: crate::ProtocolError) -> String {
    format!(
        "{what} (MCP {version}): the implementation answered with JSON-RPC error {}: {}",
        e.code, e.message
    )
}

/// The result without the wire members an example does not carry: `resultType:
/// "complete"` (MCP 2026-07-28) and `isError: false` (the same as absent).
fn without_wire_details(result: &Value, expected: &Value) -> Value {
    let mut result = result.clone();
    if let Value::Object(map) = &mut result {
        if expected.get("resultType").is_none()
            && map.get("resultType") == Some(&Value::from("complete"))
        {
            map.remove("resultType");
        }
        if map.get("isError") == Some(&Value::Bool(false)) {
            map.remove("isError");
        }
    }
    result
}

fn compare_tool_result(
    at: &Site<'_>,
    tool: &ToolCase,
    compare: Compare,
    expected: &Value,
    actual: &Value,
) -> Result<(), String> {
    let expected_clean = without_wire_details(expected, &Value::Null);
    let actual = without_wire_details(actual, expected);
    match compare {
        Compare::Exact => exact(at, &expected_clean, &actual),
        Compare::Shape => {
            if let Some(d) = first_difference(&tool_shape(&expected_clean), &tool_shape(&actual)) {
                return Err(at.differs(&d, " (shape only)"));
            }
            let is_error = actual.get("isError") == Some(&Value::Bool(true));
            let output_schema = parse_json(tool.declaration, at.what)?
                .get("outputSchema")
                .cloned();
            match (is_error, output_schema, actual.get("structuredContent")) {
                (false, Some(schema), Some(structured)) => validate_if_compilable(
                    &schema,
                    structured,
                    &format!(
                        "{} (MCP {}): the implementation's structuredContent is not valid against the outputSchema",
                        at.what, at.version
                    ),
                    "/structuredContent",
                ),
                _ => Ok(()),
            }
        }
    }
}

/// What [`Compare::Shape`] keeps of a tool result: `isError`, the content blocks' kinds,
/// and whether there is `structuredContent`.
fn tool_shape(result: &Value) -> Value {
    let mut shape = Map::new();
    shape.insert(
        "isError".into(),
        Value::Bool(result.get("isError") == Some(&Value::Bool(true))),
    );
    shape.insert("content".into(), kinds(result.get("content"), "type"));
    if result.get("structuredContent").is_some() {
        shape.insert("structuredContent".into(), Value::from("(present)"));
    }
    Value::Object(shape)
}

/// Each item of an array reduced to `{key: item[key]}`.
fn kinds(items: Option<&Value>, key: &str) -> Value {
    let items = items.and_then(Value::as_array).cloned().unwrap_or_default();
    Value::Array(
        items
            .iter()
            .map(|item| {
                let mut m = Map::new();
                if let Some(v) = item.get(key) {
                    m.insert(key.into(), v.clone());
                }
                Value::Object(m)
            })
            .collect(),
    )
}

#[derive(Clone, Copy)]
enum Kind {
    Prompt,
    Resource,
    Completion,
}

fn compare_request_result(
    at: &Site<'_>,
    kind: Kind,
    compare: Compare,
    example: &RequestExample,
    actual: &Value,
) -> Result<(), String> {
    let expected = parse_json(example.result, at.what)?;
    let actual = without_wire_details(actual, &expected);
    match compare {
        Compare::Exact => exact(at, &expected, &actual),
        Compare::Shape => match first_difference(
            &request_shape(kind, &expected),
            &request_shape(kind, &actual),
        ) {
            None => Ok(()),
            Some(d) => Err(at.differs(&d, " (shape only)")),
        },
    }
}

/// [`Compare::Exact`]: the first difference, with text blocks that hold JSON on both
/// sides compared as JSON (as `mcpdesc check` compares them: a server may write the
/// members in another order or with other spacing); the message says which texts were
/// compared so, and which differ from the example's only in formatting.
fn exact(at: &Site<'_>, expected: &Value, actual: &Value) -> Result<(), String> {
    let mut notes = Vec::new();
    let (expected, actual) = json_texts(expected, actual, &mut String::new(), &mut notes);
    match first_difference(&expected, &actual) {
        None => Ok(()),
        Some(d) => {
            let mut message = at.differs(&d, "");
            for note in notes {
                message.push_str("\n    note: ");
                message.push_str(&note);
            }
            Err(message)
        }
    }
}

/// `expected` and `actual` with each `text` member that holds a JSON object or array
/// on both sides (at the same pointer) replaced by that JSON; a note per such text.
fn json_texts(
    expected: &Value,
    actual: &Value,
    pointer: &mut String,
    notes: &mut Vec<String>,
) -> (Value, Value) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let (mut e, mut a) = (e.clone(), a.clone());
            let keys: Vec<String> = e.keys().filter(|k| a.contains_key(*k)).cloned().collect();
            for key in keys {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                let texts = (key == "text")
                    .then(|| (json_text(&e[&key]), json_text(&a[&key])))
                    .and_then(|pair| match pair {
                        (Some(ev), Some(av)) => Some((ev, av)),
                        _ => None,
                    });
                let (ev, av) = match texts {
                    Some((ev, av)) => {
                        notes.push(if e[&key] != a[&key] && first_difference(&ev, &av).is_none() {
                            format!("the texts at {pointer} hold the same JSON and differ only in formatting (compared as JSON)")
                        } else {
                            format!("the texts at {pointer} hold JSON and are compared as JSON")
                        });
                        (ev, av)
                    }
                    None => json_texts(&e[&key], &a[&key], pointer, notes),
                };
                e.insert(key.clone(), ev);
                a.insert(key, av);
                pointer.truncate(len);
            }
            (Value::Object(e), Value::Object(a))
        }
        (Value::Array(e), Value::Array(a)) => {
            let (mut e, mut a) = (e.clone(), a.clone());
            for i in 0..e.len().min(a.len()) {
                let len = pointer.len();
                pointer.push_str(&format!("/{i}"));
                let (ev, av) = json_texts(&e[i], &a[i], pointer, notes);
                (e[i], a[i]) = (ev, av);
                pointer.truncate(len);
            }
            (Value::Array(e), Value::Array(a))
        }
        _ => (expected.clone(), actual.clone()),
    }
}

/// The JSON a text holds, when it is a JSON object or array (other texts, `"1"` say,
/// stay text: a number written as text is compared as written).
fn json_text(text: &Value) -> Option<Value> {
    let text = text.as_str()?;
    let trimmed = text.trim_start();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// What [`Compare::Shape`] keeps of a prompt, resource or completion result.
fn request_shape(kind: Kind, result: &Value) -> Value {
    let items = |key: &str| {
        result
            .pointer(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let keep = |item: &Value, keys: &[&str]| {
        let mut m = Map::new();
        for k in keys {
            if let Some(v) = item.get(*k) {
                m.insert((*k).into(), v.clone());
            }
        }
        m
    };
    match kind {
        Kind::Prompt => {
            let messages = items("/messages")
                .iter()
                .map(|m| {
                    let mut out = keep(m, &["role"]);
                    if let Some(content) = m.get("content") {
                        out.insert("content".into(), Value::Object(keep(content, &["type"])));
                    }
                    Value::Object(out)
                })
                .collect();
            serde_json::json!({ "messages": Value::Array(messages) })
        }
        Kind::Resource => {
            let contents = items("/contents")
                .iter()
                .map(|c| {
                    let mut out = keep(c, &["uri", "mimeType"]);
                    for body in ["text", "blob"] {
                        if c.get(body).is_some() {
                            out.insert(body.into(), Value::from("(present)"));
                        }
                    }
                    Value::Object(out)
                })
                .collect();
            serde_json::json!({ "contents": Value::Array(contents) })
        }
        Kind::Completion => {
            let count = items("/completion/values").len();
            serde_json::json!({ "completion": { "values": vec![Value::from("(a value)"); count] } })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DECLARATION: &str = r#"{"inputSchema": {"type": "object"}, "outputSchema": {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}}"#;
    const TOOL: ToolCase = ToolCase {
        tool: "count",
        declaration: DECLARATION,
        scope: &[ProtocolVersion::V2025_11_25],
    };

    fn site() -> Site<'static> {
        Site::new(
            "tool `count`, example `one`",
            "/tools/0/examples/one",
            ProtocolVersion::V2025_11_25,
        )
    }

    #[test]
    fn exact_names_the_pointer_in_the_result_and_in_the_description() {
        let expected =
            json!({"content": [{"type": "text", "text": "1"}], "structuredContent": {"n": 1}});
        let actual = json!({"content": [{"type": "text", "text": "2"}], "structuredContent": {"n": 2}, "isError": false});
        let err =
            compare_tool_result(&site(), &TOOL, Compare::Exact, &expected, &actual).unwrap_err();
        assert_eq!(
            err,
            "tool `count`, example `one` (MCP 2025-11-25): the implementation's result differs from the example at /content/0/text (/tools/0/examples/one/result/content/0/text)\n    expected: \"1\"\n    actual:   \"2\""
        );
    }

    #[test]
    fn texts_holding_json_are_compared_as_json() {
        let expected = json!({"content": [{"type": "text", "text": "{\"id\":1,\"title\":\"a\",\"tags\":[]}"}]});
        // Another member order and spacing: the same JSON.
        let reordered = json!({"content": [{"type": "text", "text": "{\"id\": 1, \"tags\": [], \"title\": \"a\"}"}]});
        compare_tool_result(&site(), &TOOL, Compare::Exact, &expected, &reordered).unwrap();
        // A real difference inside the JSON is located in it; the formatting-only note
        // names a text that differs only in formatting.
        let expected2 = json!({"content": [
            {"type": "text", "text": "{\"a\":1}"},
            {"type": "text", "text": "{\"b\":1}"}
        ]});
        let actual2 = json!({"content": [
            {"type": "text", "text": "{ \"a\": 1 }"},
            {"type": "text", "text": "{\"b\":2}"}
        ]});
        let err =
            compare_tool_result(&site(), &TOOL, Compare::Exact, &expected2, &actual2).unwrap_err();
        assert!(
            err.contains("differs from the example at /content/1/text/b"),
            "{err}"
        );
        assert!(
            err.contains("note: the texts at /content/0/text hold the same JSON and differ only in formatting (compared as JSON)"),
            "{err}"
        );
        assert!(
            err.contains("note: the texts at /content/1/text hold JSON and are compared as JSON"),
            "{err}"
        );
        // Texts that are not JSON objects or arrays stay text.
        let err = compare_tool_result(
            &site(),
            &TOOL,
            Compare::Exact,
            &json!({"content": [{"type": "text", "text": "1"}]}),
            &json!({"content": [{"type": "text", "text": "1.0"}]}),
        )
        .unwrap_err();
        assert!(
            err.contains("at /content/0/text (") && !err.contains("note:"),
            "{err}"
        );
    }

    #[test]
    fn shape_ignores_text_but_not_kinds_error_flag_or_schema_validity() {
        let expected =
            json!({"content": [{"type": "text", "text": "1"}], "structuredContent": {"n": 1}});
        let other_text = json!({"content": [{"type": "text", "text": "9"}], "structuredContent": {"n": 9}, "resultType": "complete"});
        compare_tool_result(&site(), &TOOL, Compare::Shape, &expected, &other_text).unwrap();
        let image = json!({"content": [{"type": "image", "data": "", "mimeType": "image/png"}], "structuredContent": {"n": 1}});
        let err =
            compare_tool_result(&site(), &TOOL, Compare::Shape, &expected, &image).unwrap_err();
        assert!(err.contains("(shape only) at /content/0/type"), "{err}");
        let error = json!({"content": [{"type": "text", "text": "no"}], "isError": true});
        let err =
            compare_tool_result(&site(), &TOOL, Compare::Shape, &expected, &error).unwrap_err();
        assert!(err.contains("at /isError"), "{err}");
        let invalid =
            json!({"content": [{"type": "text", "text": "1"}], "structuredContent": {"n": "one"}});
        let err =
            compare_tool_result(&site(), &TOOL, Compare::Shape, &expected, &invalid).unwrap_err();
        assert!(
            err.contains("not valid against the outputSchema (/structuredContent/n)"),
            "{err}"
        );
    }

    #[test]
    fn request_shapes_keep_roles_kinds_uris_and_counts() {
        let prompt =
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "a"}}]});
        let other =
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "b"}}]});
        assert_eq!(
            request_shape(Kind::Prompt, &prompt),
            request_shape(Kind::Prompt, &other)
        );
        let assistant =
            json!({"messages": [{"role": "assistant", "content": {"type": "text", "text": "a"}}]});
        let d = first_difference(
            &request_shape(Kind::Prompt, &prompt),
            &request_shape(Kind::Prompt, &assistant),
        )
        .unwrap();
        assert_eq!(d.pointer, "/messages/0/role");
        let two = json!({"completion": {"values": ["a", "b"]}});
        let one = json!({"completion": {"values": ["z"]}});
        let d = first_difference(
            &request_shape(Kind::Completion, &two),
            &request_shape(Kind::Completion, &one),
        )
        .unwrap();
        assert_eq!(d.pointer, "/completion/values/1");
        let text = json!({"contents": [{"uri": "x:a", "text": "1"}]});
        let blob = json!({"contents": [{"uri": "x:a", "blob": "AA=="}]});
        let d = first_difference(
            &request_shape(Kind::Resource, &text),
            &request_shape(Kind::Resource, &blob),
        )
        .unwrap();
        assert_eq!(d.pointer, "/contents/0/blob");
    }

    /// A router with the tool `confirm` (2025-06-18 to 2026-07-28), whose handler asks
    /// for a confirmation, except in `skip_in` (a wrong implementation).
    fn confirming(skip_in: Option<ProtocolVersion>) -> Router {
        use crate::{ServerInfo, ToolError, ToolResult, ToolSpec};
        let info = ServerInfo {
            name: "confirm".into(),
            version: "1".into(),
            protocol_versions: ProtocolVersion::ALL,
            ..Default::default()
        };
        Router::new(info).tool(
            ToolSpec::new("confirm", SCOPE, CONFIRM_DECLARATION),
            move |_args, cx| {
                Box::pin(async move {
                    if Some(cx.protocol_version()) != skip_in {
                        let answer = cx
                            .elicit_form("Sure?", json!({"type": "object"}))
                            .await
                            .map_err(|e| ToolError::new(e.to_string()))?;
                        if answer.action != crate::ElicitAction::Accept {
                            return Err(ToolError::new("not confirmed"));
                        }
                    }
                    Ok(ToolResult::text("done"))
                })
            },
        )
    }

    const SCOPE: &[ProtocolVersion] = &[
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];
    const CONFIRM_DECLARATION: &str = r#"{"name": "confirm", "inputSchema": {"type": "object"}}"#;
    const CONFIRM: ToolCase = ToolCase {
        tool: "confirm",
        declaration: CONFIRM_DECLARATION,
        scope: SCOPE,
    };
    const CONFIRMED: InteractionExample = InteractionExample {
        name: "yes",
        pointer: "/tools/0/interactionExamples/yes",
        input: "{}",
        steps: r#"[{"type": "elicitation", "request": {"mode": "form", "message": "Sure?", "requestedSchema": {"type": "object"}}, "response": {"action": "accept", "content": {}}}]"#,
        result: r#"{"content": [{"type": "text", "text": "done"}]}"#,
    };

    #[test]
    fn interaction_examples_run_in_each_version_on_a_fresh_server() {
        let built = std::sync::atomic::AtomicUsize::new(0);
        let fresh = || {
            built.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            confirming(None)
        };
        check_interaction_example(fresh, &CONFIRM, &CONFIRMED, Compare::Exact).unwrap();
        assert_eq!(built.into_inner(), SCOPE.len());
    }

    #[test]
    fn an_interaction_failure_in_an_earlier_version_names_that_version() {
        // Right in the latest version (what the check used to run alone), wrong before.
        for wrong in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
            let err = check_interaction_example(
                || confirming(Some(wrong)),
                &CONFIRM,
                &CONFIRMED,
                Compare::Exact,
            )
            .unwrap_err();
            assert_eq!(
                err,
                format!("tool `confirm`, interaction example `yes` (MCP {wrong}) (/tools/0/interactionExamples/yes/steps/0): step 0 (elicitation) was never requested; the tool made 0 of 1 requests")
            );
        }
        // Wrong in 2026-07-28 only: the input-required rounds are checked too.
        let err = check_interaction_example(
            || confirming(Some(ProtocolVersion::V2026_07_28)),
            &CONFIRM,
            &CONFIRMED,
            Compare::Exact,
        )
        .unwrap_err();
        assert!(err.contains("(MCP 2026-07-28)"), "{err}");
    }
}
