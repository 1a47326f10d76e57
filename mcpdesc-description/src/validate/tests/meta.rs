//! Tests of `meta.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{doc, found};

fn resource_with_meta(versions: &[&str], meta: Value) -> Value {
    doc(
        versions,
        json!({"resources": [{"uri": "x:///a", "name": "a", "_meta": meta}]}),
    )
}

#[test]
fn ordinary_keys_are_accepted() {
    let d = resource_with_meta(
        &["2025-06-18", "2026-07-28"],
        json!({"com.example/x": 1, "plain": true, "": 0}),
    );
    assert!(crate::validate::testing::codes(&d).is_empty());
}

#[test]
fn declaration_meta_needs_2025_06_18() {
    let d = resource_with_meta(&["2025-03-26", "2025-06-18"], json!({"a": 1}));
    assert_eq!(
        found(&d, "field-not-supported-by-version"),
        [(
            rules::DECLARATION_FIELD_PROTOCOL_VERSION,
            "/resources/0/_meta".to_owned()
        )]
    );
}

#[test]
fn request_only_keys_are_rejected_on_declarations() {
    let d = resource_with_meta(
        &["2026-07-28"],
        json!({"progressToken": 1, "io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}),
    );
    assert_eq!(
        found(&d, "meta-reserved-key-context"),
        [
            (
                rules::META,
                "/resources/0/_meta/io.modelcontextprotocol~1serverInfo".to_owned()
            ),
            (rules::META, "/resources/0/_meta/progressToken".to_owned()),
        ]
    );
}

#[test]
fn trace_keys_need_non_empty_strings() {
    let d = resource_with_meta(
        &["2026-07-28"],
        json!({"traceparent": "", "baggage": "k=v"}),
    );
    assert_eq!(
        found(&d, "meta-reserved-key-value"),
        [(rules::META, "/resources/0/_meta/traceparent".to_owned())]
    );
}

#[test]
fn reserved_prefixes_follow_each_version() {
    // `io.modelcontextprotocol/` is reserved from 2025-11-25; 2025-06-18 reserves
    // prefixes whose reserved label is followed by another one.
    let d = resource_with_meta(
        &["2025-06-18"],
        json!({"io.modelcontextprotocol/x": 1, "mcp.dev/y": 2}),
    );
    assert_eq!(
        found(&d, "meta-unknown-reserved-key"),
        [(rules::META, "/resources/0/_meta/mcp.dev~1y".to_owned())]
    );
    let d = resource_with_meta(
        &["2025-11-25"],
        json!({"io.modelcontextprotocol/x": 1, "mcp.dev/y": 2}),
    );
    assert_eq!(
        found(&d, "meta-unknown-reserved-key"),
        [(
            rules::META,
            "/resources/0/_meta/io.modelcontextprotocol~1x".to_owned()
        )]
    );
}

#[test]
fn prefixes_parse() {
    assert_eq!(key_prefix("io.mcp/x"), Some(vec!["io", "mcp"]));
    assert_eq!(key_prefix("plain"), Some(vec![]));
    assert_eq!(key_prefix("bad key"), None);
    assert_eq!(key_prefix("1io/x"), None);
}
