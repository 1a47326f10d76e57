//! Inputs generated from a tool's `inputSchema`: valid ones, and invalid ones that
//! break exactly one explicit constraint.
//!
//! The generator serves a subset of JSON Schema: `type` (one or a list), `properties`,
//! `required`, `additionalProperties`, `items`, `minItems`/`maxItems`, `uniqueItems`,
//! `enum`, `const`, `minimum`/`maximum` and their exclusive forms, `multipleOf` on
//! integers, `minLength`/`maxLength`, `format` (well-known formats get a value of that
//! form; formats are annotations anyway; URLs, e-mail addresses and host names are in
//! the reserved `.invalid` domain and IP addresses are loopback ones, so that a server
//! that acts on them reaches nobody), `anyOf`/`oneOf` (one branch), local `$ref`s
//! that do not recurse, and annotations. Any other assertion (`pattern`, `not`,
//! `allOf`, `if`, `patternProperties`, `dependentRequired`, ...) or a recursive `$ref`
//! makes the schema [`Unsupported`]: the check reports it as `skipped` rather than
//! sending inputs it cannot vouch for.
//!
//! Every generated input is verified against the schema with `jsonschema` before it
//! is sent: a "valid" input must validate and an "invalid" one must not, so the
//! generator's own mistakes become `skipped` findings, never false failures.
//!
//! Invalid inputs come only from explicit constraints (a `required` member removed,
//! a value of another `type`, a bound crossed by one, a length one past its limit, a
//! value outside an `enum`, a member `additionalProperties: false` forbids), inside the
//! argument object (its root stays an object, as MCP requires) and never inside an
//! `anyOf`/`oneOf` branch, where another branch could still accept the value.

use jsonschema::{Draft, Validator};
use serde_json::{json, Map, Value};

use crate::rng::Rng;

/// A schema the generator cannot serve, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// Assertion keywords the generator does not implement.
const UNSUPPORTED: &[&str] = &[
    "pattern",
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
const MAX_DEPTH: usize = 12;

/// A generated input.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// The arguments to send.
    pub input: Value,
    /// Whether the schema accepts them.
    pub valid: bool,
    /// For an invalid case, the constraint broken (`/depth: above maximum 40`).
    pub broken: Option<String>,
}

/// Generates inputs for one schema.
pub struct Generator<'a> {
    root: &'a Value,
    validator: Validator,
    rng: Rng,
}

impl std::fmt::Debug for Generator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator").finish_non_exhaustive()
    }
}

impl<'a> Generator<'a> {
    /// A generator for the input schema `root`, seeded by `rng`. Fails when the schema
    /// does not compile offline or uses a keyword the generator does not serve.
    pub fn new(root: &'a Value, rng: Rng) -> Result<Self, Unsupported> {
        let validator = compile(root).map_err(Unsupported)?;
        let mut trail = Vec::new();
        scan(root, root, &mut trail, "")?;
        Ok(Generator {
            root,
            validator,
            rng,
        })
    }

