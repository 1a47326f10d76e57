//! Prompts (arguments, examples), resources and resource templates (URI, MIME type,
//! examples), and their completion examples.

use std::collections::BTreeMap;

use serde_json::Value;

use mcpdesc_description::model::{Prompt, Resource, ResourceTemplate};

use crate::content::{completion_result, json_block, prompt_result, read_result};
use crate::html::{anchor, attr, ident, text};
use crate::item::{elicitations, heading, meta};
use crate::outline::{Item, Page};
use crate::server;

fn deprecated(flag: Option<bool>) -> String {
    if flag == Some(true) {
        "<span class=\"badge danger\">deprecated</span>".to_owned()
    } else {
        String::new()
    }
}

/// A prompt: description, security, `_meta`, arguments, examples, completion examples.
pub(crate) fn prompt(page: &Page, item: &Item, p: &Prompt) -> String {
    let mut out = heading(page, item, deprecated(p.deprecated));
    if let Some(d) = &p.description {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    out.push_str(&server::requires(p.security.as_ref(), page));
    out.push_str(&meta(page, item, p.meta.as_ref()));
    if let Some(args) = &p.arguments {
        out.push_str("<h4>Arguments</h4><table class=\"schema\"><thead><tr><th>Name</th><th>Required</th><th>Details</th></tr></thead><tbody>");
        for a in args {
            let s = |k: &str| a.get(k).and_then(Value::as_str);
            let mut details = String::new();
            if let Some(t) = s("title") {
                details.push_str(&format!("<p class=\"title\">{}</p>", text(t)));
            }
            if let Some(d) = s("description") {
                details.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
            }
            out.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{details}</td></tr>",
                ident(s("name").unwrap_or_default()),
                if a.get("required") == Some(&Value::Bool(true)) {
                    "<b class=\"req\">required</b>"
                } else {
                    ""
                }
            ));
        }
        out.push_str("</tbody></table>");
    }
    out.push_str(&elicitations(p.elicitations.as_deref(), &item.id));
    for (name, ex) in p.examples.iter().flatten() {
        out.push_str(&example(
            item,
            name,
            "Arguments",
            ex.get("arguments").map(json_block).unwrap_or_default(),
            ex.get("result").map(prompt_result).unwrap_or_default(),
        ));
    }
    out.push_str(&completions(item, p.completion_examples.as_ref()));
    out.push_str("</section>");
    out
}

/// A resource: URI, MIME type, size, description, security, `_meta`, examples.
pub(crate) fn resource(page: &Page, item: &Item, r: &Resource) -> String {
    let mut out = heading(page, item, deprecated(r.deprecated));
    out.push_str(&uri_line(&r.uri, r.mime_type.as_deref()));
    if let Some(size) = r.size {
        out.push_str(&format!("<p class=\"facts\">size {size} bytes</p>"));
    }
    if let Some(d) = &r.description {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    out.push_str(&server::requires(r.security.as_ref(), page));
    out.push_str(&meta(page, item, r.meta.as_ref()));
    out.push_str(&elicitations(r.elicitations.as_deref(), &item.id));
    for (name, ex) in r.examples.iter().flatten() {
        out.push_str(&example(
            item,
            name,
            "Read",
            format!("<p><code>{}</code></p>", text(&r.uri)),
            ex.get("result").map(read_result).unwrap_or_default(),
        ));
    }
    out.push_str("</section>");
    out
}

/// A resource template: URI template, MIME type, description, security, `_meta`,
/// examples,
/// completion examples.
pub(crate) fn template(page: &Page, item: &Item, t: &ResourceTemplate) -> String {
    let mut out = heading(page, item, deprecated(t.deprecated));
    out.push_str(&uri_line(&t.uri_template, t.mime_type.as_deref()));
    if let Some(d) = &t.description {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    out.push_str(&server::requires(t.security.as_ref(), page));
    out.push_str(&meta(page, item, t.meta.as_ref()));
    out.push_str(&elicitations(t.elicitations.as_deref(), &item.id));
    for (name, ex) in t.examples.iter().flatten() {
        let uri = ex.get("uri").and_then(Value::as_str).unwrap_or_default();
        out.push_str(&example(
            item,
            name,
            "Read",
            format!("<p><code>{}</code></p>", text(uri)),
            ex.get("result").map(read_result).unwrap_or_default(),
        ));
    }
    out.push_str(&completions(item, t.completion_examples.as_ref()));
    out.push_str("</section>");
    out
}

/// The URI (or template) and MIME type, as text.
fn uri_line(uri: &str, mime: Option<&str>) -> String {
    let mime = mime
        .map(|m| format!(" <span class=\"mime\">{}</span>", text(m)))
        .unwrap_or_default();
    format!("<p class=\"uri\"><code>{}</code>{mime}</p>", text(uri))
}

/// A named example: the request beside the result.
fn example(item: &Item, name: &str, request: &str, left: String, right: String) -> String {
    format!(
        "<div class=\"example\" id=\"{}\"><h4>Example <q>{}</q></h4><div class=\"pair\"><div><h5>{request}</h5>{left}</div><div><h5>Result</h5>{right}</div></div></div>",
        attr(&anchor(&format!("{}:example", item.id), name)),
        text(name)
    )
}

/// The completion examples: the argument being completed (and the context) beside
/// the suggested values.
fn completions(item: &Item, list: Option<&BTreeMap<String, Value>>) -> String {
    let Some(list) = list else {
        return String::new();
    };
    let mut out = String::from("<h4>Completions</h4>");
    for (name, ex) in list {
        let arg = ex.get("argument");
        let s = |k: &str| {
            arg.and_then(|a| a.get(k))
                .and_then(Value::as_str)
                .unwrap_or_default()
        };
        let mut left = format!(
            "<p><code>{}</code> = <code>{}</code>…</p>",
            text(s("name")),
            text(s("value"))
        );
        if let Some(context) = ex.get("context") {
            left.push_str(&format!(
                "<p class=\"sub\">context</p>{}",
                json_block(context)
            ));
        }
        out.push_str(&format!(
            "<div class=\"example completion\" id=\"{}\"><h5>Completion <q>{}</q></h5><div class=\"pair\"><div>{left}</div><div>{}</div></div></div>",
            attr(&anchor(&format!("{}:completion", item.id), name)),
            text(name),
            ex.get("result").map(completion_result).unwrap_or_default()
        ));
    }
    out
}
