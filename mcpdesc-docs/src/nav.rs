//! The sidebar: the server, security, the version switcher, a filter field, and each
//! view's items grouped by tag (the catalogue's order, then the untagged ones).

use crate::html::{attr, breakable, text};
use crate::outline::{Item, Page, Section};

/// The `<aside>` of the page.
pub(crate) fn sidebar(page: &Page) -> String {
    let info = &page.doc.info;
    let mut out = format!(
        "<aside class=\"sidebar\"><nav aria-label=\"Contents\"><p class=\"brand\"><a href=\"#server\">{}</a></p>",
        text(info.title.as_deref().unwrap_or(&info.name))
    );
    // Both controls need the script; it un-hides them.
    out.push_str(
        "<input type=\"search\" id=\"filter\" placeholder=\"Filter…\" aria-label=\"Filter the list\" hidden>",
    );
    if page.switcher {
        out.push_str("<select id=\"version-switch\" aria-label=\"Protocol version\" hidden>");
        for s in &page.sections {
            if let Some(v) = s.version {
                out.push_str(&format!("<option value=\"{v}\">MCP {v}</option>"));
            }
        }
        out.push_str("</select>");
    }
    out.push_str("<ul><li><a href=\"#server\">Server</a></li>");
    if page.doc.security_schemes.is_some() {
        out.push_str("<li><a href=\"#security\">Security</a></li>");
    }
    out.push_str("</ul>");
    for s in &page.sections {
        out.push_str(&toc(page, s));
    }
    out.push_str("</nav></aside>");
    out
}

/// One view's items by tag.
fn toc(page: &Page, section: &Section) -> String {
    let mut out = match section.version {
        Some(v) if page.switcher => format!(
            "<div class=\"toc\" data-version=\"{v}\"><p class=\"version-label\"><a href=\"#version-{v}\">MCP {v}</a></p>"
        ),
        _ => "<div class=\"toc\">".to_owned(),
    };
    let mut tags: Vec<&str> = page
        .doc
        .tags
        .iter()
        .flatten()
        .map(|t| t.name.as_str())
        .collect();
    // Tags used but missing from the catalogue (validation warns): after it, sorted.
    let mut extra: Vec<&str> = section
        .items
        .iter()
        .flat_map(|i| i.tags.iter().map(String::as_str))
        .filter(|t| !tags.contains(t))
        .collect();
    extra.sort_unstable();
    extra.dedup();
    tags.extend(extra);
    for tag in tags {
        let items: Vec<&Item> = section
            .items
            .iter()
            .filter(|i| i.tags.iter().any(|t| t == tag))
            .collect();
        out.push_str(&group(&format!("#{}", text(tag)), &items));
    }
    let untagged: Vec<&Item> = section.items.iter().filter(|i| i.tags.is_empty()).collect();
    let label = if untagged.len() == section.items.len() {
        "Contents"
    } else {
        "Untagged"
    };
    out.push_str(&group(label, &untagged));
    out.push_str("</div>");
    out
}

/// A heading and its list; nothing for no items.
fn group(label: &str, items: &[&Item]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut out = format!("<div class=\"group\"><h4>{label}</h4><ul>");
    for item in items {
        let filter = format!("{} {}", item.name, item.title.unwrap_or_default()).to_lowercase();
        out.push_str(&format!(
            "<li data-filter=\"{}\"><a href=\"#{}\"><span class=\"kind\">{}</span><span class=\"ident\">{}</span></a></li>",
            attr(&filter),
            attr(&item.id),
            item.kind.prefix(),
            breakable(item.name)
        ));
    }
    out.push_str("</ul></div>");
    out
}
