//! The user's own types in generated code: which generated types, formats and
//! `x-rust-type` crates the settings map to Rust paths of the user's crate or its
//! dependencies (see `Settings::replace_type`, `Settings::format_type` and
//! `Settings::crate_version`, which hold an [`OwnTypes`]).
//!
//! ```
//! use mcpdesc_codegen::own_types::{OwnTypes, ReplaceKey};
//!
//! let own = OwnTypes::default()
//!     .replace("#/components/schemas/Issue", "crate::model::Issue")
//!     .format("uuid", "::uuid::Uuid")
//!     .crate_version("geo-types", "0.7.13");
//! assert!(own.check().is_ok());
//! assert_eq!(
//!     ReplaceKey::parse("#/components/schemas/Issue"),
//!     Ok(ReplaceKey::Component("Issue".to_owned()))
//! );
//! ```

use std::collections::BTreeMap;

/// The replacements, format types and declared crates of one generation; part of
/// `Settings`. Plain data, ordered, so equal settings give equal
/// code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnTypes {
    replacements: BTreeMap<String, String>,
    formats: BTreeMap<String, String>,
    crates: BTreeMap<String, String>,
}

/// What a replacement names: a generated type, or a component schema.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum ReplaceKey {
    /// A generated type name (`Issue`, `ListIssuesOutputItem`), as the generated code
    /// spells it before any patch renames it.
    Type(String),
    /// A component schema, `#/components/schemas/<name>`: whatever type the generator
    /// gives it (its own name when shared, else the tool's `{Tool}Input`/`{Tool}Output`).
    Component(String),
}

impl ReplaceKey {
    /// Reads a replacement key: a Rust identifier, or `#/components/schemas/<name>`.
    ///
    /// ```
    /// use mcpdesc_codegen::own_types::ReplaceKey;
    /// assert_eq!(ReplaceKey::parse("Issue"), Ok(ReplaceKey::Type("Issue".into())));
    /// assert!(ReplaceKey::parse("crate::Issue").is_err());
    /// assert!(ReplaceKey::parse("#/components/toolExamples/x").is_err());
    /// ```
    pub fn parse(key: &str) -> Result<ReplaceKey, String> {
        if let Some(rest) = key.strip_prefix('#') {
            return match rest.strip_prefix("/components/schemas/") {
                Some(name) if !name.is_empty() && !name.contains('/') => {
                    Ok(ReplaceKey::Component(name.to_owned()))
                }
                _ => Err(format!(
                    "replacement key {key:?} is not a component schema: write `#/components/schemas/<name>`, or a generated type name"
                )),
            };
        }
        match syn::parse_str::<syn::Ident>(key) {
            Ok(_) => Ok(ReplaceKey::Type(key.to_owned())),
            Err(_) => Err(format!(
                "replacement key {key:?} is neither a generated type name (a Rust identifier) nor `#/components/schemas/<name>`"
            )),
        }
    }
}

impl std::fmt::Display for ReplaceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplaceKey::Type(name) => f.write_str(name),
            ReplaceKey::Component(name) => write!(f, "#/components/schemas/{name}"),
        }
    }
}

impl OwnTypes {
    /// Replaces the generated type (or component schema) `key` with the Rust type
    /// `path`; the last replacement of a key wins.
    pub fn replace(mut self, key: impl Into<String>, path: impl Into<String>) -> Self {
        self.replacements.insert(key.into(), path.into());
        self
    }

    /// Maps the JSON Schema `format` to the Rust type `path`; the last mapping of a
    /// format wins.
    pub fn format(mut self, format: impl Into<String>, path: impl Into<String>) -> Self {
        self.formats.insert(format.into(), path.into());
        self
    }

    /// Declares the crate `name` at `version` (`"1.2.3"`, `"*"` for any version,
    /// `"!"` for never) for `x-rust-type`.
    pub fn crate_version(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.crates.insert(name.into(), version.into());
        self
    }

    /// The replacements: key (as given) → Rust type.
    pub fn replacements(&self) -> &BTreeMap<String, String> {
        &self.replacements
    }

    /// The format types: format → Rust type.
    pub fn formats(&self) -> &BTreeMap<String, String> {
        &self.formats
    }

