//! Building the one `typify::TypeSpace` of a module, so that no schema can crash the
//! generator or break the other tools' types.
//!
//! ```text
//! one TypeSpace with every schema: converts → done (the usual case: typify runs once)
//! otherwise, for each prepared schema (a root and its hoisted definitions, self-contained):
//!     trial conversion in a scratch TypeSpace
//!       ├─ ok                          → keep
//!       ├─ fails, ok without defaults  → keep without `default`s (warning)
//!       └─ fails again / panics        → serde_json::Value newtype (error diagnostic)
//! one TypeSpace with every kept schema, shortest names first
//!   └─ two types with one name (a definition named like a type typify derived for
//!      another schema) → rename that definition with a numeric suffix and start over
//! ```
//!
//! Everything typify does runs under [`isolate::run`]: on a large stack, with panics
//! caught and kept silent.

use std::collections::{BTreeMap, BTreeSet};

use schemars::schema::Schema;
use serde_json::Value;
use typify::{TypeDetails, TypeSpace, TypeSpacePatch, TypeSpaceSettings};

use super::escape::Placeholders;
use super::isolate;
use super::naming::NameAllocator;
use super::prepare::{self, PreparedSchema};
use crate::diagnostic::{Diagnostic, Severity};
use crate::pointer::Pointer;
use crate::rules;
use crate::settings::Settings;

/// One self-contained unit of conversion: a prepared schema and where it came from.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The schema's pointer (use site, or component), for diagnostics.
    pub pointer: Pointer,
    /// The prepared schema.
    pub prepared: PreparedSchema,
}

/// What became of each unit, and the code of the whole space.
#[derive(Debug, Clone)]
pub struct Built {
    /// The units as converted (possibly without defaults, or as fallbacks).
    pub units: Vec<Unit>,
    /// `TypeSpace::to_stream()` of the whole module, as text.
    pub code: String,
    /// Whether the generated code uses `serde_json`.
    pub uses_serde_json: bool,
}

/// The typify settings for the generator's settings; `derived` renames types typify
/// derives (from property names) whose names other generated items have.
fn typify_settings(settings: &Settings, derived: &BTreeMap<String, String>) -> TypeSpaceSettings {
    let mut ts = TypeSpaceSettings::default();
    // A BTreeMap serializes in key order, so generated values serialize
    // deterministically.
    ts.with_map_type("::std::collections::BTreeMap");
    for derive in settings.extra_derives() {
        ts.with_derive(derive.clone());
    }
    for (name, patch) in settings.patches() {
        let mut p = TypeSpacePatch::default();
        if let Some(rename) = patch.new_name() {
            p.with_rename(rename);
        }
        for derive in patch.derives() {
            p.with_derive(derive);
        }
        ts.with_patch(name, &p);
    }
    for (name, rename) in derived {
        if !settings.patches().contains_key(name) {
            ts.with_patch(name, TypeSpacePatch::default().with_rename(rename));
        }
    }
    ts
}

