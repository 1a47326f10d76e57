//! Types from schemas: shared components and `$defs` are one type, colliding `$defs`
//! are not, unsupported constructs and rejected schemas degrade to `serde_json::Value`.

use serde_json::json;

use super::{code, description, one_type_settings};
use crate::generate::generate;
use crate::settings::Settings;
use mcpdesc_description::diagnostic::Severity;

#[test]
fn a_component_used_by_several_tools_is_one_type() {
    let desc = description(
        json!([
            {"name": "a", "inputSchema": {"$componentRef": "#/components/schemas/Query"}},
            {"name": "b", "inputSchema": {"$componentRef": "#/components/schemas/Query"},
             "outputSchema": {"$componentRef": "#/components/schemas/Once"}}
        ]),
        Some(json!({"schemas": {
            "Query": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]},
            "Once": {"type": "object", "properties": {"r": {"type": "string"}}}
        }})),
    );
    let out = generate(&desc, &one_type_settings()).unwrap();
    assert_eq!(
        out.code.matches("pub struct Query ").count(),
        1,
        "{}",
        out.code
    );
    assert!(out.code.contains("pub type AInput = Query;"));
    assert!(out.code.contains("pub type BInput = Query;"));
    // A component used once is the tool's own type.
    assert!(out.code.contains("pub struct BOutput"));
    assert_eq!(out.ir.shared.len(), 1);
    assert_eq!(
        out.ir.tools[1]
            .output
            .as_ref()
            .unwrap()
            .component
            .as_deref(),
        Some("Once")
    );
}

#[test]
fn defs_of_two_tools_do_not_collide() {
    let point = |extra: &str| {
        json!({"type": "object", "properties": {"at": {"$ref": "#/$defs/Point"}},
               "$defs": {"Point": {"type": "object", "properties": {extra: {"type": "number"}}}}})
    };
    let desc = description(
        json!([
            {"name": "draw", "inputSchema": point("x")},
            {"name": "erase", "inputSchema": point("y")}
        ]),
        None,
    );
    let code = code(&desc, &Settings::default());
    assert!(code.contains("pub struct DrawInputPoint"), "{code}");
    assert!(code.contains("pub struct EraseInputPoint"), "{code}");
    assert!(!code.contains("pub struct Point"));
}

#[test]
fn unsupported_constructs_degrade_to_value_with_warnings() {
    let desc = description(
        json!([{"name": "t", "inputSchema": {"type": "object", "properties": {
            "c": {"if": {"type": "string"}, "then": {"minLength": 2}},
            "r": {"$ref": "https://example.invalid/x.json"}
        }}}]),
        None,
    );
    let out = generate(&desc, &Settings::default()).unwrap();
    assert!(
        out.code
            .contains("pub c: ::std::option::Option<::serde_json::Value>"),
        "{}",
        out.code
    );
    assert!(out
        .code
        .contains("pub r: ::std::option::Option<::serde_json::Value>"));
    let at: Vec<&str> = out.diagnostics.iter().map(|d| d.pointer.as_str()).collect();
    assert_eq!(
        at,
        [
            "/tools/0/inputSchema/properties/c/if",
            "/tools/0/inputSchema/properties/r/$ref"
        ]
    );
    assert!(out
        .diagnostics
        .iter()
        .all(|d| d.severity == Severity::Warning && d.line > 0));
}

