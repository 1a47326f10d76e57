//! The `build.rs` front end: [`Builder`] generates the code of a description into
//! `$OUT_DIR`, for `mcpdesc::include_generated!` to include.
//!
//! ```no_run
//! // build.rs
//! fn main() {
//!     mcpdesc_codegen::Builder::new("chess.mcpdesc.json") // relative to CARGO_MANIFEST_DIR
//!         .derive("PartialEq")
//!         .compile_or_exit();
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs
//! mcpdesc::include_generated!("chess"); // include!(concat!(env!("OUT_DIR"), "/chess.rs"))
//! ```

// The examples show whole build scripts, `fn main` included.
#![allow(clippy::needless_doctest_main)]

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::generate::{generate, GenerateError};
use crate::settings::{Settings, Side, TypePatch};
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::source::Limits;
use mcpdesc_description::Description;

/// Why [`Builder::compile`] produced no file.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// An environment variable Cargo sets for build scripts is missing (the builder was
    /// run outside a build script without [`Builder::out_dir`]).
    #[error("environment variable {0} is not set; run the builder from a build script, or set the directory explicitly")]
    Env(&'static str),
    /// The description could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The description's path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The description has errors (each was printed as a `cargo::error=` line).
    #[error("{} has {} error(s)", path.display(), errors.len())]
    Invalid {
        /// The description's path.
        path: PathBuf,
        /// The description's errors.
        errors: Vec<Diagnostic>,
    },
    /// The generator refused the settings or the description for another reason.
    #[error("cannot generate code from {}: {source}", path.display())]
    Generate {
        /// The description's path.
        path: PathBuf,
        /// The generator's error.
        source: GenerateError,
    },
    /// The generated file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The output path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Generates Rust code from an MCP Description in a build script.
///
/// Every option of [`Settings`] has a method of the same name. The generated file is
/// `$OUT_DIR/<name>.rs`, where `<name>` is the description's file name without
/// `.mcpdesc.json`, `.mcpdesc.yaml`, `.mcpdesc.yml` or, failing those, its extension
/// (`chess.mcpdesc.json` → `chess.rs`); [`Builder::file_name`] overrides it. The file is
/// written only when its content changed, so an unchanged description does not rebuild
/// the crate.
///
/// What the builder tells Cargo goes to standard output: `cargo::rerun-if-changed=` for
/// the description, `cargo::warning=` for each warning and `cargo::error=` for each
/// error, each with `file:line:column`, the rule and the message.
///
/// ```no_run
/// use mcpdesc_codegen::{Builder, ProtocolVersion, TypePatch};
///
/// // build.rs
/// fn main() {
///     Builder::new("chess.mcpdesc.json")
///         .derive("PartialEq")
///         .patch("AnalyzeGameOutput", TypePatch::new().rename("Analysis").derive("Default"))
///         .protocol_version(ProtocolVersion::V2025_11_25)
///         .runtime_crate("::mcpdesc")
///         .tests(false)
///         .format_types(false)
///         .compile_or_exit();
/// }
/// ```
///
/// [`Builder::compile`] returns the error instead of exiting:
///
/// ```no_run
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let path = mcpdesc_codegen::Builder::new("descriptions/chess.mcpdesc.yaml")
///     .file_name("chess_v2.rs")
///     .compile()?;
/// assert!(path.ends_with("chess_v2.rs"));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Builder {
    path: PathBuf,
    settings: Settings,
    out_dir: Option<PathBuf>,
    manifest_dir: Option<PathBuf>,
    file_name: Option<String>,
    limits: Limits,
}

