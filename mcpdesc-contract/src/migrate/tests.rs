//! Unit tests of the migration steps; the sample-based tests, with the CLI, are in
//! `tests/tests/migrate.rs`.

use serde_json::{json, Value};

use super::run::Run;
use super::*;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::source::{parse, Format, Limits, SourceMap};
use mcpdesc_description::validate::SpecVersion;

fn migrate_json(value: Value, options: &Options) -> Result<Migration, MigrateError> {
    let text = serde_json::to_string_pretty(&value).unwrap();
    let loaded = parse(&text, Format::Json, &Limits::default()).unwrap();
    migrate(&loaded, options)
}

fn doc(extra: Value) -> Value {
    let mut d = json!({
        "mcpdesc": "0.7.0",
        "info": {"name": "n", "version": "1.0.0", "protocolVersion": "2025-11-25"},
        "transports": [{"type": "stdio", "command": "n"}],
        "tools": [{"name": "t", "inputSchema": {"type": "object"}}]
    });
    d.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    d
}

#[test]
fn legacy_versions() {
    assert!(is_legacy_version("0.7.0"));
    assert!(is_legacy_version("0.7.12"));
    for other in ["0.7", "0.7.", "0.7.x", "0.8.0", "0.70.0", ""] {
        assert!(!is_legacy_version(other), "{other}");
    }
}

#[test]
fn scheme_names_prefer_author_identifiers_and_stay_deterministic() {
    let security = json!([
        {"type": "apiKey", "name": "X Key/v2", "in": "header"},
        {"type": "http", "scheme": "Basic"},
        {"type": "openIdConnect", "openIdConnectUrl": "https://id.example/.well-known/openid-configuration"},
        {"type": "http", "scheme": "basic", "description": "another"},
        {"type": "http", "scheme": "Basic"}
    ]);
    let m = migrate_json(doc(json!({"security": security})), &Options::default()).unwrap();
    let names: Vec<&String> = m.value["securitySchemes"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(names, ["X-Key-v2", "basic", "openIdConnect", "basic-2"]);
    // The repeated scheme is one alternative per occurrence, both naming the same scheme.
    assert_eq!(
        m.value["security"],
        json!([{"X-Key-v2": []}, {"basic": []}, {"openIdConnect": []}, {"basic-2": []}, {"basic": []}])
    );
    assert!(m
        .warnings
        .iter()
        .any(|w| w.code == "security-scheme-name-collision" && w.pointer == "/security/3"));
    let again = migrate_json(doc(json!({"security": security})), &Options::default()).unwrap();
    assert_eq!(again.value, m.value);
}

#[test]
fn output_pointers_map_back_to_the_input() {
    let positions = SourceMap::default();
    let mut run = Run::new(&positions);
    run.moved(
        Pointer::parse("/capabilities/0").unwrap(),
        Pointer::parse("/capabilities").unwrap(),
    );
    run.moved(
        Pointer::parse("/securitySchemes/bearer").unwrap(),
        Pointer::parse("/transports/1/security/0").unwrap(),
    );
    let map = |p: &str| run.input_pointer(&Pointer::parse(p).unwrap()).to_string();
    assert_eq!(map("/capabilities/0/tasks"), "/capabilities/tasks");
    assert_eq!(
        map("/securitySchemes/bearer/scheme"),
        "/transports/1/security/0/scheme"
    );
    assert_eq!(map("/tools/0/title"), "/tools/0/title");
}

#[test]
fn a_flag_version_replaces_the_declared_one_with_a_warning() {
    let options = Options {
        target: SpecVersion::V0_9_0,
        protocol_version: Some(ProtocolVersion::V2026_07_28),
    };
    let m = migrate_json(doc(json!({})), &options).unwrap();
    assert_eq!(m.value["protocolVersions"], json!(["2026-07-28"]));
    assert!(m
        .warnings
        .iter()
        .any(|w| w.code == "protocol-version-overridden"));
}

#[test]
fn output_schema_roots_are_left_alone_for_2026() {
    let options = Options {
        target: SpecVersion::V0_9_0,
        protocol_version: Some(ProtocolVersion::V2026_07_28),
    };
    let tools = json!({"tools": [{"name": "t", "inputSchema": {"properties": {}}, "outputSchema": {"items": {}}}]});
    let m = migrate_json(doc(tools), &options).unwrap();
    assert_eq!(
        m.value["tools"][0]["inputSchema"],
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(m.value["tools"][0]["outputSchema"], json!({"items": {}}));
}

#[test]
fn not_applicable_documents() {
    for (value, options) in [
        (json!({"mcpdesc": "0.9.0"}), Options::default()),
        (json!({"mcpdesc": 7}), Options::default()),
        (json!({"info": {}}), Options::default()),
        (
            json!({"mcpdesc": "0.8.0"}),
            Options {
                target: SpecVersion::V0_8_0,
                protocol_version: None,
            },
        ),
    ] {
        assert!(
            matches!(
                migrate_json(value.clone(), &options),
                Err(MigrateError::NotApplicable(_))
            ),
            "{value}"
        );
    }
}
