//! [`Schema`]: a compiled schema and its evaluation of an instance, with the
//! messages `jsonschema` gives for the same keywords.

use std::cmp::Ordering;

use serde_json::{Map, Number, Value};

use super::compile;
use super::node::{Keywords, Node};
use crate::schema::needs::push;

/// Deeper `$ref` chains than this without descending into the instance are a loop.
const MAX_DEPTH: usize = 256;

/// A compiled schema.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// Every compiled node; `nodes[0]` is the root, `$ref`s point by index.
    nodes: Vec<Node>,
}

/// Where violations go: all of them up to a limit, or only whether there is one.
struct Sink {
    found: Vec<(String, String)>,
    limit: usize,
}

impl Sink {
    fn full(&self) -> bool {
        self.found.len() >= self.limit
    }

    fn report(&mut self, path: &str, message: String) {
        if !self.full() {
            self.found.push((path.to_owned(), message));
        }
    }
}

impl Schema {
    /// Compiles `schema` (already checked by [`crate::schema::needs`]).
    pub(crate) fn compile(schema: &Value) -> Result<Schema, String> {
        Ok(Schema {
            nodes: compile::nodes(schema)?,
        })
    }

    /// Whether `instance` is valid.
    pub(crate) fn is_valid(&self, instance: &Value) -> bool {
        self.violations(instance, 1).is_empty()
    }

    /// At most `limit` violations as (instance pointer, message).
    pub(crate) fn violations(&self, instance: &Value, limit: usize) -> Vec<(String, String)> {
        let mut sink = Sink {
            found: Vec::new(),
            limit,
        };
        let mut path = String::new();
        self.check(0, instance, &mut path, &mut sink, 0);
        sink.found
    }

    fn valid_at(&self, node: usize, instance: &Value, depth: usize) -> bool {
        let mut sink = Sink {
            found: Vec::new(),
            limit: 1,
        };
        self.check(node, instance, &mut String::new(), &mut sink, depth);
        sink.found.is_empty()
    }

    fn check(
        &self,
        node: usize,
        instance: &Value,
        path: &mut String,
        sink: &mut Sink,
        depth: usize,
    ) {
        if sink.full() {
            return;
        }
        let k = match &self.nodes[node] {
            Node::Bool(true) => return,
            Node::Bool(false) => {
                return sink.report(path, format!("False schema does not allow {instance}"))
            }
            Node::Keywords(k) => k,
        };
        if depth > MAX_DEPTH {
            return sink.report(path, "`$ref` refers to itself without end".to_owned());
        }
        if let Some(target) = k.reference {
            self.check(target, instance, path, sink, depth + 1);
        }
        if let Some(types) = &k.types {
            if !types.iter().any(|t| has_type(instance, t)) {
                let message = if k.single_type {
                    format!(r#"{instance} is not of type "{}""#, types[0])
                } else {
                    let listed: Vec<String> = types.iter().map(|t| format!("\"{t}\"")).collect();
                    format!("{instance} is not of types {}", listed.join(", "))
                };
                sink.report(path, message);
            }
        }
        if let Some(options) = &k.enumeration {
            if !options.iter().any(|o| equal(o, instance)) {
                sink.report(path, enum_message(instance, options));
            }
        }
        if let Some(expected) = &k.constant {
            if !equal(expected, instance) {
                sink.report(path, format!("{expected} was expected"));
            }
        }
        match instance {
            Value::Object(map) => self.check_object(k, map, instance, path, sink),
            Value::Array(items) => self.check_array(k, items, instance, path, sink),
            Value::String(text) => check_string(k, text, instance, path, sink),
            Value::Number(n) => check_number(k, n, instance, path, sink),
            _ => {}
        }
        for &sub in &k.all_of {
            self.check(sub, instance, path, sink, depth + 1);
        }
        if !k.any_of.is_empty()
            && !k
                .any_of
                .iter()
                .any(|&s| self.valid_at(s, instance, depth + 1))
        {
            sink.report(
                path,
                format!("{instance} is not valid under any of the schemas listed in the 'anyOf' keyword"),
            );
        }
        if !k.one_of.is_empty() {
            let valid = k
                .one_of
                .iter()
                .filter(|&&s| self.valid_at(s, instance, depth + 1))
                .take(2)
                .count();
            if valid == 0 {
                sink.report(
                    path,
                    format!("{instance} is not valid under any of the schemas listed in the 'oneOf' keyword"),
                );
            } else if valid > 1 {
                sink.report(
                    path,
                    format!("{instance} is valid under more than one of the schemas listed in the 'oneOf' keyword"),
                );
            }
        }
        if let Some((sub, schema)) = &k.not {
            if self.valid_at(*sub, instance, depth + 1) {
                sink.report(path, format!("{schema} is not allowed for {instance}"));
            }
        }
    }

    fn check_object(
        &self,
        k: &Keywords,
        map: &Map<String, Value>,
        instance: &Value,
        path: &mut String,
        sink: &mut Sink,
    ) {
        for name in &k.required {
            if !map.contains_key(name) {
                sink.report(
                    path,
                    format!("{} is a required property", Value::from(name.as_str())),
                );
            }
        }
        let mut unexpected = Vec::new();
        for (name, value) in map {
            let declared = k.properties.iter().find(|(n, _)| n == name);
            let len = path.len();
            push(path, name);
            match (declared, k.additional) {
                (Some(&(_, sub)), _) | (None, Some(sub)) => self.check(sub, value, path, sink, 0),
                (None, None) if k.no_additional => unexpected.push(name.as_str()),
                (None, None) => {}
            }
            path.truncate(len);
        }
        if !unexpected.is_empty() {
            let listed: Vec<String> = unexpected.iter().map(|n| format!("'{n}'")).collect();
            let verb = if unexpected.len() == 1 { "was" } else { "were" };
            sink.report(
                path,
                format!(
                    "Additional properties are not allowed ({} {verb} unexpected)",
                    listed.join(", ")
                ),
            );
        }
        let count = map.len() as u64;
        if k.min_properties.is_some_and(|min| count < min) {
            let limit = k.min_properties.unwrap_or_default();
            sink.report(
                path,
                format!(
                    "{instance} has less than {limit} {}",
                    plural(limit, "property", "properties")
                ),
            );
        }
        if k.max_properties.is_some_and(|max| count > max) {
            let limit = k.max_properties.unwrap_or_default();
            sink.report(
                path,
                format!(
                    "{instance} has more than {limit} {}",
                    plural(limit, "property", "properties")
                ),
            );
        }
    }

    fn check_array(
        &self,
        k: &Keywords,
        items: &[Value],
        instance: &Value,
        path: &mut String,
        sink: &mut Sink,
    ) {
        if let Some(sub) = k.items {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                push(path, &i.to_string());
                self.check(sub, item, path, sink, 0);
                path.truncate(len);
            }
        }
        let count = items.len() as u64;
        if let Some(limit) = k.min_items.filter(|&min| count < min) {
            sink.report(
                path,
                format!(
                    "{instance} has less than {limit} {}",
                    plural(limit, "item", "items")
                ),
            );
        }
        if let Some(limit) = k.max_items.filter(|&max| count > max) {
            sink.report(
                path,
                format!(
                    "{instance} has more than {limit} {}",
                    plural(limit, "item", "items")
                ),
            );
        }
        if k.unique_items
            && items
                .iter()
                .enumerate()
                .any(|(i, a)| items[i + 1..].iter().any(|b| equal(a, b)))
        {
            sink.report(path, format!("{instance} has non-unique elements"));
        }
    }
}

