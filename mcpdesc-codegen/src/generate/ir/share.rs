//! Sharing identical schemas between tools: equal `$defs` and equal inline enums and
//! objects become one Rust type instead of one per tool.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::generate::naming::{self, NameAllocator};
use crate::generate::prepare::PreparedSchema;
use mcpdesc_description::pointer::Pointer;

/// Identical `$defs` (or `definitions`) of different schemas become one Rust type,
/// named after the `$defs` key (`IssuePriority`, not `CreateIssueInputIssuePriority`):
/// each schema keeps its copy of the definition under the shared name, and the type
/// space converts it once. Definitions that refer to shared ones become identical in
/// turn, so the grouping repeats until nothing changes (at most once per definition).
///
/// ```text
/// create_issue: $defs/IssuePriority {enum: [low, high]}  ─┐
/// get_issue:    $defs/IssuePriority {enum: [low, high]}  ─┴─▶ types::IssuePriority
/// ```
pub fn share_definitions(prepared: &mut [&mut PreparedSchema], names: &mut NameAllocator) {
    let mut shared_names: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let total: usize = prepared.iter().map(|p| p.defs.len()).sum();
    for _ in 0..=total {
        // Canonical text of each definition not yet shared → (schema, definition).
        let mut groups: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
        for (u, p) in prepared.iter().enumerate() {
            for (d, (name, value)) in p.defs.iter().enumerate() {
                if shared_names.contains(name) || def_key(p, d).is_none() {
                    continue;
                }
                groups.entry(value.to_string()).or_default().push((u, d));
            }
        }
        let mut changed = false;
        for members in groups.values() {
            let schemas: std::collections::BTreeSet<usize> = members.iter().map(|m| m.0).collect();
            if schemas.len() < 2 {
                continue;
            }
            let (u0, d0) = members[0];
            let key = def_key(prepared[u0], d0).unwrap_or_default();
            let name = names.claim(naming::upper_camel(&key).trim_end_matches('_'));
            for &(u, d) in members {
                let old = prepared[u].defs[d].0.clone();
                prepared[u].rename(&old, &name);
            }
            shared_names.insert(name);
            changed = true;
        }
        if !changed {
            break;
        }
    }
}

/// One inline schema that could become a shared type: a property's (or array item's)
/// enum, or object with properties, in typify's copy of a schema.
struct Inline {
    /// The prepared schema (unit) it is in.
    unit: usize,
    /// `None` for the unit's root, else the index of its definition.
    def: Option<usize>,
    /// Its JSON pointer in that schema.
    path: String,
    /// The type name typify would derive for it (`{Parent}{Property}`).
    derived: String,
}

