//! A best guess at what an invalid description meant, so that the front ends can emit
//! the description's errors *and then* code (rustc's own practice: report, then go on),
//! and the user's code that uses the generated items does not add one `cannot find`
//! error per use.
//!
//! Each error of the validator is answered at the smallest part that holds it, round
//! after round until the document validates:
//!
//! | error at | action |
//! |---|---|
//! | inside a subschema of a Tool's `inputSchema` / `outputSchema`, or of a component schema | the smallest subschema that holds the error becomes `{}` (any value: its field is a `serde_json::Value`, every other field keeps its type), so one dangling `$ref` in one property costs one error |
//! | at the root of such a schema (or inside one that is a `$componentRef`) | that schema becomes the open object schema `{"type": "object"}` (its type then holds any object) |
//! | a primitive itself, its `name`, `uri` or `uriTemplate` | the primitive is dropped (nothing else is possible) |
//! | any other member of a Tool, Prompt, Resource or Resource Template | that member is removed |
//! | a member of `info` other than `name` / `version`, `instructions`, `capabilities`, `tags`, `components` namespaces of examples | removed |
//! | anything else (`mcpdesc`, `protocolVersions`, `transports`, ...) | no recovery: [`recover`] returns `None` |
//!
//! The recovered description is never reported or served: its only use is code that
//! keeps the names of the items the crate uses.

use serde_json::{json, Value};

use crate::description::Description;
use crate::pointer::Pointer;
use crate::source::{Format, Limits, SourceMap};
use crate::validate;

/// More rounds than any document needs: each action removes or opens something, and
/// nested actions take one round per level.
const MAX_ROUNDS: usize = 16;

/// The primitive arrays whose elements are recovered one by one.
const PRIMITIVES: [&str; 4] = ["tools", "prompts", "resources", "resourceTemplates"];

/// What to do at one place.
#[derive(Debug, Clone, PartialEq)]
enum Action {
    /// Remove the value at the pointer.
    Remove,
    /// Replace the value at the pointer.
    Replace(Value),
}

/// A valid description close to `desc` (see the module documentation), or `None` when
/// `desc` did not parse or an error is at a part that has no recovery.
pub fn recover(desc: &Description) -> Option<Description> {
    let mut value = desc.loaded.as_ref()?.value.clone();
    for _ in 0..MAX_ROUNDS {
        let validation = validate::validate(&value, &SourceMap::default());
        let errors: Vec<Pointer> = validation
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| Pointer::parse(&d.pointer))
            .collect::<Option<_>>()?;
        if errors.is_empty() {
            let text = serde_json::to_string(&value).ok()?;
            let recovered =
                Description::from_text(&desc.name, text, Some(Format::Json), &Limits::default());
            return recovered.is_valid().then_some(recovered);
        }
        let mut planned: Vec<(Pointer, Action)> = errors
            .iter()
            .map(|at| plan(at, &value))
            .collect::<Option<_>>()?;
        // Outermost first, so that an action inside another one is skipped; then the
        // last array index first, so that removals do not shift the others.
        planned.sort_by(|a, b| order(&a.0, &b.0));
        let mut kept: Vec<(Pointer, Action)> = Vec::new();
        for entry in planned {
            if !kept.iter().any(|(outer, _)| entry.0.starts_with(outer)) {
                kept.push(entry);
            }
        }
        kept.sort_by(|a, b| order(&b.0, &a.0));
        for (at, action) in kept {
            apply(&mut value, &at, action)?;
        }
    }
    None
}

/// Segments compared with array indices as numbers, a prefix before what it holds.
fn order(a: &Pointer, b: &Pointer) -> std::cmp::Ordering {
    let (a, b): (Vec<String>, Vec<String>) = (a.segments().collect(), b.segments().collect());
    for (x, y) in a.iter().zip(&b) {
        let by = match (x.parse::<usize>(), y.parse::<usize>()) {
            (Ok(m), Ok(n)) => m.cmp(&n),
            _ => x.cmp(y),
        };
        if by.is_ne() {
            return by;
        }
    }
    a.len().cmp(&b.len())
}

/// The action for an error at `at` of the document `value`.
fn plan(at: &Pointer, value: &Value) -> Option<(Pointer, Action)> {
    let segments: Vec<String> = at.segments().collect();
    let root = Pointer::root();
    match segments.as_slice() {
        [kind, i, ..] if PRIMITIVES.contains(&kind.as_str()) => {
            let item = root.key(kind).index(i.parse().ok()?);
            match segments.get(2).map(String::as_str) {
                None | Some("name" | "uri" | "uriTemplate") => Some((item, Action::Remove)),
                Some(schema @ ("inputSchema" | "outputSchema")) if kind == "tools" => {
                    Some(in_schema(&item.key(schema), &segments[3..], value))
                }
                Some(member) => Some((item.key(member), Action::Remove)),
            }
        }
        [c, ns, name, rest @ ..] if c == "components" && ns == "schemas" => {
            Some(in_schema(&root.key(c).key(ns).key(name), rest, value))
        }
        [c, ns, name, ..] if c == "components" => {
            Some((root.key(c).key(ns).key(name), Action::Remove))
        }
        [info, member, ..] if info == "info" && member != "name" && member != "version" => {
            Some((root.key(info).key(member), Action::Remove))
        }
        [member, ..] if ["instructions", "capabilities", "tags"].contains(&member.as_str()) => {
            Some((root.key(member), Action::Remove))
        }
        _ => None,
    }
}

