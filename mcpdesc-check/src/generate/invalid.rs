//! Invalid inputs: a valid one with exactly one explicit constraint broken (a
//! `required` member removed, another `type`, a bound crossed, a length past its
//! limit, a value outside an `enum`, a member `additionalProperties: false` forbids).

use serde_json::{json, Value};

use super::generator::{Case, Generator};
use super::schema::{display_pointer, escape, required, resolve, uint, MAX_DEPTH};

impl Generator<'_> {
    /// `valid` with one explicit constraint broken, or `None` when no constraint can
    /// be broken verifiably.
    pub(super) fn invalid(&mut self, valid: &Value) -> Option<Case> {
        let mut sites = Vec::new();
        let mut refs = Vec::new();
        self.breaks(self.root, valid, "", 0, &mut refs, &mut sites);
        while !sites.is_empty() {
            let (pointer, what, replacement) = sites.swap_remove(self.rng.below(sites.len()));
            let mut input = valid.clone();
            apply(&mut input, &pointer, replacement);
            if !self.accepts(&input) {
                return Some(Case {
                    input,
                    valid: false,
                    broken: Some(format!("{}: {what}", display_pointer(&pointer))),
                });
            }
        }
        None
    }

    /// The single-constraint breaks of `value` (valid against `schema`) at
    /// `pointer`: `(pointer, what is broken, replacement)`, where a `None`
    /// replacement removes the member.
    fn breaks(
        &mut self,
        schema: &Value,
        value: &Value,
        pointer: &str,
        depth: usize,
        refs: &mut Vec<String>,
        sites: &mut Vec<(String, String, Option<Value>)>,
    ) {
        let Value::Object(map) = schema else {
            return;
        };
        if depth > MAX_DEPTH {
            return;
        }
        if let Some(Value::String(reference)) = map.get("$ref") {
            if let Ok(target) = resolve(self.root, reference) {
                refs.push(reference.clone());
                self.breaks(target, value, pointer, depth + 1, refs, sites);
                refs.pop();
            }
            return;
        }
        let at_root = pointer.is_empty();
        if !at_root {
            if let Some(t) = map.get("type") {
                sites.push((
                    pointer.to_owned(),
                    format!("not of type {t}"),
                    Some(other_type(t)),
                ));
            }
            if let Some(Value::Array(values)) = map.get("enum") {
                let outside = outside_of(values);
                sites.push((
                    pointer.to_owned(),
                    "not one of the `enum` values".to_owned(),
                    Some(outside),
                ));
            }
            if let Some(c) = map.get("const") {
                sites.push((
                    pointer.to_owned(),
                    "not the `const` value".to_owned(),
                    Some(outside_of(std::slice::from_ref(c))),
                ));
            }
        }
        match value {
            Value::Object(object) => {
                for name in required(map) {
                    if object.contains_key(name) {
                        sites.push((
                            format!("{pointer}/{}", escape(name)),
                            "a `required` member missing".to_owned(),
                            None,
                        ));
                    }
                }
                if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                    let mut extra = "undeclared".to_owned();
                    while object.contains_key(&extra) {
                        extra.push('_');
                    }
                    sites.push((
                        format!("{pointer}/{extra}"),
                        "a member `additionalProperties: false` forbids".to_owned(),
                        Some(json!("unexpected")),
                    ));
                }
                if let Some(Value::Object(properties)) = map.get("properties") {
                    for (name, member) in object {
                        if let Some(sub) = properties.get(name) {
                            let p = format!("{pointer}/{}", escape(name));
                            self.breaks(sub, member, &p, depth + 1, refs, sites);
                        }
                    }
                }
            }
            Value::Array(items) => {
                if let Some(min) = uint(map, "minItems").filter(|m| *m > 0) {
                    let shorter: Vec<Value> = items.iter().take(min - 1).cloned().collect();
                    sites.push((
                        pointer.to_owned(),
                        format!("fewer than `minItems` {min} items"),
                        Some(Value::Array(shorter)),
                    ));
                }
                if let (Some(max), Some(first)) = (uint(map, "maxItems"), items.first()) {
                    let longer = vec![first.clone(); max + 1];
                    sites.push((
                        pointer.to_owned(),
                        format!("more than `maxItems` {max} items"),
                        Some(Value::Array(longer)),
                    ));
                }
                if let (Some(sub), Some(first)) = (map.get("items"), items.first()) {
                    let p = format!("{pointer}/0");
                    self.breaks(sub, first, &p, depth + 1, refs, sites);
                }
            }
            Value::Number(_) => {
                let int = map.get("type").and_then(Value::as_str) == Some("integer");
                let delta = if int { 1.0 } else { 0.5 };
                let number = |f: f64| {
                    if int {
                        json!(f as i64)
                    } else {
                        json!(f)
                    }
                };
                for (key, below) in [
                    ("minimum", true),
                    ("maximum", false),
                    ("exclusiveMinimum", true),
                    ("exclusiveMaximum", false),
                ] {
                    if let Some(bound) = map.get(key).and_then(Value::as_f64) {
                        let exclusive = key.starts_with("exclusive");
                        let crossed = match (below, exclusive) {
                            (_, true) => bound,
                            (true, false) => bound - delta,
                            (false, false) => bound + delta,
                        };
                        let side = if below { "below" } else { "above" };
                        sites.push((
                            pointer.to_owned(),
                            format!("{side} `{key}` {bound}"),
                            Some(number(crossed)),
                        ));
                    }
                }
            }
            Value::String(s) => {
                if let Some(min) = uint(map, "minLength").filter(|m| *m > 0) {
                    let shorter: String = s.chars().take(min - 1).collect();
                    sites.push((
                        pointer.to_owned(),
                        format!("shorter than `minLength` {min}"),
                        Some(Value::String(shorter)),
                    ));
                }
                if let Some(max) = uint(map, "maxLength") {
                    sites.push((
                        pointer.to_owned(),
                        format!("longer than `maxLength` {max}"),
                        Some(Value::String("x".repeat(max + 1))),
                    ));
                }
            }
            _ => {}
        }
    }
}

