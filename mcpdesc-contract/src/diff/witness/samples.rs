//! Values the witnesses start from and the values they try: a small instance a schema
//! accepts, and values just outside an enum, a numeric bound, a `multipleOf`, a length
//! or a pattern.

use serde_json::{Map, Value};

use super::refs::{deref, items_schema};
use crate::diff::types::Types;

/// A small instance of `schema`: its `const`, first `enum` value, `default` or first
/// example, else a value of its first type that respects its bounds, with the
/// required members of objects and the minimum number of array items.
pub(crate) fn sample(root: &Value, schema: &Value, depth: usize) -> Value {
    let schema = deref(root, schema);
    if depth > 16 {
        return Value::Null;
    }
    let Some(map) = schema.as_object() else {
        return Value::Null;
    };
    if let Some(c) = map.get("const") {
        return c.clone();
    }
    if let Some(first) = map
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(d) = map.get("default") {
        return d.clone();
    }
    if let Some(e) = map
        .get("examples")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return e.clone();
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(first) = map
            .get(key)
            .and_then(Value::as_array)
            .and_then(|l| l.first())
        {
            if map.get("type").is_none() && map.get("properties").is_none() {
                return sample(root, first, depth + 1);
            }
        }
    }
    let kind = match map.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_str)
            .next()
            .unwrap_or("null"),
        _ if map.contains_key("properties") || map.contains_key("required") => "object",
        _ if map.contains_key("items") || map.contains_key("prefixItems") => "array",
        _ if map.contains_key("minLength")
            || map.contains_key("maxLength")
            || map.contains_key("pattern") =>
        {
            "string"
        }
        _ if map.contains_key("minimum") || map.contains_key("maximum") => "number",
        _ => "null",
    };
    let num = |k: &str| map.get(k).and_then(Value::as_f64);
    match kind {
        "object" => {
            let mut out = Map::new();
            let props = map.get("properties");
            for name in map
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let sub = props
                    .and_then(|p| p.get(name))
                    .or_else(|| map.get("additionalProperties").filter(|a| a.is_object()))
                    .unwrap_or(&Value::Bool(true));
                out.insert(name.to_owned(), sample(root, sub, depth + 1));
            }
            Value::Object(out)
        }
        "array" => {
            let n = num("minItems").unwrap_or(0.0).max(0.0) as usize;
            let mut out: Vec<Value> = map
                .get("prefixItems")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|s| sample(root, s, depth + 1))
                .collect();
            let item = items_schema(root, schema);
            while out.len() < n.min(64) {
                out.push(sample(root, item, depth + 1));
            }
            Value::Array(out)
        }
        "string" => {
            let known = match map.get("format").and_then(Value::as_str) {
                Some("date-time") => Some("2024-01-01T00:00:00Z"),
                Some("date") => Some("2024-01-01"),
                Some("time") => Some("00:00:00Z"),
                Some("email") => Some("user@example.com"),
                Some("uri" | "url" | "iri") => Some("https://example.com/"),
                Some("uuid") => Some("00000000-0000-0000-0000-000000000000"),
                Some("ipv4") => Some("192.0.2.1"),
                Some("hostname") => Some("example.com"),
                _ => None,
            };
            if let Some(text) = known {
                return Value::String(text.to_owned());
            }
            let min = num("minLength").unwrap_or(1.0).max(0.0) as usize;
            let max = num("maxLength").map_or(usize::MAX, |m| m.max(0.0) as usize);
            Value::String("x".repeat(min.max(1).min(max).min(4096)))
        }
        "integer" | "number" => Value::from_f64_or_int(number_in(map, kind == "integer")),
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}

