//! Checks that generated example tests (and users' own tests) run on Tool Examples.
//!
//! Every check returns `Err(String)` with a message that names the tool, the example and
//! the JSON pointer of the problem inside the description, for example
//!
//! ```text
//! tool `analyze_game`, example `basic` (/tools/0/examples/basic/input/depth): does not
//! validate against the inputSchema: 50 is greater than the maximum of 40
//! ```
//!
//! Generated code calls [`check_example`] and [`check_example_with_output`] once per Tool
//! Example and [`check_interaction`] once per Tool Interaction Example; the generated
//! contract check calls [`check_against`]. With a test server, the generated tests also
//! run each example against the implementation ([`crate::examples::implementation`]), which
//! reports the first difference with [`first_difference`]. The lower-level helpers ([`validate`],
//! [`round_trip`], [`check_content`], [`check_error_shape`], [`compare_results`]) are
//! public for hand-written tests.
//!
//! Schemas are compiled with `jsonschema` (offline, the dialect from `$schema`) once per
//! distinct schema text and process.

mod request_examples;
mod tool_examples;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::schema::Validator;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::examples::mock::ExampleBook;
use crate::{Content, Context, ProtocolVersion, Router, ToolResult};

pub use crate::examples::difference::{first_difference, Difference};
pub use crate::examples::scripted::ScriptedClient;
pub use request_examples::{NoArguments, RequestExamples};
pub use tool_examples::{expect, NoOutput, ToolExamples};

/// One Tool Example as generated code stores it: JSON texts, parsed on use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Example {
    /// Its name in the tool's `examples` map.
    pub name: &'static str,
    /// Its pointer in the description (`/tools/0/examples/basic`; for an example reached
    /// through `$componentRef`, the use site).
    pub pointer: &'static str,
    /// `input`, as JSON text.
    pub input: &'static str,
    /// `result`, as JSON text.
    pub result: &'static str,
}

/// One Tool Interaction Example as generated code stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InteractionExample {
    /// Its name in the tool's `interactionExamples` map.
    pub name: &'static str,
    /// Its pointer in the description (`/tools/0/interactionExamples/approved`).
    pub pointer: &'static str,
    /// `input`, as JSON text.
    pub input: &'static str,
    /// `steps`, as JSON text (an array of step objects).
    pub steps: &'static str,
    /// `result`, as JSON text.
    pub result: &'static str,
}

/// One example of a prompt, resource, resource template or completion target as
/// generated code stores it: JSON texts, parsed on use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestExample {
    /// Its name in the declaration's `examples` or `completionExamples` map.
    pub name: &'static str,
    /// Its pointer in the description (`/prompts/0/examples/default`; for an example
    /// reached through `$componentRef`, the use site).
    pub pointer: &'static str,
    /// The request it shows, as JSON text: a Prompt Example's `arguments` (`{}` when
    /// absent); a Resource Example's request URI (the declaration's `uri`) as a JSON
    /// string; a Resource Template Example's `uri` as a JSON string; a completion
    /// example's `{"argument": ..., "context": ...}`.
    pub request: &'static str,
    /// `result`, as JSON text.
    pub result: &'static str,
}

/// What the checks need to know about a tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolCase {
    /// The tool's name.
    pub tool: &'static str,
    /// The resolved declaration (JSON text with `inputSchema` and `outputSchema`).
    pub declaration: &'static str,
    /// The tool's effective protocol scope.
    pub scope: &'static [ProtocolVersion],
}

impl ToolCase {
    /// The case of the tool `spec` registers.
    pub const fn of(spec: &crate::ToolSpec) -> Self {
        ToolCase {
            tool: spec.name,
            declaration: spec.declaration,
            scope: spec.scope,
        }
    }
}

/// Parses one of the JSON texts of generated code.
pub fn parse_json(text: &str, what: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{what}: not JSON: {e}"))
}

fn validator(schema: &Value) -> Result<Arc<Validator>, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Validator>>>> = OnceLock::new();
    let key = schema.to_string();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Arc::clone(v));
    }
    let compiled = Arc::new(crate::schema::compile(schema)?);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, Arc::clone(&compiled));
    Ok(compiled)
}

