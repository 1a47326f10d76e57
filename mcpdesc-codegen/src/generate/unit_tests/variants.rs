//! Protocol-scoped variants: one module or one view, shared types and handler traits,
//! names that never collide, and overlapping scopes refused without a version.

use serde_json::json;

use super::{code, description, one_type_settings};
use crate::generate::{generate, GenerateError, ViewError};
use crate::settings::Settings;
use mcpdesc_description::protocol::ProtocolVersion;

#[test]
fn variants_generate_one_module_or_one_view() {
    let desc = description(
        json!([
            {"name": "run", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"}},
            {"name": "run", "protocolVersions": ["2026-07-28"],
             "inputSchema": {"type": "object", "properties": {"v2": {"type": "boolean"}}}},
            {"name": "new_only", "protocolVersions": ["2026-07-28"], "inputSchema": {"type": "object"}}
        ]),
        None,
    );
    // Without a version: a trait, types and a registration per variant.
    let all = code(&desc, &Settings::default());
    for expected in [
        "pub trait RunV20251125:",
        "pub trait RunV20260728:",
        "pub struct RunV20251125Input(",
        "pub struct RunV20260728Input {",
        "pub trait NewOnly:",
        ".tool(\n            tools::run_v20251125::SPEC",
        ".tool(\n            tools::run_v20260728::SPEC",
    ] {
        assert!(all.contains(expected), "{expected}\n{all}");
    }
    assert!(!all.contains("pub trait Run:"), "{all}");
    let old = code(
        &desc,
        &Settings::new().protocol_version(ProtocolVersion::V2025_11_25),
    );
    assert!(
        old.contains("pub struct RunInput(") && !old.contains("v2") && !old.contains("NewOnly")
    );
    assert!(old.contains("Effective Protocol View of MCP 2025-11-25."));
    let new = code(
        &desc,
        &Settings::new().protocol_version(ProtocolVersion::V2026_07_28),
    );
    assert!(
        new.contains("pub v2") && new.contains("NewOnlyInput"),
        "{new}"
    );
    match generate(
        &desc,
        &Settings::new().protocol_version(ProtocolVersion::V2024_11_05),
    ) {
        Err(GenerateError::View(ViewError::UnknownVersion { .. })) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn identical_variant_schemas_are_one_type_named_after_the_tool() {
    let schema = json!({"type": "object", "properties": {"q": {"type": "string"}}});
    let desc = description(
        json!([
            {"name": "find", "protocolVersions": ["2025-11-25"], "inputSchema": schema,
             "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
            {"name": "find", "protocolVersions": ["2026-07-28"], "inputSchema": schema,
             "annotations": {"readOnlyHint": true}}
        ]),
        None,
    );
    let out = generate(&desc, &one_type_settings()).unwrap();
    assert_eq!(
        out.code.matches("pub struct FindInput {").count(),
        1,
        "{}",
        out.code
    );
    assert!(!out.code.contains("FindV20251125Input") && !out.code.contains("FindV20260728Input"));
    // The output exists in one variant only: it keeps the variant's name.
    assert!(
        out.code.contains("pub struct FindV20251125Output {"),
        "{}",
        out.code
    );
    let names: Vec<(&str, &str)> = out
        .ir
        .tools
        .iter()
        .map(|t| (t.names.trait_name.as_str(), t.names.input_type.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("FindV20251125", "FindInput"),
            ("FindV20260728", "FindInput")
        ]
    );
    assert!(
        out.code.contains("in MCP 2025-11-25, 2026-07-28."),
        "{}",
        out.code
    );
}

#[test]
fn overlapping_same_name_scopes_are_refused_without_a_version() {
    use mcpdesc_description::model::Document;
    let doc: Document = serde_json::from_value(json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "x", "version": "1"},
        "protocolVersions": ["2025-11-25", "2026-07-28"],
        "tools": [
            {"name": "run", "inputSchema": {"type": "object"}},
            {"name": "run", "protocolVersions": ["2026-07-28"], "inputSchema": {"type": "object"}}
        ]
    }))
    .unwrap();
    match mcpdesc_description::view::select_view(&doc, None) {
        Err(ViewError::Overlap {
            kind,
            name,
            version,
        }) => {
            assert_eq!(
                (kind, name.as_str(), version),
                ("tool", "run", ProtocolVersion::V2026_07_28)
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn variant_names_never_collide_with_a_tool_named_like_them() {
    let desc = description(
        json!([
            {"name": "run_v20251125", "inputSchema": {"type": "object"}},
            {"name": "run", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"}},
            {"name": "run", "protocolVersions": ["2026-07-28"],
             "inputSchema": {"type": "object", "properties": {"fast": {"type": "boolean"}}}}
        ]),
        None,
    );
    let out = generate(&desc, &Settings::default()).unwrap();
    let traits: Vec<&str> = out
        .ir
        .tools
        .iter()
        .map(|t| t.names.trait_name.as_str())
        .collect();
    assert_eq!(traits, ["RunV20251125", "RunV202511252", "RunV20260728"]);
    let modules: std::collections::BTreeSet<&str> = out
        .ir
        .tools
        .iter()
        .map(|t| t.names.method_name.as_str())
        .collect();
    assert_eq!(modules.len(), 3);
}

#[test]
fn variants_with_one_handler_signature_share_one_trait() {
    let confirm = |message: &str| {
        json!([{"name": "confirm", "mode": "form", "message": message,
                "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}])
    };
    let desc = description(
        json!([
            {"name": "run", "protocolVersions": ["2025-11-25"], "description": "Run.",
             "execution": {"taskSupport": "optional"}, "deprecated": true,
             "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
            {"name": "run", "protocolVersions": ["2026-07-28"], "description": "Run it.",
             "annotations": {"readOnlyHint": true},
             "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}},
            {"name": "ask", "protocolVersions": ["2025-11-25"], "elicitations": confirm("Sure?"),
             "inputSchema": {"type": "object"}},
            {"name": "ask", "protocolVersions": ["2026-07-28"], "elicitations": confirm("Really?"),
             "inputSchema": {"type": "object"}}
        ]),
        None,
    );
    assert!(desc.is_valid(), "{}", desc.render_diagnostics());
    let out = generate(&desc, &Settings::default()).unwrap();
    let tools: Vec<(&str, &str, &str, Option<usize>)> = out
        .ir
        .tools
        .iter()
        .map(|t| {
            (
                t.names.trait_name.as_str(),
                t.module.as_str(),
                t.names.input_type.as_str(),
                t.handler_of,
            )
        })
        .collect();
    // `run` differs in description, annotations and execution: one trait with the
    // tool's own names, a module per variant. `ask`'s elicitations differ: a trait each.
    assert_eq!(
        tools,
        [
            ("Run", "run_v20251125", "RunInput", None),
            ("Run", "run_v20260728", "RunInput", Some(0)),
            ("AskV20251125", "ask_v20251125", "AskInput", None),
            ("AskV20260728", "ask_v20260728", "AskInput", None),
        ]
    );
    let code = &out.code;
    assert!(code.contains("pub trait Run: Send + Sync {"), "{code}");
    assert!(!code.contains("RunV2026"), "{code}");
    assert!(code.contains("pub mod run_v20251125 {") && code.contains("pub mod run_v20260728 {"));
    // One variant of two is deprecated: the shared trait is not.
    assert!(!code.contains("marks this tool as deprecated"), "{code}");
    assert!(!code.contains("RunV20251125Input"), "{code}");
    assert!(code.contains("Run::run(&*s, input, cx)"), "{code}");
    assert_eq!(
        code.matches("impl Run for ExampleServer").count(),
        1,
        "{code}"
    );
}
