//! Deciding where the user's own types stand, after sharing (so that a replacement of
//! a shared type reaches every place of its shape):
//!
//! - a tool schema whose type is replaced ([`Settings::replace_type`] by name or by
//!   component, or an honoured `x-rust-type` at its root) names the user's type in
//!   the handler traits and the `Client`, and its type is not generated;
//! - a definition of that name anywhere (shared copies included) is replaced by typify;
//! - every mapped format and honoured `x-rust-type` inside a schema is collected for
//!   the compile-time checks of `own_checks.rs`.
//!
//! A replacement or format type the module never uses is a warning.

use std::collections::BTreeMap;

use super::own::{OwnCheck, OwnIr};
use super::tool::{Role, SchemaIr, SharedSchemaIr, ToolIr, TypeSource};
use crate::generate::prepare::PreparedSchema;
use crate::own_types::ReplaceKey;
use crate::settings::Settings;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::rules;

/// How many places a check's message names.
const POINTERS_NAMED: usize = 3;

/// One replaced type name: the Rust type and what the settings said.
struct Wanted {
    path: String,
    stands_for: String,
    used: bool,
    pointers: Vec<Pointer>,
}

/// Applies the replacements of `settings` and the root `x-rust-type`s to the tool
/// schemas and shared types, and collects what typify replaces and what the compile
/// checks check; warnings for replacements and formats nothing uses.
pub fn resolve(
    shared: &mut [SharedSchemaIr],
    tools: &mut [ToolIr],
    settings: &Settings,
    diagnostics: &mut Vec<Diagnostic>,
) -> OwnIr {
    let mut wanted: BTreeMap<String, Wanted> = BTreeMap::new();
    let mut unused_keys: Vec<String> = Vec::new();
    for (key, path) in settings.own_types().replacements() {
        let names = match ReplaceKey::parse(key) {
            Ok(ReplaceKey::Type(name)) => {
                vec![(name.clone(), format!("the generated type `{name}`"))]
            }
            Ok(ReplaceKey::Component(c)) => component_types(shared, tools, &c)
                .into_iter()
                .map(|name| (name, format!("the component `#/components/schemas/{c}`")))
                .collect(),
            Err(_) => Vec::new(),
        };
        if names.is_empty() {
            unused_keys.push(key.clone());
        }
        for (name, stands_for) in names {
            wanted.entry(name).or_insert(Wanted {
                path: path.clone(),
                stands_for,
                used: false,
                pointers: Vec::new(),
            });
        }
    }

    replace_roots(shared, tools, &mut wanted);
    let mut own = OwnIr::default();
    let mut uses: BTreeMap<(String, String), Vec<Pointer>> = BTreeMap::new();
    for (unit_at, prepared) in generated(shared, tools) {
        for (d, (name, _)) in prepared.defs.iter().enumerate() {
            if let Some(w) = wanted.get_mut(name) {
                w.used = true;
                let rel = prepared.def_pointers.get(d).cloned().unwrap_or_default();
                let at = Pointer::parse(&format!("{unit_at}{rel}")).unwrap_or(unit_at.clone());
                if !w.pointers.contains(&at) {
                    w.pointers.push(at);
                }
            }
        }
        for u in &prepared.own_uses {
            uses.entry((u.path.clone(), u.what.clone()))
                .or_default()
                .push(u.pointer.clone());
        }
    }
    for (at, path) in root_rust_types(shared, tools) {
        uses.entry((path, "`x-rust-type`".to_owned()))
            .or_default()
            .push(at);
    }
    for (name, w) in &wanted {
        if w.used {
            own.definitions.insert(name.clone(), w.path.clone());
            own.checks.push(OwnCheck {
                path: w.path.clone(),
                stands_for: w.stands_for.clone(),
                pointers: w.pointers.iter().take(POINTERS_NAMED).cloned().collect(),
            });
        } else if w.stands_for.starts_with("the generated type") {
            unused_keys.push(name.clone());
        }
    }
    for ((path, what), pointers) in uses {
        own.checks.push(OwnCheck {
            path,
            stands_for: what,
            pointers: pointers.into_iter().take(POINTERS_NAMED).collect(),
        });
    }
    warn_unused(&unused_keys, &own, settings, diagnostics);
    own
}

/// The generated prepared schemas (not replaced), with their pointers.
fn generated<'a>(
    shared: &'a [SharedSchemaIr],
    tools: &'a [ToolIr],
) -> Vec<(Pointer, &'a PreparedSchema)> {
    let mut out: Vec<(Pointer, &PreparedSchema)> = shared
        .iter()
        .filter(|s| s.replaced.is_none())
        .map(|s| (s.pointer.clone(), &s.prepared))
        .collect();
    for t in tools {
        for schema in std::iter::once(&t.input).chain(t.output.as_ref()) {
            if let (TypeSource::Own(p), None) = (&schema.source, &schema.replaced) {
                out.push((schema.pointer.clone(), p));
            }
        }
    }
    out
}

