//! The places a shared type can come from, in the prepared schemas: a unit's root, a
//! hoisted definition, and an inline enum or object with properties below a property
//! (an array's `items`, at any depth, also inside `anyOf`/`oneOf`/`allOf` branches).
//! Each has a key (its canonical text: equal keys are identical schemas) and an
//! identity (two places with one identity are one type already).

use serde_json::Value;

use super::units::Unit;
use crate::generate::escape::Placeholders;
use crate::generate::naming;
use crate::generate::prepare::TITLE_MARK;

/// Where in a unit a place is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Site {
    /// The unit's root.
    Root,
    /// The hoisted definition `defs[d]`.
    Def(usize),
    /// An inline schema at the JSON pointer `path` of the root (`def: None`) or of
    /// `defs[d]`.
    Inline { def: Option<usize>, path: String },
}

/// What a place already is: a named type (a root or a definition, copies of one
/// shared definition in several units included), or an inline schema of its own.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Identity {
    /// A named type.
    Type(String),
    /// An inline schema: unit, definition, path.
    Inline(usize, Option<usize>, String),
}

/// One place and what sharing needs to know about it.
#[derive(Debug, Clone)]
pub(super) struct Place {
    /// The unit it is in.
    pub(super) unit: usize,
    /// Where in the unit.
    pub(super) site: Site,
    /// Its canonical text (placeholders restored).
    pub(super) key: String,
    /// What it already is.
    pub(super) identity: Identity,
    /// Its `title`, if it has one.
    pub(super) title: Option<String>,
    /// The name typify would give it: the root's or definition's name, or for an
    /// inline schema the name derived from its parent (`{Parent}{Property}`).
    pub(super) derived: String,
    /// 0 for roots and definitions, else the number of segments of its path.
    pub(super) depth: usize,
}

/// Every place of the live units, in order: per unit its root, the root's inline
/// schemas (outer before inner, in document order), then each definition and its
/// inline schemas.
pub(super) fn collect(units: &[Unit], placeholders: &Placeholders) -> Vec<Place> {
    let mut out = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        if !unit.live() || unit.prepared.rust_type.is_some() {
            continue;
        }
        let p = &unit.prepared;
        if shareable(&p.root) {
            let mut root = p.root.clone();
            if let Some(map) = root.as_object_mut() {
                // Compared as the schema would be documented as a part of another.
                match &p.own_doc {
                    Some(doc) => map.insert("description".into(), Value::String(doc.clone())),
                    None => map.remove("description"),
                };
            }
            out.push(Place {
                unit: u,
                site: Site::Root,
                key: placeholders.restore_plain(&root.to_string()),
                identity: Identity::Type(p.root_name.clone()),
                title: title(&p.root),
                derived: p.root_name.clone(),
                depth: 0,
            });
        }
        inline(&p.root, u, None, "", &p.root_name, placeholders, &mut out);
        for (d, (name, value)) in p.defs.iter().enumerate() {
            out.push(Place {
                unit: u,
                site: Site::Def(d),
                key: placeholders.restore_plain(&value.to_string()),
                identity: Identity::Type(name.clone()),
                title: title(value),
                derived: name.clone(),
                depth: 0,
            });
            inline(value, u, Some(d), "", name, placeholders, &mut out);
        }
    }
    out
}

/// The title mark of a prepared schema.
fn title(schema: &Value) -> Option<String> {
    schema
        .get(TITLE_MARK)
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// The inline schemas below `schema` (at `path` of the unit's root or definition),
/// whose type typify would name after `parent`.
fn inline(
    schema: &Value,
    unit: usize,
    def: Option<usize>,
    path: &str,
    parent: &str,
    placeholders: &Placeholders,
    out: &mut Vec<Place>,
) {
    let Some(map) = schema.as_object() else {
        return;
    };
    let push = |value: &Value, at: String, derived: String, out: &mut Vec<Place>| {
        if shareable(value) {
            out.push(Place {
                unit,
                site: Site::Inline {
                    def,
                    path: at.clone(),
                },
                key: placeholders.restore_plain(&value.to_string()),
                identity: Identity::Inline(unit, def, at.clone()),
                title: title(value),
                derived: derived.clone(),
                depth: at.matches('/').count(),
            });
        }
        inline(value, unit, def, &at, &derived, placeholders, out);
    };
    if let Some(Value::Object(props)) = map.get("properties") {
        for (key, value) in props {
            let escaped = key.replace('~', "~0").replace('/', "~1");
            let word = naming::typify_sanitize(key, naming::Case::Pascal);
            let derived = naming::type_name(parent, word.trim_end_matches('_'));
            push(value, format!("{path}/properties/{escaped}"), derived, out);
        }
    }
    if let Some(items @ Value::Object(_)) = map.get("items") {
        push(
            items,
            format!("{path}/items"),
            naming::type_name(parent, "Item"),
            out,
        );
    }
    // Branches are not places themselves (typify makes an enum variant of each), but
    // what is inside them is.
    for keyword in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(branches)) = map.get(keyword) {
            for (i, branch) in branches.iter().enumerate() {
                let at = format!("{path}/{keyword}/{i}");
                let derived = if keyword == "allOf" {
                    parent.to_owned()
                } else {
                    naming::type_name(parent, &format!("Variant{i}"))
                };
                inline(branch, unit, def, &at, &derived, placeholders, out);
            }
        }
    }
}

/// Whether typify makes a type of its own for `schema`: an enum, or an object with
/// properties.
pub(super) fn shareable(schema: &Value) -> bool {
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

/// The `$defs`/`definitions` key of definition `d` of a unit, if it is one.
pub(super) fn def_key(unit: &Unit, d: usize) -> Option<String> {
    let at = unit.prepared.def_pointers.get(d)?;
    let segments: Vec<String> = at.segments().collect();
    match segments.as_slice() {
        [.., container, key] if container == "$defs" || container == "definitions" => {
            Some(key.clone())
        }
        _ => None,
    }
}
