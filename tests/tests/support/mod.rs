//! Helpers shared by the generator tests: the corpus of descriptions that must generate
//! code, and the example round-trip check.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use mcpdesc_codegen::generate::view::{self, ViewError};
use mcpdesc_codegen::generate::ModuleIr;
use mcpdesc_codegen::{Description, Limits, ProtocolVersion, Settings};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// `../shared/conformance`.
pub fn conformance() -> PathBuf {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../shared/conformance"
    ))
    .to_path_buf()
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
}

impl Entry {
    /// The settings the snapshot is generated with.
    pub fn settings(&self) -> Settings {
        match self.version {
            Some(v) => Settings::new().protocol_version(v),
            None => Settings::new(),
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

/// Every description that must generate code: the chess example, the generator's own
/// fixtures, the real-world corpus, and the valid and warning fixtures that have tools,
/// prompts, resources or resource templates.
pub fn corpus() -> Vec<Entry> {
    let mut out = vec![Entry {
        name: "chess".into(),
        path: Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/chess/chess.mcpdesc.json"
        ))
        .to_path_buf(),
        version: None,
    }];
    for (name, file) in [
        ("generator-constructs", "constructs"),
        ("generator-primitives", "primitives"),
        ("generator-security", "security"),
    ] {
        out.push(Entry {
            name: name.into(),
            path: Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/generator")
                .join(format!("{file}.mcpdesc.json")),
            version: None,
        });
    }
    for path in files(&conformance().join("real-world")) {
        let stem = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".mcpdesc.json", "");
        out.push(Entry {
            name: format!("real-world-{stem}"),
            path,
            version: None,
        });
    }
    for folder in ["expected-valid", "expected-warning"] {
        for path in files(&conformance().join("fixtures-0.8.0-rc.1").join(folder)) {
            let desc = Description::from_path(&path, &Limits::default()).unwrap();
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            let name = format!("fixture-{stem}");
            let Some(doc) = desc.document() else {
                // Kept: the snapshot test reports it as skipped.
                out.push(Entry {
                    name,
                    path,
                    version: None,
                });
                continue;
            };
            // Descriptions with something to generate: a tool, prompt, resource or
            // resource template.
            if view::select_view(doc, None).is_ok_and(|view| view.is_empty()) {
                continue;
            }
            match view::select_view(doc, None) {
                Err(ViewError::Variants { .. }) => {
                    for v in view::root_versions(doc).iter() {
                        if view::select_view(doc, Some(v)).is_ok_and(|view| !view.is_empty()) {
                            out.push(Entry {
                                name: format!("{name}@{v}"),
                                path: path.clone(),
                                version: Some(v),
                            });
                        }
                    }
                }
                _ => out.push(Entry {
                    name,
                    path,
                    version: None,
                }),
            }
        }
    }
    out
}

/// The corpus entry named `name`.
pub fn entry(name: &str) -> Entry {
    corpus()
        .into_iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no corpus entry {name}"))
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

/// Every example input of `tool` round-trips through `T`: the value after one round trip
/// still validates against the original `inputSchema`, and a second round trip changes
/// nothing.
pub fn check_input<T: DeserializeOwned + Serialize>(ir: &ModuleIr, tool: &str) {
    let t = ir
        .tools
        .iter()
        .find(|t| t.name == tool)
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
        .find(|t| t.name == tool)
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