    /// The declared crates: name → version.
    pub fn crates(&self) -> &BTreeMap<String, String> {
        &self.crates
    }

    /// Whether nothing is replaced, mapped or declared.
    pub fn is_empty(&self) -> bool {
        self.replacements.is_empty() && self.formats.is_empty() && self.crates.is_empty()
    }

    /// Checks every key, path and version; the first problem, in words.
    pub fn check(&self) -> Result<(), String> {
        for (key, path) in &self.replacements {
            ReplaceKey::parse(key)?;
            check_path(path).map_err(|e| format!("replacement of {key}: {e}"))?;
        }
        for (format, path) in &self.formats {
            if format.is_empty() {
                return Err("a format type needs a format name (such as `uuid`)".to_owned());
            }
            check_path(path).map_err(|e| format!("type of format `{format}`: {e}"))?;
        }
        for (name, version) in &self.crates {
            if name.is_empty()
                || !name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            {
                return Err(format!("{name:?} is not a crate name"));
            }
            CrateVersion::parse(version).map_err(|e| format!("version of crate `{name}`: {e}"))?;
        }
        Ok(())
    }
}

/// A declared crate's version, as `x-rust-type` matches it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CrateVersion {
    /// This version exactly (an `x-rust-type` whose requirement it meets is honoured).
    Version(semver::Version),
    /// Any version (`"*"`).
    Any,
    /// Never use this crate's types (`"!"`): the schema's type is generated, silently.
    Never,
}

impl CrateVersion {
    /// `"1.2.3"`, `"*"` or `"!"`.
    ///
    /// ```
    /// use mcpdesc_codegen::own_types::CrateVersion;
    /// assert_eq!(CrateVersion::parse("*"), Ok(CrateVersion::Any));
    /// assert!(CrateVersion::parse("1.2").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<CrateVersion, String> {
        match text {
            "*" => Ok(CrateVersion::Any),
            "!" => Ok(CrateVersion::Never),
            _ => semver::Version::parse(text)
                .map(CrateVersion::Version)
                .map_err(|e| {
                    format!("{text:?} is not a version (`1.2.3`), `*` (any) or `!` (never): {e}")
                }),
        }
    }
}

/// Checks a Rust type given for a replacement: a path (generic arguments allowed) that
/// means the same in every module of the generated file, so not `self::` or `super::`.
///
/// ```
/// use mcpdesc_codegen::own_types::check_path;
/// assert!(check_path("crate::model::Issue").is_ok());
/// assert!(check_path("::chrono::DateTime<::chrono::Utc>").is_ok());
/// assert!(check_path("super::Issue").is_err());
/// assert!(check_path("(u8, u8)").is_err());
/// ```
pub fn check_path(path: &str) -> Result<(), String> {
    let parsed = syn::parse_str::<syn::TypePath>(path)
        .map_err(|e| format!("{path:?} is not a Rust type path: {e}"))?;
    if parsed.qself.is_some() {
        return Err(format!(
            "{path:?}: a qualified path (`<T as Trait>::X`) cannot be used"
        ));
    }
    let first = parsed
        .path
        .segments
        .first()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    if parsed.path.leading_colon.is_none() && (first == "self" || first == "super") {
        return Err(format!(
            "{path:?} is relative to a module; the generated code names it from several modules, so write it from the crate root (`crate::...`) or a dependency (`::name::...`)"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_name_the_bad_part() {
        let bad = OwnTypes::default().replace("Issue", "super::Issue");
        assert!(bad.check().unwrap_err().contains("replacement of Issue"));
        let bad = OwnTypes::default().format("uuid", "not a path");
        assert!(bad.check().unwrap_err().contains("format `uuid`"));
        let bad = OwnTypes::default().crate_version("geo", "latest");
        assert!(bad.check().unwrap_err().contains("crate `geo`"));
        let bad = OwnTypes::default().replace("a::b", "crate::X");
        assert!(bad.check().unwrap_err().contains("neither"));
        assert!(OwnTypes::default()
            .replace("Issue", "crate::model::Issue")
            .format("date-time", "::chrono::DateTime<::chrono::Utc>")
            .crate_version("my-types", "*")
            .check()
            .is_ok());
    }
}
