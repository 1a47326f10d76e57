//! One tool's section: title, badges (annotations, deprecation, task support), tags,
//! scope, description, security, `_meta`, schemas, elicitations, examples (input beside result)
//! and interaction examples (numbered steps).

use serde_json::Value;

use mcpdesc_description::model::Tool;

use crate::content::{block, json_block, tool_result};
use crate::html::{anchor, attr, text};
use crate::item::{elicitations, heading, meta};
use crate::outline::{Item, Page};
use crate::{schema, server};

/// The section of a tool.
pub(crate) fn section(page: &Page, item: &Item, tool: &Tool) -> String {
    let mut out = heading(page, item, badges(tool));
    if let Some(d) = &tool.description {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    out.push_str(&server::requires(tool.security.as_ref(), page));
    out.push_str(&meta(page, item, tool.meta.as_ref()));
    out.push_str(&format!(
        "<h4>Input</h4>{}",
        schema::render(&tool.input_schema, &format!("{}:input", item.id))
    ));
    if let Some(output) = &tool.output_schema {
        out.push_str(&format!(
            "<h4>Output</h4>{}",
            schema::render(output, &format!("{}:output", item.id))
        ));
    }
    out.push_str(&elicitations(tool.elicitations.as_deref(), &item.id));
    if let Some(req) = &tool.client_requirements {
        out.push_str(&format!("<h4>Client requirements</h4>{}", json_block(req)));
    }
    for (name, example) in tool.examples.iter().flatten() {
        out.push_str(&format!(
            "<div class=\"example\" id=\"{}\"><h4>Example <q>{}</q></h4><div class=\"pair\"><div><h5>Input</h5>{}</div><div><h5>Result</h5>{}</div></div></div>",
            attr(&anchor(&format!("{}:example", item.id), name)),
            text(name),
            json_block(&example.input),
            tool_result(&example.result)
        ));
    }
    for (name, example) in tool.interaction_examples.iter().flatten() {
        out.push_str(&format!(
            "<div class=\"example interaction\" id=\"{}\"><h4>Interaction <q>{}</q></h4><ol class=\"steps\">",
            attr(&anchor(&format!("{}:interaction", item.id), name)),
            text(name)
        ));
        out.push_str(&format!(
            "<li><span class=\"label\">call with</span>{}</li>",
            json_block(&example.input)
        ));
        for step in &example.steps {
            let declaration = step
                .declaration
                .as_deref()
                .map(|d| format!(" <code>{}</code>", text(d)))
                .unwrap_or_default();
            out.push_str(&format!(
                "<li><span class=\"label\">{} request{declaration}</span>{}<span class=\"label\">client answers</span>{}</li>",
                text(&step.kind),
                payload(&step.request),
                payload(&step.response)
            ));
        }
        out.push_str(&format!(
            "<li><span class=\"label\">result</span>{}</li></ol></div>",
            tool_result(&example.result)
        ));
    }
    out.push_str("</section>");
    out
}

/// A step's request or response: its content block when it has one (sampling), then
/// the whole value as JSON.
fn payload(v: &Value) -> String {
    match v.get("content").filter(|c| c.get("type").is_some()) {
        Some(c) => format!("{}{}", block(c), json_block(v)),
        None => json_block(v),
    }
}

/// The annotation badges (as declared), deprecation and task support.
fn badges(tool: &Tool) -> String {
    let mut b = Vec::new();
    if let Some(a) = &tool.annotations {
        let hints = [
            (a.read_only_hint, "read-only", "writes", "ok"),
            (
                a.destructive_hint,
                "destructive",
                "non-destructive",
                "danger",
            ),
            (a.idempotent_hint, "idempotent", "not idempotent", ""),
            (a.open_world_hint, "open world", "closed world", ""),
        ];
        for (hint, yes, no, class) in hints {
            match hint {
                Some(true) => b.push(format!("<span class=\"badge {class}\">{yes}</span>")),
                Some(false) => b.push(format!("<span class=\"badge muted\">{no}</span>")),
                None => {}
            }
        }
    }
    if tool.deprecated == Some(true) {
        b.push("<span class=\"badge danger\">deprecated</span>".to_owned());
    }
    if let Some(ts) = tool
        .execution
        .as_ref()
        .and_then(|e| e.task_support.as_deref())
    {
        b.push(format!("<span class=\"badge\">tasks: {}</span>", text(ts)));
    }
    b.join(" ")
}
