//! What the section of every item (tool, prompt, resource, template) shares: its
//! heading, and the elicitations it may ask for.

use mcpdesc_description::model::ElicitationDeclaration;

use crate::html::{anchor, attr, text};
use crate::outline::{Item, Page};
use crate::{schema, server};

/// Opens an item's `<section>`: its name, title, badges, tags and (when narrower than
/// the description's) scope. The caller closes it.
pub(crate) fn heading(page: &Page, item: &Item, badges: String) -> String {
    let mut out = format!(
        "<section class=\"item {}\" id=\"{}\"><h3><code>{}</code>",
        item.kind.prefix(),
        attr(&item.id),
        text(item.name)
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
