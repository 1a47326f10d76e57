//! Content blocks of a tool result, in the MCP wire shape.
//!
//! Every block type is closed (unknown members are rejected when parsing), as the MCP
//! schema and the MCP Description specification (§9.3) define them. The blocks model the
//! union of all protocol versions; [`Content::version_problems`] says what one version
//! cannot carry, and `ToolResult::to_wire` shapes a block
//! for the negotiated version.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::version::ProtocolVersion;

/// A `_meta` object: literal MCP metadata.
pub type Meta = Map<String, Value>;

/// Who a content block is meant for (`annotations.audience`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human user.
    User,
    /// The model.
    Assistant,
}

/// Resource annotations on a content block (`audience`, `priority`, `lastModified`).
///
/// ```
/// use mcpdesc::{Annotations, Content, Role};
///
/// let block = Content::text("for the model only")
///     .with_annotations(Annotations { audience: Some(vec![Role::Assistant]), ..Default::default() });
/// assert_eq!(serde_json::to_value(&block).unwrap()["annotations"]["audience"][0], "assistant");
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Annotations {
    /// The intended readers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// Importance from 0 (least) to 1 (most).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// An ISO 8601 timestamp of the last change (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

/// An icon of a resource link (2025-11-25 and later).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// An `http(s)` or `data:` URI.
    pub src: String,
    /// The media type of the image.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Sizes such as `"48x48"` or `"any"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// `"light"` or `"dark"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
}

/// A `text` content block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Resource annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Literal `_meta` (2025-06-18 and later).
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// An `image` or `audio` content block: base64 data with its media type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaContent {
    /// Base64-encoded bytes.
    pub data: String,
    /// The media type, e.g. `image/png`.
    pub mime_type: String,
    /// Resource annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Literal `_meta` (2025-06-18 and later).
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// The contents of an embedded resource: text or a base64 blob.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// Text contents.
    Text(TextResourceContents),
    /// Binary contents.
    Blob(BlobResourceContents),
}

/// Text resource contents (`{uri, text, mimeType?, _meta?}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TextResourceContents {
    /// The resource URI.
    pub uri: String,
    /// The media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The text.
    pub text: String,
    /// Literal `_meta` (2025-06-18 and later).
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Binary resource contents (`{uri, blob, mimeType?, _meta?}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BlobResourceContents {
    /// The resource URI.
    pub uri: String,
    /// The media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Base64-encoded bytes.
    pub blob: String,
    /// Literal `_meta` (2025-06-18 and later).
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A `resource` content block: an embedded resource.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmbeddedResource {
    /// The resource contents.
    pub resource: ResourceContents,
    /// Resource annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Literal `_meta` (2025-06-18 and later).
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A `resource_link` content block (2025-06-18 and later).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceLink {
    /// The resource URI.
    pub uri: String,
    /// The programmatic name.
    pub name: String,
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The media type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons (2025-11-25 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Resource annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Literal `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// One content block of a tool result, tagged by `type`.
///
/// ```
/// use mcpdesc::Content;
///
/// let block = Content::text("hello");
/// assert_eq!(serde_json::to_value(&block).unwrap(), serde_json::json!({"type": "text", "text": "hello"}));
/// let parsed: Content = serde_json::from_value(serde_json::json!({"type": "image", "data": "AA==", "mimeType": "image/png"})).unwrap();
/// assert_eq!(parsed.kind(), "image");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// `type: "text"`.
    Text(TextContent),
    /// `type: "image"`.
    Image(MediaContent),
    /// `type: "audio"` (2025-03-26 and later).
    Audio(MediaContent),
    /// `type: "resource"`: an embedded resource.
    Resource(EmbeddedResource),
    /// `type: "resource_link"` (2025-06-18 and later).
    ResourceLink(ResourceLink),
}

impl Content {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        Content::Text(TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An image block from base64 `data` and its media type.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Image(MediaContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An audio block from base64 `data` and its media type (2025-03-26 and later).
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        Content::Audio(MediaContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        })
    }

