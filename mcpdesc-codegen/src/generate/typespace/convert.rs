//! Running typify: its settings from the generator's, one space converted and rendered,
//! a trial conversion of one schema, and the names a space defines. Shared by the
//! passes and the localization of failures.

use std::collections::BTreeMap;

use schemars::schema::{InstanceType, Schema, SchemaObject};
use serde_json::Value;
use typify::{CrateVers, TypeDetails, TypeSpace, TypeSpacePatch, TypeSpaceSettings};

use crate::generate::isolate;
use crate::generate::prepare::PreparedSchema;
use crate::settings::Settings;

/// The typify settings for the generator's settings; `derived` renames types typify
/// derives (from property names) whose names other generated items have; `replaced`
/// are the definitions the user's types replace (name → Rust type).
pub(super) fn typify_settings(
    settings: &Settings,
    derived: &BTreeMap<String, String>,
    replaced: &BTreeMap<String, String>,
) -> TypeSpaceSettings {
    let mut ts = TypeSpaceSettings::default();
    // A BTreeMap serializes in key order, so generated values serialize
    // deterministically.
    ts.with_map_type("::std::collections::BTreeMap");
    // Builders make schema defaults reachable without writing every field.
    ts.with_struct_builder(settings.uses_builders());
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
    for (name, path) in replaced {
        ts.with_replacement(name, path, std::iter::empty());
    }
    own_types(settings, &mut ts);
    ts
}

/// The format types (one conversion per instance type a formatted schema can have:
/// the preparation writes such a schema as exactly `{type, format}`) and the crates
/// declared for `x-rust-type` (the preparation keeps only the extensions they honour).
fn own_types(settings: &Settings, ts: &mut TypeSpaceSettings) {
    let own = settings.own_types();
    for (format, path) in own.formats() {
        for kind in [
            InstanceType::String,
            InstanceType::Integer,
            InstanceType::Number,
            InstanceType::Boolean,
        ] {
            let schema = SchemaObject {
                instance_type: Some(kind.into()),
                format: Some(format.clone()),
                ..SchemaObject::default()
            };
            ts.with_conversion(schema, path, std::iter::empty());
        }
    }
    for (name, version) in own.crates() {
        if let Some(version) = CrateVers::parse(version) {
            ts.with_crate(name, version, None);
        }
    }
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
