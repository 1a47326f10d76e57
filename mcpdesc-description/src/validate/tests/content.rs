//! Tests of `content.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::diagnostic::Diagnostic;
use crate::validate::cx::SpecVersion;

fn run(block: Value, scope: VersionSet) -> Vec<Diagnostic> {
    let doc = json!({});
    let mut cx = Cx::new(&doc, SpecVersion::V0_9_0, VersionSet::all());
    let at = Pointer::root().key("block");
    check_block(&mut cx, &at, &block, scope, "test-content-mismatch");
    cx.into_diagnostics()
}

fn pointers(diags: &[Diagnostic]) -> Vec<(&str, &str)> {
    diags.iter().map(|d| (d.code, d.pointer.as_str())).collect()
}

#[test]
fn modern_forms_pass_in_modern_scopes() {
    let block = json!({
        "type": "resource_link", "uri": "x:///a", "name": "a",
        "icons": [{"src": "https://x.example/i.png"}],
        "annotations": {"lastModified": "2026-01-01T00:00:00Z"},
        "_meta": {"com.example/k": 1}
    });
    assert!(run(block, VersionSet::since(ProtocolVersion::V2025_11_25)).is_empty());
}

#[test]
fn forms_missing_from_a_version_are_reported_with_the_callers_code() {
    let scope = VersionSet::only(ProtocolVersion::V2025_03_26)
        .union(VersionSet::only(ProtocolVersion::V2025_06_18));
    let block = json!({
        "type": "resource_link", "uri": "x:///a", "name": "a",
        "icons": [{"src": "https://x.example/i.png"}],
        "_meta": {}
    });
    let d = run(block, scope);
    assert_eq!(
        pointers(&d),
        [
            ("test-content-mismatch", "/block/type"),
            ("test-content-mismatch", "/block/icons"),
            ("test-content-mismatch", "/block/_meta"),
        ]
    );
    assert!(d
        .iter()
        .all(|d| d.rule == rules::CONTENT_BLOCK_PROTOCOL_VERSION));
    assert!(d[0].message.contains("MCP 2025-03-26"), "{}", d[0].message);
    assert!(
        d[1].message.contains("MCP 2025-03-26, 2025-06-18"),
        "{}",
        d[1].message
    );
}

#[test]
fn audio_and_embedded_meta_need_their_versions() {
    let scope = VersionSet::only(ProtocolVersion::V2024_11_05);
    let d = run(
        json!({"type": "audio", "data": "", "mimeType": "audio/wav"}),
        scope,
    );
    assert_eq!(pointers(&d), [("test-content-mismatch", "/block/type")]);
    let d = run(
        json!({"type": "resource", "resource": {"uri": "x:///a", "text": "", "_meta": {}},
                   "annotations": {"lastModified": "x"}}),
        scope,
    );
    assert_eq!(
        pointers(&d),
        [
            ("test-content-mismatch", "/block/resource/_meta"),
            ("test-content-mismatch", "/block/annotations/lastModified"),
        ]
    );
}
