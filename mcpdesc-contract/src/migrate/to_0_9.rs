//! The 0.8 → 0.9 rewrite (digest §10): the format version, `$schema`, and Tool
//! Annotations, which 0.9.0-rc.3 closes to the five MCP-defined members (rule
//! `mcp.tool-annotations.members`). Everything else 0.9.0 changed loosens a 0.8.0 rule
//! (object roots, elicitation response `_meta`) or is checked by validation (the fixed
//! dialect set), so it needs no rewriting.

use serde_json::Value;

use super::migration::schema_uri;
use super::run::{brief, Run};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::validate::SpecVersion;

/// The members 0.9.0 allows in Tool Annotations.
const TOOL_ANNOTATIONS: [&str; 5] = [
    "title",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// Rewrites a 0.8.0 value as 0.9.0. `from_0_8` says whether the input itself was 0.8.0
/// (after the 0.7 step, `mcpdesc` and `$schema` are already final).
pub(super) fn apply(run: &mut Run<'_>, value: &mut Value, from_0_8: bool) {
    let Some(root) = value.as_object_mut() else {
        return;
    };
    let here = Pointer::root();
    // After the 0.7 step, `mcpdesc` and `$schema` already name 0.9.0.
    if from_0_8 {
        if let Some(v) = root.get_mut("mcpdesc") {
            let at = here.key("mcpdesc");
            run.change(
                Some(at.clone()),
                Some(at),
                format!("mcpdesc {} set to \"0.9.0\"", brief(v)),
            );
            *v = Value::String("0.9.0".to_owned());
        }
        if let Some(v) = root.get_mut("$schema") {
            let at = here.key("$schema");
            let uri = schema_uri(SpecVersion::V0_9_0);
            if v.as_str() != Some(uri) {
                run.change(
                    Some(at.clone()),
                    Some(at),
                    format!("$schema {} replaced by the 0.9.0 schema {uri}", brief(v)),
                );
                *v = Value::String(uri.to_owned());
            }
        }
    }
    let Some(tools) = root.get_mut("tools").and_then(Value::as_array_mut) else {
        return;
    };
    for (index, tool) in tools.iter_mut().enumerate() {
        let at = here.key("tools").index(index).key("annotations");
        let Some(annotations) = tool.get_mut("annotations").and_then(Value::as_object_mut) else {
            continue;
        };
        let extra: Vec<String> = annotations
            .keys()
            .filter(|k| !TOOL_ANNOTATIONS.contains(&k.as_str()))
            .cloned()
            .collect();
        for key in extra {
            let member_at = at.key(&key);
            let old = annotations.shift_remove(&key).unwrap_or(Value::Null);
            let from = run.input_pointer(&member_at);
            run.warn(
                "annotation-not-carried",
                &from,
                format!(
                    "tools[{index}].annotations.{key} (value {}) was not carried over: MCP Description 0.9.0 closes Tool Annotations to title, readOnlyHint, destructiveHint, idempotentHint and openWorldHint",
                    brief(&old)
                ),
            );
            run.change(
                Some(from),
                None,
                format!(
                    "tools[{index}].annotations.{key} removed (not a Tool Annotation in 0.9.0)"
                ),
            );
        }
    }
}
