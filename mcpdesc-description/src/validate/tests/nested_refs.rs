//! Tests of `tools/nested_refs.rs` (a file of their own: they run the whole validator,
//! which runs this pass).

use serde_json::json;

use crate::validate::testing::{doc, found};

#[test]
fn a_component_ref_below_the_root_is_warned_about() {
    let d = doc(
        &["2025-11-25"],
        json!({"tools": [{"name": "t", "inputSchema": {"type": "object",
            "properties": {"p": {"$componentRef": "#/components/schemas/P"},
                           "list": {"type": "array", "items": {"$componentRef": "#/components/schemas/P"}}}}}]}),
    );
    let at: Vec<String> = found(&d, "component-reference-inside-schema")
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    assert_eq!(
        at,
        [
            "/tools/0/inputSchema/properties/list/items/$componentRef",
            "/tools/0/inputSchema/properties/p/$componentRef",
        ]
    );
}