#[test]
fn a_schema_typify_rejects_falls_back_to_value_at_its_property_and_the_rest_still_generates() {
    let desc = description(
        json!([
            // The enum values do not have the declared type: typify refuses that
            // property, and only that property becomes a `serde_json::Value`.
            {"name": "bad", "inputSchema": {"type": "object", "properties": {
                "e": {"type": "string", "enum": [1, 2]}, "ok": {"type": "string"}}}},
            // A default of the wrong type: generated without the default.
            {"name": "odd", "inputSchema": {"type": "object", "properties": {
                "n": {"type": "integer", "default": "three"}}}},
            {"name": "good", "inputSchema": {"type": "object", "properties": {"s": {"type": "string"}}}}
        ]),
        None,
    );
    let out = generate(&desc, &Settings::default()).unwrap();
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    let found: Vec<(&str, &str)> = out
        .diagnostics
        .iter()
        .map(|d| (d.code, d.pointer.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "schema-construct-unsupported",
                "/tools/0/inputSchema/properties/e"
            ),
            (
                "schema-default-dropped",
                "/tools/1/inputSchema/properties/n/default"
            ),
        ]
    );
    // Plain words, no typify internals, each once.
    assert!(out
        .diagnostics
        .iter()
        .all(|d| !d.message.contains("TypeEntry") && d.line > 0));
    assert!(
        out.code
            .contains("pub e: ::std::option::Option<::serde_json::Value>,"),
        "{}",
        out.code
    );
    assert!(out
        .code
        .contains("pub ok: ::std::option::Option<::std::string::String>,"));
    assert!(out.code.contains("pub struct OddInput"));
    assert!(out.code.contains("pub struct GoodInput"));
}

#[test]
fn identical_defs_of_several_schemas_are_one_type_named_after_the_key() {
    let priority = json!({"type": "string", "enum": ["low", "high"]});
    let schema = |extra: &str| {
        json!({"type": "object", "properties": {
            "priority": {"$ref": "#/$defs/IssuePriority"}, extra: {"type": "string"}},
            "$defs": {"IssuePriority": priority}})
    };
    let desc = description(
        json!([
            {"name": "create_issue", "inputSchema": schema("title")},
            {"name": "get_issue", "inputSchema": {"type": "object"}, "outputSchema": schema("body")},
            // A different schema under the same key stays the tool's own.
            {"name": "other", "inputSchema": {"type": "object",
                "properties": {"p": {"$ref": "#/$defs/IssuePriority"}},
                "$defs": {"IssuePriority": {"type": "integer"}}}}
        ]),
        None,
    );
    let out = generate(&desc, &Settings::default()).unwrap();
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert_eq!(out.code.matches("pub enum IssuePriority {").count(), 1);
    assert_eq!(
        out.code
            .matches("pub priority: ::std::option::Option<IssuePriority>,")
            .count(),
        2,
        "{}",
        out.code
    );
    assert!(out
        .code
        .contains("pub struct OtherInputIssuePriority(pub i64);"));
}

#[test]
fn a_nested_component_ref_is_not_a_reference_and_says_so() {
    let desc = description(
        json!([{"name": "t", "inputSchema": {"type": "object", "properties": {
            "p": {"$componentRef": "#/components/schemas/P"}}}}]),
        Some(json!({"schemas": {"P": {"type": "string"}}})),
    );
    // The description says so (`mcpdesc validate` too); generation does not repeat it.
    let at: Vec<&str> = desc
        .diagnostics
        .iter()
        .map(|d| d.pointer.as_str())
        .collect();
    assert_eq!(at, ["/tools/0/inputSchema/properties/p/$componentRef"]);
    let out = generate(&desc, &Settings::default()).unwrap();
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert!(
        out.code
            .contains("pub p: ::std::option::Option<::serde_json::Value>"),
        "{}",
        out.code
    );
}

#[test]
fn positive_integer_inputs_are_plain_unless_non_zero_is_asked_for() {
    let desc = description(
        json!([{"name": "a", "inputSchema": {"type": "object",
            "properties": {"n": {"type": "integer", "minimum": 1}, "m": {"type": "integer", "exclusiveMinimum": 0}},
            "required": ["n", "m"]}}]),
        None,
    );
    let plain = code(&desc, &Settings::default());
    assert!(plain.contains("pub n: u64,"), "{plain}");
    assert!(plain.contains("pub m: u64,"), "{plain}");
    assert!(!plain.contains("NonZero"), "{plain}");
    let non_zero = code(&desc, &Settings::default().non_zero_integers(true));
    assert!(
        non_zero.contains("pub n: ::std::num::NonZeroU64,"),
        "{non_zero}"
    );
}
