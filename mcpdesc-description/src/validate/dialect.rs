//! Embedded JSON Schemas: the fixed dialect set, meta-schema validity, external
//! references, and instance validation with `jsonschema` (no network, no file system).

use std::collections::HashSet;

use jsonschema::{Draft, Validator};
use serde_json::Value;

use crate::pointer::Pointer;

/// The dialects an embedded Tool schema may declare (spec §9.2, rule
/// `json-schema.tool-schema.valid`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// JSON Schema 2020-12, the default.
    Draft202012,
    /// JSON Schema draft-07.
    Draft7,
}

impl Dialect {
    /// The dialect a schema declares with `$schema`: `Ok(None)` when it declares none,
    /// `Err(text)` when it declares one outside the fixed set.
    pub fn declared(schema: &Value) -> Result<Option<Dialect>, String> {
        let Some(declared) = schema.get("$schema") else {
            return Ok(None);
        };
        let Some(text) = declared.as_str() else {
            return Err(declared.to_string());
        };
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or_else(|| text.to_owned())?;
        let rest = rest.strip_suffix('#').unwrap_or(rest);
        match rest {
            "json-schema.org/draft/2020-12/schema" => Ok(Some(Dialect::Draft202012)),
            "json-schema.org/draft-07/schema" => Ok(Some(Dialect::Draft7)),
            _ => Err(text.to_owned()),
        }
    }

    /// The dialect a schema is evaluated in: its declared one, else 2020-12.
    pub fn of(schema: &Value) -> Dialect {
        Self::declared(schema)
            .ok()
            .flatten()
            .unwrap_or(Dialect::Draft202012)
    }

    fn draft(self) -> Draft {
        match self {
            Dialect::Draft202012 => Draft::Draft202012,
            Dialect::Draft7 => Draft::Draft7,
        }
    }

    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Draft202012 => "JSON Schema 2020-12",
            Dialect::Draft7 => "JSON Schema draft-07",
        }
    }
}

/// One way a schema is invalid in its dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    /// Where, inside the schema.
    pub at: Pointer,
    /// What.
    pub message: String,
}

/// Checks `schema` against its dialect's meta-schema, then compiles it (which also
/// catches invalid regular expressions and unresolvable local references).
///
/// `has_external_refs` skips the compile step, which would try to resolve them.
pub fn problems(schema: &Value, dialect: Dialect, has_external_refs: bool) -> Vec<SchemaProblem> {
    let meta = match dialect {
        Dialect::Draft202012 => jsonschema::draft202012::meta::validator(),
        Dialect::Draft7 => jsonschema::draft7::meta::validator(),
    };
    let found: Vec<SchemaProblem> = meta
        .iter_errors(schema)
        .take(8)
        .map(|e| SchemaProblem {
            at: Pointer::parse(e.instance_path().as_str()).unwrap_or_default(),
            message: short(&e.to_string()),
        })
        .collect();
    if !found.is_empty() || has_external_refs {
        return found;
    }
    match compile(schema, dialect) {
        Ok(_) => Vec::new(),
        Err(message) => {
            // A reference to nothing is located at its `$ref` (the compiler names only
            // the missing pointer).
            let dangling = dangling_refs(schema);
            if !dangling.is_empty() {
                return dangling;
            }
            vec![SchemaProblem {
                at: Pointer::root(),
                message,
            }]
        }
    }
}

/// The local `$ref`s (`#/...` from the schema root, no `$id` inside) whose target does
/// not exist, each at its `$ref` member.
fn dangling_refs(schema: &Value) -> Vec<SchemaProblem> {
    let mut has_ids = false;
    let mut out = Vec::new();
    walk(schema, &Pointer::root(), &mut |at, node| {
        if !at.as_str().is_empty() && node.get("$id").is_some() {
            has_ids = true;
        }
        let Some(r) = node.get("$ref").and_then(Value::as_str) else {
            return;
        };
        let Some(fragment) = r.strip_prefix('#') else {
            return;
        };
        if !fragment.starts_with('/') {
            return;
        }
        let decoded = percent_decode(fragment);
        if schema.pointer(&decoded).is_none() {
            out.push(SchemaProblem {
                at: at.key("$ref"),
                message: format!("`$ref` {r:?} points at nothing in this schema"),
            });
        }
    });
    if has_ids {
        // References are then relative to nested resources; leave it to the compiler.
        return Vec::new();
    }
    out
}