    /// Whether the schema accepts `instance`.
    pub fn accepts(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// `count` cases: valid and invalid ones alternating (valid first), all valid
    /// when the schema has no constraint to break. A generated value that does not
    /// verify is an [`Unsupported`] naming it.
    pub fn cases(&mut self, count: usize) -> Result<Vec<Case>, Unsupported> {
        let mut cases = Vec::with_capacity(count);
        let mut can_break = true;
        for i in 0..count {
            let valid = self.valid()?;
            if i % 2 == 1 && can_break {
                match self.invalid(&valid) {
                    Some(case) => {
                        cases.push(case);
                        continue;
                    }
                    None => can_break = false,
                }
            }
            cases.push(Case {
                input: valid,
                valid: true,
                broken: None,
            });
        }
        Ok(cases)
    }

    /// One valid input (a few tries, since `oneOf` and `uniqueItems` can reject a
    /// random choice).
    fn valid(&mut self) -> Result<Value, Unsupported> {
        let mut last = Value::Null;
        for _ in 0..8 {
            let mut refs = Vec::new();
            last = self.value(self.root, 0, &mut refs)?;
            if !last.is_object() {
                // Tool arguments are an object whatever the schema says.
                return Err(Unsupported(
                    "the schema does not describe an object".to_owned(),
                ));
            }
            if self.accepts(&last) {
                return Ok(last);
            }
        }
        let why: Vec<String> = self
            .validator
            .iter_errors(&last)
            .take(3)
            .map(|e| format!("{}: {e}", e.instance_path().as_str()))
            .collect();
        Err(Unsupported(format!(
            "no generated value satisfies the schema (last try {last}: {})",
            why.join("; ")
        )))
    }

    /// `valid` with one explicit constraint broken, or `None` when no constraint can
    /// be broken verifiably.
    fn invalid(&mut self, valid: &Value) -> Option<Case> {
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

    /// A random value of `schema`.
    fn value(
        &mut self,
        schema: &Value,
        depth: usize,
        refs: &mut Vec<String>,
    ) -> Result<Value, Unsupported> {
        if depth > MAX_DEPTH {
            return Err(Unsupported(format!("nesting deeper than {MAX_DEPTH}")));
        }
        let map = match schema {
            Value::Bool(true) => return Ok(Value::String(self.word())),
            Value::Bool(false) => return Err(Unsupported("a `false` schema".to_owned())),
            Value::Object(map) => map,
            _ => return Ok(Value::Null),
        };
        if let Some(Value::String(reference)) = map.get("$ref") {
            let target = resolve(self.root, reference)?;
            refs.push(reference.clone());
            let v = self.value(target, depth + 1, refs);
            refs.pop();
            return v;
        }
        if let Some(c) = map.get("const") {
            return Ok(c.clone());
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            if values.is_empty() {
                return Err(Unsupported("an empty `enum`".to_owned()));
            }
            return Ok(values[self.rng.below(values.len())].clone());
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(key) {
                if branches.is_empty() {
                    return Err(Unsupported(format!("an empty `{key}`")));
                }
                let branch = &branches[self.rng.below(branches.len())];
                let mut merged = map.clone();
                merged.remove(key);
                let picked = self.value(branch, depth + 1, refs)?;
                // The sibling keywords constrain too; with only annotations beside the
                // branch the branch's value is the answer.
                return if has_assertions(&merged) {
                    let base = self.value(&Value::Object(merged), depth + 1, refs)?;
                    Ok(merge(base, picked))
                } else {
                    Ok(picked)
                };
            }
        }
        match self.pick_type(map).as_str() {
            "object" => self.object(map, depth, refs),
            "array" => self.array(map, depth, refs),
            "integer" => Ok(self.integer(map)),
            "number" => Ok(self.number(map)),
            "boolean" => Ok(Value::Bool(self.rng.flip())),
            "null" => Ok(Value::Null),
            _ => Ok(Value::String(self.string(map))),
        }
    }

    /// The `type` to generate: one of the listed ones, else what the keywords imply.
    fn pick_type(&mut self, map: &Map<String, Value>) -> String {
        match map.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(types)) if !types.is_empty() => types[self.rng.below(types.len())]
                .as_str()
                .unwrap_or("string")
                .to_owned(),
            _ => {
                let has = |keys: &[&str]| keys.iter().any(|k| map.contains_key(*k));
                if has(&["properties", "required", "additionalProperties"]) {
                    "object"
                } else if has(&["items", "minItems", "maxItems", "uniqueItems"]) {
                    "array"
                } else if has(&[
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "exclusiveMaximum",
                    "multipleOf",
                ]) {
                    "number"
                } else {
                    "string"
                }
                .to_owned()
            }
        }
    }

    fn object(
        &mut self,
        map: &Map<String, Value>,
        depth: usize,
        refs: &mut Vec<String>,
    ) -> Result<Value, Unsupported> {
        let empty = Map::new();
        let properties = map
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let required: Vec<&str> = required(map);
        let mut object = Map::new();
        for (name, schema) in properties {
            if required.contains(&name.as_str()) || self.rng.flip() {
                object.insert(name.clone(), self.value(schema, depth + 1, refs)?);
            }
        }
        for name in required {
            if !object.contains_key(name) {
                // Required but not described: any value will do; a string is the
                // likeliest to be what the server wants.
                object.insert(name.to_owned(), Value::String(self.word()));
            }
        }
        Ok(Value::Object(object))
    }

