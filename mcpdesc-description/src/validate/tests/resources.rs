//! Tests of `resources.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

#[test]
fn base64_is_canonical() {
    assert_eq!(decoded_len(""), Some(0));
    assert_eq!(decoded_len("AAEC"), Some(3));
    assert_eq!(decoded_len("AQ=="), Some(1));
    assert_eq!(decoded_len("AQI="), Some(2));
    assert_eq!(decoded_len("AR=="), None);
    assert_eq!(decoded_len("not base64"), None);
    assert_eq!(decoded_len("A==="), None);
}

#[test]
fn consistent_examples_pass() {
    let d = doc(
        &["2025-11-25", "2026-07-28"],
        json!({
            "resources": [{"uri": "x:///a", "name": "a", "mimeType": "text/plain", "size": 2,
                "protocolVersions": ["2026-07-28"],
                "examples": {"e": {"result": {"resultType": "complete", "ttlMs": 0, "cacheScope": "public",
                    "contents": [{"uri": "x:///a", "mimeType": "text/plain", "text": "hi"}]}}}}],
            "resourceTemplates": [{"uriTemplate": "x:///items/{id}", "name": "t",
                "protocolVersions": ["2025-11-25"],
                "examples": {"e": {"uri": "x:///items/7", "result": {"_meta": {"k": 1},
                    "contents": [{"uri": "x:///items/7", "blob": "AQ==", "_meta": {"k": 1}}]}}}}]
        }),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn result_members_per_version() {
    let d = doc(
        &["2024-11-05", "2025-11-25", "2026-07-28"],
        json!({"resources": [
            {"uri": "x:///a", "name": "a", "protocolVersions": ["2024-11-05", "2025-11-25"],
             "examples": {"e": {"result": {"resultType": "complete", "ttlMs": 1, "_meta": {},
                "contents": [{"uri": "x:///a", "text": "", "_meta": {}}]}}}},
            {"uri": "x:///b", "name": "b", "protocolVersions": ["2026-07-28"],
             "examples": {"e": {"result": {"contents": [{"uri": "x:///b", "text": ""}], "jsonrpc": "2.0", "task": {}}}}}
        ]}),
    );
    let fidelity = rules::EXAMPLE_RESULT_FIDELITY;
    assert_eq!(
        found(&d, "resource-example-result-version-mismatch"),
        [
            (fidelity, "/resources/0/examples/e/result/_meta".to_owned()),
            (
                fidelity,
                "/resources/0/examples/e/result/resultType".to_owned()
            ),
            (
                fidelity,
                "/resources/1/examples/e/result/resultType".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "resource-example-cache-fields-version-mismatch"),
        [
            (fidelity, "/resources/0/examples/e/result/ttlMs".to_owned()),
            (
                fidelity,
                "/resources/1/examples/e/result/cacheScope".to_owned()
            ),
            (fidelity, "/resources/1/examples/e/result/ttlMs".to_owned()),
        ]
    );
    assert_eq!(
        found(&d, "resource-example-content-version-mismatch"),
        [(
            fidelity,
            "/resources/0/examples/e/result/contents/0/_meta".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "resource-example-json-rpc-envelope"),
        [(
            rules::EXAMPLE_COMPLETED_FORM,
            "/resources/1/examples/e/result/jsonrpc".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "incomplete-resource-example-result"),
        [(
            rules::EXAMPLE_COMPLETED_FORM,
            "/resources/1/examples/e/result/task".to_owned()
        )]
    );
}

#[test]
fn consistency_warnings() {
    let d = doc(
        &["2025-11-25"],
        json!({"resources": [
            {"uri": "x:///list", "name": "l", "examples": {"e": {"result": {"contents": [{"uri": "x:///list/1", "text": ""}]}}}},
            {"uri": "x:///one", "name": "o", "mimeType": "application/json", "size": 100,
             "examples": {"e": {"result": {"contents": [{"uri": "x:///one", "mimeType": "text/plain", "text": "short"}]}}}},
            {"uri": "x:///bin", "name": "b", "examples": {"e": {"result": {"contents": [{"uri": "x:///bin", "blob": "not base64"}]}}}}
        ]}),
    );
    let r = rules::RESOURCES;
    assert_eq!(
        found(&d, "resource-example-requested-uri-not-returned"),
        [(r, "/resources/0/examples/e/result/contents".to_owned())]
    );
    assert_eq!(
        found(&d, "resource-example-mime-type-mismatch"),
        [(
            r,
            "/resources/1/examples/e/result/contents/0/mimeType".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "resource-example-size-mismatch"),
        [(r, "/resources/1/examples/e/result/contents/0".to_owned())]
    );
    assert_eq!(
        found(&d, "invalid-resource-example-base64"),
        [(
            r,
            "/resources/2/examples/e/result/contents/0/blob".to_owned()
        )]
    );
}

#[test]
fn templates_and_declaration_fields() {
    let d = doc(
        &["2025-03-26", "2025-06-18"],
        json!({
            "resources": [
                {"uri": "x:///a", "name": "a", "title": "A", "icons": [{"src": "https://x.example/i.png"}],
                 "annotations": {"lastModified": "2025-01-01T00:00:00Z"}},
                {"uri": "x:///a", "name": "a2", "protocolVersions": ["2025-06-18"]}
            ],
            "resourceTemplates": [
                {"uriTemplate": "x:///{id", "name": "bad"},
                {"uriTemplate": "x:///games/{id}", "name": "g",
                 "examples": {"e": {"uri": "x:///players/1", "result": {"contents": [{"uri": "x:///players/1", "text": ""}]}}}}
            ]
        }),
    );
    assert_eq!(
        found(&d, "field-not-supported-by-version"),
        [
            (
                rules::DECLARATION_FIELD_PROTOCOL_VERSION,
                "/resources/0/icons".to_owned()
            ),
            (
                rules::DECLARATION_FIELD_PROTOCOL_VERSION,
                "/resources/0/title".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "resource-annotation-not-supported-by-version"),
        [(
            rules::DECLARATION_FIELD_PROTOCOL_VERSION,
            "/resources/0/annotations/lastModified".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "primitive-scope-overlap"),
        [(rules::PROTOCOL_SCOPE_CONSISTENCY, "/resources/1".to_owned())]
    );
    assert_eq!(
        found(&d, "invalid-uri-template"),
        [(
            rules::RESOURCE_TEMPLATES,
            "/resourceTemplates/0/uriTemplate".to_owned()
        )]
    );
    assert_eq!(
        found(&d, "resource-template-example-invalid-expansion"),
        [(
            rules::RESOURCE_TEMPLATES,
            "/resourceTemplates/1/examples/e/uri".to_owned()
        )]
    );
}