/// Converts `defs` in a fresh space; `Ok` holds the space.
/// Converts `defs` in one space and renders it (rendering can panic too, so a failure
/// is attributed to these definitions); the space and its code as text.
fn convert(
    settings: &TypeSpaceSettings,
    defs: &[(String, Value)],
) -> Result<(TypeSpace, String), (bool, String)> {
    let schemas = defs
        .iter()
        .map(|(name, v)| {
            serde_json::from_value::<Schema>(v.clone())
                .map(|s| (name.clone(), s))
                .map_err(|e| (false, format!("schema of {name} is not readable: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    match isolate::catch(|| {
        let mut space = TypeSpace::new(settings);
        space.add_ref_types(schemas)?;
        let code = space.to_stream().to_string();
        Ok::<_, typify::Error>((space, code))
    }) {
        Ok(Ok(converted)) => Ok(converted),
        Ok(Err(e)) => Err((false, e.to_string())),
        Err(panic) => Err((true, panic)),
    }
}

/// Whether typify converts `prepared` alone (without panicking).
fn trial(settings: &TypeSpaceSettings, prepared: &PreparedSchema) -> bool {
    let defs: Vec<(String, Value)> = prepared
        .typify_defs()
        .map(|(n, v)| (n.to_owned(), v.clone()))
        .collect();
    convert(settings, &defs).is_ok()
}

/// The names of the user-defined types of a space, each as many times as it is
/// defined.
fn type_names(space: &TypeSpace) -> Vec<String> {
    space
        .iter_types()
        .filter(|t| {
            matches!(
                t.details(),
                TypeDetails::Struct(_) | TypeDetails::Enum(_) | TypeDetails::Newtype(_)
            )
        })
        .map(|t| t.name())
        .collect()
}

/// The result of one pass over all units, computed on the worker thread.
struct Pass {
    units: Vec<Unit>,
    diagnostics: Vec<Diagnostic>,
    code: String,
    uses_serde_json: bool,
    duplicates: Vec<String>,
    /// The name of every type of the space.
    names: Vec<String>,
}

fn pass(
    settings: Settings,
    mut units: Vec<Unit>,
    placeholders: &Placeholders,
    derived: &BTreeMap<String, String>,
) -> Pass {
    let ts = typify_settings(&settings, derived);
    let mut diagnostics = Vec::new();
    // Fast path: the whole module converts at once (the usual case), so no unit needs
    // its trial conversion; typify runs once, not twice per schema.
    if let Ok(converted) = whole(&ts, &units) {
        return finish(converted, units, diagnostics);
    }
    for unit in &mut units {
        if trial(&ts, &unit.prepared) {
            continue;
        }
        let mut without = unit.prepared.clone();
        prepare::strip_defaults(&mut without);
        if without != unit.prepared && trial(&ts, &without) {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                rules::CODEGEN,
                "schema-default-dropped",
                &unit.pointer,
                "the type generator rejected a `default` value of this schema; its type is generated without `default` values (the original schema is unchanged)".to_owned(),
            ));
            unit.prepared = without;
            continue;
        }
        if let Some(fixed) = localize(&ts, unit, placeholders, &mut diagnostics) {
            unit.prepared = fixed;
            continue;
        }
        diagnostics.push(Diagnostic::new(
            Severity::Error,
            rules::CODEGEN,
            "type-generation-failed",
            &unit.pointer,
            format!(
                "the type generator cannot represent this schema; its type {} holds the value as serde_json::Value instead (the original schema is unchanged)",
                unit.prepared.root_name
            ),
        ));
        unit.prepared = unit.prepared.fallback();
    }

    let converted = match whole(&ts, &units) {
        Ok(converted) => converted,
        Err((_, message)) => {
            // Every unit converted alone, so this is an interaction typify does not
            // handle; degrade everything rather than emit nothing.
            for unit in &mut units {
                diagnostics.push(Diagnostic::new(
                    Severity::Error,
                    rules::CODEGEN,
                    "type-generation-failed",
                    &unit.pointer,
                    format!(
                        "the type generator failed on the module as a whole ({message}); {} holds the value as serde_json::Value instead",
                        unit.prepared.root_name
                    ),
                ));
                unit.prepared = unit.prepared.fallback();
            }
            match whole(&ts, &units) {
                Ok(converted) => converted,
                Err((_, message)) => {
                    return Pass {
                        units,
                        diagnostics,
                        code: String::new(),
                        uses_serde_json: true,
                        duplicates: vec![format!("<no types: {message}>")],
                        names: Vec::new(),
                    }
                }
            }
        }
    };
    finish(converted, units, diagnostics)
}

/// One space of every unit's definitions.
fn whole(ts: &TypeSpaceSettings, units: &[Unit]) -> Result<(TypeSpace, String), (bool, String)> {
    let mut defs: Vec<(String, Value)> = units
        .iter()
        .flat_map(|u| u.prepared.typify_defs())
        .map(|(n, v)| (n.to_owned(), v.clone()))
        .collect();
    // Shorter names first: a definition named like a type that typify derives from a
    // shorter name (`GetOutput` + property `input` → `GetOutputInput`) is then
    // converted after it, which shows as a duplicate instead of a silent reuse.
    defs.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
    // A definition shared by several schemas (`ir::share_definitions`) is in each
    // of their units, identical: it is converted once.
    defs.dedup();
    convert(ts, &defs)
}

/// The pass's result from the converted space: its code and the names defined twice.
fn finish(
    (space, code): (TypeSpace, String),
    units: Vec<Unit>,
    diagnostics: Vec<Diagnostic>,
) -> Pass {
    let names = type_names(&space);
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for name in &names {
        *counts.entry(name.clone()).or_default() += 1;
    }
    let duplicates = counts
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(name, _)| name)
        .collect();
    Pass {
        code,
        uses_serde_json: space.uses_serde_json(),
        units,
        diagnostics,
        duplicates,
        names,
    }
}

/// One subschema of a prepared unit that could be replaced by `{}`.
struct Candidate {
    /// `None` for the root, else the index of the definition.
    def: Option<usize>,
    /// JSON pointer inside that definition's prepared schema.
    path: Pointer,
    /// Its pointer in the description.
    pointer: Pointer,
}

