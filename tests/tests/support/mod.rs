//! Helpers shared by the generator tests: the corpus of descriptions that must generate
//! code, and the example round-trip check.
//!
//! The corpus has two parts: the repository's own descriptions (always there) and, on
//! top, the shared corpus (`../shared/conformance`, when it is there: `tests/prereq.rs`).

// Each test binary uses a different part of this module.
#![allow(dead_code)]

pub mod notebook;
#[path = "../../prereq.rs"]
pub mod prereq;

use std::path::{Path, PathBuf};

use mcpdesc_codegen::generate::view;
use mcpdesc_codegen::generate::ModuleIr;
use mcpdesc_codegen::{Description, Limits, ProtocolVersion, Settings, Side};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// The repository's own conformance cases, `tests/conformance/`.
pub fn in_repo_cases() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance")
}

/// One description of the corpus, generated once (or once per protocol version when it
/// has protocol-scoped variants).
#[derive(Debug, Clone)]
pub struct Entry {
    /// Snapshot name: `tests/snapshots/<name>.rs`.
    pub name: String,
    /// The description file.
    pub path: PathBuf,
    /// The protocol version of the view, for descriptions with variants.
    pub version: Option<ProtocolVersion>,
    /// The side generated ([`Side::Both`] but for the client-only entries).
    pub side: Side,
    /// The test server expression (`Settings::test_server`), for the entries whose
    /// example tests run against an implementation.
    pub test_server: Option<String>,
    /// Whether the entry is generated with the own types of `examples/own-types`
    /// ([`own_types`]): its code names `crate::model::{Issue, State}`, `uuid` and `chrono`.
    pub own_types: bool,
}

/// The settings `examples/own-types/build.rs` generates its module with: the `Issue`
/// component and the `IssueState` enum are `crate::model`'s, `uuid` and `date-time`
/// formats are `uuid::Uuid` and `chrono::DateTime<Utc>`.
pub fn own_types(settings: Settings) -> Settings {
    settings
        .replace_type("#/components/schemas/Issue", "crate::model::Issue")
        .replace_type("IssueState", "crate::model::State")
        .format_type("uuid", "::uuid::Uuid")
        .format_type("date-time", "::chrono::DateTime<::chrono::Utc>")
}

impl Entry {
    /// A corpus fixture: both sides, no test server.
    fn fixture(name: String, path: PathBuf, version: Option<ProtocolVersion>) -> Self {
        Entry {
            name,
            path,
            version,
            side: Side::Both,
            test_server: None,
            own_types: false,
        }
    }

    /// The settings the snapshot is generated with.
    pub fn settings(&self) -> Settings {
        let mut settings = Settings::new().side(self.side);
        if self.own_types {
            settings = own_types(settings);
        }
        if let Some(expr) = &self.test_server {
            settings = settings.test_server(expr.clone());
        }
        match self.version {
            Some(v) => settings.protocol_version(v),
            None => settings,
        }
    }

    /// A Rust module name for the entry.
    pub fn module(&self) -> String {
        self.name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect()
    }

    /// Loads the description.
    pub fn load(&self) -> Description {
        Description::from_path(&self.path, &Limits::default()).unwrap()
    }

