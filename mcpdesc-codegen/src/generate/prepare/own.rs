//! The user's own types in typify's copy: a schema whose `format` the settings map to a
//! Rust type ([`crate::settings::Settings::format_type`]) becomes exactly `{type, format}`, which
//! typify's conversion table turns into that type; an `x-rust-type` extension (typify's
//! meaning) is kept when its crate is declared with a version that meets it
//! ([`crate::settings::Settings::crate_version`]), and warned about otherwise.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::own_types::CrateVersion;

/// The JSON Schema keyword of the extension.
pub const RUST_TYPE: &str = "x-rust-type";

/// The keywords a schema with a mapped `format` may have besides `type` and `format`:
/// they only restrict values, and the original schema still checks them at run time.
const FORMAT_COMPANIONS: [&str; 9] = [
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "default",
];

/// The instance type of a schema a format type can stand for: one JSON type other than
/// object and array, possibly with `null` (`["string", "null"]` stays nullable: typify
/// makes it an `Option`).
fn format_instance_type(prepared: &Map<String, Value>) -> Option<&str> {
    let scalar = |t: &str| !matches!(t, "object" | "array" | "null");
    match prepared.get("type")? {
        Value::String(t) if scalar(t) => Some(t.as_str()),
        Value::Array(list) if list.len() == 2 && list.contains(&Value::from("null")) => {
            list.iter().filter_map(Value::as_str).find(|t| scalar(t))
        }
        _ => None,
    }
}

/// The `format` of `original` when the settings map it and the prepared schema `out`
/// can become the mapped type: `(format, instance type)`.
pub(super) fn mapped_format<'a>(
    original: &'a Map<String, Value>,
    out: &Map<String, Value>,
    formats: &BTreeMap<String, String>,
) -> Option<(&'a str, String)> {
    let format = original.get("format").and_then(Value::as_str)?;
    formats.get(format)?;
    if original.contains_key("$ref") {
        return None;
    }
    let kind = format_instance_type(out)?.to_owned();
    let only_restrictions = out
        .keys()
        .all(|k| k == "type" || k == "format" || FORMAT_COMPANIONS.contains(&k.as_str()));
    only_restrictions.then_some((format, kind))
}

/// What the settings make of one `x-rust-type`.
pub(super) enum Verdict {
    /// Honoured: the extension as typify reads it (parameters still to prepare) and
    /// the Rust path it names (`::geo_types::Point`, a declared rename applied).
    Honoured {
        /// The cleaned extension object.
        extension: Map<String, Value>,
        /// The parameters' schemas (prepared by the caller).
        parameters: Vec<Value>,
        /// `::crate::path`.
        path: String,
    },
    /// Not honoured; the warning to give, if any (none for a crate declared `"!"`).
    Ignored(Option<String>),
}