/// Subschemas of a prepared schema below `value`, with their pointers in the original
/// (properties under their JSON names, placeholders restored).
fn candidates(
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
fn construct(schema: &Value) -> &'static str {
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
fn localize(
    ts: &TypeSpaceSettings,
    unit: &Unit,
    placeholders: &Placeholders,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<PreparedSchema> {
    const MAX_CANDIDATES: usize = 2000;
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
    if list.len() > MAX_CANDIDATES {
        return None;
    }
    // Deepest first, so that a subschema is judged after its own subschemas.
    list.sort_by_key(|c| std::cmp::Reverse(c.path.segments().count()));
    let node_of = |p: &PreparedSchema, c: &Candidate| -> Option<Value> {
        let target = match c.def {
            None => &p.root,
            Some(i) => &p.defs.get(i)?.1,
        };
        target.pointer(c.path.as_str()).cloned()
    };
    let mut blamed: Vec<&Candidate> = Vec::new();
    for c in &list {
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
    if blamed.is_empty() {
        return None;
    }
    let mut fixed = prepared.clone();
    let mut found = Vec::new();
    for c in &blamed {
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

/// Builds the space for `units`, with every type name from `names`, the module's one
/// allocator (which holds the names of the definitions, and of the items emitted beside
/// typify's, such as `{Prompt}Arguments`):
///
/// - a definition whose name another type of the space already has is renamed with the
///   allocator (at most once per definition per pass);
/// - a type typify derives itself (`{Parent}{Property}`) whose name the allocator has
///   given to something else is renamed with the allocator (a typify patch);
/// - the derived names are then claimed, so nothing later takes them.
///
/// Passes repeat until no name is defined twice.
pub fn build(
    settings: &Settings,
    mut units: Vec<Unit>,
    placeholders: Placeholders,
    names: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> Built {
    let mut derived: BTreeMap<String, String> = BTreeMap::new();
    let mut derived_passes = 0;
    // Each pass renames at least one definition, and renamed names are fresh, so the
    // number of passes is bounded by the number of definitions.
    let max_passes = units
        .iter()
        .map(|u| u.prepared.defs.len() + 1)
        .sum::<usize>()
        + 1;
    let mut pass_no = 0;
    loop {
        pass_no += 1;
        let worker_settings = settings.clone();
        let worker_units = units.clone();
        let worker_placeholders = placeholders.clone();
        let worker_derived = derived.clone();
        let p = match isolate::run(move || {
            pass(
                worker_settings,
                worker_units,
                &worker_placeholders,
                &worker_derived,
            )
        }) {
            Ok(p) => p,
            Err(message) => {
                // Not reachable in practice (a pass catches typify's panics itself), but
                // the generator must not crash: every type becomes a Value.
                diagnostics.push(Diagnostic::new(
                    Severity::Error,
                    rules::CODEGEN,
                    "type-generation-panicked",
                    &Pointer::root(),
                    format!("the type generator panicked ({message}); no type could be generated"),
                ));
                return Built {
                    units,
                    code: String::new(),
                    uses_serde_json: false,
                };
            }
        };
        let mut renamed = false;
        if pass_no < max_passes {
            for dup in &p.duplicates {
                let Some(unit) = units
                    .iter_mut()
                    .find(|u| u.prepared.typify_defs().any(|(n, _)| n == dup))
                else {
                    continue;
                };
                let new = names.claim(dup);
                diagnostics.push(Diagnostic::new(
                    Severity::Warning,
                    rules::CODEGEN,
                    "type-name-collision",
                    &unit.pointer,
                    format!("the type name {dup} is also derived for another schema; this type is named {new} instead"),
                ));
                unit.prepared.rename(dup, &new);
                renamed = true;
            }
        }
        if renamed {
            continue;
        }
        // Types typify derived, named like an item the allocator handed out elsewhere.
        let defined: BTreeSet<&str> = units
            .iter()
            .flat_map(|u| u.prepared.typify_defs().map(|(n, _)| n))
            .chain(derived.values().map(String::as_str))
            .collect();
        let own: Vec<String> = p
            .names
            .iter()
            .filter(|n| !defined.contains(n.as_str()))
            .cloned()
            .collect();
        let mut clashing = false;
        // Each such pass renames every clash it sees to a fresh name; a clash can only
        // come back through a renamed type's derived names, so a few passes settle it.
        derived_passes += 1;
        if derived_passes <= 8 {
            for name in &own {
                if !names.is_free(name) && !derived.contains_key(name) {
                    let new = names.claim(name);
                    derived.insert(name.clone(), new);
                    clashing = true;
                }
            }
        }
        if clashing {
            continue;
        }
        for name in &own {
            names.take(name);
        }
        for dup in &p.duplicates {
            diagnostics.push(Diagnostic::new(
                Severity::Error,
                rules::CODEGEN,
                "type-name-collision",
                &Pointer::root(),
                format!(
                    "two generated types are named {dup} (check the type patches of the settings)"
                ),
            ));
        }
        diagnostics.extend(p.diagnostics);
        return Built {
            units: p.units,
            code: p.code,
            uses_serde_json: p.uses_serde_json,
        };
    }
}
