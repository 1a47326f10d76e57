//! Invalid inputs: a valid one with exactly one explicit constraint broken (a
//! `required` member removed, another `type`, a value of another type that a lax
//! parser would coerce (`lax.rs`), a bound crossed, a length past its limit, a string
//! that breaks the `pattern`, a value outside an `enum`, a member
//! `additionalProperties: false` forbids).
//!
//! Each case breaks a site not broken before while there is one (`Generator::tried`),
//! so that the cases of a tool go through its arguments and every kind of wrong value,
//! rather than drawing the same break again.

use serde_json::{json, Value};

use super::generator::{Case, Generator};
use super::lax::coercible;
use super::pattern::Pattern;
use super::schema::{display_pointer, escape, required, resolve, uint, MAX_DEPTH};

/// One way to break a valid input.
struct Site {
    /// Where (a JSON Pointer into the arguments).
    pointer: String,
    /// What is broken, for the report.
    what: String,
    /// The value put there; `None` removes the member.
    replacement: Option<Value>,
    /// Whether a lax parser would coerce the value into a valid one.
    coercible: bool,
}

impl Site {
    fn new(pointer: &str, what: impl Into<String>, replacement: Option<Value>) -> Self {
        Site {
            pointer: pointer.to_owned(),
            what: what.into(),
            replacement,
            coercible: false,
        }
    }

    fn key(&self) -> String {
        format!("{}: {}", display_pointer(&self.pointer), self.what)
    }
}

impl Generator<'_> {
    /// `valid` with one explicit constraint broken, or `None` when no constraint can
    /// be broken verifiably.
    pub(super) fn invalid(&mut self, valid: &Value) -> Option<Case> {
        let mut sites = Vec::new();
        let mut refs = Vec::new();
        self.breaks(self.root, valid, "", 0, &mut refs, &mut sites);
        while !sites.is_empty() {
            let fresh: Vec<usize> = (0..sites.len())
                .filter(|i| !self.tried.contains(&sites[*i].key()))
                .collect();
            let index = if fresh.is_empty() {
                self.rng.below(sites.len())
            } else {
                fresh[self.rng.below(fresh.len())]
            };
            let site = sites.swap_remove(index);
            let mut input = valid.clone();
            apply(&mut input, &site.pointer, site.replacement.clone());
            if !self.accepts(&input) {
                let broken = site.key();
                if !self.tried.contains(&broken) {
                    self.tried.push(broken.clone());
                }
                return Some(Case {
                    input,
                    valid: false,
                    broken: Some(broken),
                    argument: Some(display_pointer(&site.pointer)),
                    value: site.replacement,
                    coercible: site.coercible,
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
        sites: &mut Vec<Site>,
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
                sites.push(Site::new(
                    pointer,
                    format!("not of type {t}"),
                    Some(other_type(t)),
                ));
                for (what, replacement) in coercible(t, value) {
                    let mut site = Site::new(pointer, what, Some(replacement));
                    site.coercible = true;
                    sites.push(site);
                }
            }
            if let Some(Value::Array(values)) = map.get("enum") {
                let outside = outside_of(values);
                sites.push(Site::new(
                    pointer,
                    "not one of the `enum` values",
                    Some(outside),
                ));
            }
            if let Some(c) = map.get("const") {
                sites.push(Site::new(
                    pointer,
                    "not the `const` value",
                    Some(outside_of(std::slice::from_ref(c))),
                ));
            }
        }
        match value {
            Value::Object(object) => {
                for name in required(map) {
                    if object.contains_key(name) {
                        sites.push(Site::new(
                            &format!("{pointer}/{}", escape(name)),
                            "a `required` member missing",
                            None,
                        ));
                    }
                }
                if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                    let mut extra = "undeclared".to_owned();
                    while object.contains_key(&extra) {
                        extra.push('_');
                    }
                    sites.push(Site::new(
                        &format!("{pointer}/{extra}"),
                        "a member `additionalProperties: false` forbids",
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
                    sites.push(Site::new(
                        pointer,
                        format!("fewer than `minItems` {min} items"),
                        Some(Value::Array(shorter)),
                    ));
                }
                if let (Some(max), Some(first)) = (uint(map, "maxItems"), items.first()) {
                    let longer = vec![first.clone(); max + 1];
                    sites.push(Site::new(
                        pointer,
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
                        sites.push(Site::new(
                            pointer,
                            format!("{side} `{key}` {bound}"),
                            Some(number(crossed)),
                        ));
                    }
                }
            }
            Value::String(s) => {
                if let Some(min) = uint(map, "minLength").filter(|m| *m > 0) {
                    let shorter: String = s.chars().take(min - 1).collect();
                    sites.push(Site::new(
                        pointer,
                        format!("shorter than `minLength` {min}"),
                        Some(Value::String(shorter)),
                    ));
                }
                if let Some(max) = uint(map, "maxLength") {
                    sites.push(Site::new(
                        pointer,
                        format!("longer than `maxLength` {max}"),
                        Some(Value::String("x".repeat(max + 1))),
                    ));
                }
                if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
                    let breaking = Pattern::parse(pattern)
                        .ok()
                        .and_then(|p| p.breaking(s.chars().count()));
                    if let Some(breaking) = breaking {
                        sites.push(Site::new(
                            pointer,
                            format!("not matching the `pattern` `{pattern}`"),
                            Some(Value::String(breaking)),
                        ));
                    }
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
