//! Witnesses of breaking input changes: a concrete tool input the old `inputSchema`
//! accepts and the new one rejects.
//!
//! A witness starts from an input the old schema accepts: the input of one of the old
//! tool's examples when there is one, else a small instance generated from the old
//! schema (required members only, values respecting the bounds). The change's
//! [`Mutation`] is then applied where the change is (the instance path), creating the
//! members on the way, and each candidate is checked with `jsonschema` against both
//! schemas, in their dialects. Only a candidate the old schema accepts and the new one
//! rejects is ever returned; when none qualifies there is no witness (never a guess).
//! Schemas that cannot be compiled offline (external `$ref`) get no witness.

use serde_json::{Map, Value};

use super::types::Types;
use mcpdesc_description::validate::dialect::{compile, Dialect};

/// One step of an instance path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// An object member (`properties`).
    Prop(String),
    /// Any item of an array (`items`).
    Item,
    /// The item at an index (`prefixItems`).
    Index(usize),
    /// A member the object does not declare (`additionalProperties`).
    Undeclared,
}

/// How the old input is changed into a candidate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Mutation {
    /// Replace the value at the path by each of these.
    Set(Vec<Value>),
    /// Leave this member out of the object at the path.
    Omit(String),
    /// Add this member (or, when empty, an undeclared one) to the object at the path.
    Add(String),
    /// Give the array at the path this many items.
    ArrayLength(usize),
    /// Make the array at the path hold the same item twice.
    DuplicateItems,
}

/// Shows an instance path the way messages do: `address.zip`, `tags[]`, `(root)`.
pub(crate) fn display(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Prop(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Seg::Item => out.push_str("[]"),
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
            Seg::Undeclared => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push('*');
            }
        }
    }
    if out.is_empty() {
        out.push_str("(root)");
    }
    out
}

/// Both schemas compiled for instance validation.
struct Pair {
    old: jsonschema::Validator,
    new: jsonschema::Validator,
}

impl Pair {
    fn new(old: &Value, new: &Value) -> Option<Pair> {
        Some(Pair {
            old: compile(old, Dialect::of(old)).ok()?,
            new: compile(new, Dialect::of(new)).ok()?,
        })
    }

    fn witnesses(&self, candidate: &Value) -> bool {
        self.old.is_valid(candidate) && !self.new.is_valid(candidate)
    }
}

/// Finds witnesses for the changes of one pair of schemas: compiles both once and keeps
/// the inputs the old schema accepts (example inputs first, then a generated one).
pub(crate) struct Finder<'s> {
    old: &'s Value,
    new: &'s Value,
    pair: Option<Pair>,
    bases: Vec<Value>,
}

impl<'s> Finder<'s> {
    /// A finder for `old` → `new`; `examples` are the old tool's example inputs.
    pub(crate) fn new(old: &'s Value, new: &'s Value, examples: &[Value]) -> Finder<'s> {
        let pair = Pair::new(old, new);
        let mut bases = Vec::new();
        if let Some(pair) = &pair {
            bases.extend(examples.iter().filter(|e| pair.old.is_valid(e)).cloned());
            let generated = sample(old, old, 0);
            if pair.old.is_valid(&generated) {
                bases.push(generated);
            }
        }
        Finder {
            old,
            new,
            pair,
            bases,
        }
    }

    /// A verified witness for the change at `path`, or `None`.
    pub(crate) fn find(&self, path: &[Seg], mutation: &Mutation) -> Option<Value> {
        let pair = self.pair.as_ref()?;
        self.bases.iter().find_map(|base| {
            candidates(base, self.old, self.new, path, mutation)
                .into_iter()
                .find(|c| pair.witnesses(c))
        })
    }

    /// The first old example input the new schema rejects.
    pub(crate) fn rejected_example(&self, examples: &[Value]) -> Option<Value> {
        let pair = self.pair.as_ref()?;
        examples.iter().find(|e| pair.witnesses(e)).cloned()
    }
}

