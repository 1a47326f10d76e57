//! Which declarations a generation run works on (spec §9.5, digest §2.3–§2.4): tools,
//! prompts, resources and resource templates.
//!
//! Without a protocol version every declaration is generated with its own effective
//! scope. An identity declared more than once in disjoint scopes (protocol-scoped
//! variants: a tool or prompt name, a resource URI, a URI template) keeps every
//! declaration, each marked with its [`Chosen::variant`] version: the generator names
//! each variant's items after it (`analyze_game` → `analyze_game_v20251125`, see
//! [`variant_name`]; tool variants with one handler signature share one handler trait
//! with the tool's own names, see `ir::handler_groups`) and the router serves each
//! negotiated version its own variant.
//! With a protocol version `V`, generation works on the Effective Protocol View of `V`:
//! declarations whose scope excludes `V` are left out, which leaves at most one
//! declaration per identity, and no variant marks.

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
    /// For one of several same-identity declarations (protocol-scoped variants) in
    /// the view: the first version of its scope, which its generated names carry.
    pub variant: Option<ProtocolVersion>,
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
    /// The variant version, as in [`Chosen::variant`].
    pub variant: Option<ProtocolVersion>,
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

    /// Whether some identity has protocol-scoped variants in the view (never with a
    /// chosen protocol version).
    pub fn has_variants(&self) -> bool {
        self.tools.iter().any(|t| t.variant.is_some())
            || self.prompts.iter().any(|c| c.variant.is_some())
            || self.resources.iter().any(|c| c.variant.is_some())
            || self.resource_templates.iter().any(|c| c.variant.is_some())
    }
}

/// The doc line of a protocol-scoped variant's items (`None` outside variants).
pub fn variant_doc(variant: Option<ProtocolVersion>, scope: VersionSet) -> Option<String> {
    variant.map(|_| {
        format!(
            "Protocol-scoped variant for {scope}: the router serves it to the sessions that negotiated one of these versions."
        )
    })
}

/// The name the generator derives a variant's Rust names from: `name` itself outside
/// variants, else `name` with the variant's first version (`run_v20251125`).
///
/// ```
/// use mcpdesc_description::view::variant_name;
/// use mcpdesc_description::ProtocolVersion;
/// assert_eq!(variant_name("run", None), "run");
/// assert_eq!(variant_name("run", Some(ProtocolVersion::V2025_11_25)), "run_v20251125");
/// ```
pub fn variant_name(name: &str, variant: Option<ProtocolVersion>) -> String {
    match variant {
        Some(v) => format!("{name}_v{}", v.as_str().replace('-', "")),
        None => name.to_owned(),
    }
}

/// Why no view could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// Several declarations with the same identity apply to one version (only an
    /// invalid description can have them): the chosen version, else the first version
    /// their scopes share.
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

/// Chooses every declaration to generate: the whole description without a version
/// (protocol-scoped variants marked, see the module docs), the Effective Protocol View
/// of `version` with one. Refuses same-identity declarations whose scopes overlap
/// ([`ViewError::Overlap`]), checking tools, then prompts, resources and resource
/// templates.
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
                variant: c.variant,
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

/// The declarations of one kind in the view, marking protocol-scoped variants and
/// refusing overlapping ones (see the module docs).
fn choose<'d, T>(
    kind: &'static str,
    list: Option<&'d [T]>,
    identity: impl Fn(&'d T) -> (&'d str, Option<&'d [String]>),
    root: VersionSet,
    version: Option<ProtocolVersion>,
) -> Result<Vec<Chosen<'d, T>>, ViewError> {
    let mut chosen: Vec<Chosen<'d, T>> = list
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(index, decl)| Chosen {
            index,
            decl,
            scope: scope_in(identity(decl).1, root),
            variant: None,
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
    for c in &mut chosen {
        let name = identity(c.decl).0;
        let scopes = &by_identity[name];
        if scopes.len() < 2 {
            continue;
        }
        let overlap = match version {
            Some(v) => Some(v),
            None => {
                let mut shared = None;
                for (i, a) in scopes.iter().enumerate() {
                    for b in &scopes[i + 1..] {
                        shared = shared.or(a.intersect(*b).iter().next());
                    }
                }
                shared
            }
        };
        if let Some(version) = overlap {
            return Err(ViewError::Overlap {
                kind,
                name: name.to_owned(),
                version,
            });
        }
        c.variant = c.scope.iter().next();
    }
    Ok(chosen)
}
