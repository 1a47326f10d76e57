//! Finding the subschemas typify fails on, so that only they become
//! `serde_json::Value` and the rest of the unit keeps its types.

use serde_json::Value;
use typify::TypeSpaceSettings;

use super::convert::trial;
use super::unit::Unit;
use crate::generate::escape::Placeholders;
use crate::generate::prepare::PreparedSchema;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::rules;

/// One subschema of a prepared unit that could be replaced by `{}`.
pub(super) struct Candidate {
    /// `None` for the root, else the index of the definition.
    def: Option<usize>,
    /// JSON pointer inside that definition's prepared schema.
    path: Pointer,
    /// Its pointer in the description.
    pointer: Pointer,
}

/// Subschemas of a prepared schema below `value`, with their pointers in the original
/// (properties under their JSON names, placeholders restored).
pub(super) fn candidates(
    value: &Value,
    def: Option<usize>,
    path: &Pointer,
    pointer: &Pointer,
    placeholders: &Placeholders,
    out: &mut Vec<Candidate>,
) {
    let Some(map) = value.as_object() else {
        return;
    };
    let child = |v: &Value, p: Pointer, o: Pointer, out: &mut Vec<Candidate>| {
        out.push(Candidate {
            def,
            path: p.clone(),
            pointer: o.clone(),
        });
        candidates(v, def, &p, &o, placeholders, out);
    };
    if let Some(Value::Object(props)) = map.get("properties") {
        for (key, v) in props {
            let original = placeholders.restore_plain(key);
            child(
                v,
                path.key("properties").key(key),
                pointer.key("properties").key(&original),
                out,
            );
        }
    }
    for keyword in ["items", "additionalProperties", "additionalItems"] {
        match map.get(keyword) {
            Some(Value::Array(list)) => {
                for (i, v) in list.iter().enumerate() {
                    child(
                        v,
                        path.key(keyword).index(i),
                        pointer.key(keyword).index(i),
                        out,
                    );
                }
            }
            Some(v @ Value::Object(_)) => child(v, path.key(keyword), pointer.key(keyword), out),
            _ => {}
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(list)) = map.get(keyword) {
            for (i, v) in list.iter().enumerate() {
                child(
                    v,
                    path.key(keyword).index(i),
                    pointer.key(keyword).index(i),
                    out,
                );
            }
        }
    }
}

/// Plain words for the construct typify could not take.
pub(super) fn construct(schema: &Value) -> &'static str {
    if schema.get("enum").is_some() {
        "this `enum` (its values)"
    } else if schema.get("anyOf").is_some() || schema.get("oneOf").is_some() {
        "this combination of alternatives (`anyOf`/`oneOf`)"
    } else if schema.get("allOf").is_some() {
        "this `allOf` combination"
    } else if schema.get("not").is_some() {
        "this `not`"
    } else {
        "this schema"
    }
}

/// Finds the subschemas typify fails on and replaces each by `{}` (a
/// `serde_json::Value`), with one warning at its pointer; `None` when that does not
/// make the unit convert. A subschema is to blame when it fails converted alone (with
/// the unit's definitions) and none of its own subschemas does. Costs one trial per
/// subschema, on the failure path only.
pub(super) fn localize(
    ts: &TypeSpaceSettings,
    unit: &Unit,
    placeholders: &Placeholders,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<PreparedSchema> {
    const MAX_CANDIDATES: usize = 2000;
    let prepared = &unit.prepared;
    let mut list = unit_candidates(unit, placeholders);
    if list.len() > MAX_CANDIDATES {
        return None;
    }
    // Deepest first, so that a subschema is judged after its own subschemas.
    list.sort_by_key(|c| std::cmp::Reverse(c.path.segments().count()));
    let blamed = blame(ts, prepared, &list);
    if blamed.is_empty() {
        return None;
    }
    let (fixed, mut found) = replace_blamed(prepared, &blamed);
    if !trial(ts, &fixed) {
        return None;
    }
    found.sort();
    for (pointer, what) in found {
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            rules::CODEGEN,
            "schema-construct-unsupported",
            &pointer,
            format!("the type generator cannot represent {what}; the generated type holds this value as serde_json::Value (the original schema is unchanged)"),
        ));
    }
    Some(fixed)
}

/// Every subschema of the unit's root and definitions (each definition itself too).
fn unit_candidates(unit: &Unit, placeholders: &Placeholders) -> Vec<Candidate> {
    let prepared = &unit.prepared;
    let at = |rel: &Pointer| {
        Pointer::parse(&format!("{}{}", unit.pointer, rel)).unwrap_or_else(|| unit.pointer.clone())
    };
    let mut list = Vec::new();
    candidates(
        &prepared.root,
        None,
        &Pointer::root(),
        &unit.pointer,
        placeholders,
        &mut list,
    );
    for (i, (_, def)) in prepared.defs.iter().enumerate() {
        let rel = prepared.def_pointers.get(i).cloned().unwrap_or_default();
        list.push(Candidate {
            def: Some(i),
            path: Pointer::root(),
            pointer: at(&rel),
        });
        candidates(
            def,
            Some(i),
            &Pointer::root(),
            &at(&rel),
            placeholders,
            &mut list,
        );
    }
    list
}

/// The candidates (deepest first) to blame: each fails converted alone, with the
/// unit's definitions, and is not inside one already blamed.
fn blame<'c>(
    ts: &TypeSpaceSettings,
    prepared: &PreparedSchema,
    list: &'c [Candidate],
) -> Vec<&'c Candidate> {
    let node_of = |p: &PreparedSchema, c: &Candidate| -> Option<Value> {
        let target = match c.def {
            None => &p.root,
            Some(i) => &p.defs.get(i)?.1,
        };
        target.pointer(c.path.as_str()).cloned()
    };
    let mut blamed: Vec<&Candidate> = Vec::new();
    for c in list {
        let inside_blamed = blamed
            .iter()
            .any(|b| b.def == c.def && b.path.starts_with(&c.path));
        if inside_blamed {
            continue;
        }
        let Some(node) = node_of(prepared, c) else {
            continue;
        };
        let mut probe = prepared.clone();
        probe.root_name = "McpdescProbe".to_owned();
        probe.root = node;
        if !trial(ts, &probe) {
            blamed.push(c);
        }
    }
    blamed
}

/// A copy of `prepared` with every blamed subschema replaced by `{}` (keeping its
/// description), and what was replaced where.
fn replace_blamed(
    prepared: &PreparedSchema,
    blamed: &[&Candidate],
) -> (PreparedSchema, Vec<(Pointer, &'static str)>) {
    let mut fixed = prepared.clone();
    let mut found = Vec::new();
    for c in blamed {
        let target = match c.def {
            None => &mut fixed.root,
            Some(i) => &mut fixed.defs[i].1,
        };
        let Some(node) = target.pointer_mut(c.path.as_str()) else {
            continue;
        };
        let what = construct(node);
        let mut plain = serde_json::Map::new();
        if let Some(doc) = node.get("description") {
            plain.insert("description".into(), doc.clone());
        }
        *node = Value::Object(plain);
        found.push((c.pointer.clone(), what));
    }
    (fixed, found)
}