impl Builder {
    /// A builder for the description at `path`; a relative path is relative to
    /// `CARGO_MANIFEST_DIR` (the directory of the crate's `Cargo.toml`).
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Builder {
            path: path.into(),
            settings: Settings::default(),
            out_dir: None,
            manifest_dir: None,
            file_name: None,
            limits: Limits::default(),
        }
    }

    /// Replaces all settings at once.
    pub fn settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// The settings so far.
    pub fn current_settings(&self) -> &Settings {
        &self.settings
    }

    /// Adds a derive to every generated type; see [`Settings::derive`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").derive("PartialEq").derive("Eq");
    /// ```
    pub fn derive(mut self, derive: impl Into<String>) -> Self {
        self.settings = self.settings.derive(derive);
        self
    }

    /// Renames one generated type or adds derives to it; see [`Settings::patch`].
    ///
    /// ```no_run
    /// use mcpdesc_codegen::{Builder, TypePatch};
    /// Builder::new("chess.mcpdesc.json")
    ///     .patch("AnalyzeGameOutput", TypePatch::new().rename("Analysis"));
    /// ```
    pub fn patch(mut self, type_name: impl Into<String>, patch: TypePatch) -> Self {
        self.settings = self.settings.patch(type_name, patch);
        self
    }

    /// The path of the runtime crate in generated code (`::mcpdesc` by default); see
    /// [`Settings::runtime_crate`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").runtime_crate("::my_app::mcpdesc");
    /// ```
    pub fn runtime_crate(mut self, path: impl Into<String>) -> Self {
        self.settings = self.settings.runtime_crate(path);
        self
    }

    /// Generates the view of one protocol version; see [`Settings::protocol_version`].
    ///
    /// ```no_run
    /// use mcpdesc_codegen::{Builder, ProtocolVersion};
    /// Builder::new("chess.mcpdesc.json").protocol_version(ProtocolVersion::V2025_11_25);
    /// ```
    pub fn protocol_version(mut self, version: ProtocolVersion) -> Self {
        self.settings = self.settings.protocol_version(version);
        self
    }

    /// Whether unit tests are generated from the Tool Examples (on by default); see
    /// [`Settings::tests`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").tests(false);
    /// ```
    pub fn tests(mut self, on: bool) -> Self {
        self.settings = self.settings.tests(on);
        self
    }

    /// The expression that builds a fresh server for the generated implementation
    /// tests: each example test then calls the implementation through the router and
    /// compares with the example; see [`Settings::test_server`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").test_server("crate::ChessServer::new()");
    /// ```
    pub fn test_server(mut self, expr: impl Into<String>) -> Self {
        self.settings = self.settings.test_server(expr);
        self
    }

    /// Which side is generated: server (the default), client or both; see
    /// [`Settings::side`]. The typed `Client` (sides client and both) needs
    /// `mcpdesc`'s `client` feature. A crate that only calls the server generates the client
    /// side and implements nothing.
    ///
    /// ```no_run
    /// use mcpdesc_codegen::{Builder, Side};
    /// Builder::new("chess.mcpdesc.json").side(Side::Client);
    /// ```
    pub fn side(mut self, side: Side) -> Self {
        self.settings = self.settings.side(side);
        self
    }

    /// Whether `format` and `pattern` produce format-specific types (off by default); see
    /// [`Settings::format_types`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").format_types(true);
    /// ```
    pub fn format_types(mut self, on: bool) -> Self {
        self.settings = self.settings.format_types(on);
        self
    }

    /// Whether every struct gets a builder holding the schema's defaults (on by
    /// default); see [`Settings::builders`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").builders(false);
    /// ```
    pub fn builders(mut self, on: bool) -> Self {
        self.settings = self.settings.builders(on);
        self
    }

    /// Whether integer inputs bounded below by 1 or more are `NonZero*` types (off by
    /// default: plain integers, the bound checked at run time); see
    /// [`Settings::non_zero_integers`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").non_zero_integers(true);
    /// ```
    pub fn non_zero_integers(mut self, on: bool) -> Self {
        self.settings = self.settings.non_zero_integers(on);
        self
    }

    /// Puts the Rust type `path` in place of a generated type (`"Issue"`) or of a
    /// component schema's type (`"#/components/schemas/Issue"`) everywhere it appears;
    /// see [`Settings::replace_type`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("issues.mcpdesc.json")
    ///     .replace_type("#/components/schemas/Issue", "crate::model::Issue");
    /// ```
    pub fn replace_type(mut self, key: impl Into<String>, path: impl Into<String>) -> Self {
        self.settings = self.settings.replace_type(key, path);
        self
    }

    /// Makes every schema with `"format": format` the Rust type `path`; see
    /// [`Settings::format_type`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("issues.mcpdesc.json")
    ///     .format_type("uuid", "::uuid::Uuid")
    ///     .format_type("date-time", "::chrono::DateTime<::chrono::Utc>");
    /// ```
    pub fn format_type(mut self, format: impl Into<String>, path: impl Into<String>) -> Self {
        self.settings = self.settings.format_type(format, path);
        self
    }

    /// Declares a crate (at the version the crate depends on; `"*"` any, `"!"` never)
    /// whose types `x-rust-type` schema extensions may name; see
    /// [`Settings::crate_version`].
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("shapes.mcpdesc.json").crate_version("geo-types", "0.7.13");
    /// ```
    pub fn crate_version(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.settings = self.settings.crate_version(name, version);
        self
    }

    /// Where the file is written, instead of `$OUT_DIR`.
    ///
    /// ```no_run
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").out_dir("src/generated");
    /// ```
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// The directory relative paths are resolved against, instead of
    /// `$CARGO_MANIFEST_DIR`.
    pub fn manifest_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.manifest_dir = Some(dir.into());
        self
    }

    /// The name of the generated file, instead of the one derived from the description's
    /// name (`.rs` is appended when missing).
    ///
    /// ```no_run
    /// // mcpdesc::include_generated!("chess_api") includes it
    /// mcpdesc_codegen::Builder::new("chess.mcpdesc.json").file_name("chess_api.rs");
    /// ```
    pub fn file_name(mut self, name: impl Into<String>) -> Self {
        self.file_name = Some(name.into());
        self
    }

    /// Size and depth limits for reading the description.
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Generates the file and returns its path. Cargo instructions are printed to
    /// standard output.
    ///
    /// When generation itself reports errors (a schema the type generator failed on, whose
    /// type then holds a `serde_json::Value`), the file is still written, so that editors
    /// keep working, and the errors are printed as `cargo::error=` lines, which fail the
    /// build.
    pub fn compile(&self) -> Result<PathBuf, BuildError> {
        self.compile_to(&mut std::io::stdout().lock())
    }

    /// Generates the file, or prints the error as a `cargo::error=` line and exits with
    /// status 1 (no panic, no backtrace).
    pub fn compile_or_exit(&self) -> PathBuf {
        let mut out = std::io::stdout().lock();
        match self.compile_to(&mut out) {
            Ok(path) => path,
            Err(e) => {
                // Each problem is printed once: an invalid description already printed
                // one line per error (and gets a one-line summary on stderr), a file
                // that cannot be read its `cargo::error` line.
                match &e {
                    BuildError::Invalid { .. } => {
                        let _ = out.flush();
                        eprintln!("error: {e}");
                    }
                    BuildError::Read { .. } => {}
                    _ => {
                        let _ = writeln!(out, "cargo::error={}", one_line(&e.to_string()));
                    }
                }
                let _ = out.flush();
                drop(out);
                std::process::exit(1);
            }
        }
    }

    /// [`Builder::compile`], writing the Cargo instructions to `out`.
    pub fn compile_to(&self, out: &mut dyn Write) -> Result<PathBuf, BuildError> {
        let path = self.resolved_path()?;
        let _ = writeln!(out, "cargo::rerun-if-changed={}", path.display());
        let desc = Description::from_path(&path, &self.limits).map_err(|source| {
            let _ = writeln!(
                out,
                "cargo::error=cannot read {}: {}",
                path.display(),
                source
            );
            BuildError::Read {
                path: path.clone(),
                source,
            }
        })?;
        let file = path.display().to_string();
        for d in &desc.diagnostics {
            let _ = writeln!(out, "{}", cargo_line(d, &file));
        }
        let generated = match generate(&desc, &self.settings) {
            Ok(generated) => generated,
            Err(GenerateError::Invalid { errors }) => {
                return Err(BuildError::Invalid { path, errors });
            }
            Err(source) => return Err(BuildError::Generate { path, source }),
        };
        for d in &generated.diagnostics {
            let _ = writeln!(out, "{}", cargo_line(d, &file));
        }
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::Env("OUT_DIR"))?,
        };
        let target = out_dir.join(self.output_file_name());
        write_if_changed(&target, generated.code.as_bytes()).map_err(|source| {
            BuildError::Write {
                path: target.clone(),
                source,
            }
        })?;
        Ok(target)
    }

    /// The description's path, resolved against the manifest directory.
    pub fn resolved_path(&self) -> Result<PathBuf, BuildError> {
        if self.path.is_absolute() {
            return Ok(self.path.clone());
        }
        let base = match &self.manifest_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("CARGO_MANIFEST_DIR")
                .map(PathBuf::from)
                .ok_or(BuildError::Env("CARGO_MANIFEST_DIR"))?,
        };
        Ok(base.join(&self.path))
    }

    /// The generated file's name: [`Builder::file_name`], or [`module_name`] of the
    /// description plus `.rs`.
    pub fn output_file_name(&self) -> String {
        match &self.file_name {
            Some(name) if name.ends_with(".rs") => name.clone(),
            Some(name) => format!("{name}.rs"),
            None => format!("{}.rs", module_name(&self.path)),
        }
    }
}

