//! Resources and resource templates: the static descriptions generated code registers
//! ([`ResourceSpec`], [`ResourceTemplateSpec`]), the `resources/read` result a handler
//! returns ([`ResourceResult`]) and its wire shape per protocol version, and the native
//! `resources/list` and `resources/templates/list` projections.
//!
//! # Listed members per version
//!
//! | member | versions |
//! |---|---|
//! | `uri` / `uriTemplate`, `name`, `description`, `mimeType`, `annotations`, `size` (resources) | all |
//! | `title`, `_meta` | 2025-06-18 and later |
//! | `icons` | 2025-11-25 and later |
//! | `annotations.lastModified` | 2025-06-18 and later |
//!
//! Everything else of a declaration (`examples`, `completionExamples`, `tags`,
//! `elicitations`, `deprecated`, `security`, `clientRequirements`, `protocolVersions`,
//! `x-*`) is mcpdesc-only and never listed.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::content::{Meta, ResourceContents, TextResourceContents};
use super::prompts::{insert_meta_and_extra, without_wire_members};
use super::version::ProtocolVersion;

/// The static description of one resource, as generated code passes it to
/// `Router::resource`.
///
/// ```
/// use mcpdesc::ResourceSpec;
///
/// const BOARD: ResourceSpec = ResourceSpec::new(
///     "chess://leaderboard",
///     &[],
///     r#"{"uri": "chess://leaderboard", "name": "leaderboard"}"#,
/// );
/// assert_eq!(BOARD.uri, "chess://leaderboard");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceSpec {
    /// The resource URI; must equal the declaration's `uri`.
    pub uri: &'static str,
    /// The effective protocol scope; empty means every version of the server.
    pub scope: &'static [ProtocolVersion],
    /// The resolved Resource declaration as JSON.
    pub declaration: &'static str,
}

impl ResourceSpec {
    /// A spec from its three parts.
    pub const fn new(
        uri: &'static str,
        scope: &'static [ProtocolVersion],
        declaration: &'static str,
    ) -> Self {
        ResourceSpec {
            uri,
            scope,
            declaration,
        }
    }
}

/// The static description of one resource template, as generated code passes it to
/// `Router::resource_template`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResourceTemplateSpec {
    /// The RFC 6570 URI template; must equal the declaration's `uriTemplate`.
    pub uri_template: &'static str,
    /// The effective protocol scope; empty means every version of the server.
    pub scope: &'static [ProtocolVersion],
    /// The resolved Resource Template declaration as JSON.
    pub declaration: &'static str,
}

impl ResourceTemplateSpec {
    /// A spec from its three parts.
    pub const fn new(
        uri_template: &'static str,
        scope: &'static [ProtocolVersion],
        declaration: &'static str,
    ) -> Self {
        ResourceTemplateSpec {
            uri_template,
            scope,
            declaration,
        }
    }
}

/// Who may cache a read result (MCP 2026-07-28 `cacheScope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client or intermediary may cache it for any user.
    Public,
    /// Only the requesting user's client may cache it.
    Private,
}

/// A completed `resources/read` result, independent of the protocol version.
///
/// `ttl_ms` and `cache_scope` are the cache hints MCP 2026-07-28 requires on a read
/// result; they are sent in that version only, and when a handler leaves them out the
/// most conservative values are sent (`ttlMs: 0`, `cacheScope: "private"`, as rmcp
/// does). `resultType` is added for 2026-07-28. Other members are kept in `extra`.
///
/// ```
/// use mcpdesc::{ProtocolVersion, ResourceResult};
/// use serde_json::json;
///
/// let result = ResourceResult::text("chess://rules", "text/markdown", "# Rules");
/// assert_eq!(
///     result.to_wire(ProtocolVersion::V2025_11_25),
///     json!({"contents": [{"uri": "chess://rules", "mimeType": "text/markdown", "text": "# Rules"}]})
/// );
/// let latest = result.to_wire(ProtocolVersion::V2026_07_28);
/// assert_eq!((latest["resultType"].clone(), latest["ttlMs"].clone(), latest["cacheScope"].clone()),
///            (json!("complete"), json!(0), json!("private")));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceResult {
    /// The contents, in order.
    #[serde(default)]
    pub contents: Vec<ResourceContents>,
    /// How long the result may be treated as fresh, in milliseconds (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may cache the result (2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// Literal result `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Other result members, sent as they are (never `resultType`, see
    /// `PromptResult::extra`).
    #[serde(flatten, deserialize_with = "without_wire_members")]
    pub extra: Map<String, Value>,
}

impl ResourceResult {
    /// A result with these contents.
    pub fn new(contents: Vec<ResourceContents>) -> Self {
        ResourceResult {
            contents,
            ..Default::default()
        }
    }

