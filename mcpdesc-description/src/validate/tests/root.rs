//! Tests of `root.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

fn run(doc: serde_json::Value) -> Vec<crate::Diagnostic> {
    crate::validate::validate(&doc, &crate::SourceMap::default()).diagnostics
}

#[test]
fn format_versions() {
    for ok in ["0.8.0", "0.9.0"] {
        let d = run(
            json!({"mcpdesc": ok, "info": {"name": "a", "version": "1"}, "protocolVersions": ["2025-11-25"]}),
        );
        assert!(d.is_empty(), "{ok}: {d:?}");
    }
    let d = run(
        json!({"mcpdesc": "0.6.0", "info": {"name": "a", "version": "1"}, "protocolVersions": ["2025-11-25"]}),
    );
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].rule, d[0].code, d[0].pointer.as_str()),
        (
            "mcpdesc.document.version",
            "unsupported-mcpdesc-version",
            "/mcpdesc"
        )
    );
    // 0.7.x gets its own code and the way forward.
    let d = run(
        json!({"mcpdesc": "0.7.0", "info": {"name": "a", "version": "1"}, "protocolVersions": ["2025-11-25"]}),
    );
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, "legacy-mcpdesc-version");
    assert!(d[0].message.contains("mcpdesc migrate"), "{}", d[0].message);
}

#[test]
fn legacy_versions_warn_that_validation_is_incomplete() {
    let d = run(
        json!({"mcpdesc": "0.9.0", "info": {"name": "a", "version": "1"}, "protocolVersions": ["2025-03-26", "2025-06-18"]}),
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(!d[0].is_error());
    assert_eq!(d[0].code, "legacy-protocol-validation-incomplete");
    assert!(d[0].message.contains("MCP 2025-03-26"), "{}", d[0].message);
    let d = run(
        json!({"mcpdesc": "0.9.0", "info": {"name": "a", "version": "1"}, "protocolVersions": ["2027-01-01"]}),
    );
    assert_eq!(
        (d[0].code, d[0].pointer.as_str()),
        ("invalid-value", "/protocolVersions/0")
    );
}
