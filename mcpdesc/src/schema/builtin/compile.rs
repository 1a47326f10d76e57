//! Compiling a schema into the built-in validator's nodes, refusing malformed values
//! of the keywords it knows (as the meta-schema would).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::node::{Keywords, Node};
use crate::schema::needs::push;

/// The nodes of `schema`, its root first.
pub(super) fn nodes(schema: &Value) -> Result<Vec<Node>, String> {
    let mut compiler = Compiler {
        root: schema,
        nodes: Vec::new(),
        by_pointer: HashMap::new(),
    };
    compiler.node(schema, "")?;
    Ok(compiler.nodes)
}

/// `` `pointer/keyword`: value is not what `` as a compile error.
fn bad<T>(pointer: &str, keyword: &str, value: &Value, what: &str) -> Result<T, String> {
    let mut at = pointer.to_owned();
    push(&mut at, keyword);
    Err(format!("{}: {value} is not {what}", shown(&at)))
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
        for (keyword, value) in map {
            if !self.applicator(&mut k, keyword, value, pointer)? {
                assertion(&mut k, keyword, value, pointer)?;
            }
        }
        Ok(k)
    }

    /// The keywords that hold subschemas or refer to one; whether `keyword` is one.
    fn applicator(
        &mut self,
        k: &mut Keywords,
        keyword: &str,
        value: &'a Value,
        pointer: &str,
    ) -> Result<bool, String> {
        match keyword {
            "$ref" => {
                let Some(target) = value.as_str() else {
                    return bad(pointer, keyword, value, "a string");
                };
                k.reference = Some(self.reference(target)?);
            }
            "properties" => {
                let Value::Object(members) = value else {
                    return bad(pointer, keyword, value, "an object of schemas");
                };
                let mut at = pointer.to_owned();
                push(&mut at, keyword);
                for (name, sub) in members {
                    let index = self.sub(sub, &at, name)?;
                    k.properties.push((name.clone(), index));
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
                    return bad(pointer, keyword, value, "a non-empty array of schemas");
                };
                let mut at = pointer.to_owned();
                push(&mut at, keyword);
                let mut subs = Vec::new();
                for (i, sub) in list.iter().enumerate() {
                    subs.push(self.sub(sub, &at, &i.to_string())?);
                }
                match keyword {
                    "allOf" => k.all_of = subs,
                    "anyOf" => k.any_of = subs,
                    _ => k.one_of = subs,
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
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

/// The assertion and annotation keywords; keywords no dialect defines are ignored.
fn assertion(k: &mut Keywords, keyword: &str, value: &Value, pointer: &str) -> Result<(), String> {
    match keyword {
        "type" => k.types = Some(types(value, pointer, &mut k.single_type)?),
        "enum" => match value {
            Value::Array(list) => k.enumeration = Some(list.clone()),
            _ => return bad(pointer, keyword, value, "an array"),
        },
        "const" => k.constant = Some(value.clone()),
        "required" => {
            let names: Option<Vec<String>> = value
                .as_array()
                .and_then(|list| list.iter().map(|n| n.as_str().map(str::to_owned)).collect());
            match names {
                Some(names) => k.required = names,
                None => return bad(pointer, keyword, value, "an array of strings"),
            }
        }
        "minProperties" | "maxProperties" | "minItems" | "maxItems" | "minLength" | "maxLength" => {
            let Some(n) = count(value) else {
                return bad(pointer, keyword, value, "a non-negative integer");
            };
            *match keyword {
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
                return bad(pointer, keyword, value, "a number");
            };
            *match keyword {
                "minimum" => &mut k.minimum,
                "maximum" => &mut k.maximum,
                "exclusiveMinimum" => &mut k.exclusive_minimum,
                _ => &mut k.exclusive_maximum,
            } = Some(n.clone());
        }
        "uniqueItems" => match value {
            Value::Bool(b) => k.unique_items = *b,
            _ => return bad(pointer, keyword, value, "a boolean"),
        },
        "$defs" | "definitions" if !value.is_object() => {
            return bad(pointer, keyword, value, "an object of schemas")
        }
        "title" | "description" | "$comment" | "$schema" | "format" | "contentMediaType"
        | "contentEncoding"
            if !value.is_string() =>
        {
            return bad(pointer, keyword, value, "a string")
        }
        "deprecated" | "readOnly" | "writeOnly" if !value.is_boolean() => {
            return bad(pointer, keyword, value, "a boolean")
        }
        "examples" if !value.is_array() => return bad(pointer, keyword, value, "an array"),
        // Annotations (`default`, `contentSchema`) and keywords no dialect defines:
        // not checked, as JSON Schema asks.
        _ => {}
    }
    Ok(())
}

/// The names of `type` (one name or a list of distinct ones), in the order
/// `jsonschema` lists several; `single` tells whether there is one.
fn types(value: &Value, pointer: &str, single: &mut bool) -> Result<Vec<&'static str>, String> {
    match value {
        Value::String(t) => match type_name(t) {
            Some(name) => {
                *single = true;
                Ok(vec![name])
            }
            None => bad(pointer, "type", value, "a type name"),
        },
        Value::Array(list) => {
            let mut names = Vec::new();
            for t in list {
                match t.as_str().and_then(type_name) {
                    Some(name) if !names.contains(&name) => names.push(name),
                    _ => return bad(pointer, "type", value, "a list of distinct type names"),
                }
            }
            *single = names.len() == 1;
            names.sort_by_key(|n| TYPE_ORDER.iter().position(|t| t == n));
            Ok(names)
        }
        _ => bad(pointer, "type", value, "a type name or a list of them"),
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
