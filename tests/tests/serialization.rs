//! Serialization conformance: the repository's own YAML and JSON rejects and its
//! YAML/JSON pair (`tests/conformance/`) always; on top, when the shared corpus is there
//! (`tests/prereq.rs`), `../shared/conformance/serialization-0.8.0` and the real-world
//! corpus (`../shared/conformance/real-world`).

#[path = "../prereq.rs"]
mod prereq;

use std::path::{Path, PathBuf};

use mcpdesc_codegen::{Description, Limits};

fn case(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("conformance")
        .join(path)
}

fn load(path: &Path) -> Description {
    Description::from_path(path, &Limits::default()).unwrap()
}

/// `path` is refused before validation with one located `mcpdesc.serialization`
/// diagnostic whose code is `code`.
fn assert_refused(path: &Path, code: &str) {
    let desc = load(path);
    assert!(!desc.is_valid(), "{} was accepted", path.display());
    assert!(desc.loaded.is_none(), "{} parsed", path.display());
    let d = &desc.diagnostics[0];
    assert_eq!(d.rule, "mcpdesc.serialization", "{d:?}");
    assert!(d.line > 0 && d.column > 0, "{d:?}");
    assert_eq!(d.code, code, "{}", path.display());
}

#[test]
fn in_repo_serialization_rejects_are_located() {
    for (file, code) in [
        ("yaml-anchor-alias.yaml", "yaml-anchor"),
        ("yaml-custom-tag.yaml", "yaml-tag"),
        ("yaml-duplicate-key.yaml", "yaml-duplicate-key"),
        ("yaml-multiple-documents.yaml", "yaml-multiple-documents"),
        ("yaml-non-finite-number.yaml", "yaml-non-finite-number"),
        ("json-duplicate-key.json", "duplicate-key"),
        ("json-syntax.json", "json-syntax"),
    ] {
        assert_refused(&case(&format!("expected-invalid/{file}")), code);
    }
}

/// The YAML rendering (block, flow, quoted, literal and folded styles; strings that look
/// like numbers, booleans and dates) loads to exactly the data of the JSON one, with the
/// same diagnostics.
#[test]
fn in_repo_yaml_and_json_renderings_load_to_the_same_data_model() {
    let json = load(&case("expected-valid/yaml-rendering.json"));
    let yaml = load(&case("expected-valid/yaml-rendering.yaml"));
    assert_eq!(json.diagnostics, yaml.diagnostics);
    let (a, b) = (json.loaded.unwrap().value, yaml.loaded.unwrap().value);
    assert_eq!(a, b);
    assert_eq!(b["x-shelf-values"][6], "2026-08-25");
    assert_eq!(b["x-shelf-values"][8], "true");
}

#[test]
fn shared_invalid_serializations_are_rejected_with_a_located_message() {
    let Some(shared) = prereq::shared_conformance(
        "mcpdesc-tests/serialization::shared_invalid_serializations_are_rejected_with_a_located_message",
    ) else {
        return;
    };
    let dir = shared.join("serialization-0.8.0/expected-invalid");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let code = match path.file_name().unwrap().to_str().unwrap() {
            "custom-tag.yaml" | "tagged-non-finite-number.yaml" => "yaml-tag",
            "duplicate-key.yaml" => "yaml-duplicate-key",
            // The anchor on line 1 is the first offence in that file.
            "merge-alias.yaml" => "yaml-anchor",
            "multiple-documents.yaml" => "yaml-multiple-documents",
            "positive-infinity.yaml" => "yaml-non-finite-number",
            other => panic!("unexpected case {other}"),
        };
        assert_refused(&path, code);
        seen += 1;
    }
    assert_eq!(seen, 6);
}

#[test]
fn shared_yaml_and_json_renderings_load_to_the_same_data_model() {
    let Some(shared) = prereq::shared_conformance(
        "mcpdesc-tests/serialization::shared_yaml_and_json_renderings_load_to_the_same_data_model",
    ) else {
        return;
    };
    let json = load(&shared.join("serialization-0.8.0/equivalent/document.json"));
    // The YAML rendering of the shared JSON document, kept in this repository.
    let yaml =
        load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/equivalent-document.yaml"));
    let (a, b) = (json.loaded.unwrap().value, yaml.loaded.unwrap().value);
    assert_eq!(a, b);
    assert_eq!(b["x-values"][6], "2026-08-25");
    assert_eq!(json.diagnostics, yaml.diagnostics);
}

#[test]
fn shared_real_world_descriptions_are_valid() {
    let Some(shared) = prereq::shared_conformance(
        "mcpdesc-tests/serialization::shared_real_world_descriptions_are_valid",
    ) else {
        return;
    };
    for name in ["everything", "filesystem", "memory"] {
        let path = shared.join(format!("real-world/{name}.mcpdesc.json"));
        let desc = load(&path);
        assert!(desc.is_valid(), "{name}:\n{}", desc.render_diagnostics());
        assert_eq!(desc.errors().count(), 0);
        assert!(desc.document().is_some(), "{name}: no typed model");
    }
}