    fn array(
        &mut self,
        map: &Map<String, Value>,
        depth: usize,
        refs: &mut Vec<String>,
    ) -> Result<Value, Unsupported> {
        let min = uint(map, "minItems").unwrap_or(0);
        let max = uint(map, "maxItems").unwrap_or(min + 3).min(min + 3);
        let len = self.rng.between(min as i64, max as i64) as usize;
        let items = map.get("items").cloned().unwrap_or(Value::Bool(true));
        let mut list = Vec::with_capacity(len);
        for _ in 0..len {
            list.push(self.value(&items, depth + 1, refs)?);
        }
        if map.get("uniqueItems") == Some(&Value::Bool(true)) {
            let mut unique: Vec<Value> = Vec::new();
            for item in list {
                if !unique.contains(&item) {
                    unique.push(item);
                }
            }
            list = unique;
        }
        Ok(Value::Array(list))
    }

    fn integer(&mut self, map: &Map<String, Value>) -> Value {
        let (lo, hi) = integer_bounds(map);
        let step = map
            .get("multipleOf")
            .and_then(Value::as_i64)
            .filter(|m| *m > 0);
        match step {
            Some(m) => {
                let first = lo.div_euclid(m) + i64::from(lo.rem_euclid(m) != 0);
                let last = hi.div_euclid(m);
                Value::from(self.rng.between(first, last.max(first)) * m)
            }
            None => Value::from(self.rng.between(lo, hi)),
        }
    }

    fn number(&mut self, map: &Map<String, Value>) -> Value {
        let num = |k: &str| map.get(k).and_then(Value::as_f64);
        let lo = num("minimum").or(num("exclusiveMinimum"));
        let hi = num("maximum").or(num("exclusiveMaximum"));
        let (lo, hi) = match (lo, hi) {
            (Some(lo), Some(hi)) => (lo, hi),
            (Some(lo), None) => (lo, lo + 10.0),
            (None, Some(hi)) => (hi - 10.0, hi),
            (None, None) => (0.0, 10.0),
        };
        // Two decimals keep the value readable in a report; the exclusive bounds are
        // kept by staying strictly inside when the range allows.
        let value = lo + (hi - lo) * self.rng.unit();
        let rounded = (value * 100.0).round() / 100.0;
        let inside = if rounded > lo && rounded < hi {
            rounded
        } else {
            (lo + hi) / 2.0
        };
        json!(inside)
    }

    fn string(&mut self, map: &Map<String, Value>) -> String {
        let min = uint(map, "minLength").unwrap_or(0);
        let max = uint(map, "maxLength").unwrap_or(min + 12).min(min + 12);
        if let Some(format) = map.get("format").and_then(Value::as_str) {
            let n = self.rng.below(1000);
            let formatted = match format {
                "date-time" => Some(format!("2024-01-{:02}T12:00:00Z", n % 28 + 1)),
                "date" => Some(format!("2024-01-{:02}", n % 28 + 1)),
                "time" => Some(format!("12:{:02}:00Z", n % 60)),
                "email" | "idn-email" => Some(format!("user{n}@example.invalid")),
                "uri" | "iri" | "url" | "uri-reference" | "iri-reference" => {
                    Some(format!("https://example.invalid/item/{n}"))
                }
                "uuid" => Some(format!("00000000-0000-4000-8000-{n:012}")),
                "ipv4" => Some(format!("127.0.0.{}", n % 250 + 1)),
                "ipv6" => Some("::1".to_owned()),
                "hostname" | "idn-hostname" => Some(format!("host{n}.example.invalid")),
                _ => None,
            };
            if let Some(s) = formatted.filter(|s| (min..=max.max(min)).contains(&s.len())) {
                return s;
            }
        }
        let len = self.rng.between(min as i64, max as i64) as usize;
        (0..len).map(|_| self.letter()).collect()
    }

    fn word(&mut self) -> String {
        let len = self.rng.between(1, 8) as usize;
        (0..len).map(|_| self.letter()).collect()
    }