/// Decodes `%XX` escapes of a URI fragment; invalid escapes stay as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| std::str::from_utf8(&bytes[i + 1..i + 3]).ok())
            .flatten()
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Compiles a schema for instance validation in `dialect`.
///
/// The root `$schema` is removed from the compiled copy: the dialect was already
/// chosen from it, and `jsonschema` would otherwise look up spellings it does not know
/// (`https://…draft-07/schema`) as remote meta-schemas.
pub fn compile(schema: &Value, dialect: Dialect) -> Result<Validator, String> {
    let mut copy = schema.clone();
    if let Some(map) = copy.as_object_mut() {
        map.remove("$schema");
    }
    jsonschema::options()
        .with_draft(dialect.draft())
        .build(&copy)
        .map_err(|e| short(&e.to_string()))
}

/// The instance problems of `value` against a compiled schema: (pointer inside the
/// value, message), at most `limit` of them.
pub fn instance_problems(validator: &Validator, value: &Value, limit: usize) -> Vec<SchemaProblem> {
    validator
        .iter_errors(value)
        .take(limit)
        .map(|e| SchemaProblem {
            at: Pointer::parse(e.instance_path().as_str()).unwrap_or_default(),
            message: short(&e.to_string()),
        })
        .collect()
}

/// The `$ref`s of a schema whose targets lie outside it (anything but a fragment or a
/// URI the schema itself declares with `$id`), with their pointers.
pub fn external_refs(schema: &Value) -> Vec<(Pointer, String)> {
    let mut ids = HashSet::new();
    let mut refs = Vec::new();
    walk(schema, &Pointer::root(), &mut |at, node| {
        if let Some(id) = node.get("$id").and_then(Value::as_str) {
            ids.insert(id.trim_end_matches('#').to_owned());
        }
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            refs.push((at.key("$ref"), r.to_owned()));
        }
    });
    refs.into_iter()
        .filter(|(_, r)| {
            if r.starts_with('#') {
                return false;
            }
            let base = r.split('#').next().unwrap_or_default();
            !ids.contains(base)
        })
        .collect()
}

/// Visits every object inside a JSON value (schemas nest anywhere: `properties`,
/// `items`, `$defs`, `allOf`, …), depth-first, with its pointer. Depth is bounded by the
/// loader's nesting limit.
pub fn walk<'v>(value: &'v Value, at: &Pointer, visit: &mut dyn FnMut(&Pointer, &'v Value)) {
    match value {
        Value::Object(map) => {
            visit(at, value);
            for (k, v) in map {
                // `const`, `enum`, `default` and `examples` hold data, not schemas.
                if matches!(k.as_str(), "const" | "enum" | "default" | "examples") {
                    continue;
                }
                walk(v, &at.key(k), visit);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                walk(v, &at.index(i), visit);
            }
        }
        _ => {}
    }
}

fn short(text: &str) -> String {
    if text.chars().count() <= 300 {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(297).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn dialect_set_is_fixed() {
        assert_eq!(Dialect::declared(&json!({})), Ok(None));
        for ok in [
            "https://json-schema.org/draft/2020-12/schema",
            "http://json-schema.org/draft/2020-12/schema#",
        ] {
            assert_eq!(
                Dialect::declared(&json!({"$schema": ok})),
                Ok(Some(Dialect::Draft202012))
            );
        }
        for ok in [
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft-07/schema",
        ] {
            assert_eq!(
                Dialect::declared(&json!({"$schema": ok})),
                Ok(Some(Dialect::Draft7))
            );
        }
        assert!(
            Dialect::declared(&json!({"$schema": "http://json-schema.org/draft-04/schema#"}))
                .is_err()
        );
    }

    #[test]
    fn meta_schema_problems_are_located() {
        let p = problems(
            &json!({"type": "object", "required": "x"}),
            Dialect::Draft202012,
            false,
        );
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].at.as_str(), "/required");
        let p = problems(
            &json!({"type": "string", "pattern": "(unclosed"}),
            Dialect::Draft202012,
            false,
        );
        assert!(!p.is_empty());
        let draft7 = json!({"$schema": "https://json-schema.org/draft-07/schema", "type": "object", "items": [{}]});
        assert!(problems(&draft7, Dialect::Draft7, false).is_empty());
    }

    #[test]
    fn external_references_are_found_without_fetching() {
        let schema = json!({
            "$id": "urn:example:root",
            "properties": {
                "a": {"$ref": "https://schemas.example.invalid/id.json"},
                "b": {"$ref": "#/$defs/x"},
                "c": {"$ref": "urn:example:root#/$defs/x"},
                "d": {"const": {"$ref": "not-a-schema"}}
            },
            "$defs": {"x": {}}
        });
        let ext = external_refs(&schema);
        assert_eq!(ext.len(), 1);
        assert_eq!(ext[0].0.as_str(), "/properties/a/$ref");
    }
}
