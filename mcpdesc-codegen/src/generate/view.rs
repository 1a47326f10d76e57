//! Which tool declarations a generation run works on (spec §9.5, digest §2.3–§2.4).
//!
//! Without a protocol version every declaration is generated with its own effective
//! scope; a tool name declared more than once (protocol-scoped variants) stops generation
//! with [`ViewError::Variants`], because one Rust trait cannot stand for two contracts
//! and the generator never picks one silently. With a protocol version `V`, generation
//! works on the Effective Protocol View of `V`: declarations whose scope excludes `V` are
//! left out, which leaves at most one declaration per name.

use std::collections::BTreeMap;

use crate::model::{Document, Tool};
use crate::protocol::{ProtocolVersion, VersionSet};

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

/// Why no view could be chosen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// Several declarations share a tool name and no protocol version was chosen.
    #[error("tool {tool:?} has protocol-scoped variants ({}); choose one protocol version (`--protocol-version`, `Settings::protocol_version`) to generate its Effective Protocol View", .scopes.iter().map(|s| s.to_string()).collect::<Vec<_>>().join("; "))]
    Variants {
        /// The shared tool name.
        tool: String,
        /// The effective scope of each declaration, in document order.
        scopes: Vec<VersionSet>,
    },
    /// Several declarations with the same name apply to the chosen version (only an
    /// invalid description can have them).
    #[error("tool {tool:?} is declared more than once for MCP {version}; declarations with the same name must have disjoint protocolVersions")]
    Overlap {
        /// The tool name.
        tool: String,
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
    match &tool.protocol_versions {
        Some(list) => list
            .iter()
            .filter_map(|v| ProtocolVersion::parse(v))
            .collect::<VersionSet>()
            .intersect(root),
        None => root,
    }
}

/// Chooses the declarations to generate, in document order.
pub fn select(
    doc: &Document,
    version: Option<ProtocolVersion>,
) -> Result<Vec<Selected<'_>>, ViewError> {
    let root = root_versions(doc);
    if let Some(v) = version {
        if !root.contains(v) {
            return Err(ViewError::UnknownVersion { version: v, root });
        }
    }
    let selected: Vec<Selected<'_>> = doc
        .tools
        .iter()
        .flatten()
        .enumerate()
        .map(|(index, tool)| Selected {
            index,
            tool,
            scope: scope_of(tool, root),
        })
        .filter(|s| version.is_none_or(|v| s.scope.contains(v)))
        .collect();

    let mut by_name: BTreeMap<&str, Vec<VersionSet>> = BTreeMap::new();
    for s in &selected {
        by_name
            .entry(s.tool.name.as_str())
            .or_default()
            .push(s.scope);
    }
    // Report the first offending name in document order, so the message is stable.
    for s in &selected {
        let scopes = &by_name[s.tool.name.as_str()];
        if scopes.len() > 1 {
            return Err(match version {
                None => ViewError::Variants {
                    tool: s.tool.name.clone(),
                    scopes: scopes.clone(),
                },
                Some(version) => ViewError::Overlap {
                    tool: s.tool.name.clone(),
                    version,
                },
            });
        }
    }
    Ok(selected)
}
