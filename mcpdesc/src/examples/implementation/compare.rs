//! How an example's result is compared with the implementation's ([`Compare`]):
//! exactly (text blocks holding JSON compared as JSON), or by shape; and the failure
//! messages naming the example, the version and the pointer.

use serde_json::{Map, Value};

use crate::examples::data::{parse_json, RequestExample, ToolCase};
use crate::examples::difference::{first_difference, Difference};
use crate::examples::testing::values::validate_if_compilable;
use crate::protocol::error::ProtocolError;
use crate::protocol::version::ProtocolVersion;

/// How an example's result is compared with the implementation's; see the
/// module docs.
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

impl Compare {
    /// The comparison an example object chooses with [`Compare::EXTENSION`]
    /// (`None` when it names no known value; absent is [`Compare::Exact`]).
    ///
    /// ```
    /// use mcpdesc::implementation::Compare;
    /// use serde_json::json;
    /// assert_eq!(Compare::of_example(&json!({"x-mcpdesc-compare": "shape"})), Some(Compare::Shape));
    /// assert_eq!(Compare::of_example(&json!({"input": {}})), Some(Compare::Exact));
    /// ```
    pub fn of_example(example: &Value) -> Option<Compare> {
        match example.get(Compare::EXTENSION) {
            None => Some(Compare::Exact),
            Some(value) => value.as_str().and_then(Compare::parse),
        }
    }

    /// What [`Compare::Shape`] keeps of a result of `method` (`tools/call`,
    /// `prompts/get`, `resources/read`, `completion/complete`), without the wire-only
    /// members; `None` for another method. Two results of the same shape compare
    /// equal under [`Compare::Shape`] (a tool's `structuredContent` is further
    /// checked against its `outputSchema`).
    ///
    /// ```
    /// use mcpdesc::implementation::Compare;
    /// use serde_json::json;
    /// let at_noon = json!({"content": [{"type": "text", "text": "12:00"}]});
    /// let at_one = json!({"content": [{"type": "text", "text": "13:00"}], "isError": false});
    /// assert_eq!(Compare::shape("tools/call", &at_noon), Compare::shape("tools/call", &at_one));
    /// ```
    pub fn shape(method: &str, result: &Value) -> Option<Value> {
        let result = without_wire_details(result, &Value::Null);
        match method {
            "tools/call" => Some(tool_shape(&result)),
            "prompts/get" => Some(request_shape(Kind::Prompt, &result)),
            "resources/read" => Some(request_shape(Kind::Resource, &result)),
            "completion/complete" => Some(request_shape(Kind::Completion, &result)),
            _ => None,
        }
    }
}

/// Who is checked, for messages: the example, its pointer, the version of the call.
pub(super) struct Site<'a> {
    what: &'a str,
    pointer: &'a str,
    version: ProtocolVersion,
}

impl<'a> Site<'a> {
    pub(super) fn new(what: &'a str, pointer: &'a str, version: ProtocolVersion) -> Self {
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

pub(super) fn protocol_error(what: &str, version: ProtocolVersion, e: ProtocolError) -> String {
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

pub(super) fn compare_tool_result(
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
pub(super) enum Kind {
    Prompt,
    Resource,
    Completion,
}

pub(super) fn compare_request_result(
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
    use serde_json::json;

    use super::*;

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
}
