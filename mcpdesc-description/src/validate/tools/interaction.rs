//! Tool Interaction Examples (spec §9.4): input and result as for Tool Examples, plus
//! the ordered elicitation, sampling and roots steps, checked against every version of
//! the tool's scope, against the tool's Elicitation Declarations and (as warnings)
//! against its declared `clientRequirements`.

use serde_json::Value;

use super::examples::{self, ToolSchemas};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;
use crate::validate::cx::{display_path, Cx};
use crate::validate::dialect::{self, Dialect};
use crate::validate::meta::{self, MetaContext};

use ProtocolVersion::*;

/// What the steps are checked against: the tool they belong to.
pub struct ToolContext<'a> {
    /// The tool declaration (resolved).
    pub tool: &'a Value,
    /// The tool's effective scope.
    pub scope: VersionSet,
    /// The tool's schemas.
    pub schemas: &'a ToolSchemas,
}

/// Checks every interaction example of one tool.
pub fn check_all(cx: &mut Cx<'_>, tool_at: &Pointer, t: &ToolContext<'_>) {
    let Some(map) = t.tool.get("interactionExamples").and_then(Value::as_object) else {
        return;
    };
    for (name, example) in map {
        let at = tool_at.key("interactionExamples").key(name);
        if let Some(input) = example.get("input") {
            examples::check_input(cx, &at.key("input"), input, t.schemas);
        }
        if let Some(result) = example.get("result") {
            examples::check_result(cx, &at.key("result"), result, t.schemas, t.scope);
        }
        if let Some(steps) = example.get("steps").and_then(Value::as_array) {
            for (i, step) in steps.iter().enumerate() {
                check_step(cx, &at.key("steps").index(i), step, t);
            }
        }
    }
}

fn check_step(cx: &mut Cx<'_>, at: &Pointer, step: &Value, t: &ToolContext<'_>) {
    match step.get("type").and_then(Value::as_str) {
        Some("elicitation") => elicitation(cx, at, step, t),
        Some("sampling") => sampling(cx, at, step, t),
        Some("roots") => roots(cx, at, step, t),
        _ => {} // structural error already
    }
}

/// A `clientRequirements` member path, such as `["sampling", "tools"]`, when the tool
/// declares `clientRequirements` at all (no requirement is inferred otherwise).
fn requirement<'a>(t: &'a ToolContext<'_>, path: &[&str]) -> Option<Option<&'a Value>> {
    let declared = t.tool.get("clientRequirements")?;
    let mut node = Some(declared);
    for key in path {
        node = node.and_then(|n| n.get(*key));
    }
    Some(node)
}

fn contradiction(cx: &mut Cx<'_>, at: &Pointer, what: &str, missing: &str) {
    cx.warning(
        rules::TOOL_INTERACTION_CLIENT_REQUIREMENTS,
        "interaction-example-client-requirements-contradiction",
        at,
        format!(
            "{} {what}, but the tool's clientRequirements do not include `{missing}`",
            display_path(at)
        ),
    );
}

fn version_mismatch(
    cx: &mut Cx<'_>,
    rule: &'static str,
    at: &Pointer,
    what: &str,
    missing: VersionSet,
) {
    cx.error(
        rule,
        "interaction-example-version-mismatch",
        at,
        format!(
            "{} {what}, which is not defined for {missing}; split the tool into disjoint protocol-scoped variants",
            display_path(at)
        ),
    );
}

fn elicitation(cx: &mut Cx<'_>, at: &Pointer, step: &Value, t: &ToolContext<'_>) {
    let request = step.get("request").unwrap_or(&Value::Null);
    let response = step.get("response").unwrap_or(&Value::Null);
    let mode = request
        .get("mode")
        .and_then(Value::as_str)
        .unwrap_or("form");

    let before = t.scope.minus(VersionSet::since(V2025_06_18));
    if !before.is_empty() {
        version_mismatch(
            cx,
            rules::ELICITATION_PROTOCOL_VERSION,
            &at.key("type"),
            "is an elicitation step",
            before,
        );
    }
    if mode == "url" {
        let before = t.scope.minus(VersionSet::since(V2025_11_25));
        if !before.is_empty() {
            version_mismatch(
                cx,
                rules::ELICITATION_PROTOCOL_VERSION,
                &at.key("request").key("mode"),
                "uses request.mode \"url\"",
                before,
            );
        }
    }

    match requirement(t, &["elicitation"]) {
        Some(None) => contradiction(cx, at, "requests elicitation", "elicitation"),
        Some(Some(declared)) => {
            if mode == "url" && declared.get("url").is_none() {
                contradiction(cx, at, "requests URL-mode elicitation", "elicitation.url");
            }
            let non_empty = declared.as_object().is_some_and(|m| !m.is_empty());
            if mode == "form" && non_empty && declared.get("form").is_none() {
                contradiction(cx, at, "requests form-mode elicitation", "elicitation.form");
            }
        }
        None => {}
    }

    if let Some(schema) = request.get("requestedSchema") {
        // The restricted form vocabulary of each version in scope (§6.4).
        crate::validate::elicitations::check_form_schema(
            cx,
            &at.key("request").key("requestedSchema"),
            schema,
            t.scope,
        );
    }
    if let Some(name) = step.get("declaration").and_then(Value::as_str) {
        declaration(cx, at, name, request, mode, t);
    }

    response_matches(cx, at, request, response, mode, t);
}