/// The candidates for one base input.
fn candidates(
    base: &Value,
    old: &Value,
    new: &Value,
    path: &[Seg],
    mutation: &Mutation,
) -> Vec<Value> {
    let mut instance = base.clone();
    let Some((target, schema)) = descend(&mut instance, old, path) else {
        return Vec::new();
    };
    let originals: Vec<Value> = match mutation {
        Mutation::Set(values) => values.clone(),
        Mutation::Omit(name) => {
            let mut v = target.clone();
            match v.as_object_mut() {
                Some(m) => {
                    m.shift_remove(name);
                    vec![v]
                }
                None => Vec::new(),
            }
        }
        Mutation::Add(name) => {
            let Some(m) = target.as_object() else {
                return Vec::new();
            };
            let name = if name.is_empty() {
                fresh_name(m, schema, new, path)
            } else {
                name.clone()
            };
            let declared = schema
                .get("properties")
                .and_then(|p| p.get(&name))
                .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
            let mut values = Vec::new();
            if let Some(s) = declared {
                values.push(sample(old, s, 0));
            }
            values.extend([
                Value::Null,
                Value::from("x"),
                Value::from(0),
                Value::Bool(true),
            ]);
            values
                .into_iter()
                .map(|v| {
                    let mut m = m.clone();
                    m.insert(name.clone(), v);
                    Value::Object(m)
                })
                .collect()
        }
        Mutation::ArrayLength(n) => {
            let item = items_schema(old, schema);
            let mut items = target.as_array().cloned().unwrap_or_default();
            items.truncate(*n);
            while items.len() < *n {
                items.push(sample(old, item, 0));
            }
            vec![Value::Array(items)]
        }
        Mutation::DuplicateItems => {
            let item = target
                .as_array()
                .and_then(|a| a.first().cloned())
                .unwrap_or_else(|| sample(old, items_schema(old, schema), 0));
            vec![Value::Array(vec![item.clone(), item])]
        }
    };
    originals
        .into_iter()
        .map(|replacement| {
            let mut candidate = base.clone();
            if let Some((slot, _)) = descend(&mut candidate, old, path) {
                *slot = replacement;
            }
            candidate
        })
        .collect()
}

/// A member name neither schema declares (for an undeclared property).
fn fresh_name(
    existing: &Map<String, Value>,
    old: &Value,
    new_root: &Value,
    path: &[Seg],
) -> String {
    let new_schema = schema_at(new_root, path);
    let declared = |n: &str| {
        existing.contains_key(n)
            || old.get("properties").and_then(|p| p.get(n)).is_some()
            || new_schema
                .and_then(|s| s.get("properties"))
                .and_then(|p| p.get(n))
                .is_some()
    };
    (0..)
        .map(|i| {
            if i == 0 {
                "undeclared".to_owned()
            } else {
                format!("undeclared_{i}")
            }
        })
        .find(|n| !declared(n))
        .unwrap_or_default()
}

/// Walks `instance` along `path`, creating what is missing from the old schema, and
/// returns the value at the end with the (dereferenced) old schema that describes it.
fn descend<'i, 's>(
    instance: &'i mut Value,
    root: &'s Value,
    path: &[Seg],
) -> Option<(&'i mut Value, &'s Value)> {
    let mut value = instance;
    let mut schema = deref(root, root);
    for seg in path {
        match seg {
            Seg::Prop(name) => {
                let sub = deref(root, schema.get("properties")?.get(name)?);
                let map = value.as_object_mut()?;
                if !map.contains_key(name) {
                    map.insert(name.clone(), sample(root, sub, 0));
                }
                value = map.get_mut(name)?;
                schema = sub;
            }
            Seg::Item => {
                let sub = items_schema(root, schema);
                let list = value.as_array_mut()?;
                if list.is_empty() {
                    list.push(sample(root, sub, 0));
                }
                value = list.first_mut()?;
                schema = sub;
            }
            Seg::Index(i) => {
                let prefix = schema.get("prefixItems")?.as_array()?;
                let list = value.as_array_mut()?;
                while list.len() <= *i {
                    let s = prefix.get(list.len()).map_or(&Value::Bool(true), |s| s);
                    list.push(sample(root, deref(root, s), 0));
                }
                value = list.get_mut(*i)?;
                schema = deref(root, prefix.get(*i)?);
            }
            Seg::Undeclared => {
                let sub = deref(root, schema.get("additionalProperties")?);
                let map = value.as_object_mut()?;
                let name = (0..)
                    .map(|i| format!("extra_{i}"))
                    .find(|n| schema.get("properties").and_then(|p| p.get(n)).is_none())?;
                if !map.contains_key(&name) {
                    map.insert(name.clone(), sample(root, sub, 0));
                }
                value = map.get_mut(&name)?;
                schema = sub;
            }
        }
    }
    Some((value, schema))
}

