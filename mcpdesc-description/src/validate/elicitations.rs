//! Elicitation Declarations (digest §6.3, §6.4; spec §12) on Tools, Resources, Resource
//! Templates and Prompts.
//!
//! A declaration's scope is a non-empty subset of its primitive's scope. Names are
//! unique within a primitive. Form mode exists from 2025-06-18, URL mode from
//! 2025-11-25. The restricted form schema (`requestedSchema`) is structural in shape;
//! here come its per-version vocabulary and its cross-field rules, in
//! [`check_form_schema`], which Tool interaction steps reuse.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::cx::{display_path, Cx};
use super::scopes::primitives;
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// Runs the Elicitation Declaration checks for every primitive.
pub fn check(cx: &mut Cx<'_>) {
    for (_, primitive) in primitives(cx) {
        let Some(list) = primitive
            .value
            .get("elicitations")
            .and_then(Value::as_array)
        else {
            continue;
        };
        let at = primitive.at.key("elicitations");
        let mut names: HashMap<&str, usize> = HashMap::new();
        for (index, declaration) in list.iter().enumerate() {
            let decl_at = at.index(index);
            if let Some(name) = declaration.get("name").and_then(Value::as_str) {
                check_unique_name(cx, &decl_at, name, index, &mut names);
            }
            let scope = cx.scope_of(declaration, &decl_at, primitive.scope);
            check_declaration(cx, &decl_at, declaration, scope);
        }
    }
}

/// Names are unique within one primitive.
fn check_unique_name<'d>(
    cx: &mut Cx<'_>,
    at: &Pointer,
    name: &'d str,
    index: usize,
    names: &mut HashMap<&'d str, usize>,
) {
    if let Some(first) = names.get(name) {
        let name_at = at.key("name");
        cx.error(
            rules::ELICITATION_DECLARATIONS,
            "duplicate-elicitation-name",
            &name_at,
            format!(
                "{} repeats the Elicitation Declaration name {name:?} of elicitations[{first}] in the same primitive",
                display_path(&name_at)
            ),
        );
    } else {
        names.insert(name, index);
    }
}

/// Checks one declaration whose effective scope is `scope`.
fn check_declaration(cx: &mut Cx<'_>, at: &Pointer, declaration: &Value, scope: VersionSet) {
    match declaration.get("mode").and_then(Value::as_str) {
        // Decision: the versions before 2025-06-18 have no elicitation at all, so a
        // declaration applying to them is an error (the reference validator skipped
        // those versions as "legacy, validated incompletely").
        Some("form") => {
            check_mode_versions(cx, at, "form", scope, ProtocolVersion::V2025_06_18);
            if let Some(schema) = declaration.get("requestedSchema") {
                check_form_schema(cx, &at.key("requestedSchema"), schema, scope);
            }
        }
        Some("url") => check_mode_versions(cx, at, "url", scope, ProtocolVersion::V2025_11_25),
        _ => {}
    }
}

/// Reports a mode used in versions of `scope` before `since`.
fn check_mode_versions(
    cx: &mut Cx<'_>,
    at: &Pointer,
    mode: &str,
    scope: VersionSet,
    since: ProtocolVersion,
) {
    let missing = scope.minus(VersionSet::since(since));
    if missing.is_empty() {
        return;
    }
    let mode_at = at.key("mode");
    cx.error(
        rules::ELICITATION_PROTOCOL_VERSION,
        "elicitation-mode-not-supported-by-version",
        &mode_at,
        format!(
            "{} is {mode:?}, which {missing} does not define; {mode} elicitation requires MCP {since} or later, so narrow protocolVersions",
            display_path(&mode_at)
        ),
    );
}

/// Checks a restricted form schema (`requestedSchema`) at `at` for every version of
/// `scope`: the vocabulary each version allows (2025-06-18 has no `$schema`, no defaults
/// except on booleans, no titled `oneOf` enums and no multi-select arrays) and the
/// cross-field rules (required names declared, `enumNames` as long as `enum`, defaults
/// among the declared values, each minimum not above its maximum).
///
/// Used for Elicitation Declarations and for the form requests of Tool interaction
/// steps. The shape itself (closed objects, property types) is structural.
pub(crate) fn check_form_schema(cx: &mut Cx<'_>, at: &Pointer, schema: &Value, scope: VersionSet) {
    let Some(root) = schema.as_object() else {
        return;
    };
    let restricted = scope.intersect(VersionSet::only(ProtocolVersion::V2025_06_18));
    if !restricted.is_empty() && root.contains_key("$schema") {
        vocabulary_error(cx, &at.key("$schema"), "`$schema`", restricted);
    }
    let properties = root.get("properties").and_then(Value::as_object);
    check_required_names(cx, at, root, properties);
    for (name, property) in properties.into_iter().flatten() {
        let Some(property) = property.as_object() else {
            continue;
        };
        let property_at = at.key("properties").key(name);
        if !restricted.is_empty() {
            check_restricted_property(cx, &property_at, property, restricted);
        }
        check_enum_names(cx, &property_at, property);
        check_default(cx, &property_at, property);
        check_ranges(cx, &property_at, property);
    }
}