/// An elicitation step's response: form accept needs content valid against the request
/// schema; decline and cancel carry none; URL mode never carries content.
fn response_matches(
    cx: &mut Cx<'_>,
    at: &Pointer,
    request: &Value,
    response: &Value,
    mode: &str,
    t: &ToolContext<'_>,
) {
    let action = response
        .get("action")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let content = response.get("content");
    let rat = at.key("response");
    let rpath = display_path(&rat);
    match (mode, action, content) {
        ("form", "accept", None) => cx.error(
            rules::TOOL_INTERACTION_ELICITATION,
            "interaction-example-elicitation-response-mismatch",
            &rat,
            format!("{rpath} accepts a form elicitation, so it must contain `content`"),
        ),
        ("form", "accept", Some(c)) => {
            if let Some(schema) = request.get("requestedSchema").filter(|s| s.is_object()) {
                match dialect::compile(schema, Dialect::of(schema)) {
                    Ok(validator) => {
                        for p in dialect::instance_problems(&validator, c, 10) {
                            let ptr = super::schema::at_inside(&rat.key("content"), &p.at);
                            cx.error(
                                rules::TOOL_INTERACTION_ELICITATION,
                                "interaction-example-elicitation-content-schema-mismatch",
                                &ptr,
                                format!("{rpath}.content does not conform to the request's requestedSchema: {}", p.message),
                            );
                        }
                    }
                    Err(message) => cx.error(
                        rules::TOOL_INTERACTION_ELICITATION,
                        "interaction-example-elicitation-content-schema-mismatch",
                        &at.key("request").key("requestedSchema"),
                        format!(
                            "{}.request.requestedSchema cannot be compiled: {message}",
                            display_path(at)
                        ),
                    ),
                }
            }
        }
        ("form", _, Some(_)) => cx.error(
            rules::TOOL_INTERACTION_ELICITATION,
            "interaction-example-elicitation-response-mismatch",
            &rat.key("content"),
            format!("{rpath} is a {action} response and must not contain `content`"),
        ),
        ("url", _, Some(_)) => cx.error(
            rules::TOOL_INTERACTION_ELICITATION,
            "interaction-example-elicitation-response-mismatch",
            &rat.key("content"),
            format!("{rpath} answers a URL-mode elicitation and must not contain `content`"),
        ),
        _ => {}
    }
    if let Some(m) = response.get("_meta") {
        if cx.is_0_9() {
            meta::check(cx, &rat.key("_meta"), m, t.scope, MetaContext::Carried);
        } else {
            cx.error(
                rules::INPUT_RESPONSE_CLOSED,
                "unknown-property",
                &rat.key("_meta"),
                format!("{rpath} may contain only `action` and `content` in mcpdesc 0.8.0"),
            );
        }
    }
}

/// The step names an Elicitation Declaration of the same tool: modes, form schemas and
/// static URLs must agree with it.
fn declaration(
    cx: &mut Cx<'_>,
    at: &Pointer,
    name: &str,
    request: &Value,
    mode: &str,
    t: &ToolContext<'_>,
) {
    let dat = at.key("declaration");
    let found = t
        .tool
        .get("elicitations")
        .and_then(Value::as_array)
        .and_then(|list| {
            list.iter()
                .find(|d| d.get("name").and_then(Value::as_str) == Some(name))
        });
    let Some(decl) = found else {
        cx.error(
            rules::TOOL_INTERACTION_ELICITATION,
            "unknown-elicitation-declaration",
            &dat,
            format!(
                "{} identifies no Elicitation Declaration named {name:?} on this tool",
                display_path(&dat)
            ),
        );
        return;
    };
    let declared_mode = decl.get("mode").and_then(Value::as_str).unwrap_or_default();
    let mismatch = |cx: &mut Cx<'_>, ptr: &Pointer, what: String| {
        cx.error(
            rules::TOOL_INTERACTION_ELICITATION,
            "interaction-example-elicitation-declaration-mismatch",
            ptr,
            what,
        );
    };
    if declared_mode != mode {
        mismatch(
            cx,
            &at.key("request").key("mode"),
            format!(
                "{} uses mode {mode:?}, but the declaration {name:?} has mode {declared_mode:?}",
                display_path(at)
            ),
        );
        return;
    }
    match mode {
        "form" => {
            if let (Some(a), Some(b)) =
                (request.get("requestedSchema"), decl.get("requestedSchema"))
            {
                if a != b {
                    mismatch(
                        cx,
                        &at.key("request").key("requestedSchema"),
                        format!("{}.request.requestedSchema differs from the requestedSchema of declaration {name:?}", display_path(at)),
                    );
                }
            }
        }
        "url" => {
            if let (Some(a), Some(b)) = (request.get("url"), decl.get("url")) {
                if a != b {
                    mismatch(
                        cx,
                        &at.key("request").key("url"),
                        format!(
                            "{}.request.url differs from the static url of declaration {name:?}",
                            display_path(at)
                        ),
                    );
                }
            }
        }
        _ => {}
    }
}

