//! One pass of typify over every unit: each unit tried alone only when the whole space
//! fails, then kept, kept without defaults, localized or replaced by its fallback; the
//! whole space converted and rendered, and the names it defines twice.

use std::collections::BTreeMap;

use schemars::schema::Schema;
use serde_json::Value;
use typify::{TypeDetails, TypeSpace, TypeSpacePatch, TypeSpaceSettings};

use super::localize::localize;
use super::Unit;
use crate::diagnostic::{Diagnostic, Severity};
use crate::generate::escape::Placeholders;
use crate::generate::isolate;
use crate::generate::prepare::{self, PreparedSchema};
use crate::rules;
use crate::settings::Settings;

/// The typify settings for the generator's settings; `derived` renames types typify
/// derives (from property names) whose names other generated items have.
pub(super) fn typify_settings(
    settings: &Settings,
    derived: &BTreeMap<String, String>,
) -> TypeSpaceSettings {
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

/// Converts `defs` in one space and renders it (rendering can panic too, so a failure
/// is attributed to these definitions); the space and its code as text.
pub(super) fn convert(
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
pub(super) fn trial(settings: &TypeSpaceSettings, prepared: &PreparedSchema) -> bool {
    let defs: Vec<(String, Value)> = prepared
        .typify_defs()
        .map(|(n, v)| (n.to_owned(), v.clone()))
        .collect();
    convert(settings, &defs).is_ok()
}

/// The names of the user-defined types of a space, each as many times as it is
/// defined.
pub(super) fn type_names(space: &TypeSpace) -> Vec<String> {
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
pub(super) struct Pass {
    pub(super) units: Vec<Unit>,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) code: String,
    pub(super) uses_serde_json: bool,
    pub(super) duplicates: Vec<String>,
    /// The name of every type of the space.
    pub(super) names: Vec<String>,
}

pub(super) fn pass(
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
pub(super) fn whole(
    ts: &TypeSpaceSettings,
    units: &[Unit],
) -> Result<(TypeSpace, String), (bool, String)> {
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
pub(super) fn finish(
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