/// The name of the generated file (without `.rs`) for a description path: the file name
/// without `.mcpdesc.json`, `.mcpdesc.yaml`, `.mcpdesc.yml` or, failing those, its
/// extension.
///
/// ```
/// use mcpdesc_codegen::builder::module_name;
/// assert_eq!(module_name("api/chess.mcpdesc.json".as_ref()), "chess");
/// assert_eq!(module_name("memory.mcpdesc.yaml".as_ref()), "memory");
/// assert_eq!(module_name("tools.json".as_ref()), "tools");
/// ```
pub fn module_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for suffix in [".mcpdesc.json", ".mcpdesc.yaml", ".mcpdesc.yml"] {
        if let Some(stem) = name.strip_suffix(suffix) {
            if !stem.is_empty() {
                return stem.to_owned();
            }
        }
    }
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
        _ => name,
    }
}

/// One diagnostic as a Cargo instruction:
/// `cargo::error=chess.mcpdesc.json:12:7: [rule] message (pointer /tools/0/inputSchema)`.
pub fn cargo_line(d: &Diagnostic, file: &str) -> String {
    let kind = if d.is_error() { "error" } else { "warning" };
    format!("cargo::{kind}={}", one_line(&summary(d, file)))
}

/// `file:line:column: [rule] message (pointer ...)`, the one-line form both front ends
/// use.
pub fn summary(d: &Diagnostic, file: &str) -> String {
    let location = if d.line > 0 {
        format!("{file}:{}:{}", d.line, d.column)
    } else {
        file.to_owned()
    };
    let pointer = if d.pointer.is_empty() {
        "at the document root".to_owned()
    } else {
        format!("pointer {}", d.pointer)
    };
    format!("{location}: [{}] {} ({pointer})", d.rule, d.message)
}

