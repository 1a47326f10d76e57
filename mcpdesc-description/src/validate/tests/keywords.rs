//! Tests of `tools/keywords.rs` (a file of their own: they run the whole validator,
//! which runs this pass).

use serde_json::json;

use crate::validate::testing::{doc, found};

#[test]
fn misspelled_keywords_warn_but_property_names_do_not() {
    let d = doc(
        &["2025-11-25"],
        json!({"tools": [{"name": "t", "inputSchema": {"type": "object",
                "properties": {"requried": {"type": "string"},
                               "a": {"type": "object", "propertes": {}, "x-note": 1}},
                "requried": ["a"], "maxLenght": 3}}]}),
    );
    let at: Vec<String> = found(&d, "misspelled-schema-keyword")
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(
        at,
        [
            "/tools/0/inputSchema/maxLenght",
            "/tools/0/inputSchema/properties/a/propertes",
            "/tools/0/inputSchema/requried",
        ]
    );
}

#[test]
fn a_dangling_ref_is_located_at_the_ref() {
    let d = doc(
        &["2025-11-25"],
        json!({"tools": [{"name": "t", "inputSchema": {"type": "object",
                "properties": {"p": {"$ref": "#/$defs/Pointt"}},
                "$defs": {"Point": {"type": "string"}}}}]}),
    );
    assert_eq!(
        found(&d, "invalid-tool-schema"),
        [(
            "json-schema.tool-schema.valid",
            "/tools/0/inputSchema/properties/p/$ref".to_owned()
        )]
    );
}