/// A number that satisfies the bounds and `multipleOf` of `map`, near 0.
fn number_in(map: &Map<String, Value>, integer: bool) -> f64 {
    let num = |k: &str| map.get(k).and_then(Value::as_f64);
    let step = num("multipleOf").filter(|m| *m > 0.0).unwrap_or(1.0);
    let mut lo = num("minimum");
    if let Some(x) = num("exclusiveMinimum") {
        lo = Some(lo.map_or(x + step.min(1.0) / 2.0, |l| l.max(x + step.min(1.0) / 2.0)));
    }
    let mut hi = num("maximum");
    if let Some(x) = num("exclusiveMaximum") {
        hi = Some(hi.map_or(x - step.min(1.0) / 2.0, |h| h.min(x - step.min(1.0) / 2.0)));
    }
    let start = match (lo, hi) {
        (Some(l), _) if l > 0.0 => l,
        (_, Some(h)) if h < 0.0 => h,
        _ => 0.0,
    };
    let mut v = (start / step).ceil() * step;
    if let Some(h) = hi {
        if v > h {
            v = (h / step).floor() * step;
        }
    }
    if integer {
        v = v.ceil();
    }
    v
}

/// `Value` from an `f64`, as an integer when it is one.
trait FromF64 {
    fn from_f64_or_int(x: f64) -> Value;
}

impl FromF64 for Value {
    fn from_f64_or_int(x: f64) -> Value {
        if x.fract() == 0.0 && x.abs() < 9e15 {
            Value::from(x as i64)
        } else {
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
        }
    }
}

/// Values of `types` that are not in `allowed` (for an enum or const newly imposed).
pub(crate) fn values_outside(allowed: &[Value], types: Types) -> Vec<Value> {
    [
        Value::from("x"),
        Value::from("unlisted"),
        Value::from(""),
        Value::from(0),
        Value::from(1),
        Value::from(-1),
        Value::from(0.5),
        Value::Bool(true),
        Value::Bool(false),
        Value::Null,
        Value::Object(Map::new()),
        Value::Array(Vec::new()),
    ]
    .into_iter()
    .filter(|v| {
        types.contains(v)
            && !allowed
                .iter()
                .any(|a| crate::diff::values::json_equal(a, v))
    })
    .collect()
}

/// Numbers the old bound allows and the new one excludes.
pub(crate) fn numbers_beyond(
    lower: bool,
    old: Option<(f64, bool)>,
    new: Option<(f64, bool)>,
    integer: bool,
) -> Vec<Value> {
    let Some((y, exclusive)) = new else {
        return Vec::new();
    };
    let sign = if lower { -1.0 } else { 1.0 };
    let mut out = Vec::new();
    if exclusive {
        out.push(y);
    }
    out.push(y + sign);
    if !integer {
        out.push(y + sign * 0.5);
    }
    if let Some((x, exclusive_before)) = old {
        if !exclusive_before {
            out.push(x);
        }
        // Between the two bounds, for bounds closer than one unit.
        out.push((x + y) / 2.0);
    }
    out.into_iter()
        .filter(|v| v.is_finite() && (!integer || v.fract() == 0.0))
        .map(Value::from_f64_or_int)
        .collect()
}

/// Numbers that are multiples of the old `multipleOf` (or any number) but not of the
/// new one.
pub(crate) fn non_multiples(old: Option<f64>, new: f64, integer: bool) -> Vec<Value> {
    let mut out: Vec<f64> = match old {
        Some(m) => (1..=8).map(|k| m * k as f64).collect(),
        None => vec![1.0, 3.0, 7.0, 11.0],
    };
    if !integer && old.is_none() {
        out.push(0.5);
    }
    out.into_iter()
        .filter(|v| ((v / new).fract()).abs() > 1e-9)
        .map(Value::from_f64_or_int)
        .collect()
}

/// A length the old limit allows and the new one excludes.
pub(crate) fn length_beyond(lower: bool, old: Option<f64>, new: Option<f64>) -> Option<usize> {
    let y = new?;
    if lower {
        let n = y - 1.0;
        (n >= old.unwrap_or(0.0) && n >= 0.0).then_some(n as usize)
    } else {
        let n = y + 1.0;
        (old.is_none_or(|x| n <= x) && n <= 4096.0).then_some(n as usize)
    }
}

/// Strings to try against a newly added `pattern`.
pub(crate) fn pattern_candidates() -> Vec<Value> {
    [
        "", "x", "X", "0", "-", " ", "a b", "xyz", "_", "!", "x@y", "1.5",
    ]
    .into_iter()
    .map(Value::from)
    .collect()
}