/// A value of none of the types `t` lists.
fn other_type(t: &Value) -> Value {
    let types: Vec<&str> = match t {
        Value::String(s) => vec![s.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let candidates = [
        ("string", json!("not-a-number")),
        ("integer", json!(7)),
        ("boolean", json!(true)),
        ("object", json!({})),
        ("array", json!([])),
    ];
    candidates
        .into_iter()
        .find(|(name, _)| {
            // An integer is a number too.
            !(types.contains(name) || (*name == "integer" && types.contains(&"number")))
        })
        .map_or(Value::Null, |(_, v)| v)
}

/// A string equal to none of `values`.
fn outside_of(values: &[Value]) -> Value {
    let mut candidate = "not-listed".to_owned();
    while values.contains(&Value::String(candidate.clone())) {
        candidate.push('_');
    }
    Value::String(candidate)
}

/// Replaces (or with `None` removes) the value at `pointer`; creates a missing last
/// member of an object.
fn apply(root: &mut Value, pointer: &str, replacement: Option<Value>) {
    let Some((parent, last)) = pointer.rsplit_once('/') else {
        return;
    };
    let last = last.replace("~1", "/").replace("~0", "~");
    let Some(target) = root.pointer_mut(parent) else {
        return;
    };
    match (target, replacement) {
        (Value::Object(map), None) => {
            map.shift_remove(&last);
        }
        (Value::Object(map), Some(v)) => {
            map.insert(last, v);
        }
        (Value::Array(items), Some(v)) => {
            if let Ok(i) = last.parse::<usize>() {
                if let Some(slot) = items.get_mut(i) {
                    *slot = v;
                }
            }
        }
        _ => {}
    }
}
