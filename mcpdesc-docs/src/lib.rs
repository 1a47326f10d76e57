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
//! Modules: [`html`] (escaping, anchors), `page` (the document, CSP), `nav` (the
//! sidebar), `server` (info, versions, transports, security), `tool`, `primitives`
//! (prompts, resources, templates, completions), `schema` (schemas as nested tables),
//! `content` (example payloads).

use std::collections::{BTreeMap, BTreeSet};

use mcpdesc_description::model::{Document, Prompt, Resource, ResourceTemplate, Tool};
use mcpdesc_description::view::{self, View, ViewError};
use mcpdesc_description::{Description, ProtocolVersion, VersionSet};

mod content;
pub mod html;
mod nav;
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

/// The kinds of items, in page order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Tool,
    Prompt,
    Resource,
    Template,
}

impl Kind {
    /// The anchor prefix.
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            Kind::Tool => "tool",
            Kind::Prompt => "prompt",
            Kind::Resource => "resource",
            Kind::Template => "template",
        }
    }
}

/// A declaration of a view.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Decl<'d> {
    Tool(&'d Tool),
    Prompt(&'d Prompt),
    Resource(&'d Resource),
    Template(&'d ResourceTemplate),
}

impl<'d> Decl<'d> {
    fn kind(self) -> Kind {
        match self {
            Decl::Tool(_) => Kind::Tool,
            Decl::Prompt(_) => Kind::Prompt,
            Decl::Resource(_) => Kind::Resource,
            Decl::Template(_) => Kind::Template,
        }
    }

    /// What identifies it across versions: a name, a URI or a URI template.
    fn identity(self) -> &'d str {
        match self {
            Decl::Tool(t) => &t.name,
            Decl::Prompt(p) => &p.name,
            Decl::Resource(r) => &r.uri,
            Decl::Template(t) => &t.uri_template,
        }
    }

    fn name(self) -> &'d str {
        match self {
            Decl::Tool(t) => &t.name,
            Decl::Prompt(p) => &p.name,
            Decl::Resource(r) => &r.name,
            Decl::Template(t) => &t.name,
        }
    }

    /// The display title (a tool's annotation title when it has no `title`).
    fn title(self) -> Option<&'d str> {
        match self {
            Decl::Tool(t) => t
                .title
                .as_deref()
                .or_else(|| t.annotations.as_ref().and_then(|a| a.title.as_deref())),
            Decl::Prompt(p) => p.title.as_deref(),
            Decl::Resource(r) => r.title.as_deref(),
            Decl::Template(t) => t.title.as_deref(),
        }
    }

    fn tags(self) -> &'d [String] {
        let tags = match self {
            Decl::Tool(t) => &t.tags,
            Decl::Prompt(p) => &p.tags,
            Decl::Resource(r) => &r.tags,
            Decl::Template(t) => &t.tags,
        };
        tags.as_deref().unwrap_or_default()
    }
}

/// One item of a section: a declaration with its anchor.
#[derive(Debug, Clone)]
pub(crate) struct Item<'d> {
    pub(crate) kind: Kind,
    /// The name shown in the sidebar.
    pub(crate) name: &'d str,
    pub(crate) title: Option<&'d str>,
    pub(crate) tags: &'d [String],
    /// Its effective scope.
    pub(crate) scope: VersionSet,
    pub(crate) id: String,
    pub(crate) decl: Decl<'d>,
}

/// The items of one view (one protocol version, or the whole description).
pub(crate) struct Section<'d> {
    pub(crate) version: Option<ProtocolVersion>,
    pub(crate) items: Vec<Item<'d>>,
}

impl<'d> Section<'d> {
    fn new(version: Option<ProtocolVersion>, view: &View<'d>, ids: &mut Ids) -> Section<'d> {
        let decls = (view.tools.iter())
            .map(|t| (t.index, t.scope, Decl::Tool(t.tool)))
            .chain(
                view.prompts
                    .iter()
                    .map(|c| (c.index, c.scope, Decl::Prompt(c.decl))),
            )
            .chain(
                view.resources
                    .iter()
                    .map(|c| (c.index, c.scope, Decl::Resource(c.decl))),
            )
            .chain(
                (view.resource_templates.iter())
                    .map(|c| (c.index, c.scope, Decl::Template(c.decl))),
            );
        let items = decls
            .map(|(index, scope, decl)| Item {
                kind: decl.kind(),
                name: decl.name(),
                title: decl.title(),
                tags: decl.tags(),
                scope,
                id: ids.claim(decl.kind(), index, decl.identity(), version),
                decl,
            })
            .collect();
        Section { version, items }
    }

    /// The anchor of this section's version block (`version-2025-06-18`), if versioned.
    pub(crate) fn version_id(&self) -> Option<String> {
        self.version.map(|v| format!("version-{v}"))
    }
}

/// The anchors handed out: each identity's plain anchor goes to its first (newest)
/// occurrence; later ones are prefixed by their version.
#[derive(Default)]
pub(crate) struct Ids {
    used: BTreeSet<String>,
    /// The first anchor of each declaration (kind, index), for links from tables.
    pub(crate) first: BTreeMap<(Kind, usize), String>,
}

impl Ids {
    fn claim(
        &mut self,
        kind: Kind,
        index: usize,
        identity: &str,
        version: Option<ProtocolVersion>,
    ) -> String {
        let plain = html::anchor(kind.prefix(), identity);
        let id = if self.used.contains(&plain) {
            let v = version.map(|v| v.to_string()).unwrap_or_default();
            format!("v{v}-{plain}")
        } else {
            plain
        };
        self.used.insert(id.clone());
        self.first
            .entry((kind, index))
            .or_insert_with(|| id.clone());
        id
    }
}

/// Everything the page is made of.
pub(crate) struct Page<'d> {
    pub(crate) doc: &'d Document,
    pub(crate) root: VersionSet,
    pub(crate) sections: Vec<Section<'d>>,
    pub(crate) ids: Ids,
    /// Whether there are several versions to switch between.
    pub(crate) switcher: bool,
}