    /// An embedded text resource.
    ///
    /// ```
    /// let block = mcpdesc::Content::embedded_text("file:///notes.md", "# Notes", Some("text/markdown"));
    /// assert_eq!(serde_json::to_value(&block).unwrap()["resource"]["text"], "# Notes");
    /// ```
    pub fn embedded_text(
        uri: impl Into<String>,
        text: impl Into<String>,
        mime_type: Option<&str>,
    ) -> Self {
        Content::Resource(EmbeddedResource {
            resource: ResourceContents::Text(TextResourceContents {
                uri: uri.into(),
                mime_type: mime_type.map(str::to_owned),
                text: text.into(),
                meta: None,
            }),
            annotations: None,
            meta: None,
        })
    }

    /// An embedded binary resource from a base64 `blob`.
    pub fn embedded_blob(
        uri: impl Into<String>,
        blob: impl Into<String>,
        mime_type: Option<&str>,
    ) -> Self {
        Content::Resource(EmbeddedResource {
            resource: ResourceContents::Blob(BlobResourceContents {
                uri: uri.into(),
                mime_type: mime_type.map(str::to_owned),
                blob: blob.into(),
                meta: None,
            }),
            annotations: None,
            meta: None,
        })
    }

    /// A resource link (2025-06-18 and later).
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Content::ResourceLink(ResourceLink {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: None,
            annotations: None,
            meta: None,
        })
    }

    /// The `type` tag: `text`, `image`, `audio`, `resource` or `resource_link`.
    pub fn kind(&self) -> &'static str {
        match self {
            Content::Text(_) => "text",
            Content::Image(_) => "image",
            Content::Audio(_) => "audio",
            Content::Resource(_) => "resource",
            Content::ResourceLink(_) => "resource_link",
        }
    }

    /// The block's annotations, if any.
    pub fn annotations(&self) -> Option<&Annotations> {
        match self {
            Content::Text(c) => c.annotations.as_ref(),
            Content::Image(c) | Content::Audio(c) => c.annotations.as_ref(),
            Content::Resource(c) => c.annotations.as_ref(),
            Content::ResourceLink(c) => c.annotations.as_ref(),
        }
    }

    /// The block's `_meta`, if any.
    pub fn meta(&self) -> Option<&Meta> {
        match self {
            Content::Text(c) => c.meta.as_ref(),
            Content::Image(c) | Content::Audio(c) => c.meta.as_ref(),
            Content::Resource(c) => c.meta.as_ref(),
            Content::ResourceLink(c) => c.meta.as_ref(),
        }
    }

    /// The same block with `annotations` set.
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        let slot = match &mut self {
            Content::Text(c) => &mut c.annotations,
            Content::Image(c) | Content::Audio(c) => &mut c.annotations,
            Content::Resource(c) => &mut c.annotations,
            Content::ResourceLink(c) => &mut c.annotations,
        };
        *slot = Some(annotations);
        self
    }

    /// The same block with `_meta` set.
    pub fn with_meta(mut self, meta: Meta) -> Self {
        let slot = match &mut self {
            Content::Text(c) => &mut c.meta,
            Content::Image(c) | Content::Audio(c) => &mut c.meta,
            Content::Resource(c) => &mut c.meta,
            Content::ResourceLink(c) => &mut c.meta,
        };
        *slot = Some(meta);
        self
    }

    /// What of this block `version` cannot carry, one sentence each; empty when the
    /// block is native to `version`.
    ///
    /// ```
    /// use mcpdesc::{Content, ProtocolVersion};
    ///
    /// assert!(Content::audio("AA==", "audio/wav").version_problems(ProtocolVersion::V2025_03_26).is_empty());
    /// assert_eq!(
    ///     Content::audio("AA==", "audio/wav").version_problems(ProtocolVersion::V2024_11_05),
    ///     ["content type `audio` is not defined for MCP 2024-11-05"],
    /// );
    /// ```
    pub fn version_problems(&self, version: ProtocolVersion) -> Vec<String> {
        let mut problems = Vec::new();
        let kind_ok = match self {
            Content::Audio(_) => version.has_audio_content(),
            Content::ResourceLink(_) => version.has_resource_link_content(),
            _ => true,
        };
        if !kind_ok {
            problems.push(format!(
                "content type `{}` is not defined for MCP {version}",
                self.kind()
            ));
        }
        if !version.has_content_meta() {
            if self.meta().is_some() {
                problems.push(format!("content `_meta` is not defined for MCP {version}"));
            }
            if let Content::Resource(r) = self {
                if r.resource.meta().is_some() {
                    problems.push(format!(
                        "embedded resource `_meta` is not defined for MCP {version}"
                    ));
                }
            }
            if self
                .annotations()
                .is_some_and(|a| a.last_modified.is_some())
            {
                problems.push(format!(
                    "annotation `lastModified` is not defined for MCP {version}"
                ));
            }
        }
        if let Content::ResourceLink(link) = self {
            if link.icons.is_some() && !version.has_icons() {
                problems.push(format!(
                    "resource link `icons` are not defined for MCP {version}"
                ));
            }
        }
        problems
    }

    /// The block shaped for `version`: a plain text block (no annotations, no `_meta`)
    /// stays text, since its wire form is the same in every version; any other block is
    /// written as [`Content::to_wire`] writes it.
    pub(crate) fn shape(self, version: ProtocolVersion) -> ShapedBlock {
        match self {
            Content::Text(TextContent {
                text,
                annotations: None,
                meta: None,
            }) => ShapedBlock::Text(text),
            other => ShapedBlock::Wire(other.to_wire(version)),
        }
    }

    /// The wire form of this block for `version`.
    ///
    /// Metadata the version lacks (`_meta`, `lastModified`, link `icons`) is dropped:
    /// it is advisory and the rest of the block keeps its meaning. A block kind the
    /// version lacks (`audio` before 2025-03-26, `resource_link` before 2025-06-18) is
    /// replaced by a text block that says what it was (for a link: its name and URI),
    /// so the client still receives the rest of a successful result.
    pub(crate) fn to_wire(&self, version: ProtocolVersion) -> Value {
        let converted;
        let block = match self {
            Content::Audio(audio) if !version.has_audio_content() => {
                converted = Content::Text(TextContent {
                    text: format!(
                        "[audio content ({}) omitted: MCP {version} cannot carry audio]",
                        audio.mime_type
                    ),
                    annotations: audio.annotations.clone(),
                    meta: None,
                });
                &converted
            }
            Content::ResourceLink(link) if !version.has_resource_link_content() => {
                let label = link.title.as_deref().unwrap_or(&link.name);
                let mut text = format!("Resource link: {label} <{}>", link.uri);
                if let Some(description) = &link.description {
                    text.push_str(" - ");
                    text.push_str(description);
                }
                converted = Content::Text(TextContent {
                    text,
                    annotations: link.annotations.clone(),
                    meta: None,
                });
                &converted
            }
            other => other,
        };
        let mut value =
            serde_json::to_value(block).unwrap_or_else(|_| json!({"type": "text", "text": ""}));
        if let Value::Object(map) = &mut value {
            if !version.has_content_meta() {
                map.remove("_meta");
                if let Some(Value::Object(resource)) = map.get_mut("resource") {
                    resource.remove("_meta");
                }
                let now_empty = match map.get_mut("annotations") {
                    Some(Value::Object(annotations)) => {
                        annotations.remove("lastModified");
                        annotations.is_empty()
                    }
                    _ => false,
                };
                if now_empty {
                    map.remove("annotations");
                }
            }
            if !version.has_icons()
                && map.get("type").and_then(Value::as_str) == Some("resource_link")
            {
                map.remove("icons");
            }
        }
        value
    }
}