/// The schema at an instance path (no creation), if it can be followed.
fn schema_at<'s>(root: &'s Value, path: &[Seg]) -> Option<&'s Value> {
    let mut schema = deref(root, root);
    for seg in path {
        schema = match seg {
            Seg::Prop(name) => deref(root, schema.get("properties")?.get(name)?),
            Seg::Item => items_schema(root, schema),
            Seg::Index(i) => deref(root, schema.get("prefixItems")?.get(*i)?),
            Seg::Undeclared => deref(root, schema.get("additionalProperties")?),
        };
    }
    Some(schema)
}

fn items_schema<'s>(root: &'s Value, schema: &'s Value) -> &'s Value {
    match schema.get("items") {
        Some(items) if !items.is_array() => deref(root, items),
        _ => &Value::Bool(true),
    }
}

/// Follows local `$ref`s (at most 32).
fn deref<'s>(root: &'s Value, mut schema: &'s Value) -> &'s Value {
    for _ in 0..32 {
        let Some(target) = schema.get("$ref").and_then(Value::as_str) else {
            break;
        };
        match target.strip_prefix('#').and_then(|f| root.pointer(f)) {
            Some(next) => schema = next,
            None => break,
        }
    }
    schema
}

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
    .filter(|v| types.contains(v) && !allowed.iter().any(|a| super::json_equal(a, v)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn samples_respect_bounds_and_requirements() {
        let schema = json!({
            "type": "object",
            "required": ["n", "s", "list", "ref"],
            "properties": {
                "n": {"type": "integer", "minimum": 3, "multipleOf": 2},
                "s": {"type": "string", "minLength": 3},
                "list": {"type": "array", "minItems": 2, "items": {"type": "number", "exclusiveMinimum": 0}},
                "ref": {"$ref": "#/$defs/Kind"},
                "optional": {"type": "string"}
            },
            "$defs": {"Kind": {"enum": ["a", "b"]}}
        });
        let v = sample(&schema, &schema, 0);
        assert_eq!(v, json!({"n": 4, "s": "xxx", "list": [1, 1], "ref": "a"}));
        let validator = compile(&schema, Dialect::Draft202012).unwrap();
        assert!(validator.is_valid(&v));
    }

    #[test]
    fn witnesses_are_verified_against_both_schemas() {
        let old = json!({"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}});
        let new = json!({"type": "object", "properties": {"kind": {"enum": ["a"]}}});
        let path = [Seg::Prop("kind".into())];
        let finder = Finder::new(&old, &new, &[]);
        let w = finder.find(&path, &Mutation::Set(vec![json!("b")]));
        assert_eq!(w, Some(json!({"kind": "b"})));
        // A candidate both schemas accept is never a witness.
        let none = finder.find(&path, &Mutation::Set(vec![json!("a")]));
        assert_eq!(none, None);
        // Examples are preferred as the starting point.
        let example = json!({"kind": "a", "note": "kept"});
        let finder = Finder::new(&old, &new, &[example]);
        let w = finder.find(&path, &Mutation::Set(vec![json!("b")]));
        assert_eq!(w, Some(json!({"kind": "b", "note": "kept"})));
    }

    #[test]
    fn paths_read_like_code() {
        let path = [
            Seg::Prop("a".into()),
            Seg::Item,
            Seg::Prop("b".into()),
            Seg::Index(2),
            Seg::Undeclared,
        ];
        assert_eq!(display(&path), "a[].b[2].*");
        assert_eq!(display(&[]), "(root)");
    }
}
