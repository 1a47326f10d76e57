//! A tool's own members: annotations (hints), execution (task support) and its input
//! and output schemas.

use std::collections::BTreeSet;

use serde_json::Value;

use super::cache::Cache;
use super::members::{member_or_self, same_member};
use crate::diff::change::Subject;
use crate::diff::found::Found;
use crate::diff::rules::{self, Rule};
use crate::diff::schema::{self, Direction};
use crate::diff::values::brief;
use crate::diff::view::Decl;

/// A tool's annotations, execution and schemas.
pub(super) fn tool(o: &Decl<'_>, n: &Decl<'_>, cache: &mut Cache, out: &mut Vec<Found>) {
    annotations(o, n, out);
    task_support(o, n, out);
    let examples = example_inputs(o.value);
    if let (Some(a), Some(b)) = (o.value.get("inputSchema"), n.value.get("inputSchema")) {
        let (old_at, new_at) = (o.at.key("inputSchema"), n.at.key("inputSchema"));
        out.extend(cache.schemas(&old_at, &new_at, || {
            schema::compare(
                Direction::Input,
                &n.id,
                (a, old_at.clone()),
                (b, new_at.clone()),
                &examples,
            )
        }));
    }
    match (o.value.get("outputSchema"), n.value.get("outputSchema")) {
        (Some(a), Some(b)) => {
            let (old_at, new_at) = (o.at.key("outputSchema"), n.at.key("outputSchema"));
            out.extend(cache.schemas(&old_at, &new_at, || {
                schema::compare(Direction::Output, &n.id, (a, old_at.clone()), (b, new_at.clone()), &[])
            }));
        }
        (None, Some(_)) => out.push(
            Found::new(
                &rules::TOOL_OUTPUT_SCHEMA_ADDED,
                Subject::Tool,
                n.id.clone(),
                format!("tool {:?} now declares an outputSchema: successful results must carry matching structuredContent", n.id),
            )
            .at(Some(o.at.clone()), Some(n.at.key("outputSchema"))),
        ),
        (Some(_), None) => out.push(
            Found::new(
                &rules::TOOL_OUTPUT_SCHEMA_REMOVED,
                Subject::Tool,
                n.id.clone(),
                format!("tool {:?} no longer declares an outputSchema: structured results are no longer promised", n.id),
            )
            .at(Some(o.at.key("outputSchema")), Some(n.at.clone())),
        ),
        (None, None) => {}
    }
}

/// The inputs of a tool's examples (Tool Examples, then Interaction Examples): real
/// arguments the old schema accepts, the best starting points for witnesses.
fn example_inputs(tool: &Value) -> Vec<Value> {
    ["examples", "interactionExamples"]
        .iter()
        .filter_map(|k| tool.get(*k).and_then(Value::as_object))
        .flat_map(|m| m.values())
        .filter_map(|e| e.get("input").cloned())
        .collect()
}

/// The MCP Tool Annotation hints with their defaults and the value that is the riskier
/// one for a client.
const HINTS: [(&str, bool, bool, &Rule); 4] = [
    ("readOnlyHint", false, false, &rules::TOOL_READ_ONLY_CLEARED),
    ("destructiveHint", true, true, &rules::TOOL_DESTRUCTIVE_SET),
    (
        "idempotentHint",
        false,
        false,
        &rules::TOOL_IDEMPOTENT_CLEARED,
    ),
    ("openWorldHint", true, true, &rules::TOOL_OPEN_WORLD_SET),
];

fn annotations(o: &Decl<'_>, n: &Decl<'_>, out: &mut Vec<Found>) {
    let empty = Value::Object(Default::default());
    let a = o.value.get("annotations").unwrap_or(&empty);
    let b = n.value.get("annotations").unwrap_or(&empty);
    let at = |d: &Decl<'_>, key: &str| {
        if d.value.pointer(&format!("/annotations/{key}")).is_some() {
            d.at.key("annotations").key(key)
        } else {
            member_or_self(d, "annotations")
        }
    };
    let keys: BTreeSet<&String> = a
        .as_object()
        .into_iter()
        .chain(b.as_object())
        .flat_map(|m| m.keys())
        .collect();
    for key in keys {
        let hint = HINTS.iter().find(|(name, ..)| name == key);
        if let Some((name, default, risky, rule)) = hint {
            let before = a.get(*name).and_then(Value::as_bool).unwrap_or(*default);
            let after = b.get(*name).and_then(Value::as_bool).unwrap_or(*default);
            if before == after {
                continue;
            }
            let (rule, text): (&Rule, _) = if after == *risky {
                (
                    rule,
                    format!("{name} of tool {:?} went from {before} to {after}", n.id),
                )
            } else {
                (
                    &rules::TOOL_ANNOTATIONS_CHANGED,
                    format!("{name} of tool {:?} went from {before} to {after}", n.id),
                )
            };
            out.push(
                Found::new(rule, Subject::Tool, n.id.clone(), text)
                    .path(format!("annotations.{name}"))
                    .at(Some(at(o, name)), Some(at(n, name))),
            );
        } else if !same_member(a, b, key) {
            out.push(
                Found::new(
                    &rules::TOOL_ANNOTATIONS_CHANGED,
                    Subject::Tool,
                    n.id.clone(),
                    format!(
                        "annotation {key} of tool {:?} changed from {} to {}",
                        n.id,
                        a.get(key).map_or("nothing".to_owned(), brief),
                        b.get(key).map_or("nothing".to_owned(), brief)
                    ),
                )
                .path(format!("annotations.{key}"))
                .at(Some(at(o, key)), Some(at(n, key))),
            );
        }
    }
}

/// How a tool may be called under `execution.taskSupport` (default `forbidden`): plainly
/// and/or task-augmented.
fn call_modes(tool: &Value) -> (bool, bool) {
    match tool
        .pointer("/execution/taskSupport")
        .and_then(Value::as_str)
        .unwrap_or("forbidden")
    {
        "optional" => (true, true),
        "required" => (false, true),
        _ => (true, false),
    }
}

fn task_support(o: &Decl<'_>, n: &Decl<'_>, out: &mut Vec<Found>) {
    let (before, after) = (call_modes(o.value), call_modes(n.value));
    if before == after {
        return;
    }
    let support = |d: &Decl<'_>| {
        d.value
            .pointer("/execution/taskSupport")
            .and_then(Value::as_str)
            .unwrap_or("forbidden (default)")
            .to_owned()
    };
    let text = format!(
        "execution.taskSupport of tool {:?} went from {} to {}",
        n.id,
        support(o),
        support(n)
    );
    let at = |d: &Decl<'_>| {
        if d.value.pointer("/execution/taskSupport").is_some() {
            d.at.key("execution").key("taskSupport")
        } else {
            d.at.clone()
        }
    };
    let lost = (before.0 && !after.0) || (before.1 && !after.1);
    let gained = (!before.0 && after.0) || (!before.1 && after.1);
    if lost {
        out.push(
            Found::new(
                &rules::TOOL_TASK_SUPPORT_NARROWED,
                Subject::Tool,
                n.id.clone(),
                text.clone(),
            )
            .path("execution.taskSupport")
            .at(Some(at(o)), Some(at(n))),
        );
    }
    if gained {
        out.push(
            Found::new(
                &rules::TOOL_TASK_SUPPORT_WIDENED,
                Subject::Tool,
                n.id.clone(),
                text,
            )
            .path("execution.taskSupport")
            .at(Some(at(o)), Some(at(n))),
        );
    }
}