/// The action for an error at `rest` inside the schema at `schema`: the smallest
/// subschema that holds it becomes `{}` (any value), or, when that is the schema
/// itself (or the schema is a `$componentRef`, whose target the pointer reaches only
/// through the resolution), the schema becomes the open object schema.
fn in_schema(schema: &Pointer, rest: &[String], value: &Value) -> (Pointer, Action) {
    let open = (schema.clone(), Action::Replace(json!({"type": "object"})));
    let depth = subschema_depth(rest);
    if depth == 0 {
        return open;
    }
    let mut at = schema.clone();
    for segment in &rest[..depth] {
        at = at.key(segment);
    }
    match value.pointer(at.as_str()) {
        Some(_) => (at, Action::Replace(json!({}))),
        None => open,
    }
}

/// JSON Schema keywords whose value is one subschema.
const SINGLE: [&str; 12] = [
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Keywords whose value is an array of subschemas.
const ARRAYS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value is a map of subschemas.
const MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];

/// How many leading segments of `rest` (a pointer inside a schema) lead to the
/// innermost subschema that holds it: `properties/p/$ref` → 2 (`properties/p`),
/// `required` → 0 (the schema itself).
fn subschema_depth(rest: &[String]) -> usize {
    let mut depth = 0;
    loop {
        let Some(keyword) = rest.get(depth).map(String::as_str) else {
            return depth;
        };
        let next = rest.get(depth + 1);
        let is_index = next.is_some_and(|n| n.parse::<usize>().is_ok());
        if ARRAYS.contains(&keyword) && is_index {
            depth += 2;
        } else if SINGLE.contains(&keyword) {
            depth += 1;
        } else if MAPS.contains(&keyword) && next.is_some() {
            depth += 2;
        } else {
            return depth;
        }
    }
}

/// Applies one action; `None` when the place is gone (the document changed shape).
fn apply(value: &mut Value, at: &Pointer, action: Action) -> Option<()> {
    match action {
        Action::Replace(with) => {
            *value.pointer_mut(at.as_str())? = with;
        }
        Action::Remove => {
            let last = at.segments().last()?;
            match value.pointer_mut(at.parent()?.as_str())? {
                Value::Object(map) => {
                    map.remove(&last)?;
                }
                Value::Array(list) => {
                    let i: usize = last.parse().ok()?;
                    (i < list.len()).then(|| list.remove(i))?;
                }
                _ => return None,
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn description(value: Value) -> Description {
        Description::from_text(
            "d.json",
            value.to_string(),
            Some(Format::Json),
            &Limits::default(),
        )
    }

    #[test]
    fn schemas_open_and_members_go() {
        let desc = description(json!({
            "mcpdesc": "0.9.0",
            "info": {"name": "x", "version": "1"},
            "protocolVersions": ["2025-11-25"],
            "tools": [
                {"name": "ping", "inputSchema": {"type": "string"},
                 "outputSchema": {"type": "object", "required": 3}},
                {"name": "ok", "inputSchema": {"type": "object"}, "annotations": {"title": 3}}
            ]
        }));
        assert!(!desc.is_valid());
        let recovered = recover(&desc).expect("recovers");
        let tools = &recovered.validation.as_ref().unwrap().resolution.value["tools"];
        assert_eq!(tools[0]["inputSchema"], json!({"type": "object"}));
        assert_eq!(tools[0]["outputSchema"], json!({"type": "object"}));
        assert_eq!(tools[1].get("annotations"), None);
        assert_eq!(tools[1]["name"], "ok");
    }

    #[test]
    fn a_dangling_ref_opens_its_property_only() {
        let desc = description(json!({
            "mcpdesc": "0.9.0",
            "info": {"name": "x", "version": "1"},
            "protocolVersions": ["2025-11-25"],
            "tools": [
                {"name": "t", "inputSchema": {"type": "object", "properties": {
                    "a": {"type": "string"},
                    "p": {"$ref": "#/$defs/Pointt"},
                    "list": {"type": "array", "items": {"type": "object", "required": 3}}},
                    "$defs": {"Point": {"type": "string"}}}}
            ]
        }));
        assert!(!desc.is_valid());
        let recovered = recover(&desc).expect("recovers");
        let schema =
            &recovered.validation.as_ref().unwrap().resolution.value["tools"][0]["inputSchema"];
        assert_eq!(schema["properties"]["a"], json!({"type": "string"}));
        assert_eq!(schema["properties"]["p"], json!({}));
        assert_eq!(
            schema["properties"]["list"],
            json!({"type": "array", "items": {}})
        );
    }

    #[test]
    fn subschema_depths() {
        let depth = |p: &str| subschema_depth(&p.split('/').map(str::to_owned).collect::<Vec<_>>());
        assert_eq!(depth("properties/p/$ref"), 2);
        assert_eq!(depth("required"), 0);
        assert_eq!(depth("items/0/type"), 2);
        assert_eq!(depth("items/type"), 1);
        assert_eq!(depth("anyOf/1/properties/x/enum"), 4);
        assert_eq!(depth("$defs/A/not/minimum"), 3);
    }

    #[test]
    fn no_recovery_for_the_document_itself() {
        let desc = description(json!({"mcpdesc": "0.1", "info": {"name": "x", "version": "1"}}));
        assert!(recover(&desc).is_none());
    }
}