impl ResourceContents {
    /// The resource URI.
    pub fn uri(&self) -> &str {
        match self {
            ResourceContents::Text(c) => &c.uri,
            ResourceContents::Blob(c) => &c.uri,
        }
    }

    /// The contents' `_meta`, if any.
    pub fn meta(&self) -> Option<&Meta> {
        match self {
            ResourceContents::Text(c) => c.meta.as_ref(),
            ResourceContents::Blob(c) => c.meta.as_ref(),
        }
    }
}

/// One content block shaped for a protocol version ([`Content::shape`]).
#[derive(Debug)]
pub(crate) enum ShapedBlock {
    /// A text block with no annotations and no `_meta` (the usual block, and the one
    /// typed outputs produce): `{"type": "text", "text": ...}` in every version.
    Text(String),
    /// Any other block, in its wire JSON for the version.
    Wire(Value),
}

impl ShapedBlock {
    /// The block's wire JSON.
    pub(crate) fn into_wire(self) -> Value {
        match self {
            ShapedBlock::Text(text) => {
                let mut map = Map::new();
                map.insert("type".into(), Value::from("text"));
                map.insert("text".into(), Value::String(text));
                Value::Object(map)
            }
            ShapedBlock::Wire(value) => value,
        }
    }
}

#[cfg(test)]
mod tests {
    use ProtocolVersion::*;