/// Identical inline enum and object schemas of several tools' schemas become one Rust
/// type, named after the first use (the name typify would have derived for it there,
/// such as `CreateIssueInputState`): the schema moves to a definition of its first unit
/// and every use becomes a `$ref` to it. "Identical" is the same prepared schema
/// (description included, placeholders restored). Uses are taken in the order of the
/// units and of the properties, outer schemas before inner ones, so the result is
/// deterministic; an inline schema used by one tool only is left to typify.
///
/// ```text
/// create_issue: properties/state {enum: [open, closed]} ─┐
/// update_issue: properties/state {enum: [open, closed]} ─┴─▶ types::CreateIssueInputState
/// ```
pub fn share_inline(prepared: &mut [&mut PreparedSchema], names: &mut NameAllocator) {
    // Each round shares the shallowest groups; inner schemas of a shared one are then
    // in its definition once, and another round may share them with other uses.
    let bound = prepared.len() * 4 + 4;
    for _ in 0..bound {
        let mut found = Vec::new();
        for (u, p) in prepared.iter().enumerate() {
            inline_candidates(&p.root, u, None, "", &p.root_name, &mut found);
            for (d, (name, value)) in p.defs.iter().enumerate() {
                inline_candidates(value, u, Some(d), "", name, &mut found);
            }
        }
        let key_of = |p: &PreparedSchema, c: &Inline| -> Option<String> {
            let schema = match c.def {
                None => &p.root,
                Some(d) => &p.defs.get(d)?.1,
            };
            let node = schema.pointer(&c.path)?;
            Some(names.placeholders().restore_plain(&node.to_string()))
        };
        let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, c) in found.iter().enumerate() {
            if let Some(key) = key_of(prepared[c.unit], c) {
                groups.entry(key).or_default().push(i);
            }
        }
        // Shallowest first, then in order of first use.
        let mut chosen: Vec<(String, Vec<usize>)> = groups
            .into_iter()
            .filter(|(_, members)| {
                let units: std::collections::BTreeSet<usize> =
                    members.iter().map(|&i| found[i].unit).collect();
                units.len() > 1
            })
            .collect();
        let Some(depth) = chosen
            .iter()
            .map(|(_, m)| found[m[0]].path.matches('/').count())
            .min()
        else {
            break;
        };
        chosen.retain(|(_, m)| found[m[0]].path.matches('/').count() == depth);
        chosen.sort_by_key(|(_, m)| m[0]);
        for (_, members) in chosen {
            let first = &found[members[0]];
            let name = names.claim(&first.derived);
            let reference = serde_json::json!({ "$ref": format!("#/definitions/{name}") });
            let mut moved = None;
            let mut users = std::collections::BTreeSet::new();
            for &i in &members {
                let c = &found[i];
                let p = &mut *prepared[c.unit];
                let schema = match c.def {
                    None => &mut p.root,
                    Some(d) => &mut p.defs[d].1,
                };
                // A use inside a schema shared earlier in this round is gone.
                if let Some(node) = schema.pointer_mut(&c.path) {
                    let node = std::mem::replace(node, reference.clone());
                    moved.get_or_insert(node);
                    users.insert(c.unit);
                }
            }
            // Every unit using it holds the same copy (as with shared `$defs`), so each
            // unit stays self-contained and the type space converts it once.
            if let Some(node) = moved {
                for u in users {
                    let p = &mut *prepared[u];
                    p.defs.push((name.clone(), node.clone()));
                    p.def_pointers.push(Pointer::root());
                }
            }
        }
    }
}

/// The inline schemas under `properties` chains and array `items` of `schema`.
fn inline_candidates(
    schema: &Value,
    unit: usize,
    def: Option<usize>,
    path: &str,
    parent: &str,
    out: &mut Vec<Inline>,
) {
    let Some(map) = schema.as_object() else {
        return;
    };
    if let Some(Value::Object(props)) = map.get("properties") {
        for (key, value) in props {
            let escaped = key.replace('~', "~0").replace('/', "~1");
            let at = format!("{path}/properties/{escaped}");
            let word = naming::typify_sanitize(key, naming::Case::Pascal);
            let derived = naming::type_name(parent, word.trim_end_matches('_'));
            if shareable(value) {
                out.push(Inline {
                    unit,
                    def,
                    path: at.clone(),
                    derived: derived.clone(),
                });
            }
            inline_candidates(value, unit, def, &at, &derived, out);
        }
    }
    if let Some(items @ Value::Object(_)) = map.get("items") {
        let derived = naming::type_name(parent, "Item");
        let at = format!("{path}/items");
        if shareable(items) {
            out.push(Inline {
                unit,
                def,
                path: at.clone(),
                derived: derived.clone(),
            });
        }
        inline_candidates(items, unit, def, &at, &derived, out);
    }
}

/// Whether typify makes a type of its own for `schema`: an enum, or an object with
/// properties.
fn shareable(schema: &Value) -> bool {
    let Some(node) = schema.as_object() else {
        return false;
    };
    let is_enum = node.contains_key("enum") && !node.contains_key("$ref");
    let is_object = node.get("type") == Some(&Value::String("object".into()))
        && node
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|p| !p.is_empty());
    is_enum || is_object
}

/// The `$defs`/`definitions` key of definition `d`, if it is one.
fn def_key(p: &PreparedSchema, d: usize) -> Option<String> {
    let at = p.def_pointers.get(d)?;
    let segments: Vec<String> = at.segments().collect();
    match segments.as_slice() {
        [.., container, key] if container == "$defs" || container == "definitions" => {
            Some(key.clone())
        }
        _ => None,
    }
}
