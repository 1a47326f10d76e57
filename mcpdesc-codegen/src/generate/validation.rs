//! Which tool schemas need the runtime's full JSON Schema validator (the
//! `full-validation` feature of `mcpdesc`), and the line of generated code that says so.
//!
//! The runtime checks shape keywords itself and needs `jsonschema` (with its regex
//! engines) only for the others; this is a copy of its list (`mcpdesc/src/schema/needs.rs`,
//! kept in agreement by `tests/tests/validation_needs.rs`). The generated module invokes
//! `__private::full_validation!` with the tools that need the feature: the macro expands
//! to nothing when the feature is on and to a `compile_error!` naming the tool and the
//! keyword when it is off, so the mismatch shows at build time, not when the server
//! registers its tools.

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use super::ir::ModuleIr;

/// The JSON Schema dialect a schema is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dialect {
    Draft7,
    Draft202012,
}

/// `full_validation!("tool `a`: `/properties/b`: `pattern`", ...)` when some tool
/// schema needs the full validator; nothing otherwise.
pub fn emit(rt: &TokenStream, ir: &ModuleIr) -> TokenStream {
    let needs = needs(ir);
    if needs.is_empty() {
        return TokenStream::new();
    }
    quote! {
        // These schemas use keywords only `jsonschema` checks.
        #rt::__private::full_validation!(#(#needs),*);
    }
}

/// The tool schemas of `ir` that need the full validator, one line each
/// (`` tool `a`, inputSchema `/properties/b`: `pattern` ``); empty when the runtime's
/// built-in validator checks every one (then `mcpdesc` needs no `full-validation`).
pub fn needs(ir: &ModuleIr) -> Vec<String> {
    ir.tools
        .iter()
        .flat_map(|tool| {
            let input = tool
                .declaration
                .get("inputSchema")
                .and_then(full_validator_keyword)
                .map(|k| format!("tool `{}`, inputSchema {k}", tool.name));
            let output = tool
                .declaration
                .get("outputSchema")
                .and_then(full_validator_keyword)
                .map(|k| format!("tool `{}`, outputSchema {k}", tool.name));
            input.into_iter().chain(output)
        })
        .collect()
}

/// Keywords only the full validator checks, in either dialect.
const FULL_ONLY: &[&str] = &[
    "pattern",
    "patternProperties",
    "propertyNames",
    "multipleOf",
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "additionalItems",
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
    "$vocabulary",
];

/// Keywords that are annotations in JSON Schema 2020-12 but assertions in draft-07
/// (`jsonschema` checks them there by default).
const DRAFT7_ASSERTIONS: &[&str] = &["format", "contentMediaType", "contentEncoding"];

/// Keywords whose value is one subschema.
const ONE_SUBSCHEMA: &[&str] = &["additionalProperties", "items", "not"];
/// Keywords whose value is an array of subschemas.
const SUBSCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf"];
/// Keywords whose value maps names to subschemas.
const SUBSCHEMA_MAPS: &[&str] = &["properties", "$defs", "definitions"];

/// The first keyword of `schema` (depth first, in document order) that only the full
/// validator checks, as `` `pointer`: `keyword` `` (the root shown as `/`); `None` when
/// the runtime's built-in validator checks the whole schema.
///
/// The dialect is read off the root `$schema`, as the runtime does: draft-07 when it
/// names draft-07, JSON Schema 2020-12 otherwise.
pub fn full_validator_keyword(schema: &Value) -> Option<String> {
    let dialect = match schema.get("$schema").and_then(Value::as_str) {
        Some(uri) if uri.contains("json-schema.org/draft-07/schema") => Dialect::Draft7,
        _ => Dialect::Draft202012,
    };
    let mut copy = schema.clone();
    if let Some(map) = copy.as_object_mut() {
        map.remove("$schema");
    }
    let mut pointer = String::new();
    walk(&copy, dialect, &mut pointer)
}

fn walk(schema: &Value, dialect: Dialect, pointer: &mut String) -> Option<String> {
    let Value::Object(map) = schema else {
        return None;
    };
    let at = |pointer: &str, keyword: &str| {
        let shown = if pointer.is_empty() { "/" } else { pointer };
        Some(format!("`{shown}`: `{keyword}`"))
    };
    for (keyword, value) in map {
        let keyword = keyword.as_str();
        if FULL_ONLY.contains(&keyword)
            || (dialect == Dialect::Draft7 && DRAFT7_ASSERTIONS.contains(&keyword))
        {
            return at(pointer, keyword);
        }
        if keyword == "$ref" && !plain_local_ref(value, dialect, map.len()) {
            return at(pointer, keyword);
        }
        // Draft-07 `items` may be a list of schemas (tuple validation).
        if keyword == "items" && value.is_array() {
            return at(pointer, keyword);
        }
        let len = pointer.len();
        let found = if ONE_SUBSCHEMA.contains(&keyword) {
            push(pointer, keyword);
            walk(value, dialect, pointer)
        } else if SUBSCHEMA_LISTS.contains(&keyword) {
            value.as_array().and_then(|list| {
                list.iter().enumerate().find_map(|(i, sub)| {
                    let len = pointer.len();
                    push(pointer, keyword);
                    push(pointer, &i.to_string());
                    let found = walk(sub, dialect, pointer);
                    pointer.truncate(len);
                    found
                })
            })
        } else if SUBSCHEMA_MAPS.contains(&keyword) {
            value.as_object().and_then(|members| {
                members.iter().find_map(|(name, sub)| {
                    let len = pointer.len();
                    push(pointer, keyword);
                    push(pointer, name);
                    let found = walk(sub, dialect, pointer);
                    pointer.truncate(len);
                    found
                })
            })
        } else {
            None
        };
        pointer.truncate(len);
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A `$ref` the built-in validator follows: `#` or `#/…` with no percent-encoding,
/// and in draft-07 (where `$ref` hides its siblings) alone in its schema.
fn plain_local_ref(value: &Value, dialect: Dialect, members: usize) -> bool {
    let Some(text) = value.as_str() else {
        return false;
    };
    let local = text == "#" || (text.starts_with("#/") && !text.contains('%'));
    local && (dialect == Dialect::Draft202012 || members == 1)
}

/// Appends one escaped JSON Pointer segment.
fn push(pointer: &mut String, segment: &str) {
    pointer.push('/');
    pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
}