    /// A result with one text entry.
    pub fn text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        ResourceResult::new(vec![ResourceContents::Text(TextResourceContents {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
            meta: None,
        })])
    }

    /// The same result with the 2026-07-28 cache hints.
    pub fn with_cache(mut self, ttl_ms: u64, scope: CacheScope) -> Self {
        self.ttl_ms = Some(ttl_ms);
        self.cache_scope = Some(scope);
        self
    }

    /// The same result with `_meta`.
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The result in the wire shape of `version` (see the type's docs); entry `_meta`
    /// and result `_meta` from 2025-06-18 on.
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut map = Map::new();
        if version.has_result_type() {
            map.insert("resultType".into(), Value::from("complete"));
            map.insert("ttlMs".into(), Value::from(self.ttl_ms.unwrap_or(0)));
            let scope = self.cache_scope.unwrap_or(CacheScope::Private);
            map.insert(
                "cacheScope".into(),
                serde_json::to_value(scope).unwrap_or(Value::Null),
            );
        }
        let contents = self
            .contents
            .iter()
            .map(|entry| {
                let mut value = serde_json::to_value(entry).unwrap_or(Value::Null);
                if let Value::Object(members) = &mut value {
                    if !version.has_content_meta() {
                        members.remove("_meta");
                    }
                }
                value
            })
            .collect();
        map.insert("contents".into(), Value::Array(contents));
        let mut extra = self.extra.clone();
        if !version.has_result_type() {
            extra.remove("ttlMs");
            extra.remove("cacheScope");
        }
        insert_meta_and_extra(&mut map, self.meta.as_ref(), &extra, version);
        Value::Object(map)
    }
}

/// Whether the MCP `Resource` (or, with `template`, `ResourceTemplate`) type of
/// `version` defines the member `key`.
fn member_defined(key: &str, version: ProtocolVersion, template: bool) -> bool {
    use ProtocolVersion::*;
    match key {
        "uri" | "size" => !template,
        "uriTemplate" => template,
        "name" | "description" | "mimeType" | "annotations" => true,
        "title" | "_meta" => version >= V2025_06_18,
        "icons" => version >= V2025_11_25,
        _ => false,
    }
}

fn project(declaration: &Map<String, Value>, version: ProtocolVersion, template: bool) -> Value {
    let mut out = Map::new();
    for (key, value) in declaration {
        if !member_defined(key, version, template) {
            continue;
        }
        let mut value = value.clone();
        if key == "annotations" && !version.has_content_meta() {
            if let Value::Object(annotations) = &mut value {
                annotations.remove("lastModified");
            }
        }
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

/// Projects a resolved Resource declaration to the native MCP `Resource` value of
/// `version` (see the module docs).
///
/// ```
/// use mcpdesc::resources::native_resource;
/// use mcpdesc::ProtocolVersion;
/// use serde_json::json;
///
/// let declaration = json!({"uri": "x:///a", "name": "a", "title": "A", "tags": ["t"], "x-k": 1});
/// assert_eq!(
///     native_resource(declaration.as_object().unwrap(), ProtocolVersion::V2025_03_26),
///     json!({"uri": "x:///a", "name": "a"})
/// );
/// ```
pub fn native_resource(declaration: &Map<String, Value>, version: ProtocolVersion) -> Value {
    project(declaration, version, false)
}

/// Projects a resolved Resource Template declaration to the native MCP
/// `ResourceTemplate` value of `version`.
pub fn native_resource_template(
    declaration: &Map<String, Value>,
    version: ProtocolVersion,
) -> Value {
    project(declaration, version, true)
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use ProtocolVersion::*;

    use super::*;

    #[test]
    fn example_results_round_trip_per_version() {
        let modern = json!({
            "resultType": "complete", "ttlMs": 60000, "cacheScope": "public",
            "contents": [{"uri": "x:///a", "mimeType": "text/plain", "text": "hi"},
                         {"uri": "x:///b", "blob": "AAEC"}]
        });
        let result: ResourceResult = serde_json::from_value(modern.clone()).unwrap();
        // The wire-only `resultType` is not one of the result's other members.
        assert!(result.extra.is_empty(), "{result:?}");
        assert_eq!(result.to_wire(V2026_07_28), modern);
        let legacy = json!({
            "contents": [{"uri": "x:///a", "text": "", "_meta": {"k": 1}}],
            "_meta": {"snapshot": "e"}
        });
        let result: ResourceResult = serde_json::from_value(legacy.clone()).unwrap();
        assert_eq!(result.to_wire(V2025_11_25), legacy);
        // 2025-03-26 has no `_meta` on results or entries, and no cache hints.
        assert_eq!(
            result.to_wire(V2025_03_26),
            json!({"contents": [{"uri": "x:///a", "text": ""}]})
        );
    }

    #[test]
    fn listing_projection() {
        let declaration = json!({
            "uriTemplate": "x:///{id}", "name": "t", "title": "T", "mimeType": "text/plain",
            "annotations": {"audience": ["user"], "lastModified": "2025-01-01T00:00:00Z"},
            "icons": [{"src": "https://x.example/i.png"}], "examples": {}, "completionExamples": {}
        });
        let map = declaration.as_object().unwrap();
        assert_eq!(
            native_resource_template(map, V2024_11_05),
            json!({"uriTemplate": "x:///{id}", "name": "t", "mimeType": "text/plain",
                   "annotations": {"audience": ["user"]}})
        );
        let latest = native_resource_template(map, V2026_07_28);
        assert_eq!(latest["icons"][0]["src"], "https://x.example/i.png");
        assert_eq!(
            latest["annotations"]["lastModified"],
            "2025-01-01T00:00:00Z"
        );
        assert!(latest.get("examples").is_none());
    }
}