    /// Generates the entry's code.
    pub fn ir(&self) -> ModuleIr {
        mcpdesc_codegen::generate(&self.load(), &self.settings())
            .unwrap_or_else(|e| panic!("{}: {e}", self.name))
            .ir
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// The repository's descriptions that must generate code: the chess example, the
/// generator's own fixtures, and the in-repo valid cases that have tools, prompts,
/// resources or resource templates (`case-<stem>`; of two renderings with one stem, the
/// first in name order).
pub fn in_repo_corpus() -> Vec<Entry> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![Entry {
        name: "chess".into(),
        path: root.join("../examples/chess/chess.mcpdesc.json"),
        version: None,
        side: Side::Both,
        test_server: None,
        own_types: false,
    }];
    for (name, file) in [
        ("generator-constructs", "constructs"),
        ("generator-primitives", "primitives"),
        ("generator-security", "security"),
        ("generator-shared-types", "shared-types"),
        ("generator-variants", "variants"),
        // Last: the client-only entries below take `out[2]` (the primitives).
        ("generator-elicitations", "elicitations"),
    ] {
        out.push(Entry {
            name: name.into(),
            path: root
                .join("fixtures/generator")
                .join(format!("{file}.mcpdesc.json")),
            version: None,
            side: Side::Both,
            test_server: None,
            own_types: false,
        });
    }
    // The tracker of `examples/own-types`: identical schemas as one type, then the
    // crate's own types in place of generated ones.
    for (name, own_types) in [("own-types", false), ("own-types-replaced", true)] {
        out.push(Entry {
            name: name.into(),
            path: root.join("../examples/own-types/issues.mcpdesc.json"),
            version: None,
            side: Side::Both,
            test_server: None,
            own_types,
        });
    }
    // Generated with a test server: the example tests run against the notebook's right
    // implementation (`crate::notebook_right` of tests/examples_roundtrip.rs).
    out.push(Entry {
        name: "generator-implementation".into(),
        path: root.join("fixtures/generator/implementation.mcpdesc.json"),
        version: None,
        side: Side::Both,
        test_server: Some("crate::notebook_right::Server::new()".into()),
        own_types: false,
    });
    // Client-only modules: no handler trait, nothing to implement.
    for (name, path) in [
        ("chess-client-only", out[0].path.clone()),
        ("generator-primitives-client-only", out[2].path.clone()),
    ] {
        out.push(Entry {
            name: name.into(),
            path,
            version: None,
            side: Side::Client,
            test_server: None,
            own_types: false,
        });
    }
    fixture_entries(&in_repo_cases(), &["expected-valid"], "case", &mut out);
    out
}

/// The shared corpus's descriptions that must generate code: the real-world corpus, and
/// the valid and warning fixtures that have tools, prompts, resources or resource
/// templates.
pub fn shared_corpus(conformance: &Path) -> Vec<Entry> {
    let mut out = Vec::new();
    for path in files(&conformance.join("real-world")) {
        let stem = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".mcpdesc.json", "");
        out.push(Entry {
            name: format!("real-world-{stem}"),
            path,
            version: None,
            side: Side::Both,
            test_server: None,
            own_types: false,
        });
    }
    fixture_entries(
        &conformance.join("fixtures-0.8.0-rc.1"),
        &["expected-valid", "expected-warning"],
        "fixture",
        &mut out,
    );
    out
}

/// Every description that must generate code: [`in_repo_corpus`], then
/// [`shared_corpus`] when the shared corpus is there (a notice naming `test` otherwise).
pub fn corpus(test: &str) -> Vec<Entry> {
    let mut out = in_repo_corpus();
    if let Some(shared) = prereq::shared_conformance(test) {
        out.extend(shared_corpus(&shared));
    }
    out
}

/// The entries of the description files in `folders` under `root` that have something
/// to generate (a tool, prompt, resource or resource template), named `<prefix>-<stem>` (`@<version>` added per version for protocol-scoped
/// variants).
fn fixture_entries(root: &Path, folders: &[&str], prefix: &str, out: &mut Vec<Entry>) {
    for folder in folders {
        for path in files(&root.join(folder)) {
            let desc = Description::from_path(&path, &Limits::default()).unwrap();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let name = format!("{prefix}-{stem}");
            let at_version = format!("{name}@");
            if out
                .iter()
                .any(|e| e.name == name || e.name.starts_with(&at_version))
            {
                continue;
            }
            let Some(doc) = desc.document() else {
                // Kept: the snapshot test reports it as skipped.
                out.push(Entry::fixture(name, path, None));
                continue;
            };
            // Descriptions with something to generate: a tool, prompt, resource or
            // resource template.
            if view::select_view(doc, None).is_ok_and(|view| view.is_empty()) {
                continue;
            }
            // A description with protocol-scoped variants: one module serving every
            // version (`<name>`), and the Effective Protocol View of each version
            // (`<name>@<version>`).
            if view::select_view(doc, None).is_ok_and(|view| view.has_variants()) {
                for v in view::root_versions(doc).iter() {
                    if view::select_view(doc, Some(v)).is_ok_and(|view| !view.is_empty()) {
                        out.push(Entry::fixture(format!("{name}@{v}"), path.clone(), Some(v)));
                    }
                }
            }
            out.push(Entry::fixture(name, path, None));
        }
    }
}

