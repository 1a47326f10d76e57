//! Prompts, resources and resource templates: their traits and types, and one trait
//! per prompt variant.

use serde_json::{json, Value};

use super::code;
use crate::generate::generate;
use crate::settings::Settings;
use mcpdesc_description::diagnostic::Severity;
use mcpdesc_description::protocol::ProtocolVersion;
use mcpdesc_description::{Description, Limits};

fn primitives_description(versions: &[&str], extra: Value) -> Description {
    let mut doc = json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "t", "version": "1"},
        "protocolVersions": versions,
    });
    for (k, v) in extra.as_object().unwrap() {
        doc[k] = v.clone();
    }
    Description::from_text(
        "p.mcpdesc.json",
        serde_json::to_string_pretty(&doc).unwrap(),
        None,
        &Limits::default(),
    )
}

#[test]
fn prompts_resources_and_templates_get_traits_and_types() {
    let desc = primitives_description(
        &["2025-11-25"],
        json!({
            "tools": [{"name": "brief", "inputSchema": {"type": "object"}}],
            "prompts": [{"name": "brief", "arguments": [{"name": "city", "required": true}, {"name": "type"}],
                         "completionExamples": {"c": {"argument": {"name": "city", "value": "p"},
                             "result": {"completion": {"values": ["Paris"]}}}}}],
            "resources": [{"uri": "x:///a", "name": "a"}, {"uri": "x:///b", "name": "a"}],
            "resourceTemplates": [
                {"uriTemplate": "x:///items/{id}", "name": "item"},
                {"uriTemplate": "x:///search{?q}", "name": "search"}
            ]
        }),
    );
    let out = generate(&desc, &Settings::default()).unwrap();
    let code = &out.code;
    for expected in [
        "pub trait Brief: Send + Sync",
        "pub trait BriefPrompt: Send + Sync",
        "fn get_brief(",
        "fn complete_brief(",
        "pub struct BriefArguments {",
        "pub city: ::std::string::String,",
        "#[serde(rename = \"type\")]",
        "pub type_: ::std::option::Option<::std::string::String>,",
        "pub trait AResource: Send + Sync",
        "pub trait A2Resource: Send + Sync",
        "pub struct ItemVariables {",
        "pub trait SearchTemplate: Send + Sync",
        "variables: ::std::string::String,",
        "fn read_item(",
    ] {
        assert!(code.contains(expected), "{expected} missing:\n{code}");
    }
    // No completion method without completion examples.
    assert!(!code.contains("fn complete_item("), "{code}");
    // Server requires every trait.
    assert!(code.contains("pub trait Server: Brief + BriefPrompt + AResource + A2Resource + ItemTemplate + SearchTemplate"), "{code}");
    // The template beyond level 1 is warned about, at its uriTemplate.
    let warning = out
        .diagnostics
        .iter()
        .find(|d| d.code == "uri-template-beyond-level-1")
        .expect("a warning");
    assert_eq!(warning.pointer, "/resourceTemplates/1/uriTemplate");
    assert_eq!(warning.severity, Severity::Warning);
}

#[test]
fn prompt_variants_get_a_trait_each() {
    let desc = primitives_description(
        &["2025-11-25", "2026-07-28"],
        json!({
            "prompts": [
                {"name": "greet", "protocolVersions": ["2025-11-25"]},
                {"name": "greet", "protocolVersions": ["2026-07-28"], "arguments": [{"name": "who"}]}
            ]
        }),
    );
    let all = code(&desc, &Settings::default());
    assert!(
        all.contains("pub trait GreetV20251125Prompt:")
            && all.contains("pub trait GreetV20260728Prompt:")
            && all.contains("pub struct GreetV20260728Arguments {"),
        "{all}"
    );
    let newer = code(
        &desc,
        &Settings::new().protocol_version(ProtocolVersion::V2026_07_28),
    );
    assert!(
        newer.contains("pub who: ::std::option::Option<::std::string::String>"),
        "{newer}"
    );
}
