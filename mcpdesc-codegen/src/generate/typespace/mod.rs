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

mod convert;
mod localize;
mod pass;
mod unit;

use std::collections::{BTreeMap, BTreeSet};

use super::escape::Placeholders;
use super::isolate;
use super::naming::NameAllocator;
use crate::settings::Settings;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::rules;
use pass::pass;
pub use unit::Unit;

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
    replaced: &BTreeMap<String, String>,
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
        let p = match run_pass(settings, replaced, &units, &placeholders, &derived) {
            Ok(p) => p,
            Err(message) => return panicked(units, &message, diagnostics),
        };
        if pass_no < max_passes && rename_duplicates(&mut units, &p.duplicates, names, diagnostics)
        {
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
        // Each such pass renames every clash it sees to a fresh name; a clash can only
        // come back through a renamed type's derived names, so a few passes settle it.
        derived_passes += 1;
        if derived_passes <= 8 && rename_derived_clashes(&own, names, &mut derived) {
            continue;
        }
        for name in &own {
            names.take(name);
        }
        return settled(p, diagnostics);
    }
}

/// Runs one [`pass`] under [`isolate::run`] (on its own copies: the worker owns what
/// it converts); `Err` holds the message of a panic that escaped the pass.
fn run_pass(
    settings: &Settings,
    replaced: &BTreeMap<String, String>,
    units: &[Unit],
    placeholders: &Placeholders,
    derived: &BTreeMap<String, String>,
) -> Result<pass::Pass, String> {
    let worker_settings = settings.clone();
    let worker_replaced = replaced.clone();
    let worker_units = units.to_vec();
    let worker_placeholders = placeholders.clone();
    let worker_derived = derived.clone();
    isolate::run(move || {
        pass(
            worker_settings,
            &worker_replaced,
            worker_units,
            &worker_placeholders,
            &worker_derived,
        )
    })
}

/// The space when a pass panicked: no code, every unit as it was, and an error.
fn panicked(units: Vec<Unit>, message: &str, diagnostics: &mut Vec<Diagnostic>) -> Built {
    // Not reachable in practice (a pass catches typify's panics itself), but
    // the generator must not crash: every type becomes a Value.
    diagnostics.push(Diagnostic::new(
        Severity::Error,
        rules::CODEGEN,
        "type-generation-panicked",
        &Pointer::root(),
        format!("the type generator panicked ({message}); no type could be generated"),
    ));
    Built {
        units,
        code: String::new(),
        uses_serde_json: false,
    }
}

/// Renames each definition whose name another type of the space also has (`duplicates`)
/// with the allocator, with a warning; whether any was renamed.
fn rename_duplicates(
    units: &mut [Unit],
    duplicates: &[String],
    names: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let mut renamed = false;
    for dup in duplicates {
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
    renamed
}

/// Gives each name typify derived itself (`own`) that the allocator handed out
/// elsewhere a fresh name, as a patch in `derived`; whether any clashed.
fn rename_derived_clashes(
    own: &[String],
    names: &mut NameAllocator,
    derived: &mut BTreeMap<String, String>,
) -> bool {
    let mut clashing = false;
    for name in own {
        if !names.is_free(name) && !derived.contains_key(name) {
            let new = names.claim(name);
            derived.insert(name.clone(), new);
            clashing = true;
        }
    }
    clashing
}

/// The space of the last pass: the names still defined twice (renaming gave up) are
/// errors; the pass's own diagnostics follow.
fn settled(p: pass::Pass, diagnostics: &mut Vec<Diagnostic>) -> Built {
    for dup in &p.duplicates {
        diagnostics.push(Diagnostic::new(
            Severity::Error,
            rules::CODEGEN,
            "type-name-collision",
            &Pointer::root(),
            format!("two generated types are named {dup} (check the type patches of the settings)"),
        ));
    }
    diagnostics.extend(p.diagnostics);
    Built {
        units: p.units,
        code: p.code,
        uses_serde_json: p.uses_serde_json,
    }
}