/// Reports a form schema construct that `versions` (2025-06-18) do not define.
fn vocabulary_error(cx: &mut Cx<'_>, at: &Pointer, what: &str, versions: VersionSet) {
    cx.error(
        rules::ELICITATION_PROTOCOL_VERSION,
        "elicitation-form-schema-version-mismatch",
        at,
        format!(
            "{} uses {what}, which the form schema of {versions} does not define; it requires MCP 2025-11-25 or later",
            display_path(at)
        ),
    );
}

/// The 2025-06-18 vocabulary: no titled single-select, no multi-select, and defaults
/// only on booleans.
fn check_restricted_property(
    cx: &mut Cx<'_>,
    at: &Pointer,
    property: &Map<String, Value>,
    versions: VersionSet,
) {
    let kind = property.get("type").and_then(Value::as_str);
    if kind == Some("array") {
        vocabulary_error(cx, at, "a multi-select array", versions);
    } else if property.contains_key("oneOf") {
        vocabulary_error(cx, at, "a titled single-select (`oneOf`)", versions);
    }
    if property.contains_key("default") && kind != Some("boolean") {
        vocabulary_error(
            cx,
            &at.key("default"),
            "a default on a non-boolean property",
            versions,
        );
    }
}

/// Every `required` name must be a declared property.
fn check_required_names(
    cx: &mut Cx<'_>,
    at: &Pointer,
    root: &Map<String, Value>,
    properties: Option<&Map<String, Value>>,
) {
    let Some(required) = root.get("required").and_then(Value::as_array) else {
        return;
    };
    for (index, name) in required.iter().enumerate() {
        let Some(name) = name.as_str() else { continue };
        if !properties.is_some_and(|p| p.contains_key(name)) {
            let name_at = at.key("required").index(index);
            cx.error(
                rules::ELICITATION_DECLARATIONS,
                "elicitation-form-required-property-unknown",
                &name_at,
                format!(
                    "{} names {name:?}, which the form schema's properties do not declare",
                    display_path(&name_at)
                ),
            );
        }
    }
}

/// A legacy enum's `enumNames` gives one display name per `enum` value.
fn check_enum_names(cx: &mut Cx<'_>, at: &Pointer, property: &Map<String, Value>) {
    let values = property.get("enum").and_then(Value::as_array);
    let names = property.get("enumNames").and_then(Value::as_array);
    if let (Some(values), Some(names)) = (values, names) {
        if values.len() != names.len() {
            let names_at = at.key("enumNames");
            cx.error(
                rules::ELICITATION_DECLARATIONS,
                "elicitation-form-enum-names-mismatch",
                &names_at,
                format!(
                    "{} has {} display names for {} enum values; give exactly one per value",
                    display_path(&names_at),
                    names.len(),
                    values.len()
                ),
            );
        }
    }
}

/// A default must be one of the declared values (single-select), or only contain
/// declared values (multi-select).
fn check_default(cx: &mut Cx<'_>, at: &Pointer, property: &Map<String, Value>) {
    let Some(default) = property.get("default") else {
        return;
    };
    let outside = if property.get("type").and_then(Value::as_str) == Some("array") {
        let items = property.get("items");
        let allowed = items.and_then(|i| allowed_values(i.as_object()?));
        match (allowed, default.as_array()) {
            (Some(allowed), Some(chosen)) => chosen.iter().any(|v| !allowed.contains(&v)),
            _ => false,
        }
    } else {
        allowed_values(property).is_some_and(|allowed| !allowed.contains(&default))
    };
    if outside {
        let default_at = at.key("default");
        cx.error(
            rules::ELICITATION_DECLARATIONS,
            "elicitation-form-default-outside-enum",
            &default_at,
            format!(
                "{} is not among the declared enum values",
                display_path(&default_at)
            ),
        );
    }
}

/// The values an enum-like schema allows: `enum`, or the `const`s of `oneOf` / `anyOf`
/// options. `None` when the schema is not an enum.
fn allowed_values(schema: &Map<String, Value>) -> Option<Vec<&Value>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.iter().collect());
    }
    let options = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)?;
    Some(options.iter().filter_map(|o| o.get("const")).collect())
}

/// `minLength` ≤ `maxLength`, `minimum` ≤ `maximum`, `minItems` ≤ `maxItems`.
fn check_ranges(cx: &mut Cx<'_>, at: &Pointer, property: &Map<String, Value>) {
    for (min, max) in [
        ("minLength", "maxLength"),
        ("minimum", "maximum"),
        ("minItems", "maxItems"),
    ] {
        let low = property.get(min).and_then(Value::as_f64);
        let high = property.get(max).and_then(Value::as_f64);
        if let (Some(low), Some(high)) = (low, high) {
            if low > high {
                let min_at = at.key(min);
                cx.error(
                    rules::ELICITATION_DECLARATIONS,
                    "elicitation-form-invalid-range",
                    &min_at,
                    format!("{} ({low}) exceeds {max} ({high})", display_path(&min_at)),
                );
            }
        }
    }
}

#[cfg(test)]
#[path = "tests/elicitations.rs"]
mod tests;
