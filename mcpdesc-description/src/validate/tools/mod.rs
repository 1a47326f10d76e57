//! Semantic checks of the `tools` array (spec §9): per-version member applicability,
//! same-name disjointness, annotations, both schemas, Tool Examples and Tool
//! Interaction Examples.
//!
//! Each tool's schemas are checked and compiled once; every example of the tool reuses
//! the compiled validators, so the work is linear in the size of the description.

mod examples;
mod interaction;
mod keywords;
mod nested_refs;
mod portable;
mod schema;

use serde_json::Value;

use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;
use crate::validate::cx::{display_path, Cx};
use crate::validate::meta::{self, MetaContext};
use crate::validate::scopes::{self, Scoped};

use examples::ToolSchemas;
use schema::Which;
use ProtocolVersion::*;

/// The Tool Annotation members of spec §9.6.
const ANNOTATION_MEMBERS: [&str; 5] = [
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// Resource Annotation members, which must not be placed on a Tool.
const RESOURCE_ANNOTATION_MEMBERS: [&str; 3] = ["audience", "priority", "lastModified"];

/// Runs every Tool check.
pub fn check(cx: &mut Cx<'_>) {
    let tools: Vec<Scoped<'_>> = cx.tools.clone();
    scopes::check_disjoint(cx, "name", &tools);
    for tool in &tools {
        check_tool(cx, tool);
    }
}

fn check_tool(cx: &mut Cx<'_>, tool: &Scoped<'_>) {
    let (at, value, scope) = (&tool.at, tool.value, tool.scope);
    if !value.is_object() || scope.is_empty() {
        return;
    }
    applicability(cx, at, value, scope);
    if let Some(a) = value.get("annotations") {
        annotations(cx, &at.key("annotations"), a);
    }
    if let Some(m) = value.get("_meta") {
        meta::check(cx, &at.key("_meta"), m, scope, MetaContext::Declaration);
    }

    let input_schema = value.get("inputSchema").cloned().unwrap_or(Value::Null);
    let input = schema::check(cx, at, Which::Input, &input_schema, scope);
    let output = value
        .get("outputSchema")
        .map(|s| schema::check(cx, at, Which::Output, s, scope));
    let schemas = ToolSchemas {
        input,
        output,
        input_schema,
    };

    if let Some(map) = value.get("examples").and_then(Value::as_object) {
        for (name, example) in map {
            let eat = at.key("examples").key(name);
            if crate::validate::refs::is_reference(example) {
                continue; // unresolvable; reported during resolution
            }
            if let Some(input) = example.get("input") {
                examples::check_input(cx, &eat.key("input"), input, &schemas);
            }
            if let Some(result) = example.get("result") {
                examples::check_result(cx, &eat.key("result"), result, &schemas, scope);
            }
        }
    }
    let context = interaction::ToolContext {
        tool: value,
        scope,
        schemas: &schemas,
    };
    interaction::check_all(cx, at, &context);
}

/// Tool members that exist only in some protocol versions (digest §2.5).
fn applicability(cx: &mut Cx<'_>, at: &Pointer, tool: &Value, scope: VersionSet) {
    let gates: [(&str, VersionSet); 6] = [
        ("annotations", VersionSet::since(V2025_03_26)),
        ("title", VersionSet::since(V2025_06_18)),
        ("outputSchema", VersionSet::since(V2025_06_18)),
        ("_meta", VersionSet::since(V2025_06_18)),
        ("icons", VersionSet::since(V2025_11_25)),
        ("execution", VersionSet::only(V2025_11_25)),
    ];
    for (member, defined) in gates {
        if tool.get(member).is_some() {
            cx.field_versions(&at.key(member), member, scope, defined);
        }
    }
}

/// 0.9.0 closes Tool Annotations: only the five members of §9.6, no `x-*`, no Resource
/// Annotation fields. 0.8.0 documents keep the open 0.8.0 object.
fn annotations(cx: &mut Cx<'_>, at: &Pointer, value: &Value) {
    if !cx.is_0_9() {
        return;
    }
    let Some(map) = value.as_object() else {
        return;
    };
    for key in map.keys() {
        if ANNOTATION_MEMBERS.contains(&key.as_str()) {
            continue;
        }
        let why = if RESOURCE_ANNOTATION_MEMBERS.contains(&key.as_str()) {
            " (it is a Resource Annotation field, which has no meaning on a Tool)"
        } else if key.starts_with("x-") {
            " (Tool Annotations are a closed MCP type; specification extensions are not allowed)"
        } else {
            ""
        };
        cx.error(
            rules::TOOL_ANNOTATIONS_MEMBERS,
            "unknown-tool-annotation",
            &at.key(key),
            format!(
                "{} has the member `{key}`, but Tool Annotations may contain only {}{why}",
                display_path(at),
                ANNOTATION_MEMBERS.join(", ")
            ),
        );
    }
}

#[cfg(test)]
mod tests;