    use super::*;

    #[test]
    fn parse_every_kind() {
        let blocks = json!([
            {"type": "text", "text": "t", "annotations": {"audience": ["user"], "priority": 0.5, "lastModified": "2025-01-01T00:00:00Z"}, "_meta": {"a": 1}},
            {"type": "image", "data": "AA==", "mimeType": "image/png"},
            {"type": "audio", "data": "AA==", "mimeType": "audio/wav"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "x"}},
            {"type": "resource", "resource": {"uri": "file:///b", "blob": "AA==", "mimeType": "application/octet-stream", "_meta": {}}},
            {"type": "resource_link", "uri": "file:///c", "name": "c", "size": 3, "icons": [{"src": "https://example.invalid/i.png"}]}
        ]);
        let parsed: Vec<Content> = serde_json::from_value(blocks.clone()).unwrap();
        let kinds: Vec<&str> = parsed.iter().map(Content::kind).collect();
        assert_eq!(
            kinds,
            [
                "text",
                "image",
                "audio",
                "resource",
                "resource",
                "resource_link"
            ]
        );
        assert!(
            matches!(&parsed[4], Content::Resource(r) if matches!(r.resource, ResourceContents::Blob(_)))
        );
        // Round trip keeps everything at the newest version.
        let wire: Vec<Value> = parsed.iter().map(|c| c.to_wire(V2026_07_28)).collect();
        assert_eq!(Value::Array(wire), blocks);
    }

    #[test]
    fn closed_blocks_reject_unknown_members() {
        let err =
            serde_json::from_value::<Content>(json!({"type": "text", "text": "t", "extra": 1}));
        assert!(err.is_err());
        let err = serde_json::from_value::<Content>(json!({"type": "video", "data": ""}));
        assert!(err.is_err());
        let err = serde_json::from_value::<Content>(
            json!({"type": "resource", "resource": {"uri": "u", "text": "t", "blob": "b"}}),
        );
        assert!(err.is_err());
    }

    #[test]
    fn old_versions_drop_metadata_and_convert_kinds() {
        let text = Content::text("t")
            .with_meta(Meta::new())
            .with_annotations(Annotations {
                last_modified: Some("2025-01-01".into()),
                ..Default::default()
            });
        assert_eq!(text.version_problems(V2025_03_26).len(), 2);
        assert_eq!(
            text.to_wire(V2025_03_26),
            json!({"type": "text", "text": "t"})
        );

        let audio = Content::audio("AA==", "audio/wav");
        assert_eq!(
            audio.to_wire(V2024_11_05)["text"],
            "[audio content (audio/wav) omitted: MCP 2024-11-05 cannot carry audio]"
        );
        assert_eq!(audio.to_wire(V2025_03_26)["type"], "audio");

        let link = Content::resource_link("file:///r.txt", "r.txt");
        assert_eq!(
            link.to_wire(V2025_03_26),
            json!({"type": "text", "text": "Resource link: r.txt <file:///r.txt>"})
        );
        assert!(link.version_problems(V2025_06_18).is_empty());
    }
}