/// Decides whether the `x-rust-type` value `value` is honoured with the declared
/// `crates` (typify's rules: the path starts with the crate's name, `-` read as `_`;
/// the declared version meets the extension's requirement).
pub(super) fn evaluate(value: &Value, crates: &BTreeMap<String, String>) -> Verdict {
    let malformed = |why: &str| {
        Verdict::Ignored(Some(format!(
            "`x-rust-type` is not typify's extension object `{{\"crate\", \"version\", \"path\", \"parameters\"}}` ({why}); the type is generated from the schema"
        )))
    };
    let Some(map) = value.as_object() else {
        return malformed("not an object");
    };
    let text = |key: &str| map.get(key).and_then(Value::as_str);
    let (Some(krate), Some(requirement), Some(path)) =
        (text("crate"), text("version"), text("path"))
    else {
        return malformed("`crate`, `version` and `path` must be strings");
    };
    let parameters = match map.get("parameters") {
        None => Vec::new(),
        Some(Value::Array(list)) => list.clone(),
        Some(_) => return malformed("`parameters` must be an array of schemas"),
    };
    let Ok(req) = semver::VersionReq::parse(requirement) else {
        return malformed(&format!("{requirement:?} is not a version requirement"));
    };
    let ident = krate.replace('-', "_");
    let Some(rest) = path.strip_prefix(&ident).and_then(|r| r.strip_prefix("::")) else {
        return malformed(&format!(
            "the path {path:?} does not start with the crate `{ident}`"
        ));
    };
    let declared = crates.get(krate).and_then(|v| CrateVersion::parse(v).ok());
    let version = match declared {
        None => {
            return Verdict::Ignored(Some(format!(
                "`x-rust-type` names `{path}` of the crate `{krate}` ({requirement}), which is not declared to the generator, so the type is generated from the schema; declare the crate to use `{path}` (`Builder::crate_version(\"{krate}\", \"<version>\")`, `crates = {{ \"{krate}\" = \"<version>\" }}` in `mcpdesc!`, `--crate {krate}=<version>`)"
            )))
        }
        Some(CrateVersion::Never) => return Verdict::Ignored(None),
        Some(CrateVersion::Any) => None,
        Some(CrateVersion::Version(v)) => Some(v),
    };
    if let Some(v) = version.filter(|v| !req.matches(v)) {
        return Verdict::Ignored(Some(format!(
            "`x-rust-type` asks for `{path}` of the crate `{krate}` {requirement}, which the declared version {v} does not meet, so the type is generated from the schema"
        )));
    }
    let full = format!("::{ident}::{rest}");
    if syn::parse_str::<syn::TypePath>(&full).is_err() {
        return malformed(&format!("{path:?} is not a Rust path"));
    }
    let mut extension = Map::new();
    for key in ["crate", "version", "path"] {
        if let Some(v) = map.get(key) {
            extension.insert(key.to_owned(), v.clone());
        }
    }
    Verdict::Honoured {
        extension,
        parameters,
        path: full,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn crates(list: &[(&str, &str)]) -> BTreeMap<String, String> {
        list.iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn honoured_only_when_declared_with_a_matching_version() {
        let ext = json!({"crate": "geo-types", "version": "^0.7", "path": "geo_types::Point"});
        let honoured = evaluate(&ext, &crates(&[("geo-types", "0.7.13")]));
        assert!(
            matches!(honoured, Verdict::Honoured { ref path, .. } if path == "::geo_types::Point")
        );
        assert!(matches!(
            evaluate(&ext, &crates(&[("geo-types", "*")])),
            Verdict::Honoured { .. }
        ));
        let Verdict::Ignored(Some(why)) = evaluate(&ext, &crates(&[])) else {
            panic!("undeclared crates are warned about");
        };
        assert!(why.contains("not declared"), "{why}");
        let Verdict::Ignored(Some(why)) = evaluate(&ext, &crates(&[("geo-types", "0.6.0")])) else {
            panic!("a version that does not match is warned about");
        };
        assert!(why.contains("does not meet"), "{why}");
        assert!(matches!(
            evaluate(&ext, &crates(&[("geo-types", "!")])),
            Verdict::Ignored(None)
        ));
        let wrong = json!({"crate": "geo", "version": "1", "path": "other::Point"});
        assert!(matches!(
            evaluate(&wrong, &crates(&[("geo", "*")])),
            Verdict::Ignored(Some(_))
        ));
    }

    #[test]
    fn formats_apply_to_scalars_with_restrictions_only() {
        let formats = crates(&[("uuid", "::uuid::Uuid")]);
        let original = json!({"type": "string", "format": "uuid", "minLength": 36});
        let out = json!({"type": "string", "minLength": 36});
        assert_eq!(
            mapped_format(
                original.as_object().unwrap(),
                out.as_object().unwrap(),
                &formats
            ),
            Some(("uuid", "string".to_owned()))
        );
        let nullable = json!({"type": ["string", "null"]});
        assert!(mapped_format(
            original.as_object().unwrap(),
            nullable.as_object().unwrap(),
            &formats
        )
        .is_some());
        let with_enum = json!({"type": "string", "enum": ["a"]});
        assert!(mapped_format(
            original.as_object().unwrap(),
            with_enum.as_object().unwrap(),
            &formats
        )
        .is_none());
        let untyped = json!({});
        assert!(mapped_format(
            original.as_object().unwrap(),
            untyped.as_object().unwrap(),
            &formats
        )
        .is_none());
    }
}
