//! What the section of every item (tool, prompt, resource, template) shares: its
//! heading, its `_meta`, and the elicitations it may ask for.

use serde_json::Value;

use mcpdesc_description::model::{ElicitationDeclaration, Meta};

use crate::html::{anchor, attr, ident, json, text};
use crate::outline::{Item, Page};
use crate::{schema, server};

/// Opens an item's `<section>`: its name, title, badges, tags and (when narrower than
/// the description's) scope. The caller closes it.
pub(crate) fn heading(page: &Page, item: &Item, badges: String) -> String {
    let mut out = format!(
        "<section class=\"item {}\" id=\"{}\"><h3>{}",
        item.kind.prefix(),
        attr(&item.id),
        ident(item.name)
    );
    if let Some(t) = item.title {
        out.push_str(&format!(" <span class=\"title\">{}</span>", text(t)));
    }
    out.push_str("</h3><p class=\"badges\">");
    out.push_str(&badges);
    for tag in item.tags {
        out.push_str(&format!(" <span class=\"tag\">#{}</span>", text(tag)));
    }
    if item.scope != page.root {
        out.push_str(&format!(
            " <span class=\"scope\">{}</span>",
            server::scope_text(item.scope)
        ));
    }
    out.push_str("</p>");
    out
}

/// The Elicitation Declarations: name, mode, message, when, the requested schema.
pub(crate) fn elicitations(list: Option<&[ElicitationDeclaration]>, id: &str) -> String {
    let Some(list) = list else {
        return String::new();
    };
    let mut out = String::from("<h4>Asks the user</h4><ul class=\"elicitations\">");
    for e in list {
        out.push_str(&format!(
            "<li><code>{}</code> <span class=\"badge\">{}</span> <q>{}</q>",
            text(&e.name),
            text(&e.mode),
            text(&e.message)
        ));
        if let Some(when) = &e.when {
            out.push_str(&format!(
                " <span class=\"muted\">when {}</span>",
                text(when)
            ));
        }
        if let Some(url) = &e.url {
            out.push_str(&format!(" <code>{}</code>", text(url)));
        }
        if let Some(s) = &e.requested_schema {
            out.push_str(&schema::render(
                s,
                &anchor(&format!("{id}:elicitation"), &e.name),
            ));
        }
        out.push_str("</li>");
    }
    out.push_str("</ul>");
    out
}

/// The item's `_meta`, member by member (scalars inline, objects and arrays as JSON).
/// The MCP Apps link from a tool to its UI, `_meta.ui.resourceUri` (or the flat
/// `ui/resourceUri` of the extension's early drafts), comes first, as a link to that
/// resource's entry on the page when the page describes it (the same version's entry
/// first), else as text saying it is not described here. Nothing without `_meta`.
pub(crate) fn meta(page: &Page, item: &Item, meta: Option<&Meta>) -> String {
    let Some(meta) = meta.filter(|m| !m.is_empty()) else {
        return String::new();
    };
    let mut out = String::from("<h4>Metadata <code>_meta</code></h4>");
    let ui = meta
        .get("ui")
        .and_then(|ui| ui.get("resourceUri"))
        .or_else(|| meta.get("ui/resourceUri"))
        .and_then(Value::as_str);
    if let Some(uri) = ui {
        out.push_str("<p class=\"ui-resource\">UI (MCP Apps): ");
        match page.resource_anchor(item, uri) {
            Some(id) => out.push_str(&format!(
                "<a href=\"#{}\"><code>{}</code></a>",
                attr(id),
                text(uri)
            )),
            None => out.push_str(&format!(
                "<code>{}</code> <span class=\"muted\">(not a resource of this description)</span>",
                text(uri)
            )),
        }
        out.push_str("</p>");
    }
    out.push_str("<dl class=\"facts meta\">");
    for (key, value) in meta {
        let shown = match value {
            Value::Object(_) | Value::Array(_) => format!("<pre>{}</pre>", json(value)),
            scalar => format!("<code>{}</code>", text(&scalar.to_string())),
        };
        out.push_str(&format!("<dt>{}</dt><dd>{shown}</dd>", ident(key)));
    }
    out.push_str("</dl>");
    out
}