/// The generated IR of the corpus entry named `name`; `None` (with a notice naming
/// `test`) when the entry is in the shared corpus and that is not there.
pub fn ir(test: &str, name: &str) -> Option<ModuleIr> {
    let entry = match in_repo_corpus().into_iter().find(|e| e.name == name) {
        Some(entry) => entry,
        None => {
            let shared = prereq::shared_conformance(test)?;
            shared_corpus(&shared)
                .into_iter()
                .find(|e| e.name == name)
                .unwrap_or_else(|| panic!("no corpus entry {name}"))
        }
    };
    Some(entry.ir())
}

/// Deserializes `value` into `T` and serializes it back, with messages naming `what`.
fn round_trip<T: DeserializeOwned + Serialize>(value: &Value, what: &str) -> Value {
    let typed: T = serde_json::from_value(value.clone()).unwrap_or_else(|e| {
        panic!(
            "{what}: does not deserialize into {}: {e}",
            std::any::type_name::<T>()
        )
    });
    serde_json::to_value(&typed).unwrap_or_else(|e| panic!("{what}: does not serialize: {e}"))
}

/// Checks `value` against `schema` (skipped, with a note, when the schema cannot be
/// compiled, for instance because of an external `$ref`).
fn validate(schema: &Value, value: &Value, what: &str) {
    match jsonschema::validator_for(schema) {
        Ok(validator) => {
            let errors: Vec<String> = validator
                .iter_errors(value)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "{what}: the round-tripped value {value} breaks the original schema: {errors:?}"
            );
        }
        Err(e) => println!(
            "note: {what}: schema not compiled ({e}); round trip checked without validation"
        ),
    }
}

/// Every example input of `tool` (a name, or a variant's method name) round-trips through `T`: the value after one round trip
/// still validates against the original `inputSchema`, and a second round trip changes
/// nothing.
pub fn check_input<T: DeserializeOwned + Serialize>(ir: &ModuleIr, tool: &str) {
    let t = ir
        .tools
        .iter()
        .find(|t| t.name == tool || t.module == tool)
        .expect("tool in IR");
    for example in &t.examples {
        let what = format!("{tool} example {:?} input", example.name);
        let once = round_trip::<T>(&example.input, &what);
        validate(&t.input.original, &once, &what);
        let twice = round_trip::<T>(&once, &what);
        assert_eq!(once, twice, "{what}: second round trip differs");
    }
}

/// The same for the `structuredContent` of every successful example result of `tool`
/// against `outputSchema`.
pub fn check_output<T: DeserializeOwned + Serialize>(ir: &ModuleIr, tool: &str) {
    let t = ir
        .tools
        .iter()
        .find(|t| t.name == tool || t.module == tool)
        .expect("tool in IR");
    let schema = &t.output.as_ref().expect("tool with outputSchema").original;
    for example in &t.examples {
        if example.result.get("isError") == Some(&Value::Bool(true)) {
            continue;
        }
        let Some(content) = example.result.get("structuredContent") else {
            continue;
        };
        let what = format!("{tool} example {:?} structuredContent", example.name);
        let once = round_trip::<T>(content, &what);
        validate(schema, &once, &what);
        let twice = round_trip::<T>(&once, &what);
        assert_eq!(once, twice, "{what}: second round trip differs");
    }
}
