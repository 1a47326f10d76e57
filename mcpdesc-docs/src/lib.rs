//! `mcpdesc docs`: one self-contained HTML page of an MCP Description, for the people
//! who read it (someone choosing a server, a reviewer of a contract change, a security
//! reviewer).
//!
//! ```no_run
//! use mcpdesc_description::{Description, Limits};
//!
//! let desc = Description::from_path("chess.mcpdesc.json".as_ref(), &Limits::default())?;
//! let page = mcpdesc_docs::render(&desc, &mcpdesc_docs::Options::default())?;
//! std::fs::write("chess.html", page)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The page:
//! - needs no network: the style and the small script are inline, and a
//!   Content-Security-Policy `<meta>` allows exactly them (by SHA-256 hash) and `data:`
//!   images, nothing else;
//! - reads without JavaScript: every protocol version's Effective Protocol View is in
//!   the page; the script only hides the versions not chosen in the switcher, and
//!   filters the sidebar;
//! - treats every string of the description as untrusted text ([`html`]): escaped,
//!   never markup, bidirectional and other controls shown as visible `[U+XXXX]`; no
//!   description string becomes a link or enters the script;
//! - is deterministic: the same description gives the same bytes.
//!
//! Anchors are stable: `#tool-NAME`, `#prompt-NAME`, `#resource-URI`,
//! `#template-URI_TEMPLATE` (every character but `[A-Za-z0-9_.-]` percent-encoded).
//! When the versions are rendered one by one, the anchor names the newest version that
//! declares the item; the same item in an older version is `#vVERSION-tool-NAME`.
//!
//! Modules: [`html`] (escaping, anchors, identifier break points), `outline` (the
//! sections, items and anchors of the page), `page` (the document, CSP), `nav` (the
//! sidebar), `server` (info, versions, transports, security), `item` (what every
//! item's section shares: the heading, `_meta`, the elicitations), `tool`,
//! `primitives` (prompts, resources, templates, completions), `schema` (schemas as
//! collapsible property trees), `content` (example payloads).

use mcpdesc_description::model::Document;
use mcpdesc_description::view::{self, ViewError};
use mcpdesc_description::{Description, ProtocolVersion, VersionSet};

use outline::{Ids, Page, Section};

mod content;
pub mod html;
mod item;
mod nav;
mod outline;
mod page;
mod primitives;
mod schema;
mod server;
mod tool;

/// What to render.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Render only the Effective Protocol View of this version. Without it, a
    /// description whose declarations are version-scoped gets every version's view
    /// (with a switcher); any other gets one view of the whole description.
    pub protocol_version: Option<ProtocolVersion>,
}

/// Why no page was rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocsError {
    /// The description has errors (its diagnostics say which).
    #[error("the description is invalid ({errors} error(s)); nothing rendered")]
    Invalid {
        /// How many errors.
        errors: usize,
    },
    /// The chosen protocol version cannot be viewed (not described, or overlapping
    /// declarations).
    #[error(transparent)]
    View(#[from] ViewError),
}

/// Renders the page of a valid description.
pub fn render(desc: &Description, options: &Options) -> Result<String, DocsError> {
    let Some(doc) = desc.document() else {
        return Err(DocsError::Invalid {
            errors: desc.errors().count().max(1),
        });
    };
    let root = view::root_versions(doc);
    let versions: Vec<Option<ProtocolVersion>> = match options.protocol_version {
        Some(v) => vec![Some(v)],
        None if version_scoped(doc, root) => {
            let mut all: Vec<_> = root.iter().map(Some).collect();
            // Newest first: the version a reader most likely wants is shown first.
            all.reverse();
            all
        }
        None => vec![None],
    };
    let mut ids = Ids::default();
    let mut sections = Vec::new();
    for version in &versions {
        let view = view::select_view(doc, *version)?;
        sections.push(Section::new(*version, &view, &mut ids));
    }
    let page = Page {
        doc,
        root,
        sections,
        ids,
        switcher: versions.len() > 1,
    };
    Ok(page::document(&page))
}

/// Whether some declaration's effective scope is not the whole root set: then each
/// version has its own view.
fn version_scoped(doc: &Document, root: VersionSet) -> bool {
    let differs = |declared: Option<&Vec<String>>| {
        declared.is_some_and(|d| view::scope_in(Some(d), root) != root)
    };
    doc.tools
        .iter()
        .flatten()
        .any(|t| differs(t.protocol_versions.as_ref()))
        || doc
            .prompts
            .iter()
            .flatten()
            .any(|p| differs(p.protocol_versions.as_ref()))
        || doc
            .resources
            .iter()
            .flatten()
            .any(|r| differs(r.protocol_versions.as_ref()))
        || doc
            .resource_templates
            .iter()
            .flatten()
            .any(|t| differs(t.protocol_versions.as_ref()))
        || doc.transports.iter().flatten().any(|t| {
            let (mcpdesc_description::model::Transport::Stdio {
                protocol_versions, ..
            }
            | mcpdesc_description::model::Transport::StreamableHttp {
                protocol_versions, ..
            }
            | mcpdesc_description::model::Transport::Sse {
                protocol_versions, ..
            }) = t;
            differs(protocol_versions.as_ref())
        })
        || doc.capabilities.iter().flatten().any(|c| {
            differs(
                serde_json::from_value::<Vec<String>>(
                    c.get("protocolVersions").cloned().unwrap_or_default(),
                )
                .ok()
                .as_ref(),
            )
        })
}
