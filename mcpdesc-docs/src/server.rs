//! The server as a whole: its info, instructions, protocol versions, capabilities,
//! transports, and the security schemes with what each primitive requires.

use serde_json::Value;

use mcpdesc_description::model::{SecurityRequirement, Transport};
use mcpdesc_description::view;
use mcpdesc_description::{ProtocolVersion, VersionSet};

use crate::content::json_block;
use crate::html::{attr, text};
use crate::outline::{Kind, Page};

/// The header: name, title, version, description, identity, instructions, versions.
pub(crate) fn info(page: &Page) -> String {
    let info = &page.doc.info;
    let mut out = String::from("<header id=\"server\">");
    out.push_str(&format!(
        "<h1>{}</h1><p class=\"subtitle\"><code>{}</code> <span class=\"badge\">version {}</span> <span class=\"muted\">MCP Description {}</span></p>",
        text(info.title.as_deref().unwrap_or(&info.name)),
        text(&info.name),
        text(&info.version),
        text(&page.doc.mcpdesc)
    ));
    if let Some(d) = &info.description {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    let mut facts = Vec::new();
    if let Some(id) = &info.id {
        facts.push(("Identifier", format!("<code>{}</code>", text(id))));
    }
    // Shown as text, never as a link: the URL is the description's claim.
    if let Some(url) = &info.website_url {
        facts.push(("Website", format!("<code>{}</code>", text(url))));
    }
    for (label, value) in [("Contact", &info.contact), ("License", &info.license)] {
        if let Some(v) = value {
            facts.push((label, object_text(v)));
        }
    }
    let versions: Vec<String> = page
        .root
        .iter()
        .map(|v| format!("<code>{v}</code>"))
        .collect();
    facts.push(("Protocol versions", versions.join(" ")));
    out.push_str("<dl class=\"facts\">");
    for (label, value) in facts {
        out.push_str(&format!("<dt>{label}</dt><dd>{value}</dd>"));
    }
    out.push_str("</dl>");
    if let Some(i) = &page.doc.instructions {
        out.push_str(&format!(
            "<h3>Instructions</h3><p class=\"desc instructions\">{}</p>",
            text(i)
        ));
    }
    if let Some(tags) = &page.doc.tags {
        out.push_str("<h3>Tags</h3><dl class=\"facts tags\">");
        for tag in tags {
            out.push_str(&format!(
                "<dt><span class=\"tag\">#{}</span></dt><dd>{}</dd>",
                text(&tag.name),
                text(tag.description.as_deref().unwrap_or_default())
            ));
        }
        out.push_str("</dl>");
    }
    out.push_str("</header>");
    out
}

/// A small object (contact, license) as `key: value` pairs of text.
fn object_text(v: &Value) -> String {
    match v.as_object() {
        Some(obj) => obj
            .iter()
            .map(|(k, v)| {
                let shown = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                format!("{}: <code>{}</code>", text(k), text(&shown))
            })
            .collect::<Vec<_>>()
            .join(", "),
        None => text(&v.to_string()),
    }
}

/// The Capabilities Objects of `version` (every one without a version).
pub(crate) fn capabilities(page: &Page, version: Option<ProtocolVersion>) -> String {
    let caps: Vec<&Value> = page
        .doc
        .capabilities
        .iter()
        .flatten()
        .filter(|c| in_version(page, declared(c), version))
        .collect();
    if caps.is_empty() {
        return String::new();
    }
    let mut out = String::from("<h3>Capabilities</h3>");
    for c in caps {
        let names: Vec<String> = c
            .as_object()
            .into_iter()
            .flatten()
            .filter(|(k, _)| k.as_str() != "protocolVersions")
            .map(|(k, _)| format!("<span class=\"badge\">{}</span>", text(k)))
            .collect();
        out.push_str(&format!(
            "<p>{}{}</p>",
            names.join(" "),
            scope_note(page, declared(c))
        ));
        out.push_str(&format!(
            "<details class=\"raw\"><summary>Capabilities Object</summary>{}</details>",
            json_block(c)
        ));
    }
    out
}

/// The `protocolVersions` of a JSON declaration.
fn declared(v: &Value) -> Option<Vec<String>> {
    serde_json::from_value(v.get("protocolVersions")?.clone()).ok()
}

fn in_version(
    page: &Page,
    declared: Option<Vec<String>>,
    version: Option<ProtocolVersion>,
) -> bool {
    version.is_none_or(|v| view::scope_in(declared.as_deref(), page.root).contains(v))
}

/// ` (MCP a, b)` when a declared scope is narrower than the root's.
fn scope_note(page: &Page, declared: Option<Vec<String>>) -> String {
    let scope = view::scope_in(declared.as_deref(), page.root);
    if scope == page.root {
        String::new()
    } else {
        format!(" <span class=\"scope\">{}</span>", scope_text(scope))
    }
}

/// `MCP 2025-06-18, 2025-11-25`.
pub(crate) fn scope_text(scope: VersionSet) -> String {
    let list: Vec<String> = scope.iter().map(|v| v.to_string()).collect();
    format!("MCP {}", list.join(", "))
}

/// The transports of `version` (all without one): type, endpoint, security.
pub(crate) fn transports(page: &Page, version: Option<ProtocolVersion>) -> String {
    let mut rows = String::new();
    for t in page.doc.transports.iter().flatten() {
        let (kind, endpoint, versions, security) = match t {
            Transport::Stdio {
                command,
                args,
                env,
                protocol_versions,
                security,
                ..
            } => {
                let mut line = command.clone();
                for a in args.iter().flatten() {
                    line.push(' ');
                    line.push_str(a);
                }
                let mut shown = format!("<code>{}</code>", text(&line));
                for (k, v) in env.iter().flatten() {
                    shown.push_str(&format!(
                        "<br><span class=\"muted\">env</span> <code>{}={}</code>",
                        text(k),
                        text(v)
                    ));
                }
                ("stdio", shown, protocol_versions, security)
            }
            Transport::StreamableHttp {
                url,
                protocol_versions,
                security,
                ..
            } => (
                "streamable HTTP",
                format!("<code>{}</code>", text(url)),
                protocol_versions,
                security,
            ),
            Transport::Sse {
                url,
                protocol_versions,
                security,
                ..
            } => (
                "HTTP+SSE (legacy)",
                format!("<code>{}</code>", text(url)),
                protocol_versions,
                security,
            ),
        };
        if !in_version(page, versions.clone(), version) {
            continue;
        }
        rows.push_str(&format!(
            "<tr><td>{kind}{}</td><td>{endpoint}</td><td>{}</td></tr>",
            scope_note(page, versions.clone()),
            match (security, &page.doc.security) {
                (Some(s), _) => requirement(s),
                (None, Some(_)) => "<span class=\"muted\">the default</span>".to_owned(),
                (None, None) => "<span class=\"muted\">none declared</span>".to_owned(),
            }
        ));
    }
    if rows.is_empty() {
        return String::new();
    }
    format!("<h3>Transports</h3><table class=\"grid\"><thead><tr><th>Type</th><th>Endpoint</th><th>Security</th></tr></thead><tbody>{rows}</tbody></table>")
}

/// A Security Requirement Array in words: alternatives joined by "or", schemes of an
/// alternative by "and", each with its scopes.
pub(crate) fn requirement(alternatives: &[SecurityRequirement]) -> String {
    if alternatives.is_empty() {
        return "<span class=\"badge ok\">public</span> <span class=\"muted\">(security: [])</span>".to_owned();
    }
    alternatives
        .iter()
        .map(|alt| {
            if alt.is_empty() {
                return "<span class=\"badge ok\">anonymous</span>".to_owned();
            }
            alt.iter()
                .map(|(scheme, scopes)| {
                    let mut s = format!(
                        "<a class=\"scheme\" href=\"#{}\">{}</a>",
                        attr(&crate::html::anchor("scheme", scheme)),
                        text(scheme)
                    );
                    if !scopes.is_empty() {
                        let list: Vec<String> = scopes
                            .iter()
                            .map(|x| format!("<code>{}</code>", text(x)))
                            .collect();
                        s.push_str(&format!(" ({})", list.join(" ")));
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join(" and ")
        })
        .collect::<Vec<_>>()
        .join(" <b>or</b> ")
}

/// The `Requires:` line of a primitive; nothing when the description declares no
/// security scheme at all (then nothing can be required).
pub(crate) fn requires(own: Option<&Vec<SecurityRequirement>>, page: &Page) -> String {
    if page.doc.security_schemes.is_none() {
        return String::new();
    }
    format!(
        "<p class=\"requires\"><b>Requires:</b> {}</p>",
        effective(own, page)
    )
}

/// What a primitive requires: its own requirement, else what it inherits.
fn effective(own: Option<&Vec<SecurityRequirement>>, page: &Page) -> String {
    match own {
        Some(s) => requirement(s),
        None => match &page.doc.security {
            Some(default) => format!(
                "<span class=\"muted\">inherited: the serving transport's requirement, else the default</span> {}",
                requirement(default)
            ),
            None if has_transport_security(page) => {
                "<span class=\"muted\">the transport's</span>".to_owned()
            }
            None => "<span class=\"muted\">none declared</span>".to_owned(),
        },
    }
}

fn has_transport_security(page: &Page) -> bool {
    page.doc.transports.iter().flatten().any(|t| {
        matches!(
            t,
            Transport::Stdio {
                security: Some(_),
                ..
            } | Transport::StreamableHttp {
                security: Some(_),
                ..
            } | Transport::Sse {
                security: Some(_),
                ..
            }
        )
    })
}

/// The security schemes, the default requirement, and a table of what each primitive
/// requires; nothing when the description declares no security at all.
pub(crate) fn security(page: &Page) -> String {
    let doc = page.doc;
    let Some(schemes) = &doc.security_schemes else {
        return String::new();
    };
    let mut out = String::from("<section id=\"security\"><h2>Security</h2>");
    out.push_str("<table class=\"grid\"><thead><tr><th>Scheme</th><th>Type</th><th>Details</th></tr></thead><tbody>");
    for (name, scheme) in schemes {
        let kind = scheme.get("type").and_then(Value::as_str).unwrap_or("?");
        out.push_str(&format!(
            "<tr id=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            attr(&crate::html::anchor("scheme", name)),
            text(name),
            text(kind),
            scheme_details(scheme)
        ));
    }
    out.push_str("</tbody></table>");
    out.push_str(&format!(
        "<p><b>Default requirement:</b> {}</p>",
        match &doc.security {
            Some(s) => requirement(s),
            None => "<span class=\"muted\">none (public unless a transport says otherwise)</span>"
                .to_owned(),
        }
    ));
    out.push_str("<h3>What each primitive requires</h3><table class=\"grid\"><thead><tr><th>Primitive</th><th>Requires</th></tr></thead><tbody>");
    let own =
        |kind: Kind, index: usize, name: &str, security: Option<&Vec<SecurityRequirement>>| {
            let link = match page.ids.first.get(&(kind, index)) {
                Some(id) => format!("<a href=\"#{}\">{}</a>", attr(id), text(name)),
                None => text(name),
            };
            format!(
                "<tr><td><span class=\"kind\">{}</span> {link}</td><td>{}</td></tr>",
                kind.prefix(),
                effective(security, page)
            )
        };
    for (i, t) in doc.tools.iter().flatten().enumerate() {
        out.push_str(&own(Kind::Tool, i, &t.name, t.security.as_ref()));
    }
    for (i, p) in doc.prompts.iter().flatten().enumerate() {
        out.push_str(&own(Kind::Prompt, i, &p.name, p.security.as_ref()));
    }
    for (i, r) in doc.resources.iter().flatten().enumerate() {
        out.push_str(&own(Kind::Resource, i, &r.uri, r.security.as_ref()));
    }
    for (i, t) in doc.resource_templates.iter().flatten().enumerate() {
        out.push_str(&own(
            Kind::Template,
            i,
            &t.uri_template,
            t.security.as_ref(),
        ));
    }
    out.push_str("</tbody></table></section>");
    out
}

/// The members of a security scheme other than `type`, as text (OAuth flows with their
/// URLs and scopes, API key location, HTTP scheme...).
fn scheme_details(scheme: &Value) -> String {
    let mut out = String::new();
    if let Some(d) = scheme.get("description").and_then(Value::as_str) {
        out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
    }
    let mut facts = Vec::new();
    for key in ["scheme", "bearerFormat", "in", "name", "openIdConnectUrl"] {
        if let Some(v) = scheme.get(key).and_then(Value::as_str) {
            facts.push(format!("{key} <code>{}</code>", text(v)));
        }
    }
    if !facts.is_empty() {
        out.push_str(&format!("<p class=\"facts\">{}</p>", facts.join(" · ")));
    }
    if let Some(flows) = scheme.get("flows").and_then(Value::as_object) {
        for (flow, f) in flows {
            out.push_str(&format!("<p><b>{}</b>", text(flow)));
            for key in ["authorizationUrl", "tokenUrl", "refreshUrl"] {
                if let Some(v) = f.get(key).and_then(Value::as_str) {
                    out.push_str(&format!(" · {key} <code>{}</code>", text(v)));
                }
            }
            out.push_str("</p>");
            if let Some(scopes) = f.get("scopes").and_then(Value::as_object) {
                out.push_str("<ul class=\"scopes\">");
                for (s, d) in scopes {
                    out.push_str(&format!(
                        "<li><code>{}</code> {}</li>",
                        text(s),
                        text(d.as_str().unwrap_or_default())
                    ));
                }
                out.push_str("</ul>");
            }
        }
    }
    out
}
