//! Valid values of a schema, at random: the `type` picked, members, items, numbers
//! within their bounds, strings of their length and well-known formats.

use serde_json::{json, Map, Value};

use super::generator::Generator;
use super::pattern::Pattern;
use super::schema::{
    has_assertions, integer_bounds, required, resolve, uint, Unsupported, MAX_DEPTH,
};

impl Generator<'_> {
    /// One valid input (a few tries, since `oneOf` and `uniqueItems` can reject a
    /// random choice).
    pub(super) fn valid(&mut self) -> Result<Value, Unsupported> {
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
            _ => self.string(map).map(Value::String),
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

    fn string(&mut self, map: &Map<String, Value>) -> Result<String, Unsupported> {
        let min = uint(map, "minLength").unwrap_or(0);
        if let Some(pattern) = map.get("pattern").and_then(Value::as_str) {
            let max = uint(map, "maxLength").unwrap_or(usize::MAX);
            let parsed = Pattern::parse(pattern).map_err(Unsupported)?;
            return parsed.sample(&mut self.rng, min, max).ok_or_else(|| {
                Unsupported(format!(
                    "no generated string of {min} to {max} characters matches the `pattern` `{pattern}`"
                ))
            });
        }
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
                return Ok(s);
            }
        }
        let len = self.rng.between(min as i64, max as i64) as usize;
        Ok((0..len).map(|_| self.letter()).collect())
    }

    fn word(&mut self) -> String {
        let len = self.rng.between(1, 8) as usize;
        (0..len).map(|_| self.letter()).collect()
    }

    fn letter(&mut self) -> char {
        const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        LETTERS[self.rng.below(LETTERS.len())] as char
    }
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