fn sampling(cx: &mut Cx<'_>, at: &Pointer, step: &Value, t: &ToolContext<'_>) {
    let request = step.get("request").unwrap_or(&Value::Null);
    let rq = at.key("request");
    let uses_tools = request.get("tools").is_some() || request.get("toolChoice").is_some();
    if uses_tools {
        let before = t.scope.minus(VersionSet::since(V2025_11_25));
        if !before.is_empty() {
            let member = if request.get("tools").is_some() {
                "tools"
            } else {
                "toolChoice"
            };
            version_mismatch(
                cx,
                rules::SAMPLING_TOOLS_PROTOCOL_VERSION,
                &rq.key(member),
                "uses sampling Tool fields (tools, toolChoice)",
                before,
            );
        }
    }
    // tool_use / tool_result content blocks came with sampling tools (2025-11-25).
    let before_tools = t.scope.minus(VersionSet::since(V2025_11_25));
    if !before_tools.is_empty() {
        let mut blocks = Vec::new();
        if let Some(messages) = request.get("messages").and_then(Value::as_array) {
            for (i, m) in messages.iter().enumerate() {
                collect_blocks(
                    m.get("content"),
                    &rq.key("messages").index(i).key("content"),
                    &mut blocks,
                );
            }
        }
        collect_blocks(
            step.get("response").and_then(|r| r.get("content")),
            &at.key("response").key("content"),
            &mut blocks,
        );
        for (ptr, block) in blocks {
            if let Some(kind @ ("tool_use" | "tool_result")) =
                block.get("type").and_then(Value::as_str)
            {
                version_mismatch(
                    cx,
                    rules::INTERACTION_MESSAGE_MEMBERS,
                    &ptr.key("type"),
                    &format!("uses a {kind} content block"),
                    before_tools,
                );
            }
        }
    }
    match requirement(t, &["sampling"]) {
        Some(None) => contradiction(cx, at, "requests sampling", "sampling"),
        Some(Some(declared)) => {
            if uses_tools && declared.get("tools").is_none() {
                contradiction(cx, at, "uses sampling tools", "sampling.tools");
            }
            let context = request.get("includeContext").and_then(Value::as_str);
            if context.is_some_and(|c| c != "none") && declared.get("context").is_none() {
                contradiction(cx, at, "asks to include context", "sampling.context");
            }
        }
        None => {}
    }
}

fn collect_blocks<'v>(
    content: Option<&'v Value>,
    at: &Pointer,
    out: &mut Vec<(Pointer, &'v Value)>,
) {
    match content {
        Some(Value::Array(items)) => {
            out.extend(items.iter().enumerate().map(|(i, b)| (at.index(i), b)))
        }
        Some(block @ Value::Object(_)) => out.push((at.clone(), block)),
        _ => {}
    }
}

fn roots(cx: &mut Cx<'_>, at: &Pointer, step: &Value, t: &ToolContext<'_>) {
    if let Some(None) = requirement(t, &["roots"]) {
        contradiction(cx, at, "requests roots", "roots");
    }
    let Some(list) = step
        .get("response")
        .and_then(|r| r.get("roots"))
        .and_then(Value::as_array)
    else {
        return;
    };
    for (i, root) in list.iter().enumerate() {
        let rat = at.key("response").key("roots").index(i);
        if let Some(uri) = root.get("uri").and_then(Value::as_str) {
            if !uri.starts_with("file://") {
                cx.error(
                    rules::ROOT_URI_FILE_SCHEME,
                    "interaction-example-roots-uri",
                    &rat.key("uri"),
                    format!(
                        "{}.uri must be a file:// URI, not {uri:?}",
                        display_path(&rat)
                    ),
                );
            }
        }
        if let Some(m) = root.get("_meta") {
            // Decision: MCP Root gained `_meta` with the 2025-06-18 schema; mcpdesc 0.8.0
            // kept root entries closed to `uri` and `name`.
            if !cx.is_0_9() {
                cx.error(
                    rules::ROOT_META_PROTOCOL_VERSION,
                    "unknown-property",
                    &rat.key("_meta"),
                    format!(
                        "{} may contain only `uri` and `name` in mcpdesc 0.8.0",
                        display_path(&rat)
                    ),
                );
            } else if cx.field_versions(
                &rat.key("_meta"),
                "_meta",
                t.scope,
                VersionSet::since(V2025_06_18),
            ) {
                meta::check(cx, &rat.key("_meta"), m, t.scope, MetaContext::Carried);
            }
        }
    }
}
