//! Which declarations a generation run works on (spec §9.5, digest §2.3–§2.4): tools,
//! prompts, resources and resource templates.
//!
//! Without a protocol version every declaration is generated with its own effective
//! scope; an identity declared more than once (protocol-scoped variants: a tool or
//! prompt name, a resource URI, a URI template) stops generation with
//! [`ViewError::Variants`], because one Rust trait cannot stand for two contracts and
//! the generator never picks one silently. With a protocol version `V`, generation works
//! on the Effective Protocol View of `V`: declarations whose scope excludes `V` are left
//! out, which leaves at most one declaration per identity.

use std::collections::BTreeMap;

use crate::model::{Document, Prompt, Resource, ResourceTemplate, Tool};
use crate::protocol::{ProtocolVersion, VersionSet};

/// One declaration chosen for generation.
#[derive(Debug, Clone, Copy)]
pub struct Chosen<'d, T> {
    /// Index of the declaration in its array (`tools`, `prompts`, ...).
    pub index: usize,
    /// The declaration.
    pub decl: &'d T,
    /// Its effective protocol scope (its `protocolVersions`, else the root's).
    pub scope: VersionSet,
}

/// One tool declaration chosen for generation.
#[derive(Debug, Clone, Copy)]
pub struct Selected<'d> {
    /// Index of the declaration in the document's `tools` array.
    pub index: usize,
    /// The declaration.
    pub tool: &'d Tool,
    /// Its effective protocol scope (its `protocolVersions`, else the root's).
    pub scope: VersionSet,
}

/// The declarations of one generation run, each list in document order.
#[derive(Debug, Clone, Default)]
pub struct View<'d> {
    /// The tools.
    pub tools: Vec<Selected<'d>>,
    /// The prompts.
    pub prompts: Vec<Chosen<'d, Prompt>>,
    /// The resources.
    pub resources: Vec<Chosen<'d, Resource>>,
    /// The resource templates.
    pub resource_templates: Vec<Chosen<'d, ResourceTemplate>>,
}

impl View<'_> {
    /// Whether the view has no declaration at all.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
            && self.prompts.is_empty()
            && self.resources.is_empty()
            && self.resource_templates.is_empty()
    }
}

/// Why no view could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// Several declarations share an identity and no protocol version was chosen.
    #[error("{kind} {name:?} has protocol-scoped variants ({}); choose one protocol version (`--protocol-version`, `Settings::protocol_version`) to generate its Effective Protocol View", .scopes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join("; "))]
    Variants {
        /// `"tool"`, `"prompt"`, `"resource"` or `"resource template"`.
        kind: &'static str,
        /// The shared identity: the name, URI or URI template.
        name: String,
        /// The effective scope of each declaration, in document order.
        scopes: Vec<VersionSet>,
    },
    /// Several declarations with the same identity apply to the chosen version (only an
    /// invalid description can have them).
    #[error("{kind} {name:?} is declared more than once for MCP {version}; declarations with the same identity must have disjoint protocolVersions")]
    Overlap {
        /// `"tool"`, `"prompt"`, `"resource"` or `"resource template"`.
        kind: &'static str,
        /// The identity.
        name: String,
        /// The chosen version.
        version: ProtocolVersion,
    },
    /// The chosen version is not one the description describes.
    #[error("the description does not describe MCP {version} (its protocolVersions are {root})")]
    UnknownVersion {
        /// The chosen version.
        version: ProtocolVersion,
        /// The root `protocolVersions`.
        root: VersionSet,
    },
}

/// The root protocol versions of a document (unknown names are ignored: validation
/// reports them).
pub fn root_versions(doc: &Document) -> VersionSet {
    doc.protocol_versions
        .iter()
        .filter_map(|v| ProtocolVersion::parse(v))
        .collect()
}

/// The effective scope of a tool under `root`.
pub fn scope_of(tool: &Tool, root: VersionSet) -> VersionSet {
    scope_in(tool.protocol_versions.as_deref(), root)
}

/// The effective scope of a declaration with `protocolVersions` `declared` under `root`.
pub fn scope_in(declared: Option<&[String]>, root: VersionSet) -> VersionSet {
    match declared {
        Some(list) => list
            .iter()
            .filter_map(|v| ProtocolVersion::parse(v))
            .collect::<VersionSet>()
            .intersect(root),
        None => root,
    }
}

/// Chooses the tool declarations to generate, in document order (see [`select_view`]).
pub fn select(
    doc: &Document,
    version: Option<ProtocolVersion>,
) -> Result<Vec<Selected<'_>>, ViewError> {
    select_view(doc, version).map(|view| view.tools)
}

/// Chooses every declaration to generate: the whole description without a version,
/// the Effective Protocol View of `version` with one. Refuses protocol-scoped variants
/// without a version ([`ViewError::Variants`]), checking tools, then prompts, resources
/// and resource templates.
pub fn select_view(
    doc: &Document,
    version: Option<ProtocolVersion>,
) -> Result<View<'_>, ViewError> {
    let root = root_versions(doc);
    if let Some(v) = version {
        if !root.contains(v) {
            return Err(ViewError::UnknownVersion { version: v, root });
        }
    }
    let tools = choose(
        "tool",
        doc.tools.as_deref(),
        |t| (t.name.as_str(), t.protocol_versions.as_deref()),
        root,
        version,
    )?;
    Ok(View {
        tools: tools
            .into_iter()
            .map(|c| Selected {
                index: c.index,
                tool: c.decl,
                scope: c.scope,
            })
            .collect(),
        prompts: choose(
            "prompt",
            doc.prompts.as_deref(),
            |p| (p.name.as_str(), p.protocol_versions.as_deref()),
            root,
            version,
        )?,
        resources: choose(
            "resource",
            doc.resources.as_deref(),
            |r| (r.uri.as_str(), r.protocol_versions.as_deref()),
            root,
            version,
        )?,
        resource_templates: choose(
            "resource template",
            doc.resource_templates.as_deref(),
            |t| (t.uri_template.as_str(), t.protocol_versions.as_deref()),
            root,
            version,
        )?,
    })
}

/// The declarations of one kind in the view, refusing variants (see the module docs).
fn choose<'d, T>(
    kind: &'static str,
    list: Option<&'d [T]>,
    identity: impl Fn(&'d T) -> (&'d str, Option<&'d [String]>),
    root: VersionSet,
    version: Option<ProtocolVersion>,
) -> Result<Vec<Chosen<'d, T>>, ViewError> {
    let chosen: Vec<Chosen<'d, T>> = list
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(index, decl)| Chosen {
            index,
            decl,
            scope: scope_in(identity(decl).1, root),
        })
        .filter(|c| version.is_none_or(|v| c.scope.contains(v)))
        .collect();
    let mut by_identity: BTreeMap<&str, Vec<VersionSet>> = BTreeMap::new();
    for c in &chosen {
        by_identity
            .entry(identity(c.decl).0)
            .or_default()
            .push(c.scope);
    }
    // Report the first offending identity in document order, so the message is stable.
    for c in &chosen {
        let name = identity(c.decl).0;
        let scopes = &by_identity[name];
        if scopes.len() > 1 {
            return Err(match version {
                None => ViewError::Variants {
                    kind,
                    name: name.to_owned(),
                    scopes: scopes.clone(),
                },
                Some(version) => ViewError::Overlap {
                    kind,
                    name: name.to_owned(),
                    version,
                },
            });
        }
    }
    Ok(chosen)
}
