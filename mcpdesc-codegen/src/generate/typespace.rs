//! Building the one `typify::TypeSpace` of a module, so that no schema can crash the
//! generator or break the other tools' types.
//!
//! ```text
//! for each prepared schema (a root and its hoisted definitions, self-contained):
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

use std::collections::BTreeMap;

use schemars::schema::Schema;
use serde_json::Value;
use typify::{TypeDetails, TypeSpace, TypeSpacePatch, TypeSpaceSettings};

use super::isolate;
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

/// The outcome of one trial.
enum Trial {
    Ok,
    Failed(String),
    Panicked(String),
}

/// The typify settings for the generator's settings.
fn typify_settings(settings: &Settings) -> TypeSpaceSettings {
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
    ts
}

/// Converts `defs` in a fresh space; `Ok` holds the space.
fn convert(
    settings: &TypeSpaceSettings,
    defs: &[(String, Value)],
) -> Result<TypeSpace, (bool, String)> {
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
        // Rendering can panic too; do it here so a failure is attributed to this unit.
        let _ = space.to_stream();
        Ok::<_, typify::Error>(space)
    }) {
        Ok(Ok(space)) => Ok(space),
        Ok(Err(e)) => Err((false, e.to_string())),
        Err(panic) => Err((true, panic)),
    }
}

fn trial(settings: &TypeSpaceSettings, prepared: &PreparedSchema) -> Trial {
    let defs: Vec<(String, Value)> = prepared
        .typify_defs()
        .map(|(n, v)| (n.to_owned(), v.clone()))
        .collect();
    match convert(settings, &defs) {
        Ok(_) => Trial::Ok,
        Err((true, message)) => Trial::Panicked(message),
        Err((false, message)) => Trial::Failed(message),
    }
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
}

fn pass(settings: Settings, mut units: Vec<Unit>) -> Pass {
    let ts = typify_settings(&settings);
    let mut diagnostics = Vec::new();
    for unit in &mut units {
        let failure = match trial(&ts, &unit.prepared) {
            Trial::Ok => continue,
            other => other,
        };
        let mut without = unit.prepared.clone();
        prepare::strip_defaults(&mut without);
        if without != unit.prepared && matches!(trial(&ts, &without), Trial::Ok) {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                rules::CODEGEN,
                "schema-default-dropped",
                &unit.pointer,
                format!(
                    "the type of this schema is generated without its `default` values, which the type generator rejected: {}",
                    match &failure {
                        Trial::Failed(m) | Trial::Panicked(m) => m.as_str(),
                        Trial::Ok => "",
                    }
                ),
            ));
            unit.prepared = without;
            continue;
        }
        let (code, what, message) = match failure {
            Trial::Panicked(m) => ("type-generation-panicked", "panicked", m),
            Trial::Failed(m) => ("type-generation-failed", "failed", m),
            Trial::Ok => unreachable!(),
        };
        diagnostics.push(Diagnostic::new(
            Severity::Error,
            rules::CODEGEN,
            code,
            &unit.pointer,
            format!(
                "the type generator {what} on this schema ({message}); its type {} holds the value as serde_json::Value instead",
                unit.prepared.root_name
            ),
        ));
        unit.prepared = unit.prepared.fallback();
    }

    let whole = |units: &[Unit]| {
        let mut defs: Vec<(String, Value)> = units
            .iter()
            .flat_map(|u| u.prepared.typify_defs())
            .map(|(n, v)| (n.to_owned(), v.clone()))
            .collect();
        // Shorter names first: a definition named like a type that typify derives from a
        // shorter name (`GetOutput` + property `input` → `GetOutputInput`) is then
        // converted after it, which shows as a duplicate instead of a silent reuse.
        defs.sort_by(|a, b| (a.0.len(), &a.0).cmp(&(b.0.len(), &b.0)));
        convert(&ts, &defs)
    };
    let space = match whole(&units) {
        Ok(space) => space,
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
            match whole(&units) {
                Ok(space) => space,
                Err((_, message)) => {
                    return Pass {
                        units,
                        diagnostics,
                        code: String::new(),
                        uses_serde_json: true,
                        duplicates: vec![format!("<no types: {message}>")],
                    }
                }
            }
        }
    };
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for name in type_names(&space) {
        *counts.entry(name).or_default() += 1;
    }
    let duplicates = counts
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(name, _)| name)
        .collect();
    Pass {
        code: space.to_stream().to_string(),
        uses_serde_json: space.uses_serde_json(),
        units,
        diagnostics,
        duplicates,
    }
}

/// Builds the space for `units`. `rename` is called for a definition whose name another
/// type already has, and returns its new name; it is called at most once per definition
/// per pass, and passes repeat until no name is defined twice.
pub fn build(
    settings: &Settings,
    mut units: Vec<Unit>,
    mut rename: impl FnMut(&str) -> String,
    diagnostics: &mut Vec<Diagnostic>,
) -> Built {
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
        let p = match isolate::run(move || pass(worker_settings, worker_units)) {
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
                let new = rename(dup);
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
