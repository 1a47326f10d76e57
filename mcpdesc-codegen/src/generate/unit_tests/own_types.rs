//! One type per shape and the user's own types: identical schemas named by the rule of
//! `docs/generated-code.md`, replacements by name and by component, format types,
//! `x-rust-type`, the compile checks and the warnings for what nothing uses.

use serde_json::{json, Value};

use super::{code, description, one_type_settings};
use crate::generate::{generate, GenerateError};
use crate::settings::Settings;
use mcpdesc_description::description::Description;

fn object(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

fn codes(desc: &Description, settings: &Settings) -> Vec<(String, String)> {
    generate(desc, settings)
        .unwrap()
        .diagnostics
        .iter()
        .map(|d| (d.code.to_owned(), d.pointer.clone()))
        .collect()
}

#[test]
fn a_component_names_the_identical_defs_and_inline_schemas() {
    let issue = object(json!({"id": {"type": "string"}, "title": {"type": "string"}}));
    let desc = description(
        json!([
            {"name": "get_issue", "inputSchema": {"type": "object"},
             "outputSchema": {"$componentRef": "#/components/schemas/Issue"}},
            {"name": "list_issues", "inputSchema": {"type": "object"},
             "outputSchema": {"type": "object",
                 "properties": {"issues": {"type": "array", "items": {"$ref": "#/$defs/Issue"}}},
                 "$defs": {"Issue": issue}}},
            {"name": "search", "inputSchema": {"type": "object"},
             "outputSchema": object(json!({"hit": issue}))}
        ]),
        Some(json!({"schemas": {"Issue": issue}})),
    );
    let code = code(&desc, &one_type_settings());
    assert_eq!(code.matches("pub struct Issue {").count(), 1, "{code}");
    assert!(code.contains("pub type GetIssueOutput = Issue;"), "{code}");
    assert!(
        code.contains("pub issues: ::std::vec::Vec<Issue>,"),
        "{code}"
    );
    assert!(
        code.contains("pub hit: ::std::option::Option<Issue>,"),
        "{code}"
    );
    assert!(!code.contains("ListIssuesOutputIssue"), "{code}");
}

#[test]
fn a_title_names_identical_tool_schemas_and_definitions() {
    let time = json!({"type": "object", "title": "TimeResult",
        "properties": {"datetime": {"type": "string"}}, "required": ["datetime"]});
    let desc = description(
        json!([
            {"name": "get_current_time", "inputSchema": {"type": "object"}, "outputSchema": time},
            {"name": "convert_time", "inputSchema": {"type": "object"},
             "outputSchema": {"type": "object",
                 "properties": {"source": {"$ref": "#/$defs/TimeResult"}},
                 "required": ["source"], "$defs": {"TimeResult": time}}}
        ]),
        None,
    );
    let code = code(&desc, &one_type_settings());
    assert_eq!(code.matches("pub struct TimeResult {").count(), 1, "{code}");
    assert!(
        code.contains("pub type GetCurrentTimeOutput = TimeResult;"),
        "{code}"
    );
    assert!(code.contains("pub source: TimeResult,"), "{code}");
    assert!(!code.contains("ConvertTimeOutputTimeResult"), "{code}");

    // The alias names that tool schema alone: replacing it leaves the shared type.
    let settings = Settings::new().replace_type("GetCurrentTimeOutput", "crate::Now");
    let out = generate(&desc, &settings).unwrap();
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert!(
        out.code.contains("impl ::mcpdesc::ToolFuture<crate::Now>;"),
        "{}",
        out.code
    );
    assert!(out.code.contains("pub struct TimeResult {"), "{}", out.code);
    assert!(
        !out.code.contains("pub type GetCurrentTimeOutput"),
        "{}",
        out.code
    );
}

#[test]
fn identical_enums_inside_one_tool_and_inside_branches_are_one_type() {
    let state = json!({"type": "string", "enum": ["open", "closed"]});
    let desc = description(
        json!([{"name": "t", "inputSchema": object(json!({
            "from": state, "to": state,
            "change": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "a"}, "state": state}, "required": ["kind"]},
                {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]}]}
        }))}]),
        None,
    );
    let code = code(&desc, &Settings::default());
    assert_eq!(code.matches("pub enum T2InputFrom {").count(), 1, "{code}");
    assert!(!code.contains("pub enum T2InputTo "), "{code}");
    assert!(
        code.contains("pub to: ::std::option::Option<T2InputFrom>,"),
        "{code}"
    );
    assert!(
        code.contains("state: ::std::option::Option<T2InputFrom>"),
        "{code}"
    );
}

