//! Tests of `text.rs` (a file of their own: they run the whole validator, which
//! runs this pass).

use serde_json::json;

use super::super::testing::{doc, found};

#[test]
fn bidi_controls_and_unusual_tool_names_warn() {
    let d = doc(
        &["2025-11-25"],
        json!({"tools": [
            {"name": "ok_name.v2-x", "description": "fine", "inputSchema": {"type": "object"}},
            {"name": "has space", "description": "evil \u{202e}", "inputSchema": {"type": "object",
                "properties": {"\u{2066}": {"type": "string"}}}}
        ]}),
    );
    assert_eq!(
        found(&d, "text-bidi-control"),
        [
            ("mcpdesc-rs.codegen", "/tools/1/description".to_owned()),
            (
                "mcpdesc-rs.codegen",
                "/tools/1/inputSchema/properties/\u{2066}".to_owned()
            ),
        ]
    );
    assert_eq!(
        found(&d, "tool-name-format"),
        [("mcpdesc-rs.codegen", "/tools/1/name".to_owned())]
    );
}