/// Validates `value` against `schema`. `at` is the pointer of `value` in the
/// description (`/tools/0/examples/basic/input`); each violation is reported at
/// `at` + its instance path, prefixed with `what` (who the value belongs to).
///
/// ```
/// use serde_json::json;
/// let schema = json!({"type": "object", "properties": {"depth": {"maximum": 40}}});
/// let err = mcpdesc::testing::validate(&schema, &json!({"depth": 50}), "tool `t`, example `e`", "/tools/0/examples/e/input").unwrap_err();
/// assert!(err.starts_with("tool `t`, example `e` (/tools/0/examples/e/input/depth): "), "{err}");
/// ```
pub fn validate(schema: &Value, value: &Value, what: &str, at: &str) -> Result<(), String> {
    let v = validator(schema)
        .map_err(|e| format!("{what} ({at}): the schema does not compile: {e}"))?;
    let problems: Vec<String> = crate::schema::violation_pairs(&v, value)
        .into_iter()
        .take(20)
        .map(|(path, message)| format!("{what} ({at}{path}): {message}"))
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// [`validate`], except that a schema the offline validator cannot compile (an
/// unresolved external `$ref`, which MCP Description §9.2 says is never retrieved) is not
/// checked: compatibility with it is unknown, not wrong. The example checks use this.
pub fn validate_if_compilable(
    schema: &Value,
    value: &Value,
    what: &str,
    at: &str,
) -> Result<(), String> {
    // A schema that only needs a feature of this crate is not "unknown": its error
    // says which feature.
    if validator(schema).is_err() && !crate::schema::needs_missing_feature(schema) {
        return Ok(());
    }
    validate(schema, value, what, at)
}

/// Round-trips `value` through the Rust type `T`: deserialize, serialize, validate the
/// serialized value against the original `schema`, then check that a second round trip
/// gives the same JSON (the type is stable). Returns the serialized value. A schema that
/// does not compile offline is skipped ([`validate_if_compilable`]). When `value` does
/// not deserialize, the message's pointer goes down to the member that did not fit.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Input { pgn: String }
/// let schema = serde_json::json!({"type": "object", "required": ["pgn"]});
/// let out = mcpdesc::testing::round_trip::<Input>(&schema, &serde_json::json!({"pgn": "1. e4"}), "x", "/input").unwrap();
/// assert_eq!(out["pgn"], "1. e4");
/// assert!(mcpdesc::testing::round_trip::<Input>(&schema, &serde_json::json!({}), "x", "/input").is_err());
/// // A value that does not fit the type is reported where it is.
/// let err = mcpdesc::testing::round_trip::<Input>(&schema, &serde_json::json!({"pgn": 5}), "x", "/input").unwrap_err();
/// assert!(err.starts_with("x (/input/pgn): does not deserialize into"), "{err}");
/// ```
pub fn round_trip<T: Serialize + DeserializeOwned>(
    schema: &Value,
    value: &Value,
    what: &str,
    at: &str,
) -> Result<Value, String> {
    let ty = std::any::type_name::<T>();
    let typed: T = serde_path_to_error::deserialize(value.clone()).map_err(|e| {
        let at = format!("{at}{}", pointer_of(e.path()));
        format!(
            "{what} ({at}): does not deserialize into `{ty}`: {}",
            e.inner()
        )
    })?;
    let once = serde_json::to_value(&typed)
        .map_err(|e| format!("{what} ({at}): `{ty}` does not serialize: {e}"))?;
    validate_if_compilable(
        schema,
        &once,
        &format!("{what}, after a round trip through `{ty}`,"),
        at,
    )?;
    let again: T = serde_json::from_value(once.clone()).map_err(|e| {
        format!("{what} ({at}): the serialized `{ty}` does not deserialize again: {e}")
    })?;
    let twice = serde_json::to_value(&again)
        .map_err(|e| format!("{what} ({at}): `{ty}` does not serialize: {e}"))?;
    if canonical(&once) != canonical(&twice) {
        return Err(format!(
            "{what} ({at}): a second round trip through `{ty}` changes the value:\n  first:  {once}\n  second: {twice}"
        ));
    }
    Ok(once)
}

/// The JSON pointer (relative, `""` for the root) of where deserialization stopped:
/// object keys and array indexes; enum variant steps add nothing (an untagged or
/// internally tagged enum has no key of its own), and an unknown step ends the pointer.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Enum { .. } => {}
            Segment::Unknown => break,
        }
    }
    pointer
}

