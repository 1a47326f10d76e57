//! What a schema object's shape implies for typify, decided without the walk: whether
//! a property is a nullable option, a tuple is buildable, a `not` or a `default` is
//! representable, a bound is a no-op, an `enum` mixes JSON types.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::keywords::ANNOTATIONS;

/// The definitions a prepared schema aliases: `$ref`s reachable through `$ref` and
/// `allOf` only (the places where typify merges instead of building a type).
pub(super) fn alias_targets(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        out.push(r.trim_start_matches("#/definitions/").to_owned());
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for s in all {
            out.extend(alias_targets(s));
        }
    }
    out
}

/// The values of an `enum` grouped by JSON type (numbers together), when there are
/// several types; `None` for an enum of one type.
pub(super) fn split_enum(values: &[Value]) -> Option<Vec<(&'static str, Vec<Value>)>> {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for v in values {
        let kind = match v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, list)) => list.push(v.clone()),
            None => groups.push((kind, vec![v.clone()])),
        }
    }
    (groups.len() > 1).then_some(groups)
}

/// Why `default` cannot be the default of the schema `map`, if it cannot: not one of its
/// instance types, not in its `enum`, outside its bounds.
pub(super) fn default_problem(map: &Map<String, Value>, default: &Value) -> Option<String> {
    let kind = match default {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
    };
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let fits = |t: &str| t == kind || (t == "number" && kind == "integer");
    if !types.is_empty() && !types.iter().any(|t| fits(t)) {
        return Some(format!(
            "is a JSON {kind}, not of the schema's type {}",
            types.join(" or ")
        ));
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if !values.contains(default) {
            return Some("is not one of the schema's `enum` values".into());
        }
    }
    if let Some(c) = map.get("const") {
        if c != default {
            return Some("is not the schema's `const` value".into());
        }
    }
    if let Some(n) = default.as_f64() {
        let bound = |k: &str| map.get(k).and_then(Value::as_f64);
        let below = bound("minimum").is_some_and(|m| n < m)
            || bound("exclusiveMinimum").is_some_and(|m| n <= m);
        let above = bound("maximum").is_some_and(|m| n > m)
            || bound("exclusiveMaximum").is_some_and(|m| n >= m);
        if below || above {
            return Some("is outside the schema's bounds".into());
        }
    }
    if let Some(s) = default.as_str() {
        let len = s.chars().count() as u64;
        let size = |k: &str| map.get(k).and_then(Value::as_u64);
        if size("minLength").is_some_and(|m| len < m) || size("maxLength").is_some_and(|m| len > m)
        {
            return Some("does not have the length the schema requires".into());
        }
    }
    if let Some(items) = default.as_array() {
        let len = items.len() as u64;
        let size = |k: &str| map.get(k).and_then(Value::as_u64);
        if size("minItems").is_some_and(|m| len < m) || size("maxItems").is_some_and(|m| len > m) {
            return Some("does not have the number of items the schema requires".into());
        }
    }
    None
}

/// Lists the optional properties of the prepared object `out` whose type is nullable
/// (see [`is_nullable_option`]) under `required`, in typify's copy only.
///
/// typify makes an optional property `#[serde(default, skip_serializing_if =
/// "Option::is_none")] Option<T>`, and a nullable one is already `Option<T>`: a JSON
/// `null` would read as `None` and be written back as an absent member. Required, the
/// field is a plain `Option<T>`: serde still reads an absent `Option` member as `None`,
/// and `None` is written as `null`, which the original schema admits. So `{"x": null}`
/// round-trips unchanged, and an absent `x` comes back as `"x": null`.
///
/// ```text
/// {"properties": {"x": {"type": ["string", "null"]}}}
///   -> {"properties": {"x": {"type": ["string", "null"]}}, "required": ["x"]}
///   -> pub x: Option<String>,            // no serde attributes
/// ```
pub(super) fn require_nullable(out: &mut Map<String, Value>) {
    let Some(Value::Object(props)) = out.get("properties") else {
        return;
    };
    let required: BTreeSet<&str> = match out.get("required") {
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => BTreeSet::new(),
    };
    let added: Vec<Value> = props
        .iter()
        .filter(|(name, schema)| !required.contains(name.as_str()) && is_nullable_option(schema))
        .map(|(name, _)| Value::String(name.clone()))
        .collect();
    if added.is_empty() {
        return;
    }
    match out.get_mut("required") {
        Some(Value::Array(list)) => list.extend(added),
        _ => {
            out.insert("required".into(), Value::Array(added));
        }
    }
}

