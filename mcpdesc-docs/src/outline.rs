//! The page's outline: one section per rendered view, the items of each (a tool,
//! prompt, resource or template with its anchor), and the anchors handed out.

use std::collections::{BTreeMap, BTreeSet};

use mcpdesc_description::model::{Document, Prompt, Resource, ResourceTemplate, Tool};
use mcpdesc_description::view::View;
use mcpdesc_description::{ProtocolVersion, VersionSet};

use crate::html;

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
    pub(crate) fn new(
        version: Option<ProtocolVersion>,
        view: &View<'d>,
        ids: &mut Ids,
    ) -> Section<'d> {
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

impl Page<'_> {
    /// The anchor of the resource `uri` as a link from `from`: the resource of the
    /// same version block when that block declares it, else its first (newest)
    /// occurrence on the page, else `None` (the page does not describe it).
    pub(crate) fn resource_anchor(&self, from: &Item, uri: &str) -> Option<&str> {
        let is_it = |i: &&Item| i.kind == Kind::Resource && i.decl.identity() == uri;
        let same_section = self
            .sections
            .iter()
            .find(|s| s.items.iter().any(|i| i.id == from.id))
            .and_then(|s| s.items.iter().find(is_it));
        same_section
            .or_else(|| self.sections.iter().flat_map(|s| &s.items).find(is_it))
            .map(|i| i.id.as_str())
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
