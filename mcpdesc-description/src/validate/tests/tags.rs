//! Tests of `tags.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::*;
use crate::validate::testing::{codes, doc, found};

#[test]
fn declared_references_pass_and_catalogue_free_tags_are_free() {
    let d = doc(
        &["2025-11-25"],
        json!({"tags": [{"name": "a"}, {"name": "b"}], "prompts": [{"name": "p", "tags": ["b", "a"]}]}),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
    let d = doc(
        &["2025-11-25"],
        json!({"prompts": [{"name": "p", "tags": ["anything"]}]}),
    );
    assert!(codes(&d).is_empty(), "{:?}", codes(&d));
}

#[test]
fn duplicates_and_undeclared_references_are_errors() {
    let d = doc(
        &["2025-11-25"],
        json!({
            "tags": [{"name": "a"}, {"name": "a"}],
            "tools": [{"name": "t", "inputSchema": {"type": "object"}, "tags": ["a", "zzz"]}],
            "resourceTemplates": [{"uriTemplate": "x:///{id}", "name": "r", "tags": ["nope"]}]
        }),
    );
    assert_eq!(
        found(&d, "duplicate-root-tag"),
        [(rules::TAGS_REFERENCES, "/tags/1/name".to_owned())]
    );
    assert_eq!(
        found(&d, "unknown-tag-reference"),
        [
            (
                rules::TAGS_REFERENCES,
                "/resourceTemplates/0/tags/0".to_owned()
            ),
            (rules::TAGS_REFERENCES, "/tools/0/tags/1".to_owned()),
        ]
    );
}
