//! A description whose every text field carries HTML, `</script>`, `javascript:` URLs,
//! Markdown links and bidi controls renders as inert text: no markup, link, image or
//! script of its own, nothing invisible.

mod support;

use base64::Engine as _;
use mcpdesc_docs::{render, Options};
use sha2::{Digest as _, Sha256};
use support::{assert_well_formed, load, repo};

const FIXTURE: &str = "mcpdesc-docs/tests/fixtures/hostile.mcpdesc.json";

fn page() -> String {
    let desc = load(&repo().join(FIXTURE));
    assert!(desc.is_valid(), "{}", desc.render_diagnostics());
    render(&desc, &Options::default()).unwrap()
}

#[test]
fn every_payload_is_escaped_text() {
    let page = page();
    assert_well_formed(&page, FIXTURE);
    // The payload reached the page (as text) from many fields...
    let escaped = "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;b id=&quot;pwn&quot; onmouseover=&quot;alert(2)&quot;&gt;";
    let shown = page.matches(escaped).count();
    assert!(shown >= 25, "the payload is shown {shown} times");
    for field in [
        "name",
        "1.0",
        "title",
        "description",
        "contact",
        "license",
        "instructions",
        "command",
        "arg",
        "env",
        "scheme",
        "scope",
        "tag",
        "tooltitle",
        "tooldesc",
        "schematitle",
        "propdesc",
        "def",
        "text",
        "link",
        "prompttitle",
        "promptdesc",
        "argtitle",
        "argdesc",
        "presult",
        "restitle",
        "resdesc",
        "tpltitle",
        "tpldesc",
    ] {
        assert!(
            page.contains(&format!("{field} {escaped}")),
            "the {field} field is not shown as escaped text"
        );
    }
    // ...and never as markup.
    assert!(!page.contains("<b id=\"pwn\""));
    assert!(!page.contains("id=\"pwn\""));
    assert!(!page.contains("<img src=x"));
    assert!(!page.contains("<!--"));
    assert!(!page.contains("onmouseover=\""));
    // Every tag in the page is one the renderer writes: none came from the payload.
    let allowed = [
        "!DOCTYPE", "html", "head", "meta", "title", "style", "body", "aside", "nav", "main",
        "header", "section", "div", "table", "thead", "tbody", "tr", "td", "th", "ul", "ol", "li",
        "dl", "dt", "dd", "p", "pre", "code", "span", "a", "b", "q", "h1", "h2", "h3", "h4", "h5",
        "h6", "details", "summary", "select", "option", "input", "script", "br", "wbr",
    ];
    // (The page's own script, checked by hash below, is left out: it compares with `<`.)
    let script = page.find("<script>").unwrap() + "<script>".len();
    let page = format!(
        "{}{}",
        &page[..script],
        &page[page.find("</script>").unwrap()..]
    );
    for (at, _) in page.match_indices('<') {
        let name: String = page[at + 1..]
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
            .collect();
        assert!(
            allowed.contains(&name.as_str()),
            "a foreign tag <{name}: {}",
            &page[at..(at + 60).min(page.len())]
        );
    }
}

#[test]
fn only_the_page_own_script_links_and_no_images() {
    let page = page();
    assert_eq!(page.matches("<script").count(), 1);
    assert_eq!(page.matches("</script>").count(), 1);
    // The one script is the page's own: its text is exactly the hash the CSP allows.
    let start = page.find("<script>").unwrap() + "<script>".len();
    let end = page.find("</script>").unwrap();
    let script = &page[start..end];
    assert!(!script.contains("alert"));
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script));
    let csp_start = page.find("Content-Security-Policy\" content=\"").unwrap();
    let csp = &page[csp_start..page[csp_start..].find("\">").unwrap() + csp_start];
    assert!(
        csp.contains(&format!("script-src 'sha256-{hash}'")),
        "{csp}"
    );
    assert!(csp.contains("default-src 'none'"));
    assert!(!csp.contains("unsafe-inline"));
    // Every link stays on the page; no URL of the description is a link or a source.
    let mut rest = page.as_str();
    let mut links = 0;
    while let Some(at) = rest.find("href=\"") {
        rest = &rest[at + 6..];
        assert!(
            rest.starts_with('#'),
            "an outside link: {}",
            &rest[..40.min(rest.len())]
        );
        links += 1;
    }
    assert!(links > 10);
    assert!(
        !page.contains("src=\""),
        "the hostile image must not be shown"
    );
    // `javascript:` appears only as escaped text, never right after an attribute quote.
    assert!(page.contains("javascript:alert(6)"));
    assert!(!page.contains("\"javascript:"));
}

#[test]
fn bidi_and_control_characters_are_shown_not_obeyed() {
    let page = page();
    for c in [
        '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
        '\u{2068}', '\u{2069}',
    ] {
        assert!(!page.contains(c), "U+{:04X} reached the page", c as u32);
    }
    assert!(
        page.contains("<span class=\"ctl\">[U+202E]</span>evil<span class=\"ctl\">[U+2066]</span>")
    );
    // In attributes (the sidebar filter text) as plain visible text.
    assert!(page.contains("[U+202E]evil[U+2066]"));
    // The property name with a bidi control is shown with it made visible.
    assert!(page.contains("p&lt;/script&gt;<span class=\"ctl\">[U+202E]</span>"));
}

#[test]
fn hostile_names_give_safe_distinct_anchors() {
    let page = page();
    // Tag names and `$defs` entries with `</script>` in them appear percent-encoded in
    // ids, never raw.
    assert!(page.contains("id=\"tool-evil_tool\""));
    assert!(page.contains("id=\"resource-javascript%3Aalert%2812%29\""));
    assert!(page.contains("href=\"#resource-javascript%3Aalert%2812%29\""));
    assert!(page.contains("id=\"scheme-oauth\""));
    // A tool's MCP Apps UI URI links to the resource's anchor, never to the URI.
    assert!(page.contains(
        "<p class=\"ui-resource\">UI (MCP Apps): <a href=\"#resource-javascript%3Aalert%2812%29\"><code>javascript:alert(12)</code></a></p>"
    ));
}
