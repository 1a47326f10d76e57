//! Generator settings, shared by every front end (the `mcpdesc generate` command, the
//! `build.rs` helper and the `mcpdesc!` macro).
//!
//! ```
//! use mcpdesc_codegen::settings::{Settings, TypePatch};
//! use mcpdesc_codegen::ProtocolVersion;
//!
//! let settings = Settings::new()
//!     .derive("PartialEq")
//!     .patch("AnalyzeGameOutput", TypePatch::new().rename("Analysis").derive("Default"))
//!     .protocol_version(ProtocolVersion::V2025_11_25)
//!     .tests(false);
//! assert_eq!(settings.extra_derives(), ["PartialEq"]);
//! ```

use std::collections::BTreeMap;

use crate::protocol::ProtocolVersion;

/// The default path of the runtime crate in generated code.
pub const DEFAULT_RUNTIME_CRATE: &str = "::mcpdesc";

/// How the generator turns a description into Rust code.
///
/// Every field has a documented default ([`Settings::default`]); methods consume and
/// return the settings so they chain. Settings are plain data: two equal settings applied
/// to the same description produce byte-identical code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    extra_derives: Vec<String>,
    patches: BTreeMap<String, TypePatch>,
    runtime_crate: String,
    protocol_version: Option<ProtocolVersion>,
    tests: bool,
    format_types: bool,
}

impl Default for Settings {
    /// No extra derives, no patches, runtime crate `::mcpdesc`, no protocol version
    /// (every tool, with its own scope), example tests on, format-specific types off.
    fn default() -> Self {
        Settings {
            extra_derives: Vec::new(),
            patches: BTreeMap::new(),
            runtime_crate: DEFAULT_RUNTIME_CRATE.to_owned(),
            protocol_version: None,
            tests: true,
            format_types: false,
        }
    }
}

impl Settings {
    /// The default settings.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a derive to every generated type, such as `"PartialEq"` or
    /// `"::schemars::JsonSchema"`. The generated types always derive `Clone`, `Debug`,
    /// `Deserialize` and `Serialize`; a derive given twice is kept once.
    pub fn derive(mut self, derive: impl Into<String>) -> Self {
        let derive = derive.into();
        if !self.extra_derives.contains(&derive) {
            self.extra_derives.push(derive);
        }
        self
    }

    /// Changes one generated type, named by its generated name (`AnalyzeGameInput`):
    /// rename it or add derives to it alone. A patch for a name that is not generated is
    /// ignored. The last patch given for a name wins.
    pub fn patch(mut self, type_name: impl Into<String>, patch: TypePatch) -> Self {
        self.patches.insert(type_name.into(), patch);
        self
    }

    /// The path through which generated code reaches the runtime crate, `::mcpdesc` by
    /// default. Set it when the crate is renamed or re-exported (`::my_app::mcpdesc`).
    pub fn runtime_crate(mut self, path: impl Into<String>) -> Self {
        self.runtime_crate = path.into();
        self
    }

    /// Generates the Effective Protocol View of one protocol version: tools whose scope
    /// excludes it are left out, and of two protocol-scoped variants of one tool the one
    /// for this version is used. Without it every tool is generated, and a description
    /// with protocol variants is refused (the generator never picks one silently).
    pub fn protocol_version(mut self, version: ProtocolVersion) -> Self {
        self.protocol_version = Some(version);
        self
    }

    /// Whether unit tests are generated from the Tool Examples (on by default).
    pub fn tests(mut self, on: bool) -> Self {
        self.tests = on;
        self
    }

    /// Whether `format` and `pattern` produce format-specific types (off by default).
    ///
    /// Off, every string is a `String`, so the generated code needs neither `chrono`,
    /// `uuid` nor `regress`; formats and patterns are still checked at run time against
    /// the original schema. On, `"format": "date-time"` becomes a `chrono` type,
    /// `"format": "uuid"` a `uuid::Uuid`, and a `pattern` a string newtype that checks it
    /// with `regress`: the user's crate must then depend on those crates.
    pub fn format_types(mut self, on: bool) -> Self {
        self.format_types = on;
        self
    }

    /// The extra derives, in the order given.
    pub fn extra_derives(&self) -> &[String] {
        &self.extra_derives
    }

    /// The type patches, by generated type name.
    pub fn patches(&self) -> &BTreeMap<String, TypePatch> {
        &self.patches
    }

    /// The runtime crate path.
    pub fn runtime_crate_path(&self) -> &str {
        &self.runtime_crate
    }

    /// The protocol version of the Effective Protocol View, if any.
    pub fn selected_protocol_version(&self) -> Option<ProtocolVersion> {
        self.protocol_version
    }

    /// Whether example tests are generated.
    pub fn emits_tests(&self) -> bool {
        self.tests
    }

    /// Whether format-specific types are generated.
    pub fn uses_format_types(&self) -> bool {
        self.format_types
    }
}

/// A change to one generated type; see [`Settings::patch`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypePatch {
    rename: Option<String>,
    derives: Vec<String>,
}

impl TypePatch {
    /// A patch that changes nothing yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Gives the type another name. Code that names the type (aliases, later the
    /// handler traits) uses the new name.
    pub fn rename(mut self, name: impl Into<String>) -> Self {
        self.rename = Some(name.into());
        self
    }

    /// Adds a derive to this type only.
    pub fn derive(mut self, derive: impl Into<String>) -> Self {
        let derive = derive.into();
        if !self.derives.contains(&derive) {
            self.derives.push(derive);
        }
        self
    }

    /// The new name, if any.
    pub fn new_name(&self) -> Option<&str> {
        self.rename.as_deref()
    }

    /// The derives added to this type.
    pub fn derives(&self) -> &[String] {
        &self.derives
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_documented_values() {
        let s = Settings::default();
        assert!(s.extra_derives().is_empty());
        assert!(s.patches().is_empty());
        assert_eq!(s.runtime_crate_path(), "::mcpdesc");
        assert_eq!(s.selected_protocol_version(), None);
        assert!(s.emits_tests());
        assert!(!s.uses_format_types());
    }

    #[test]
    fn derives_are_deduplicated_in_order() {
        let s = Settings::new()
            .derive("PartialEq")
            .derive("Eq")
            .derive("PartialEq");
        assert_eq!(s.extra_derives(), ["PartialEq", "Eq"]);
    }
}
