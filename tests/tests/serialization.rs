//! Serialization conformance (`../shared/conformance/serialization-0.8.0`) and the
//! real-world corpus (`../shared/conformance/real-world`).

use std::path::{Path, PathBuf};

use mcpdesc_codegen::{Description, Limits};

fn shared(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/conformance")
        .join(path)
}

#[test]
fn every_invalid_serialization_is_rejected_with_a_located_message() {
    let dir = shared("serialization-0.8.0/expected-invalid");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let desc = Description::from_path(&path, &Limits::default()).unwrap();
        assert!(!desc.is_valid(), "{} was accepted", path.display());
        assert!(desc.loaded.is_none(), "{} parsed", path.display());
        let d = &desc.diagnostics[0];
        assert_eq!(d.rule, "mcpdesc.serialization", "{d:?}");
        assert!(d.code.starts_with("yaml-"), "{d:?}");
        assert!(d.line > 0 && d.column > 0, "{d:?}");
        let expected = match path.file_name().unwrap().to_str().unwrap() {
            "custom-tag.yaml" | "tagged-non-finite-number.yaml" => "yaml-tag",
            "duplicate-key.yaml" => "yaml-duplicate-key",
            // The anchor on line 1 is the first offence in that file.
            "merge-alias.yaml" => "yaml-anchor",
            "multiple-documents.yaml" => "yaml-multiple-documents",
            "positive-infinity.yaml" => "yaml-non-finite-number",
            other => panic!("unexpected case {other}"),
        };
        assert_eq!(d.code, expected, "{}", path.display());
        seen += 1;
    }
    assert_eq!(seen, 6);
}

#[test]
fn yaml_and_json_renderings_load_to_the_same_data_model() {
    let json = Description::from_path(
        &shared("serialization-0.8.0/equivalent/document.json"),
        &Limits::default(),
    )
    .unwrap();
    let yaml_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/equivalent-document.yaml");
    let yaml = Description::from_path(&yaml_path, &Limits::default()).unwrap();
    let (a, b) = (json.loaded.unwrap().value, yaml.loaded.unwrap().value);
    assert_eq!(a, b);
    assert_eq!(b["x-values"][6], "2026-08-25");
    assert_eq!(json.diagnostics, yaml.diagnostics);
}

#[test]
fn real_world_descriptions_are_valid() {
    for name in ["everything", "filesystem", "memory"] {
        let path = shared(&format!("real-world/{name}.mcpdesc.json"));
        let desc = Description::from_path(&path, &Limits::default()).unwrap();
        assert!(desc.is_valid(), "{name}:\n{}", desc.render_diagnostics());
        assert_eq!(desc.errors().count(), 0);
        assert!(desc.document().is_some(), "{name}: no typed model");
    }
}
