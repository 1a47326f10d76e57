//! What the generator reads of a schema: the keywords it serves, the checks before
//! anything is generated, local `$ref`s, bounds, and the offline validator that
//! verifies every generated input.

use jsonschema::{Draft, Validator};
use serde_json::{Map, Value};

use super::pattern::Pattern;

/// A schema the generator cannot serve, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// Assertion keywords the generator does not implement.
const UNSUPPORTED: &[&str] = &[
    "not",
    "allOf",
    "if",
    "then",
    "else",
    "patternProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "propertyNames",
    "contains",
    "prefixItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "minProperties",
    "maxProperties",
    "$dynamicRef",
    "$recursiveRef",
];

/// The deepest nesting generated.
pub(super) const MAX_DEPTH: usize = 12;

/// Compiles `schema` offline, with the dialect its `$schema` names (draft-07, else
/// JSON Schema 2020-12, the MCP default), as the runtime does.
pub(super) fn compile(schema: &Value) -> Result<Validator, String> {
    let mut copy = schema.clone();
    let mut draft = Draft::Draft202012;
    if let Some(map) = copy.as_object_mut() {
        if let Some(Value::String(uri)) = map.remove("$schema") {
            if uri.contains("draft-07") {
                draft = Draft::Draft7;
            }
        }
    }
    jsonschema::options()
        .with_draft(draft)
        .build(&copy)
        .map_err(|e| format!("the schema does not compile offline: {e}"))
}

/// Checks a schema for keywords the generator does not serve and for recursive
/// `$ref`s, before anything is generated.
pub(super) fn scan(
    root: &Value,
    schema: &Value,
    trail: &mut Vec<String>,
    at: &str,
) -> Result<(), Unsupported> {
    let Value::Object(map) = schema else {
        return Ok(());
    };
    if let Some(keyword) = UNSUPPORTED.iter().find(|k| map.contains_key(**k)) {
        return Err(Unsupported(format!(
            "`{keyword}` at {} is not supported by the input generator",
            display_pointer(at)
        )));
    }
    if let Some(Value::String(pattern)) = map.get("pattern") {
        Pattern::parse(pattern).map_err(|why| {
            Unsupported(format!(
                "{why} (at {}), so the input generator cannot serve it",
                display_pointer(at)
            ))
        })?;
    }
    if let Some(Value::String(reference)) = map.get("$ref") {
        if trail.contains(reference) {
            return Err(Unsupported(format!(
                "the `$ref` `{reference}` at {} is recursive",
                display_pointer(at)
            )));
        }
        let target = resolve(root, reference)?;
        trail.push(reference.clone());
        scan(root, target, trail, &format!("{at}/$ref"))?;
        trail.pop();
    }
    for (key, value) in map {
        match key.as_str() {
            "properties" | "$defs" | "definitions" => {
                if let Value::Object(members) = value {
                    for (name, sub) in members {
                        if key == "properties" {
                            scan(root, sub, trail, &format!("{at}/{key}/{}", escape(name)))?;
                        }
                    }
                }
            }
            "items" | "additionalProperties" => scan(root, value, trail, &format!("{at}/{key}"))?,
            "anyOf" | "oneOf" => {
                for (i, sub) in value.as_array().into_iter().flatten().enumerate() {
                    scan(root, sub, trail, &format!("{at}/{key}/{i}"))?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// The target of a local `$ref` (`#`, `#/$defs/X`); anything else is unsupported.
pub(super) fn resolve<'v>(root: &'v Value, reference: &str) -> Result<&'v Value, Unsupported> {
    let pointer = reference
        .strip_prefix('#')
        .ok_or_else(|| Unsupported(format!("the `$ref` `{reference}` is not local")))?;
    root.pointer(pointer)
        .ok_or_else(|| Unsupported(format!("the `$ref` `{reference}` points nowhere")))
}

pub(super) fn required(map: &Map<String, Value>) -> Vec<&str> {
    map.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

pub(super) fn uint(map: &Map<String, Value>, key: &str) -> Option<usize> {
    map.get(key)
        .and_then(Value::as_u64)
        .map(|n| n.min(1 << 16) as usize)
}

/// The integer range of a schema, a small one where a side is open (so that a
/// `duration` or `count` without a maximum stays reasonable).
pub(super) fn integer_bounds(map: &Map<String, Value>) -> (i64, i64) {
    let num = |k: &str| map.get(k).and_then(Value::as_f64);
    let lo = num("minimum")
        .map(|f| f.ceil())
        .or(num("exclusiveMinimum").map(|f| f.floor() + 1.0));
    let hi = num("maximum")
        .map(|f| f.floor())
        .or(num("exclusiveMaximum").map(|f| f.ceil() - 1.0));
    let clamp = |f: f64| f.clamp(-9.0e15, 9.0e15) as i64;
    match (lo.map(clamp), hi.map(clamp)) {
        (Some(lo), Some(hi)) => (lo, hi),
        (Some(lo), None) => (lo, lo.saturating_add(10)),
        (None, Some(hi)) => (hi.saturating_sub(10), hi),
        (None, None) => (0, 10),
    }
}

pub(super) fn has_assertions(map: &Map<String, Value>) -> bool {
    const ANNOTATIONS: &[&str] = &[
        "title",
        "description",
        "default",
        "examples",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$comment",
        "$schema",
        "$id",
        "$defs",
        "definitions",
        "$anchor",
    ];
    map.keys().any(|k| !ANNOTATIONS.contains(&k.as_str()))
}

pub(super) fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

pub(super) fn display_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        "/".to_owned()
    } else {
        pointer.to_owned()
    }
}
