//! The Effective Protocol View of one side for one protocol version (digest §2.4): the
//! declarations whose effective scope contains the version, by identity. A valid
//! description has at most one declaration per identity and version, and at most one
//! Capabilities Object per version.

use serde_json::Value;

use super::side::Side;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};

/// One declaration in a view.
#[derive(Debug, Clone)]
pub(crate) struct Decl<'d> {
    /// Its identity: name, URI, URI template, or transport label.
    pub(crate) id: String,
    /// Where it is (in the substituted document).
    pub(crate) at: Pointer,
    /// The declaration.
    pub(crate) value: &'d Value,
}

/// What one side describes for one protocol version.
pub(crate) struct View<'d> {
    /// The whole (substituted) document, for root members and schemas.
    pub(crate) doc: &'d Value,
    /// Tools by name.
    pub(crate) tools: Vec<Decl<'d>>,
    /// Prompts by name.
    pub(crate) prompts: Vec<Decl<'d>>,
    /// Resources by URI.
    pub(crate) resources: Vec<Decl<'d>>,
    /// Resource templates by URI template.
    pub(crate) templates: Vec<Decl<'d>>,
    /// Transports by label (`stdio weather-mcp`, `streamable-http https://...`).
    pub(crate) transports: Vec<Decl<'d>>,
    /// The Capabilities Object for this version, if one is declared.
    pub(crate) capabilities: Option<Decl<'d>>,
}

impl<'d> View<'d> {
    /// The view of `side` for `version`.
    pub(crate) fn of(side: &Side<'d>, version: ProtocolVersion) -> View<'d> {
        let doc = side.doc;
        let root = side.root;
        let pick = |list: &str, identity: &dyn Fn(&Value) -> Option<String>| -> Vec<Decl<'d>> {
            doc.get(list)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
                .filter(|(_, v)| scope(v, root).contains(version))
                .filter_map(|(i, v)| {
                    Some(Decl {
                        id: identity(v)?,
                        at: Pointer::root().key(list).index(i),
                        value: v,
                    })
                })
                .collect()
        };
        let member = |key: &'static str| move |v: &Value| v.get(key)?.as_str().map(str::to_owned);
        View {
            doc,
            tools: pick("tools", &member("name")),
            prompts: pick("prompts", &member("name")),
            resources: pick("resources", &member("uri")),
            templates: pick("resourceTemplates", &member("uriTemplate")),
            transports: pick("transports", &transport_label),
            capabilities: pick("capabilities", &|_| Some(String::new()))
                .into_iter()
                .next(),
        }
    }
}

/// The effective scope of a declaration: its `protocolVersions` within the root set,
/// else the root set.
pub(crate) fn scope(decl: &Value, root: VersionSet) -> VersionSet {
    match decl.get("protocolVersions").and_then(Value::as_array) {
        Some(list) => list
            .iter()
            .filter_map(Value::as_str)
            .filter_map(ProtocolVersion::parse)
            .collect::<VersionSet>()
            .intersect(root),
        None => root,
    }
}

/// How a transport is identified across versions: its type and endpoint.
pub(crate) fn transport_label(t: &Value) -> Option<String> {
    let kind = t.get("type")?.as_str()?;
    let endpoint = t
        .get("url")
        .or_else(|| t.get("command"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    Some(format!("{kind} {endpoint}"))
}

/// Finds a declaration by identity.
pub(crate) fn find<'a, 'd>(list: &'a [Decl<'d>], id: &str) -> Option<&'a Decl<'d>> {
    list.iter().find(|d| d.id == id)
}