    fn letter(&mut self) -> char {
        const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        LETTERS[self.rng.below(LETTERS.len())] as char
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

/// Compiles `schema` offline, with the dialect its `$schema` names (draft-07, else
/// JSON Schema 2020-12, the MCP default), as the runtime does.
pub(crate) fn compile(schema: &Value) -> Result<Validator, String> {
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
fn scan(
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
fn resolve<'v>(root: &'v Value, reference: &str) -> Result<&'v Value, Unsupported> {
    let pointer = reference
        .strip_prefix('#')
        .ok_or_else(|| Unsupported(format!("the `$ref` `{reference}` is not local")))?;
    root.pointer(pointer)
        .ok_or_else(|| Unsupported(format!("the `$ref` `{reference}` points nowhere")))
}

fn required(map: &Map<String, Value>) -> Vec<&str> {
    map.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

fn uint(map: &Map<String, Value>, key: &str) -> Option<usize> {
    map.get(key)
        .and_then(Value::as_u64)
        .map(|n| n.min(1 << 16) as usize)
}

/// The integer range of a schema, a small one where a side is open (so that a
/// `duration` or `count` without a maximum stays reasonable).
fn integer_bounds(map: &Map<String, Value>) -> (i64, i64) {
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

fn has_assertions(map: &Map<String, Value>) -> bool {
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

/// The members of two objects together (`picked` wins); anything else: `picked`.
fn merge(base: Value, picked: Value) -> Value {
    match (base, picked) {
        (Value::Object(mut base), Value::Object(picked)) => {
            base.extend(picked);
            Value::Object(base)
        }
        (_, picked) => picked,
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

fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

fn display_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        "/".to_owned()
    } else {
        pointer.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases(schema: Value, n: usize) -> Result<Vec<Case>, Unsupported> {
        Generator::new(&schema, Rng::new(1, "t"))?.cases(n)
    }

    #[test]
    fn valid_and_invalid_cases_verify() {
        let schema = json!({
            "type": "object",
            "properties": {
                "pgn": {"type": "string", "minLength": 1, "maxLength": 20},
                "depth": {"type": "integer", "minimum": 1, "maximum": 40},
                "side": {"enum": ["white", "black"]},
                "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
                "at": {"type": "string", "format": "date-time"}
            },
            "required": ["pgn"],
            "additionalProperties": false
        });
        let validator = compile(&schema).unwrap();
        let all = cases(schema, 40).unwrap();
        assert_eq!(all.len(), 40);
        let invalid: Vec<&Case> = all.iter().filter(|c| !c.valid).collect();
        assert_eq!(invalid.len(), 20);
        for case in &all {
            assert_eq!(validator.is_valid(&case.input), case.valid, "{case:?}");
            assert!(case.input.is_object());
        }
        // Different constraints get broken.
        let broken: std::collections::BTreeSet<String> =
            invalid.iter().map(|c| c.broken.clone().unwrap()).collect();
        assert!(broken.len() > 4, "{broken:?}");
    }

    #[test]
    fn same_seed_same_cases_other_seed_other_cases() {
        let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}, "s": {"type": "string"}}});
        let a = cases(schema.clone(), 10).unwrap();
        assert_eq!(a, cases(schema.clone(), 10).unwrap());
        let b = Generator::new(&schema, Rng::new(2, "t"))
            .unwrap()
            .cases(10)
            .unwrap();
        assert_ne!(a, b);
    }

    #[test]
    fn unsupported_parts_are_named() {
        let pattern = json!({"type": "object", "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}}});
        let err = cases(pattern, 2).unwrap_err();
        assert!(err.0.contains("`pattern` at /properties/id"), "{err:?}");
        let recursive = json!({
            "type": "object",
            "properties": {"node": {"$ref": "#/$defs/Node"}},
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
        });
        assert!(cases(recursive, 2).unwrap_err().0.contains("recursive"));
        assert!(cases(json!({"not": {}}), 1).is_err());
    }

    #[test]
    fn refs_and_branches() {
        let schema = json!({
            "type": "object",
            "properties": {
                "p": {"$ref": "#/$defs/P"},
                "q": {"anyOf": [{"type": "integer", "maximum": 3}, {"type": "null"}]}
            },
            "required": ["p", "q"],
            "$defs": {"P": {"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 0}}, "required": ["x"]}}
        });
        let validator = compile(&schema).unwrap();
        for case in cases(schema, 12).unwrap() {
            assert_eq!(validator.is_valid(&case.input), case.valid, "{case:?}");
        }
    }

    #[test]
    fn no_constraint_no_invalid_case() {
        let all = cases(json!({"type": "object"}), 4).unwrap();
        assert!(all.iter().all(|c| c.valid && c.input == json!({})));
    }
}