/// Parses every content block of `result` into [`Content`] and checks that each version
/// of `scope` can carry it ([`Content::version_problems`]).
pub fn check_content(
    result: &Value,
    scope: &[ProtocolVersion],
    what: &str,
    at: &str,
) -> Result<(), String> {
    let Some(blocks) = result.get("content").and_then(Value::as_array) else {
        return Err(format!(
            "{what} ({at}/content): the result has no `content` array"
        ));
    };
    let mut problems = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match serde_json::from_value::<Content>(block.clone()) {
            Err(e) => problems.push(format!(
                "{what} ({at}/content/{i}): not an MCP content block: {e}"
            )),
            Ok(content) => {
                for &v in scope {
                    for p in content.version_problems(v) {
                        problems.push(format!("{what} ({at}/content/{i}): {p}"));
                    }
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// Checks the shape of a tool execution error: `isError: true`, non-empty `content`,
/// no `structuredContent`.
pub fn check_error_shape(result: &Value, what: &str, at: &str) -> Result<(), String> {
    if result.get("isError") != Some(&Value::Bool(true)) {
        return Err(format!(
            "{what} ({at}/isError): an execution error needs `isError: true`"
        ));
    }
    if result.get("structuredContent").is_some() {
        return Err(format!(
            "{what} ({at}/structuredContent): an execution error must not carry `structuredContent`"
        ));
    }
    match result.get("content").and_then(Value::as_array) {
        Some(c) if !c.is_empty() => Ok(()),
        _ => Err(format!(
            "{what} ({at}/content): an execution error needs content that says what went wrong"
        )),
    }
}

fn schemas(tool: &ToolCase) -> Result<(Value, Option<Value>), String> {
    let decl = parse_json(
        tool.declaration,
        &format!("tool `{}`: declaration", tool.tool),
    )?;
    let input = decl
        .get("inputSchema")
        .cloned()
        .unwrap_or(Value::Bool(true));
    Ok((input, decl.get("outputSchema").cloned()))
}

fn check_common<I: Serialize + DeserializeOwned>(
    tool: &ToolCase,
    example: &Example,
) -> Result<(Value, String), String> {
    let what = format!("tool `{}`, example `{}`", tool.tool, example.name);
    let (input_schema, _) = schemas(tool)?;
    let input = parse_json(example.input, &what)?;
    let result = parse_json(example.result, &what)?;
    let input_at = format!("{}/input", example.pointer);
    validate_if_compilable(&input_schema, &input, &what, &input_at)?;
    round_trip::<I>(&input_schema, &input, &what, &input_at)?;
    let result_at = format!("{}/result", example.pointer);
    check_content(&result, tool.scope, &what, &result_at)?;
    if result.get("isError") == Some(&Value::Bool(true)) {
        check_error_shape(&result, &what, &result_at)?;
    }
    Ok((result, what))
}

/// The test of one Tool Example of a tool without `outputSchema`: the input validates,
/// round-trips through `I` and still validates; the result's content blocks parse and
/// fit every version of the scope; an error result has the execution-error shape.
pub fn check_example<I: Serialize + DeserializeOwned>(
    tool: &ToolCase,
    example: &Example,
) -> Result<(), String> {
    check_common::<I>(tool, example).map(|_| ())
}

/// [`check_example`] for a tool with `outputSchema`; in addition, a successful result's
/// `structuredContent` exists, validates, and round-trips through `O`.
pub fn check_example_with_output<
    I: Serialize + DeserializeOwned,
    O: Serialize + DeserializeOwned,
>(
    tool: &ToolCase,
    example: &Example,
) -> Result<(), String> {
    let (result, what) = check_common::<I>(tool, example)?;
    if result.get("isError") == Some(&Value::Bool(true)) {
        return Ok(());
    }
    let (_, output_schema) = schemas(tool)?;
    let Some(output_schema) = output_schema else {
        return Ok(());
    };
    let at = format!("{}/result/structuredContent", example.pointer);
    let Some(structured) = result.get("structuredContent") else {
        return Err(format!(
            "{what} ({at}): a successful result of a tool with outputSchema needs structuredContent"
        ));
    };
    validate_if_compilable(&output_schema, structured, &what, &at)?;
    round_trip::<O>(&output_schema, structured, &what, &at).map(|_| ())
}

/// Compares an actual result with an example's result the way the contract check does:
/// `structuredContent` equal, `isError` equal (absent = false), and the content blocks of
/// the same kinds in the same order. Returns a readable diff on mismatch.
pub fn compare_results(expected: &Value, actual: &Value) -> Result<(), String> {
    let mut diffs = Vec::new();
    let err = |v: &Value| v.get("isError").and_then(Value::as_bool).unwrap_or(false);
    if err(expected) != err(actual) {
        diffs.push(format!(
            "isError: expected {}, got {}",
            err(expected),
            err(actual)
        ));
    }
    let sc = |v: &Value| v.get("structuredContent").map(canonical);
    if sc(expected) != sc(actual) {
        diffs.push(format!(
            "structuredContent:\n    expected: {}\n    actual:   {}",
            show(expected.get("structuredContent")),
            show(actual.get("structuredContent"))
        ));
    }
    let kinds = |v: &Value| -> Vec<String> {
        v.get("content")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|b| {
                        b.get("type")
                            .and_then(Value::as_str)
                            .unwrap_or("?")
                            .to_owned()
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    if kinds(expected) != kinds(actual) {
        diffs.push(format!(
            "content block kinds: expected {:?}, got {:?}",
            kinds(expected),
            kinds(actual)
        ));
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("- {}", diffs.join("\n- ")))
    }
}

fn show(v: Option<&Value>) -> String {
    v.map_or_else(|| "(absent)".to_owned(), Value::to_string)
}

/// The canonical form examples are matched in: object members sorted by key, numbers
/// with an integral value written as integers (`1.0` equals `1`).
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => value.clone(),
        },
        other => other.clone(),
    }
}

/// `value` after a round trip through `T` (or `value` itself when it does not
/// deserialize): what a typed input looks like when it comes back as JSON.
pub fn normalize<T: Serialize + DeserializeOwned>(value: &Value) -> Value {
    serde_json::from_value::<T>(value.clone())
        .ok()
        .and_then(|t| serde_json::to_value(t).ok())
        .unwrap_or_else(|| value.clone())
}

/// The protocol version a check runs in: the latest of the scope.
pub(crate) fn latest(scope: &[ProtocolVersion]) -> ProtocolVersion {
    scope
        .iter()
        .copied()
        .max()
        .unwrap_or(ProtocolVersion::LATEST)
}

/// Runs one Tool Interaction Example through `router` (usually the mock's) with a
/// [`ScriptedClient`] built from its steps, once per version of the scope, and checks
/// that every step was requested in order and that the result equals the example's.
pub fn check_interaction(
    router: &Router,
    tool: &ToolCase,
    example: &InteractionExample,
) -> Result<(), String> {
    let what = format!(
        "tool `{}`, interaction example `{}`",
        tool.tool, example.name
    );
    let input = parse_json(example.input, &what)?;
    let steps = parse_json(example.steps, &what)?;
    let expected = parse_json(example.result, &what)?;
    let expected_result: ToolResult = serde_json::from_value(expected.clone()).map_err(|e| {
        format!(
            "{what} ({}/result): not a tool result: {e}",
            example.pointer
        )
    })?;
    for &version in tool.scope {
        let client = Arc::new(ScriptedClient::new(&what, example.pointer, &steps)?);
        let cx = Context::with_peer(version, client.clone());
        let actual =
            futures::executor::block_on(router.call_tool(tool.tool, Some(input.clone()), cx))
                .map_err(|e| format!("{what}, MCP {version}: protocol error: {}", e.message))?;
        client.finish()?;
        if actual != expected_result {
            return Err(format!(
                "{what}, MCP {version}: the result differs from the example's ({}/result):\n    expected: {}\n    actual:   {}",
                example.pointer,
                serde_json::to_string(&expected_result).unwrap_or_default(),
                serde_json::to_string(&actual).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// The opt-in contract check: runs `router` (the user's implementation) on the named
/// examples of `book` and compares each result with the example's. Each pair is
/// `(target, example)`, the target written as `--select` writes it
/// ([`Target::parse`](crate::examples::mock::Target::parse)): a tool name, or `prompt:NAME`,
/// `resource:URI`, `template:URI_TEMPLATE`, `completion:prompt:NAME`,
/// `completion:template:URI_TEMPLATE`.
///
/// - Tools ([`compare_results`]): Tool Examples run without a client; interaction
///   examples run with a [`ScriptedClient`] of their steps.
/// - Prompts: the same messages, by role and content kind, in order.
/// - Resources and templates: the same contents, by URI, MIME type and text or blob,
///   in order.
/// - Completions: the same values, in order.
///
/// Each request uses the latest protocol version of the declaration's scope. All
/// mismatches are reported together.
pub fn check_against(
    router: &Router,
    book: &ExampleBook,
    selection: &[(&str, &str)],
) -> Result<(), String> {
    let mut failures = Vec::new();
    for &(target, name) in selection {
        let tool = match crate::examples::mock::Target::parse(target) {
            crate::examples::mock::Target::Tool(tool) => tool,
            other => {
                if let Err(e) = check_primitive_against(router, book, &other, name) {
                    failures.push(e);
                }
                continue;
            }
        };
        let tool = tool.as_str();
        // A protocol-scoped variant's example runs in that variant's scope.
        let Some((found, scope)) = book.find_scoped(tool, name) else {
            failures.push(format!(
                "tool `{tool}`: no example `{name}` (available: {})",
                book.names(tool).join(", ")
            ));
            continue;
        };
        let version = latest(scope);
        let (cx, client) = match &found.steps {
            Some(steps) => {
                let what = format!("tool `{tool}`, interaction example `{name}`");
                match ScriptedClient::new(&what, "", steps) {
                    Ok(c) => {
                        let c = Arc::new(c);
                        (Context::with_peer(version, c.clone()), Some(c))
                    }
                    Err(e) => {
                        failures.push(e);
                        continue;
                    }
                }
            }
            None => (Context::new(version), None),
        };
        let outcome =
            futures::executor::block_on(router.call_tool(tool, Some(found.input.clone()), cx));
        let actual = match outcome {
            Ok(r) => r.to_wire(version),
            Err(e) => {
                failures.push(format!(
                    "tool `{tool}`, example `{name}`: protocol error: {}",
                    e.message
                ));
                continue;
            }
        };
        if let Some(client) = client {
            if let Err(e) = client.finish() {
                failures.push(e);
            }
        }
        if let Err(diff) = compare_results(&found.result, &actual) {
            failures.push(format!(
                "tool `{tool}`, example `{name}` (MCP {version}): the implementation's result differs from the example:\n{diff}"
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n"))
    }
}

/// Compares a result served for `version` with the example's result (canonical JSON).
fn same_result(
    what: &str,
    at: &str,
    version: ProtocolVersion,
    expected: &Value,
    actual: &Value,
) -> Result<(), String> {
    if canonical(expected) == canonical(actual) {
        return Ok(());
    }
    Err(format!(
        "{what}, MCP {version}: the result differs from the example's ({at}/result):\n    expected: {expected}\n    actual:   {actual}"
    ))
}

/// Round-trips `value` through `T` and checks that nothing changed (a field the
/// generated type lost or renamed).
fn round_trip_exact<T: Serialize + DeserializeOwned>(
    value: &Value,
    what: &str,
    at: &str,
) -> Result<(), String> {
    let once = round_trip::<T>(&Value::Bool(true), value, what, at)?;
    if canonical(&once) != canonical(value) {
        return Err(format!(
            "{what} ({at}): a round trip through `{}` changes the value:\n    before: {value}\n    after:  {once}",
            std::any::type_name::<T>()
        ));
    }
    Ok(())
}

fn scope_or_latest(scope: &[ProtocolVersion]) -> Vec<ProtocolVersion> {
    if scope.is_empty() {
        vec![ProtocolVersion::LATEST]
    } else {
        scope.to_vec()
    }
}

/// The test of one Prompt Example: its `arguments` round-trip unchanged through the
/// generated arguments type `A`, and `router` (usually the example mock's, through the
/// generated traits) answers `prompts/get` with exactly the example's result in every
/// version of `scope`.
pub fn check_prompt_example<A: Serialize + DeserializeOwned>(
    router: &Router,
    prompt: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!("prompt `{prompt}`, example `{}`", example.name);
    let arguments = parse_json(example.request, &what)?;
    let expected = parse_json(example.result, &what)?;
    round_trip_exact::<A>(&arguments, &what, &format!("{}/arguments", example.pointer))?;
    let map = arguments.as_object().cloned().unwrap_or_default();
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.get_prompt(
            prompt,
            Some(map.clone()),
            Context::new(version),
        ))
        .map_err(|e| {
            format!(
                "{what}, MCP {version}: JSON-RPC error {}: {}",
                e.code, e.message
            )
        })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The test of one Resource Example: `router` answers `resources/read` of `uri` with
/// exactly the example's result in every version of `scope`.
pub fn check_resource_example(
    router: &Router,
    uri: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!("resource `{uri}`, example `{}`", example.name);
    let expected = parse_json(example.result, &what)?;
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.read_resource(uri, Context::new(version)))
            .map_err(|e| {
                format!(
                    "{what}, MCP {version}: JSON-RPC error {}: {}",
                    e.code, e.message
                )
            })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The test of one Resource Template Example: its `uri` is an expansion of
/// `uri_template` whose variables round-trip unchanged through the generated type `V`
/// (a struct, or `String` beyond level 1), and `router` answers `resources/read` of the
/// `uri` with exactly the example's result in every version of `scope`.
pub fn check_template_example<V: Serialize + DeserializeOwned>(
    router: &Router,
    uri_template: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!(
        "resource template `{uri_template}`, example `{}`",
        example.name
    );
    let uri = parse_json(example.request, &what)?;
    let uri = uri
        .as_str()
        .ok_or_else(|| format!("{what} ({}/uri): not a string", example.pointer))?;
    let expected = parse_json(example.result, &what)?;
    let template = crate::UriTemplate::parse(uri_template)
        .map_err(|e| format!("{what}: the template does not parse: {e}"))?;
    let variables = match template.match_uri(uri) {
        Some(Ok(variables)) => variables,
        Some(Err(why)) => return Err(format!("{what} ({}/uri): {why}", example.pointer)),
        None => {
            return Err(format!(
                "{what} ({}/uri): {uri:?} is not an expansion of the template",
                example.pointer
            ))
        }
    };
    round_trip_exact::<V>(&variables, &what, &format!("{}/uri", example.pointer))?;
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.read_resource(uri, Context::new(version)))
            .map_err(|e| {
                format!(
                    "{what}, MCP {version}: JSON-RPC error {}: {}",
                    e.code, e.message
                )
            })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The test of one completion example: `router` answers `completion/complete` for
/// `target` with the example's argument and context with exactly the example's result
/// in every version of `scope`.
pub fn check_completion_example(
    router: &Router,
    target: &crate::CompletionTarget,
    scope: &[ProtocolVersion],
    example: &RequestExample,
) -> Result<(), String> {
    let what = format!(
        "{} `{}`, completion example `{}`",
        target.kind(),
        target.id(),
        example.name
    );
    let request = parse_json(example.request, &what)?;
    let expected = parse_json(example.result, &what)?;
    let completion = completion_request(&request);
    for version in scope_or_latest(scope) {
        let result = futures::executor::block_on(router.complete(
            target,
            completion.clone(),
            Context::new(version),
        ))
        .map_err(|e| {
            format!(
                "{what}, MCP {version}: JSON-RPC error {}: {}",
                e.code, e.message
            )
        })?;
        same_result(
            &what,
            example.pointer,
            version,
            &expected,
            &result.to_wire(version),
        )?;
    }
    Ok(())
}

/// The completion request of a completion example's request
/// (`{"argument": {"name", "value"}, "context": {"arguments": {...}}}`).
pub(crate) fn completion_request(request: &Value) -> crate::CompletionRequest {
    let text = |p: &str| {
        request
            .pointer(p)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    let mut completion =
        crate::CompletionRequest::new(text("/argument/name"), text("/argument/value"));
    if let Some(Value::Object(arguments)) = request.pointer("/context/arguments") {
        for (name, value) in arguments {
            completion = completion.with_context(name.clone(), value.as_str().unwrap_or_default());
        }
    }
    completion
}

/// The contract check of one prompt, resource, template or completion example.
fn check_primitive_against(
    router: &Router,
    book: &ExampleBook,
    target: &crate::examples::mock::Target,
    name: &str,
) -> Result<(), String> {
    use crate::examples::mock::Target;
    let what = format!("{}, example `{name}`", target.label());
    let (entry, scope) = book.request_entry(target, name).ok_or_else(|| {
        let available: Vec<String> = book
            .target_names(target)
            .iter()
            .map(|n| format!("`{n}`"))
            .collect();
        format!(
            "{}: no example `{name}` (available: {})",
            target.label(),
            available.join(", ")
        )
    })?;
    let version = latest(scope);
    let cx = Context::new(version);
    let protocol = |e: crate::ProtocolError| {
        format!(
            "{what} (MCP {version}): JSON-RPC error {}: {}",
            e.code, e.message
        )
    };
    let actual = match target {
        Target::Prompt(prompt) => {
            let arguments = entry.request.as_object().cloned();
            futures::executor::block_on(router.get_prompt(prompt, arguments, cx))
                .map_err(protocol)?
                .to_wire(version)
        }
        Target::Resource(_) | Target::ResourceTemplate(_) => {
            let uri = entry.request.as_str().unwrap_or_default();
            futures::executor::block_on(router.read_resource(uri, cx))
                .map_err(protocol)?
                .to_wire(version)
        }
        Target::Completion(completion) => {
            let text = |p: &str| {
                entry
                    .request
                    .pointer(p)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned()
            };
            let mut request =
                crate::CompletionRequest::new(text("/argument/name"), text("/argument/value"));
            if let Some(Value::Object(arguments)) = entry.request.pointer("/context/arguments") {
                for (k, v) in arguments {
                    request = request.with_context(k.clone(), v.as_str().unwrap_or_default());
                }
            }
            futures::executor::block_on(router.complete(completion, request, cx))
                .map_err(protocol)?
                .to_wire(version)
        }
        Target::Tool(_) => return Ok(()),
    };
    let shape = |v: &Value| -> Value {
        let items = |key: &str| {
            v.get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        match target {
            Target::Prompt(_) => Value::Array(
                items("messages")
                    .iter()
                    .map(|m| serde_json::json!([m.get("role"), m.pointer("/content/type")]))
                    .collect(),
            ),
            Target::Completion(_) => v
                .pointer("/completion/values")
                .cloned()
                .unwrap_or(Value::Null),
            _ => Value::Array(
                items("contents")
                    .iter()
                    .map(|c| {
                        serde_json::json!([
                            c.get("uri"),
                            c.get("mimeType"),
                            c.get("text").is_some(),
                            c.get("blob").is_some()
                        ])
                    })
                    .collect(),
            ),
        }
    };
    let (expected, got) = (shape(&entry.result), shape(&actual));
    if expected == got {
        return Ok(());
    }
    let compared = match target {
        Target::Prompt(_) => "messages (role, content kind)",
        Target::Completion(_) => "completion values",
        _ => "contents (uri, mimeType, text, blob)",
    };
    Err(format!(
        "{what} (MCP {version}): the implementation's result differs from the example:\n- {compared}:\n    expected: {expected}\n    actual:   {got}"
    ))
}

fn lookup<'a>(
    examples: &'a [Example],
    interactions: &'a [InteractionExample],
    name: &str,
) -> Option<(&'a str, &'a str)> {
    examples
        .iter()
        .find(|e| e.name == name)
        .map(|e| (e.input, e.result))
        .or_else(|| {
            interactions
                .iter()
                .find(|e| e.name == name)
                .map(|e| (e.input, e.result))
        })
}

/// The `input` of the example `name` (a Tool Example or an interaction example).
pub fn example_input(
    examples: &[Example],
    interactions: &[InteractionExample],
    name: &str,
) -> Option<Value> {
    lookup(examples, interactions, name).and_then(|(i, _)| serde_json::from_str(i).ok())
}

/// The `result` of the example `name` (a Tool Example or an interaction example).
pub fn example_result(
    examples: &[Example],
    interactions: &[InteractionExample],
    name: &str,
) -> Option<Value> {
    lookup(examples, interactions, name).and_then(|(_, r)| serde_json::from_str(r).ok())
}

/// The request of the example `name` (see [`RequestExample::request`]).
pub fn request_example_request(examples: &[RequestExample], name: &str) -> Option<Value> {
    examples
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| serde_json::from_str(e.request).ok())
}

/// The `result` of the example `name`.
pub fn request_example_result(examples: &[RequestExample], name: &str) -> Option<Value> {
    examples
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| serde_json::from_str(e.result).ok())
}

/// A typed value (prompt arguments) as the JSON object the router passes around.
pub fn to_object<T: Serialize>(
    value: &T,
) -> Result<serde_json::Map<String, Value>, crate::RequestError> {
    match serde_json::to_value(value) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(crate::RequestError::new(format!(
            "the arguments serialize to {other}, not to a JSON object"
        ))),
        Err(e) => Err(crate::RequestError::new(format!(
            "the arguments cannot be serialized: {e}"
        ))),
    }
}

/// `value` deserialized into `T`, when there is a value.
pub fn typed<T: DeserializeOwned>(value: Option<Value>) -> Option<Result<T, serde_json::Error>> {
    value.map(serde_json::from_value)
}
