//! One pass of typify over every unit: each unit tried alone only when the whole space
//! fails, then kept, kept without defaults, localized or replaced by its fallback; the
//! whole space converted and rendered, and the names it defines twice.

use std::collections::BTreeMap;

use serde_json::Value;
use typify::{TypeSpace, TypeSpaceSettings};

use super::convert::{convert, trial, type_names, typify_settings};
use super::localize::localize;
use super::unit::Unit;
use crate::generate::escape::Placeholders;
use crate::generate::prepare;
use crate::settings::Settings;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::rules;

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
    replaced: &BTreeMap<String, String>,
    mut units: Vec<Unit>,
    placeholders: &Placeholders,
    derived: &BTreeMap<String, String>,
) -> Pass {
    let ts = typify_settings(&settings, derived, replaced);
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
    // A definition shared by several schemas (`ir::share`) is in each
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
