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

use mcpdesc_description::protocol::ProtocolVersion;

use crate::own_types::OwnTypes;

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
    non_zero: bool,
    builders: bool,
    side: Side,
    test_server: Option<String>,
    own_types: OwnTypes,
}

/// Which side of the protocol the generated module serves: the server (handler
/// traits, `Server`, `router`, the `ExampleServer` mock), the client (the typed
/// `Client`), or both. The types, the metadata modules and the example data are
/// generated for either side.
///
/// ```
/// use mcpdesc_codegen::settings::{Settings, Side};
///
/// let client_only = Settings::new().side(Side::Client);
/// assert!(client_only.generated_side().client() && !client_only.generated_side().server());
/// assert_eq!("client".parse::<Side>(), Ok(Side::Client));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Side {
    /// Server and client; the typed `Client` needs `mcpdesc`'s `client` feature.
    Both,
    /// The server side only: no `Client` (the default).
    #[default]
    Server,
    /// The client side only: no handler traits, so a crate that only calls a server
    /// implements nothing.
    Client,
}

impl Side {
    /// Whether the server side (traits, `Server`, `router`, `ExampleServer`) is
    /// generated.
    pub fn server(self) -> bool {
        matches!(self, Side::Both | Side::Server)
    }

    /// Whether the typed `Client` is generated.
    pub fn client(self) -> bool {
        matches!(self, Side::Both | Side::Client)
    }

    /// `"both"`, `"server"` or `"client"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Both => "both",
            Side::Server => "server",
            Side::Client => "client",
        }
    }
}