/// Whether typify makes the *prepared* schema `schema` an `Option<T>` of its own:
/// `type` lists `"null"` and another type (with no `enum`, whose values decide), or
/// `anyOf`/`oneOf` has a `{"type": "null"}` branch and another branch. A schema with a
/// `default` other than `null` is left out: required, its field would lose the default
/// for an absent member. A `$ref` to a nullable definition is left out too (its type is the
/// definition's, optional as before).
pub(super) fn is_nullable_option(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    let default = map.get("default").is_some_and(|d| !d.is_null());
    if default || map.contains_key("$ref") || map.contains_key("enum") {
        return false;
    }
    let is_null = |t: &Value| t.as_str() == Some("null");
    let typed = match map.get("type") {
        Some(Value::Array(types)) => types.iter().any(is_null) && types.iter().any(|t| !is_null(t)),
        _ => false,
    };
    let branched = ["anyOf", "oneOf"].iter().any(|k| match map.get(*k) {
        Some(Value::Array(branches)) => {
            let null_branch = |b: &Value| {
                b.as_object().is_some_and(|m| {
                    m.get("type").is_some_and(is_null)
                        && m.keys().all(|k| k == "type" || k == "description")
                })
            };
            branches.iter().any(null_branch) && branches.iter().any(|b| !null_branch(b))
        }
        _ => false,
    });
    let others_beside_branches = map
        .keys()
        .any(|k| !matches!(k.as_str(), "anyOf" | "oneOf" | "description"));
    typed || (branched && !others_beside_branches)
}

/// Whether a number keyword constrains nothing for an instance of `ty` (typify's copy
/// drops it; the router still checks the original schema): on an integer-only schema,
/// `multipleOf: 1`, a `minimum` at or below `i64::MIN` and a `maximum` at or above
/// `u64::MAX` (the bounds of the widest types typify picks).
pub(super) fn no_op_number(ty: Option<&Value>, keyword: &str, value: &Value) -> bool {
    if ty != Some(&Value::String("integer".into())) {
        return false;
    }
    let Some(v) = value.as_f64() else {
        return false;
    };
    match keyword {
        "multipleOf" => v == 1.0,
        "minimum" => v <= i64::MIN as f64,
        "maximum" => v >= u64::MAX as f64,
        _ => false,
    }
}

/// The forms of `not` typify converts: `false`, and an enum of excluded values (with at
/// most one instance type).
pub(super) fn supported_not(not: &Value) -> bool {
    match not {
        Value::Bool(b) => !b,
        Value::Object(m) => {
            let values = m.get("enum").is_some_and(Value::is_array) || m.contains_key("const");
            let single_type = matches!(m.get("type"), None | Some(Value::String(_)));
            let only_known = m.keys().all(|k| {
                ["enum", "const", "type"].contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str())
            });
            values && single_type && only_known
        }
        _ => false,
    }
}

/// Whether the array schema has the tuple form (`prefixItems`, or draft-07 `items: [..]`).
pub(super) fn is_tuple(map: &Map<String, Value>) -> bool {
    map.get("prefixItems").is_some_and(Value::is_array)
        || map.get("items").is_some_and(Value::is_array)
}

/// Whether `minItems == maxItems > 0`, the only tuples typify builds.
pub(super) fn fixed_length(map: &Map<String, Value>) -> bool {
    let min = map.get("minItems").and_then(Value::as_u64);
    let max = map.get("maxItems").and_then(Value::as_u64);
    matches!((min, max), (Some(a), Some(b)) if a == b && a > 0 && a <= u64::from(u32::MAX))
}