#[test]
fn the_same_description_gives_the_same_shared_names() {
    let state = json!({"enum": ["x", "y"]});
    let desc = description(
        json!([
            {"name": "a", "inputSchema": object(json!({"s": state, "t": state}))},
            {"name": "b", "inputSchema": object(json!({"s": state}))}
        ]),
        None,
    );
    let first = code(&desc, &Settings::default());
    for _ in 0..3 {
        assert_eq!(code(&desc, &Settings::default()), first);
    }
}

#[test]
fn a_replaced_component_is_the_users_path_everywhere() {
    let issue = object(json!({"id": {"type": "string"}}));
    let desc = description(
        json!([
            {"name": "get_issue", "inputSchema": {"type": "object"},
             "outputSchema": {"$componentRef": "#/components/schemas/Issue"}},
            {"name": "list_issues", "inputSchema": {"type": "object"},
             "outputSchema": object(json!({"issues": {"type": "array", "items": issue}}))}
        ]),
        Some(json!({"schemas": {"Issue": issue}})),
    );
    let settings = Settings::new()
        .side(crate::settings::Side::Both)
        .replace_type("#/components/schemas/Issue", "crate::model::Issue");
    let out = generate(&desc, &settings).unwrap();
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let code = out.code;
    assert!(!code.contains("pub struct Issue"), "{code}");
    assert!(!code.contains("GetIssueOutput"), "{code}");
    assert!(
        code.contains("::std::vec::Vec<crate::model::Issue>"),
        "{code}"
    );
    // The trait, the client and the examples name it.
    assert!(
        code.contains("impl ::mcpdesc::ToolFuture<crate::model::Issue>;"),
        "{code}"
    );
    assert!(
        code.contains("::mcpdesc::CallResult<crate::model::Issue>"),
        "{code}"
    );
    assert!(
        code.contains("crate::model::Issue,\n        > = ::mcpdesc::testing::ToolExamples"),
        "{code}"
    );
    // One compile check, naming what it stands for and where.
    assert_eq!(
        code.matches("holds::<crate::model::Issue>()").count(),
        1,
        "{code}"
    );
    assert!(
        code.contains("stands for the component `#/components/schemas/Issue` (t.mcpdesc.json /tools/0/outputSchema, /tools/1/outputSchema/properties/issues/items)"),
        "{code}"
    );
}

#[test]
fn a_replaced_type_name_reaches_an_inline_schema() {
    let desc = description(
        json!([{"name": "search", "inputSchema": {"type": "object"},
            "outputSchema": object(json!({"items": {"type": "array",
                "items": object(json!({"id": {"type": "string"}}))}}))}]),
        None,
    );
    let settings = Settings::new().replace_type("SearchOutputItemsItem", "crate::Hit");
    let out = generate(&desc, &settings).unwrap();
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert!(
        out.code.contains("::std::vec::Vec<crate::Hit>"),
        "{}",
        out.code
    );
    assert!(
        !out.code.contains("pub struct SearchOutputItemsItem"),
        "{}",
        out.code
    );
}