impl std::str::FromStr for Side {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "both" => Ok(Side::Both),
            "server" => Ok(Side::Server),
            "client" => Ok(Side::Client),
            other => Err(format!(
                "`{other}` is not a side: use `server`, `client` or `both`"
            )),
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Default for Settings {
    /// No extra derives, no patches, runtime crate `::mcpdesc`, no protocol version
    /// (every tool, with its own scope), example tests on, format-specific types off,
    /// the server side only (the typed `Client` needs `mcpdesc`'s `client` feature: ask
    /// for it with [`Side::Both`] or [`Side::Client`]), no test server (the example tests check the
    /// examples against the generated types and the mock only).
    fn default() -> Self {
        Settings {
            extra_derives: Vec::new(),
            patches: BTreeMap::new(),
            runtime_crate: DEFAULT_RUNTIME_CRATE.to_owned(),
            protocol_version: None,
            tests: true,
            format_types: false,
            non_zero: false,
            builders: true,
            side: Side::Server,
            test_server: None,
            own_types: OwnTypes::default(),
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

    /// Whether an integer input with a lower bound of 1 or more becomes a
    /// `std::num::NonZero*` type (typify's choice), which a caller must build with
    /// `NonZeroU64::new(x)`. Off (the default), it is a plain integer (`u64`, `i64`):
    /// the bound is still checked at run time against the original schema (the router
    /// validates every input; a client's call with a value below it is refused with
    /// -32602). Outputs never get `NonZero*` types.
    pub fn non_zero_integers(mut self, on: bool) -> Self {
        self.non_zero = on;
        self
    }

    /// Whether every generated struct gets a builder (typify's `builder` option, on by
    /// default): `Type::builder()` returns a `types::builder::Type` whose `Default`
    /// holds the schema's defaults, with one setter per field, and `Type::try_from`
    /// of it checks that every required field was set. So an input with many optional
    /// or defaulted arguments is written with the ones that matter:
    /// `AnalyzeGameInput::builder().pgn("1. e4").try_into()?`. Off, no `builder`
    /// module is generated (less code to compile).
    pub fn builders(mut self, on: bool) -> Self {
        self.builders = on;
        self
    }

    /// Whether structs get builders ([`Settings::builders`]).
    pub fn uses_builders(&self) -> bool {
        self.builders
    }

    /// Whether inputs bounded below by 1 or more get `NonZero*` types
    /// ([`Settings::non_zero_integers`]).
    pub fn uses_non_zero_integers(&self) -> bool {
        self.non_zero
    }

    /// Which side is generated: [`Side::Server`] by default (a server crate then needs
    /// no MCP client in `mcpdesc`), [`Side::Both`] with the typed `Client` too (it
    /// needs `mcpdesc`'s `client` feature), [`Side::Client`] without the handler traits, the router and the
    /// mock (the generated example tests are then the type checks of the Tool
    /// Examples only).
    pub fn side(mut self, side: Side) -> Self {
        self.side = side;
        self
    }

    /// The implementation the generated example tests run against: a Rust expression
    /// that builds a fresh server (a value implementing the generated `Server` trait),
    /// such as `"crate::Greeter::for_examples()"`, evaluated once per test inside the
    /// generated `#[cfg(test)]` module (`use super::*` is in scope there; a `crate::`
    /// path is the safe choice). The server it builds is the author's test fixture: in-memory
    /// state, no real side effects.
    ///
    /// With it, every example test also calls the implementation through the real
    /// router (argument validation, version projection, result shaping) and compares
    /// the answer with the example's result (`mcpdesc::implementation`): one test per
    /// Tool Example, Tool Interaction Example, Prompt, Resource and Resource Template
    /// Example and completion example. Text is compared exactly unless the example has
    /// `"x-mcpdesc-compare": "shape"`. Without it (the default) the tests check the
    /// examples against the generated types and the example mock only.
    ///
    /// The expression is parsed when the code is generated: one that is not a Rust
    /// expression is a `GenerateError::Settings` error, as
    /// is a test server for a client-only module (there is no router to call). It has
    /// no effect when tests are off ([`Settings::tests`]).
    ///
    /// ```
    /// use mcpdesc_codegen::Settings;
    /// let settings = Settings::new().test_server("crate::ChessServer::new()");
    /// assert_eq!(settings.test_server_expr(), Some("crate::ChessServer::new()"));
    /// ```
    pub fn test_server(mut self, expr: impl Into<String>) -> Self {
        self.test_server = Some(expr.into());
        self
    }

    /// Puts the Rust type `path` in place of a generated type everywhere it appears:
    /// inputs, outputs, nested types, the handler traits' signatures and the typed
    /// `Client`; the generated type is not emitted.
    ///
    /// `key` is a generated type name (`"Issue"`, `"SearchIssuesOutputItem"`: the name the
    /// generated code gives it, before a [`TypePatch`] renames it) or a component schema
    /// (`"#/components/schemas/Issue"`: whatever type the component has, and so every
    /// schema identical to it, see "one type per shape" in `docs/generated-code.md`).
    /// `path` is a Rust type path from the crate root or a dependency
    /// (`"crate::model::Issue"`, `"::my_types::Issue"`), never `self::`/`super::`: the
    /// generated file names it from several modules.
    ///
    /// The type must implement `serde::Serialize`, `serde::Deserialize`, `Clone` and
    /// `Debug` (the generated types that hold it derive them); without them the
    /// generated code fails to compile with an error that names the type and the
    /// description's JSON pointer. Arguments are still validated against the
    /// description's original schemas at run time, and the generated example tests
    /// deserialize every example into the user's type, so a type that cannot hold an
    /// example fails the test named after that example. A key no generated type has is
    /// a warning.
    ///
    /// ```
    /// use mcpdesc_codegen::Settings;
    /// let settings = Settings::new()
    ///     .replace_type("#/components/schemas/Issue", "crate::model::Issue")
    ///     .replace_type("Priority", "crate::model::Priority");
    /// assert_eq!(settings.own_types().replacements().len(), 2);
    /// ```
    pub fn replace_type(mut self, key: impl Into<String>, path: impl Into<String>) -> Self {
        self.own_types = self.own_types.replace(key, path);
        self
    }

    /// Makes every schema with `"format": format` the Rust type `path`
    /// (`format_type("uuid", "::uuid::Uuid")`, `format_type("date-time",
    /// "::chrono::DateTime<::chrono::Utc>")`; any format string, `date`, `uri`,
    /// `email`, `int64`, ...): a required property is a `T`, an optional one an
    /// `Option<T>`, a nullable one (`type: [T, "null"]`) an `Option<T>`.
    ///
    /// It applies to a schema of one instance type (possibly with `null`) whose other
    /// keywords only restrict strings or numbers (`minLength`, `pattern`, `maximum`,
    /// ...: those stay checked against the original schema at run time); a schema
    /// with an `enum`, `const` or subschemas keeps its generated type. A `default`
    /// beside such a format is not applied by the type (the field is an `Option<T>`).
    /// The type has the obligations of [`Settings::replace_type`]. A format no schema
    /// uses is a warning. Mapped formats win over [`Settings::format_types`].
    ///
    /// ```
    /// use mcpdesc_codegen::Settings;
    /// let settings = Settings::new().format_type("uuid", "::uuid::Uuid");
    /// assert_eq!(settings.own_types().formats()["uuid"], "::uuid::Uuid");
    /// ```
    pub fn format_type(mut self, format: impl Into<String>, path: impl Into<String>) -> Self {
        self.own_types = self.own_types.format(format, path);
        self
    }

    /// Declares a crate for the `x-rust-type` schema extension (typify's meaning:
    /// `{"crate": "...", "version": "<requirement>", "path": "crate::Type",
    /// "parameters": [...]}`): a schema whose extension names this crate, with a
    /// version requirement that `version` meets, is that Rust type instead of a
    /// generated one. `version` is the version the user's crate depends on
    /// (`"0.7.13"`), `"*"` for any, or `"!"` to never use the crate's types. An
    /// extension naming an undeclared crate (or a version the declared one does not
    /// meet) is a warning at its JSON pointer, and the type is generated from the
    /// schema.
    ///
    /// ```
    /// use mcpdesc_codegen::Settings;
    /// let settings = Settings::new().crate_version("geo-types", "0.7.13");
    /// assert_eq!(settings.own_types().crates()["geo-types"], "0.7.13");
    /// ```
    pub fn crate_version(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.own_types = self.own_types.crate_version(name, version);
        self
    }

    /// The replacements, format types and declared crates.
    pub fn own_types(&self) -> &OwnTypes {
        &self.own_types
    }

    /// The test server expression, if any ([`Settings::test_server`]).
    pub fn test_server_expr(&self) -> Option<&str> {
        self.test_server.as_deref()
    }

    /// The side that is generated.
    pub fn generated_side(&self) -> Side {
        self.side
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

/// Checks that a test server expression ([`Settings::test_server`]) is a Rust
/// expression; the reason when it is not (every front end reports it).
///
/// ```
/// use mcpdesc_codegen::settings::check_test_server;
/// assert!(check_test_server("crate::Greeter::for_examples()").is_ok());
/// assert_eq!(
///     check_test_server("crate::Greeter::new(").unwrap_err(),
///     "\"crate::Greeter::new(\" is not a Rust expression: unbalanced delimiters or an invalid token"
/// );
/// assert!(check_test_server("crate::Greeter::").is_err());
/// ```
pub fn check_test_server(expr: &str) -> Result<(), String> {
    // Lexing first: syn's own message for a string that does not lex names no cause.
    let tokens: proc_macro2::TokenStream = expr.parse().map_err(|_| {
        format!("{expr:?} is not a Rust expression: unbalanced delimiters or an invalid token")
    })?;
    syn::parse2::<syn::Expr>(tokens)
        .map(|_| ())
        .map_err(|e| format!("{expr:?} is not a Rust expression: {e}"))
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
        assert!(!s.uses_non_zero_integers() && s.uses_builders());
        assert_eq!(s.test_server_expr(), None);
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
