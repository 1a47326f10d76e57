//! The document: head (Content-Security-Policy, inline style), sidebar, the server
//! header, security, each view's sections, the inline script.
//!
//! The CSP allows the one inline style and the one inline script by their SHA-256
//! hashes (computed here from the very text written), `data:` images, and nothing
//! else: no fetch, no frame, no form target, no `<base>`, no other script or style.

use base64::Engine as _;
use sha2::{Digest as _, Sha256};

use crate::outline::{Decl, Kind, Page, Section};
use crate::{nav, primitives, server, tool};

/// The page's style.
const STYLE: &str = include_str!("page.css");
/// The page's script (navigation only; it reads no description text).
const SCRIPT: &str = include_str!("page.js");

/// `'sha256-…'` of a text, as CSP writes it.
fn hash(source: &str) -> String {
    let digest = Sha256::digest(source.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The Content-Security-Policy of the page.
pub(crate) fn policy() -> String {
    format!(
        "default-src 'none'; style-src {}; script-src {}; img-src data:; base-uri 'none'; form-action 'none'",
        hash(STYLE),
        hash(SCRIPT)
    )
}

/// The whole page.
pub(crate) fn document(page: &Page) -> String {
    let info = &page.doc.info;
    let mut out =
        String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str(&format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n",
        policy()
    ));
    out.push_str("<meta name=\"referrer\" content=\"no-referrer\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<meta name=\"generator\" content=\"mcpdesc docs\">\n");
    out.push_str(&format!(
        "<title>{} — MCP server</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        crate::html::text(info.title.as_deref().unwrap_or(&info.name))
    ));
    out.push_str(&nav::sidebar(page));
    out.push_str("\n<main>\n");
    out.push_str(&server::info(page));
    out.push('\n');
    out.push_str(&server::security(page));
    for section in &page.sections {
        out.push('\n');
        out.push_str(&view(page, section));
    }
    out.push_str(&format!(
        "\n</main>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    ));
    out
}

/// One view: its capabilities, transports and items, in a `data-version` block when
/// the page has several.
fn view(page: &Page, section: &Section) -> String {
    let mut out = match (section.version_id(), page.switcher) {
        (Some(id), true) => {
            let v = section.version.map(|v| v.to_string()).unwrap_or_default();
            format!("<section class=\"version\" id=\"{id}\" data-version=\"{v}\"><h2 class=\"version-title\">MCP {v}</h2>")
        }
        (Some(id), false) => {
            let v = section.version.map(|v| v.to_string()).unwrap_or_default();
            format!(
                "<section class=\"version\" id=\"{id}\"><h2 class=\"version-title\">MCP {v}</h2>"
            )
        }
        (None, _) => "<section class=\"version\">".to_owned(),
    };
    out.push_str(&server::capabilities(page, section.version));
    out.push_str(&server::transports(page, section.version));
    for (kind, heading) in [
        (Kind::Tool, "Tools"),
        (Kind::Prompt, "Prompts"),
        (Kind::Resource, "Resources"),
        (Kind::Template, "Resource templates"),
    ] {
        let items: Vec<_> = section.items.iter().filter(|i| i.kind == kind).collect();
        if items.is_empty() {
            continue;
        }
        out.push_str(&format!("<h2>{heading}</h2>\n"));
        for item in items {
            out.push_str(&match item.decl {
                Decl::Tool(t) => tool::section(page, item, t),
                Decl::Prompt(p) => primitives::prompt(page, item, p),
                Decl::Resource(r) => primitives::resource(page, item, r),
                Decl::Template(t) => primitives::template(page, item, t),
            });
            out.push('\n');
        }
    }
    out.push_str("</section>");
    out
}