/// Cargo instructions are one line each.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// Writes `contents` to `path` unless the file already holds exactly that; returns
/// whether it wrote.
pub fn write_if_changed(path: &Path, contents: &[u8]) -> std::io::Result<bool> {
    if let Ok(existing) = std::fs::read(path) {
        if existing == contents {
            return Ok(false);
        }
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, contents)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = r#"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1.0.0"},
  "protocolVersions": ["2025-11-25"],
  "tools": [
    {"name": "ping", "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
  ]
}
"#;

    const INVALID: &str = r#"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1.0.0"},
  "protocolVersions": ["2025-11-25"],
  "tools": [
    {"name": "ping", "inputSchema": {"type": "string"}}
  ]
}
"#;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("mcpdesc-builder-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn module_names() {
        assert_eq!(module_name("chess.mcpdesc.json".as_ref()), "chess");
        assert_eq!(module_name("a/b/chess.mcpdesc.yaml".as_ref()), "chess");
        assert_eq!(module_name("chess.mcpdesc.yml".as_ref()), "chess");
        assert_eq!(module_name("chess.json".as_ref()), "chess");
        assert_eq!(module_name("chess.yaml".as_ref()), "chess");
        assert_eq!(module_name("chess".as_ref()), "chess");
        assert_eq!(module_name(".mcpdesc.json".as_ref()), ".mcpdesc");
    }

    #[test]
    fn file_name_override() {
        let b = Builder::new("chess.mcpdesc.json");
        assert_eq!(b.output_file_name(), "chess.rs");
        assert_eq!(b.clone().file_name("api").output_file_name(), "api.rs");
        assert_eq!(b.file_name("api.rs").output_file_name(), "api.rs");
    }

    #[test]
    fn writes_only_when_changed() {
        let dir = scratch("write");
        let file = dir.join("x.rs");
        assert!(write_if_changed(&file, b"one").unwrap());
        let before = std::fs::metadata(&file).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!write_if_changed(&file, b"one").unwrap());
        assert_eq!(
            std::fs::metadata(&file).unwrap().modified().unwrap(),
            before
        );
        assert!(write_if_changed(&file, b"two").unwrap());
        assert_eq!(std::fs::read(&file).unwrap(), b"two");
    }

    #[test]
    fn compiles_a_valid_description_and_prints_rerun() {
        let dir = scratch("valid");
        std::fs::write(dir.join("ping.mcpdesc.json"), VALID).unwrap();
        let builder = Builder::new("ping.mcpdesc.json")
            .manifest_dir(&dir)
            .out_dir(dir.join("out"))
            .tests(false);
        let mut out = Vec::new();
        let path = builder.compile_to(&mut out).unwrap();
        assert_eq!(path, dir.join("out").join("ping.rs"));
        let code = std::fs::read_to_string(&path).unwrap();
        assert!(code.contains("pub trait Ping"), "{code}");
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            out.lines().next().unwrap(),
            format!(
                "cargo::rerun-if-changed={}",
                dir.join("ping.mcpdesc.json").display()
            )
        );
        assert!(!out.contains("cargo::error"), "{out}");
        // The same code as `generate` with the same settings.
        let desc =
            Description::from_path(&dir.join("ping.mcpdesc.json"), &Limits::default()).unwrap();
        let expected = generate(&desc, builder.current_settings()).unwrap().code;
        assert_eq!(code, expected);
    }

    #[test]
    fn invalid_description_prints_cargo_errors_with_location_and_rule() {
        let dir = scratch("invalid");
        std::fs::write(dir.join("bad.mcpdesc.json"), INVALID).unwrap();
        let mut out = Vec::new();
        let err = Builder::new("bad.mcpdesc.json")
            .manifest_dir(&dir)
            .out_dir(dir.join("out"))
            .compile_to(&mut out)
            .unwrap_err();
        assert!(matches!(err, BuildError::Invalid { .. }), "{err}");
        let out = String::from_utf8(out).unwrap();
        let error = out
            .lines()
            .find(|l| l.starts_with("cargo::error="))
            .expect(&out);
        let file = dir.join("bad.mcpdesc.json").display().to_string();
        assert!(error.contains(&format!("{file}:6:")), "{error}");
        assert!(error.contains("mcp.tool.input-schema"), "{error}");
        assert!(error.contains("/tools/0/inputSchema"), "{error}");
        assert!(!dir.join("out").join("bad.rs").exists());
    }

    #[test]
    fn missing_file_is_a_read_error() {
        let dir = scratch("missing");
        let mut out = Vec::new();
        let err = Builder::new("nope.mcpdesc.json")
            .manifest_dir(&dir)
            .out_dir(&dir)
            .compile_to(&mut out)
            .unwrap_err();
        assert!(matches!(err, BuildError::Read { .. }), "{err}");
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("cargo::error=cannot read"), "{out}");
    }

    #[test]
    fn warnings_become_cargo_warnings() {
        let d = Diagnostic {
            severity: mcpdesc_description::Severity::Warning,
            rule: "some.rule",
            code: "c",
            pointer: "/tools/0".into(),
            line: 3,
            column: 5,
            message: "two\nlines".into(),
        };
        assert_eq!(
            cargo_line(&d, "f.json"),
            "cargo::warning=f.json:3:5: [some.rule] two lines (pointer /tools/0)"
        );
    }
}
