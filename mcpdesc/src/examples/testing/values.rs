//! Checks of example values: against a schema (compiled once per schema text and
//! process), through a Rust type and back, and the content blocks and error shape of
//! a result.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::protocol::content::Content;
use crate::protocol::json::{canonical, pointer_of};
use crate::protocol::version::ProtocolVersion;
use crate::schema::validator::{self, Validator};

fn validator(schema: &Value) -> Result<Arc<Validator>, String> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Validator>>>> = OnceLock::new();
    let key = schema.to_string();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(v) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Arc::clone(v));
    }
    let compiled = Arc::new(validator::compile(schema)?);
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
    let problems: Vec<String> = validator::violation_pairs(&v, value)
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
    if validator(schema).is_err() && !validator::needs_missing_feature(schema) {
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

/// Round-trips `value` through `T` and checks that nothing changed (a field the
/// generated type lost or renamed).
pub(crate) fn round_trip_exact<T: Serialize + DeserializeOwned>(
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