#[test]
fn formats_become_the_users_types_and_options_stay_options() {
    let desc = description(
        json!([{"name": "t", "inputSchema": {"type": "object", "properties": {
            "id": {"type": "string", "format": "uuid", "minLength": 36},
            "parent": {"type": "string", "format": "uuid"},
            "at": {"type": ["string", "null"], "format": "date-time"},
            "kind": {"type": "string", "format": "uuid", "enum": ["x"]},
            "since": {"type": "string", "format": "date-time", "default": "2025-01-01T00:00:00Z"}
        }, "required": ["id"]}}]),
        None,
    );
    let settings = Settings::new()
        .format_type("uuid", "::uuid::Uuid")
        .format_type("date-time", "::chrono::DateTime<::chrono::Utc>");
    let code = code(&desc, &settings);
    assert!(code.contains("pub id: ::uuid::Uuid,"), "{code}");
    assert!(
        code.contains("pub parent: ::std::option::Option<::uuid::Uuid>,"),
        "{code}"
    );
    assert!(
        code.contains("pub at: ::std::option::Option<::chrono::DateTime<::chrono::Utc>>,"),
        "{code}"
    );
    // An enum keeps its type; a default beside a format type is not the type's.
    assert!(
        code.contains("pub kind: ::std::option::Option<T2InputKind>,"),
        "{code}"
    );
    assert!(
        code.contains("pub since: ::std::option::Option<::chrono::DateTime<::chrono::Utc>>,"),
        "{code}"
    );
    assert!(code.contains("holds::<::uuid::Uuid>()"), "{code}");
    assert!(code.contains("stands for format `uuid` (t.mcpdesc.json /tools/0/inputSchema/properties/id, /tools/0/inputSchema/properties/parent)"), "{code}");
}

#[test]
fn x_rust_type_is_honoured_for_declared_crates_and_warned_about_otherwise() {
    let ip = json!({"type": "string",
        "x-rust-type": {"crate": "std", "version": "*", "path": "std::net::Ipv4Addr"}});
    let desc = description(
        json!([{"name": "ping", "inputSchema": {"type": "object",
            "properties": {"host": ip, "via": {"$ref": "#/$defs/Ip"}},
            "$defs": {"Ip": ip}}}]),
        None,
    );
    let out = generate(&desc, &Settings::default()).unwrap();
    assert!(
        out.code
            .contains("pub host: ::std::option::Option<::std::string::String>"),
        "{}",
        out.code
    );
    let warned: Vec<String> = out
        .diagnostics
        .iter()
        .filter(|d| d.code == "x-rust-type-ignored")
        .map(|d| d.pointer.clone())
        .collect();
    assert_eq!(
        warned,
        [
            "/tools/0/inputSchema/properties/host/x-rust-type",
            "/tools/0/inputSchema/$defs/Ip/x-rust-type",
        ]
    );
    assert!(out.diagnostics[0].message.contains("not declared"));

    let declared = Settings::new().crate_version("std", "*");
    let out = generate(&desc, &declared).unwrap();
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    assert!(
        out.code
            .contains("pub host: ::std::option::Option<::std::net::Ipv4Addr>"),
        "{}",
        out.code
    );
    assert!(
        out.code
            .contains("pub via: ::std::option::Option<::std::net::Ipv4Addr>"),
        "{}",
        out.code
    );
    assert!(!out.code.contains("PingInputIp"), "{}", out.code);

    let old = Settings::new().crate_version("std", "!");
    assert!(codes(&desc, &old).is_empty());
}

#[test]
fn what_nothing_uses_is_a_warning_and_bad_settings_are_errors() {
    let desc = description(
        json!([{"name": "t", "inputSchema": {"type": "object"}}]),
        None,
    );
    let settings = Settings::new()
        .replace_type("Nothing", "crate::X")
        .replace_type("#/components/schemas/Gone", "crate::Y")
        .format_type("uuid", "::uuid::Uuid");
    let found: Vec<String> = codes(&desc, &settings)
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    assert_eq!(
        found,
        [
            "format-type-unused",
            "replacement-unused",
            "replacement-unused"
        ]
    );
    for bad in [
        Settings::new().replace_type("T", "super::T"),
        Settings::new().replace_type("a b", "crate::T"),
        Settings::new().format_type("uuid", "(u8, u8)"),
        Settings::new().crate_version("geo", "latest"),
    ] {
        assert!(
            matches!(generate(&desc, &bad), Err(GenerateError::Settings(_))),
            "{bad:?}"
        );
    }
}