fn check_string(k: &Keywords, text: &str, instance: &Value, path: &str, sink: &mut Sink) {
    if k.min_length.is_none() && k.max_length.is_none() {
        return;
    }
    let length = text.chars().count() as u64;
    if let Some(limit) = k.max_length.filter(|&max| length > max) {
        sink.report(
            path,
            format!(
                "{instance} is longer than {limit} {}",
                plural(limit, "character", "characters")
            ),
        );
    }
    if let Some(limit) = k.min_length.filter(|&min| length < min) {
        sink.report(
            path,
            format!(
                "{instance} is shorter than {limit} {}",
                plural(limit, "character", "characters")
            ),
        );
    }
}

fn check_number(k: &Keywords, n: &Number, instance: &Value, path: &str, sink: &mut Sink) {
    if let Some(limit) = k
        .minimum
        .as_ref()
        .filter(|l| compare(n, l) == Ordering::Less)
    {
        sink.report(
            path,
            format!("{instance} is less than the minimum of {limit}"),
        );
    }
    if let Some(limit) = k
        .maximum
        .as_ref()
        .filter(|l| compare(n, l) == Ordering::Greater)
    {
        sink.report(
            path,
            format!("{instance} is greater than the maximum of {limit}"),
        );
    }
    if let Some(limit) = k
        .exclusive_minimum
        .as_ref()
        .filter(|l| compare(n, l) != Ordering::Greater)
    {
        sink.report(
            path,
            format!("{instance} is less than or equal to the minimum of {limit}"),
        );
    }
    if let Some(limit) = k
        .exclusive_maximum
        .as_ref()
        .filter(|l| compare(n, l) != Ordering::Less)
    {
        sink.report(
            path,
            format!("{instance} is greater than or equal to the maximum of {limit}"),
        );
    }
}

fn plural(count: u64, one: &'static str, many: &'static str) -> &'static str {
    if count == 1 {
        one
    } else {
        many
    }
}

/// `jsonschema`'s enum message: every option up to three, else two and a count.
fn enum_message(instance: &Value, options: &[Value]) -> String {
    let shown: Vec<String> = options.iter().map(Value::to_string).collect();
    let listed = match shown.len() {
        0 => String::new(),
        1..=3 => match shown.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        },
        n => format!("{} or {} other candidates", shown[..2].join(", "), n - 2),
    };
    format!("{instance} is not one of {listed}")
}

fn has_type(instance: &Value, name: &str) -> bool {
    match (name, instance) {
        ("null", Value::Null)
        | ("boolean", Value::Bool(_))
        | ("number", Value::Number(_))
        | ("string", Value::String(_))
        | ("array", Value::Array(_))
        | ("object", Value::Object(_)) => true,
        ("integer", Value::Number(n)) => is_integer(n),
        _ => false,
    }
}

/// An integer value, written with a fraction or not (`1.0` is an integer since
/// draft-06).
fn is_integer(n: &Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// Numeric order without rounding integers through `f64`.
fn compare(a: &Number, b: &Number) -> Ordering {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => compare_int_float(x, b.as_f64().unwrap_or(0.0)),
        (None, Some(y)) => compare_int_float(y, a.as_f64().unwrap_or(0.0)).reverse(),
        (None, None) => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

fn compare_int_float(i: i128, f: f64) -> Ordering {
    // Beyond ±2^100 no i64/u64 can reach; the cast below would saturate.
    if f >= 1e30 {
        return Ordering::Less;
    }
    if f <= -1e30 {
        return Ordering::Greater;
    }
    let whole = f.trunc();
    match i.cmp(&(whole as i128)) {
        Ordering::Equal if f > whole => Ordering::Less,
        Ordering::Equal if f < whole => Ordering::Greater,
        other => other,
    }
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), objects regardless of
/// member order.
fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => compare(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}
