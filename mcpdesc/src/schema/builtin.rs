//! The built-in validator: the shape keywords of JSON Schema, without regular
//! expressions, checked with the messages `jsonschema` gives for the same keywords
//! (so an error reads the same whichever validator found it).
//!
//! It is only given schemas that [`super::needs`] found free of the keywords it does
//! not know; a keyword it knows with a malformed value is a compile error, as the
//! meta-schema would make it.

use std::cmp::Ordering;
use std::collections::HashMap;

use serde_json::{Map, Number, Value};

use super::needs::push;

/// Deeper `$ref` chains than this without descending into the instance are a loop.
const MAX_DEPTH: usize = 256;

/// A compiled schema.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// Every compiled node; `nodes[0]` is the root, `$ref`s point by index.
    nodes: Vec<Node>,
}

#[derive(Debug, Clone)]
enum Node {
    Bool(bool),
    Keywords(Box<Keywords>),
}

#[derive(Debug, Clone, Default)]
struct Keywords {
    reference: Option<usize>,
    /// The declared types, in their document order (the message lists them).
    types: Option<Vec<&'static str>>,
    single_type: bool,
    enumeration: Option<Vec<Value>>,
    constant: Option<Value>,
    properties: Vec<(String, usize)>,
    required: Vec<String>,
    additional: Option<usize>,
    /// `additionalProperties: false`, reported once with every unexpected name.
    no_additional: bool,
    min_properties: Option<u64>,
    max_properties: Option<u64>,
    items: Option<usize>,
    min_items: Option<u64>,
    max_items: Option<u64>,
    unique_items: bool,
    minimum: Option<Number>,
    maximum: Option<Number>,
    exclusive_minimum: Option<Number>,
    exclusive_maximum: Option<Number>,
    min_length: Option<u64>,
    max_length: Option<u64>,
    all_of: Vec<usize>,
    any_of: Vec<usize>,
    one_of: Vec<usize>,
    not: Option<(usize, Value)>,
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
    /// Compiles `schema` (already checked by [`super::needs`]).
    pub(crate) fn compile(schema: &Value) -> Result<Schema, String> {
        let mut compiler = Compiler {
            root: schema,
            nodes: Vec::new(),
            by_pointer: HashMap::new(),
        };
        compiler.node(schema, "")?;
        Ok(Schema {
            nodes: compiler.nodes,
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

struct Compiler<'a> {
    root: &'a Value,
    nodes: Vec<Node>,
    /// Compiled `$ref` targets by pointer, so a recursive schema compiles once.
    by_pointer: HashMap<String, usize>,
}

impl<'a> Compiler<'a> {
    /// Compiles `schema` (at `pointer` in the root) into a new node; its index.
    fn node(&mut self, schema: &'a Value, pointer: &str) -> Result<usize, String> {
        let index = self.nodes.len();
        self.nodes.push(Node::Bool(true));
        let node = match schema {
            Value::Bool(b) => Node::Bool(*b),
            Value::Object(map) => Node::Keywords(Box::new(self.keywords(map, pointer)?)),
            other => return Err(format!("{} is not a schema: {other}", shown(pointer))),
        };
        self.nodes[index] = node;
        Ok(index)
    }

    fn sub(&mut self, schema: &'a Value, pointer: &str, keyword: &str) -> Result<usize, String> {
        let mut at = pointer.to_owned();
        push(&mut at, keyword);
        self.node(schema, &at)
    }

    fn keywords(&mut self, map: &'a Map<String, Value>, pointer: &str) -> Result<Keywords, String> {
        let mut k = Keywords::default();
        let bad = |keyword: &str, value: &Value, what: &str| {
            let mut at = pointer.to_owned();
            push(&mut at, keyword);
            Err(format!("{}: {value} is not {what}", shown(&at)))
        };
        for (keyword, value) in map {
            match keyword.as_str() {
                "$ref" => {
                    let Some(target) = value.as_str() else {
                        return bad(keyword, value, "a string");
                    };
                    k.reference = Some(self.reference(target)?);
                }
                "type" => match value {
                    Value::String(t) => {
                        let Some(name) = type_name(t) else {
                            return bad(keyword, value, "a type name");
                        };
                        k.types = Some(vec![name]);
                        k.single_type = true;
                    }
                    Value::Array(list) => {
                        let mut names = Vec::new();
                        for t in list {
                            match t.as_str().and_then(type_name) {
                                Some(name) if !names.contains(&name) => names.push(name),
                                _ => return bad(keyword, value, "a list of distinct type names"),
                            }
                        }
                        k.single_type = names.len() == 1;
                        // `jsonschema` lists several types in this fixed order.
                        names.sort_by_key(|n| TYPE_ORDER.iter().position(|t| t == n));
                        k.types = Some(names);
                    }
                    _ => return bad(keyword, value, "a type name or a list of them"),
                },
                "enum" => match value {
                    Value::Array(list) => k.enumeration = Some(list.clone()),
                    _ => return bad(keyword, value, "an array"),
                },
                "const" => k.constant = Some(value.clone()),
                "properties" => {
                    let Value::Object(members) = value else {
                        return bad(keyword, value, "an object of schemas");
                    };
                    let mut at = pointer.to_owned();
                    push(&mut at, keyword);
                    for (name, sub) in members {
                        let index = self.sub(sub, &at, name)?;
                        k.properties.push((name.clone(), index));
                    }
                }
                "required" => {
                    let names: Option<Vec<String>> = value
                        .as_array()
                        .map(|list| list.iter().map(|n| n.as_str().map(str::to_owned)).collect())
                        .unwrap_or(None);
                    match names {
                        Some(names) => k.required = names,
                        None => return bad(keyword, value, "an array of strings"),
                    }
                }
                "additionalProperties" => match value {
                    Value::Bool(false) => k.no_additional = true,
                    _ => k.additional = Some(self.sub(value, pointer, keyword)?),
                },
                "items" => k.items = Some(self.sub(value, pointer, keyword)?),
                "not" => k.not = Some((self.sub(value, pointer, keyword)?, value.clone())),
                "allOf" | "anyOf" | "oneOf" => {
                    let Some(list) = value.as_array().filter(|l| !l.is_empty()) else {
                        return bad(keyword, value, "a non-empty array of schemas");
                    };
                    let mut at = pointer.to_owned();
                    push(&mut at, keyword);
                    let mut subs = Vec::new();
                    for (i, sub) in list.iter().enumerate() {
                        subs.push(self.sub(sub, &at, &i.to_string())?);
                    }
                    match keyword.as_str() {
                        "allOf" => k.all_of = subs,
                        "anyOf" => k.any_of = subs,
                        _ => k.one_of = subs,
                    }
                }
                "minProperties" | "maxProperties" | "minItems" | "maxItems" | "minLength"
                | "maxLength" => {
                    let Some(n) = count(value) else {
                        return bad(keyword, value, "a non-negative integer");
                    };
                    *match keyword.as_str() {
                        "minProperties" => &mut k.min_properties,
                        "maxProperties" => &mut k.max_properties,
                        "minItems" => &mut k.min_items,
                        "maxItems" => &mut k.max_items,
                        "minLength" => &mut k.min_length,
                        _ => &mut k.max_length,
                    } = Some(n);
                }
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                    let Value::Number(n) = value else {
                        return bad(keyword, value, "a number");
                    };
                    *match keyword.as_str() {
                        "minimum" => &mut k.minimum,
                        "maximum" => &mut k.maximum,
                        "exclusiveMinimum" => &mut k.exclusive_minimum,
                        _ => &mut k.exclusive_maximum,
                    } = Some(n.clone());
                }
                "uniqueItems" => match value {
                    Value::Bool(b) => k.unique_items = *b,
                    _ => return bad(keyword, value, "a boolean"),
                },
                "$defs" | "definitions" => {
                    if !value.is_object() {
                        return bad(keyword, value, "an object of schemas");
                    }
                }
                "title" | "description" | "$comment" | "$schema" | "format"
                | "contentMediaType" | "contentEncoding" => {
                    if !value.is_string() {
                        return bad(keyword, value, "a string");
                    }
                }
                "deprecated" | "readOnly" | "writeOnly" => {
                    if !value.is_boolean() {
                        return bad(keyword, value, "a boolean");
                    }
                }
                "examples" => {
                    if !value.is_array() {
                        return bad(keyword, value, "an array");
                    }
                }
                // Annotations (`default`, `contentSchema`) and keywords no dialect
                // defines: not checked, as JSON Schema asks.
                _ => {}
            }
        }
        Ok(k)
    }

    /// The node of a local `$ref` target, compiled once.
    fn reference(&mut self, target: &str) -> Result<usize, String> {
        if let Some(&index) = self.by_pointer.get(target) {
            return Ok(index);
        }
        let pointer = &target[1..];
        let Some(schema) = self.root.pointer(pointer) else {
            return Err(format!("`$ref` {target:?} points to nothing in the schema"));
        };
        // Registered before compiling, so a schema that refers to itself terminates.
        let index = self.nodes.len();
        self.by_pointer.insert(target.to_owned(), index);
        let compiled = self.node(schema, pointer)?;
        debug_assert_eq!(compiled, index);
        Ok(index)
    }
}

fn shown(pointer: &str) -> String {
    if pointer.is_empty() {
        "`/`".to_owned()
    } else {
        format!("`{pointer}`")
    }
}

/// The type names, in the order `jsonschema` lists several of them.
const TYPE_ORDER: [&str; 7] = [
    "null", "boolean", "integer", "number", "string", "array", "object",
];

fn type_name(name: &str) -> Option<&'static str> {
    TYPE_ORDER.into_iter().find(|t| *t == name)
}

/// A non-negative integer keyword value (`2.0` counts, as in the meta-schema).
fn count(value: &Value) -> Option<u64> {
    let n = value.as_number()?;
    n.as_u64().or_else(|| {
        n.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1e19)
            .map(|f| f as u64)
    })
}
