//! Unit tests of the diff engine on inline documents; the case table is in
//! `tests/tests/diff.rs`.

use serde_json::{json, Value};

use super::*;
use mcpdesc_description::description::Description;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};
use mcpdesc_description::Limits;

fn desc(name: &str, value: Value) -> Description {
    Description::from_text(
        name,
        serde_json::to_string_pretty(&value).unwrap(),
        None,
        &Limits::default(),
    )
}

fn base(tools: Value) -> Value {
    json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "t", "version": "1"},
        "protocolVersions": ["2025-06-18", "2025-11-25"],
        "tools": tools
    })
}

fn rules_of(old: Value, new: Value) -> Vec<&'static str> {
    let report = diff(&desc("old.json", old), &desc("new.json", new)).unwrap();
    report.changes.iter().map(|c| c.rule.id).collect()
}

#[test]
fn identical_descriptions_have_no_changes() {
    let d = base(json!([{"name": "a", "inputSchema": {"type": "object"}}]));
    assert!(rules_of(d.clone(), d).is_empty());
}

#[test]
fn invalid_descriptions_are_refused() {
    let bad = json!({"mcpdesc": "0.9.0"});
    let good = base(json!([{"name": "a", "inputSchema": {"type": "object"}}]));
    let err = diff(&desc("bad.json", bad), &desc("good.json", good)).unwrap_err();
    let DiffError::Invalid { name, errors } = err;
    assert_eq!(name, "bad.json");
    assert!(!errors.is_empty());
}

#[test]
fn a_tool_narrowed_to_one_version_is_removed_from_the_other_only() {
    let old = base(json!([{"name": "a", "inputSchema": {"type": "object"}}]));
    let new = base(
        json!([{"name": "a", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"}}]),
    );
    let report = diff(&desc("old.json", old), &desc("new.json", new)).unwrap();
    assert_eq!(report.changes.len(), 1);
    let c = &report.changes[0];
    assert_eq!(c.rule.id, "tool.removed");
    assert_eq!(c.versions, VersionSet::only(ProtocolVersion::V2025_06_18));
    assert!(report
        .render(Perspective::Client)
        .contains("= only for MCP 2025-06-18"));
}

#[test]
fn recursive_refs_terminate() {
    let tree = |leaf: &str| {
        json!({"type": "object", "properties": {"node": {"$ref": "#/$defs/Node"}},
               "$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                                                                    "label": {"type": leaf}}}}})
    };
    let old = base(json!([{"name": "a", "inputSchema": tree("string")}]));
    let new = base(json!([{"name": "a", "inputSchema": tree("integer")}]));
    let report = diff(&desc("old.json", old), &desc("new.json", new)).unwrap();
    let ids: Vec<_> = report
        .changes
        .iter()
        .map(|c| (c.rule.id, c.path.clone()))
        .collect();
    assert_eq!(
        ids,
        [("input.type.changed", Some("node.label".to_owned()))],
        "{report:#?}"
    );
    assert_eq!(
        report.changes[0].witness,
        Some(json!({"node": {"label": "x"}}))
    );
}

#[test]
fn component_references_are_resolved_before_comparing() {
    let mut old =
        base(json!([{"name": "a", "inputSchema": {"$componentRef": "#/components/schemas/In"}}]));
    old["components"] =
        json!({"schemas": {"In": {"type": "object", "properties": {"q": {"type": "string"}}}}});
    let new = base(
        json!([{"name": "a", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}]),
    );
    assert!(rules_of(old.clone(), new).is_empty());
    let mut changed = old.clone();
    changed["components"]["schemas"]["In"]["required"] = json!(["q"]);
    let report = diff(&desc("old.json", old), &desc("new.json", changed)).unwrap();
    assert_eq!(report.changes[0].rule.id, "input.property.became-required");
    // Located at the component, where the text is.
    let new_loc = report.changes[0].new.as_ref().unwrap();
    assert_eq!(new_loc.pointer, "/tools/0/inputSchema/properties/q");
    assert!(new_loc.line > 0);
}