/// The tool schemas and shared types an `x-rust-type` at their root replaces: where,
/// and the Rust type.
fn root_rust_types(shared: &[SharedSchemaIr], tools: &[ToolIr]) -> Vec<(Pointer, String)> {
    let mut out: Vec<(Pointer, String)> = shared
        .iter()
        .filter_map(|s| Some((s.pointer.clone(), s.prepared.rust_type.clone()?)))
        .collect();
    for t in tools {
        for schema in std::iter::once(&t.input).chain(t.output.as_ref()) {
            if let TypeSource::Own(p) = &schema.source {
                if let Some(path) = &p.rust_type {
                    out.push((schema.pointer.clone(), path.clone()));
                }
            }
        }
    }
    out
}

/// The type names the tool schemas from component `c` have (after sharing).
fn component_types(shared: &[SharedSchemaIr], tools: &[ToolIr], c: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for t in tools {
        for schema in std::iter::once(&t.input).chain(t.output.as_ref()) {
            if schema.component.as_deref() != Some(c) {
                continue;
            }
            let name = match &schema.source {
                TypeSource::Own(p) => Some(p.root_name.clone()),
                TypeSource::Shared(k) => shared.get(*k).map(|s| s.prepared.root_name.clone()),
                TypeSource::Variant(_) => None,
            };
            if let Some(name) = name.filter(|n| !out.contains(n)) {
                out.push(name);
            }
        }
    }
    out
}

/// Tool schemas whose whole type is replaced: by the settings (their type's name is
/// wanted) or by an honoured `x-rust-type` at their root. A shared type that is
/// replaced is replaced for every tool schema that aliases it; a variant's type follows
/// the earlier variant's.
fn replace_roots(
    shared: &mut [SharedSchemaIr],
    tools: &mut [ToolIr],
    wanted: &mut BTreeMap<String, Wanted>,
) {
    for s in shared.iter_mut() {
        let by_settings = wanted.get_mut(&s.prepared.root_name).map(|w| {
            w.used = true;
            w.pointers.push(s.pointer.clone());
            w.path.clone()
        });
        s.replaced = by_settings.or_else(|| s.prepared.rust_type.clone());
    }
    for i in 0..tools.len() {
        let (earlier, rest) = tools.split_at_mut(i);
        let t = &mut rest[0];
        let (input_alias, output_alias) = (t.names.input_type.clone(), t.names.output_type.clone());
        for (schema, role) in std::iter::once((&mut t.input, Role::Input))
            .chain(t.output.as_mut().map(|o| (o, Role::Output)))
        {
            let alias = match role {
                Role::Input => &input_alias,
                Role::Output => &output_alias,
            };
            schema.replaced = match &schema.source {
                // The alias of a shared type names this tool schema alone.
                TypeSource::Shared(_) if wanted.contains_key(alias) => {
                    let w = wanted.get_mut(alias).expect("checked");
                    w.used = true;
                    w.pointers.push(schema.pointer.clone());
                    Some(w.path.clone())
                }
                TypeSource::Own(p) => match wanted.get_mut(&p.root_name) {
                    Some(w) => {
                        w.used = true;
                        w.pointers.push(schema.pointer.clone());
                        Some(w.path.clone())
                    }
                    None => p.rust_type.clone(),
                },
                TypeSource::Shared(k) => {
                    let replaced = shared.get(*k).and_then(|s| s.replaced.clone());
                    if let Some(w) = shared
                        .get(*k)
                        .and_then(|s| wanted.get_mut(&s.prepared.root_name))
                    {
                        if !w.pointers.contains(&schema.pointer) {
                            w.pointers.push(schema.pointer.clone());
                        }
                    }
                    replaced
                }
                TypeSource::Variant(j) => {
                    variant_schema(&earlier[*j], role).and_then(|s| s.replaced.clone())
                }
            };
        }
    }
}

/// The schema of `role` of a tool.
fn variant_schema(tool: &ToolIr, role: Role) -> Option<&SchemaIr> {
    match role {
        Role::Input => Some(&tool.input),
        Role::Output => tool.output.as_ref(),
    }
}

/// Warnings for replacement keys and format types the module does not use.
fn warn_unused(
    unused_keys: &[String],
    own: &OwnIr,
    settings: &Settings,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for key in unused_keys {
        let why = match ReplaceKey::parse(key) {
            Ok(ReplaceKey::Component(c)) => format!(
                "the replacement of `#/components/schemas/{c}` is not used: no tool schema of this module is that component (a component stands for a type when it is a tool's `inputSchema` or `outputSchema`)"
            ),
            _ => format!(
                "the replacement of `{key}` is not used: the generated code has no type of that name that can be replaced (a tool schema's type, a shared type, a `$defs` entry, or an object or enum below a property or `items`; names as the generated `types` module spells them)"
            ),
        };
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            rules::CODEGEN,
            "replacement-unused",
            &Pointer::root(),
            why,
        ));
    }
    for format in settings.own_types().formats().keys() {
        let what = format!("format `{format}`");
        if !own.checks.iter().any(|c| c.stands_for == what) {
            diagnostics.push(Diagnostic::new(
                Severity::Warning,
                rules::CODEGEN,
                "format-type-unused",
                &Pointer::root(),
                format!(
                    "the type of `format: {format:?}` is not used: no schema of this module has that format (on a schema of one instance type, without `enum`, `const` or subschemas)"
                ),
            ));
        }
    }
}
