//! Tests of `transports.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

#[test]
fn overlapping_transports_covering_the_root_pass() {
    let d = doc(
        &["2025-11-25", "2026-07-28"],
        json!({"transports": [
            {"type": "stdio", "command": "s"},
            {"type": "streamable-http", "url": "https://x.example/mcp", "protocolVersions": ["2026-07-28"]}
        ]}),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn coverage_gaps_are_errors_only_when_transports_exist() {
    let d = doc(
        &["2025-11-25", "2026-07-28"],
        json!({"transports": [{"type": "stdio", "command": "s", "protocolVersions": ["2025-11-25"]}]}),
    );
    assert_eq!(
        found(&d, "transport-coverage-gap"),
        [(rules::TRANSPORTS, "/transports".to_owned())]
    );
    let d = doc(&["2025-11-25"], json!({}));
    assert!(found(&d, "transport-coverage-gap").is_empty());
}

#[test]
fn streamable_http_needs_2025_03_26() {
    let d = doc(
        &["2024-11-05"],
        json!({"transports": [{"type": "streamable-http", "url": "https://x.example/mcp"}]}),
    );
    assert_eq!(
        found(&d, "transport-not-supported-by-version"),
        [(rules::TRANSPORTS, "/transports/0/type".to_owned())]
    );
}

#[test]
fn sse_warns_for_modern_versions() {
    let d = doc(
        &["2024-11-05", "2025-03-26"],
        json!({"transports": [{"type": "sse", "url": "https://x.example/sse"}]}),
    );
    let diags = crate::validate::testing::run(&d);
    let sse: Vec<_> = diags
        .iter()
        .filter(|d| d.code == "legacy-sse-for-modern-version")
        .collect();
    assert_eq!(sse.len(), 1);
    assert_eq!(sse[0].pointer, "/transports/0/type");
    assert!(!sse[0].is_error());
    assert!(
        sse[0].message.contains("MCP 2025-03-26"),
        "{}",
        sse[0].message
    );
    assert!(!sse[0].message.contains("2024-11-05"), "{}", sse[0].message);
}

#[test]
fn positions_come_from_the_source() {
    let text = r#"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1"},
  "protocolVersions": ["2024-11-05"],
  "transports": [
    {"type": "streamable-http", "url": "https://x.example/mcp"}
  ]
}"#;
    let desc =
        crate::Description::from_text("t.json", text.to_owned(), None, &crate::Limits::default());
    let d = desc
        .diagnostics
        .iter()
        .find(|d| d.code == "transport-not-supported-by-version")
        .expect("reported");
    assert_eq!((d.line, d.column), (6, 6));
}
