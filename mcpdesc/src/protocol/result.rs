//! Tool results and their per-version wire shape.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::content::{Content, Meta, ShapedBlock};
use super::error::ToolError;
use super::version::ProtocolVersion;

/// A completed tool result (`CallToolResult`), independent of the protocol version.
///
/// Serde uses the MCP member names (`content`, `structuredContent`, `isError`,
/// `_meta`). Parsing ignores members it does not know (such as `resultType`), because
/// MCP results are open objects; [`ToolResult::to_wire`] produces the exact shape of one
/// protocol version.
///
/// ```
/// use mcpdesc::{ProtocolVersion, ToolResult};
/// use serde_json::json;
///
/// let result = ToolResult::structured(json!({"rating": 1500}));
/// assert_eq!(
///     result.to_wire(ProtocolVersion::V2026_07_28),
///     json!({
///         "resultType": "complete",
///         "content": [{"type": "text", "text": "{\"rating\":1500}"}],
///         "structuredContent": {"rating": 1500}
///     })
/// );
/// // 2025-03-26 has no structuredContent: the text block carries the JSON.
/// assert_eq!(
///     result.to_wire(ProtocolVersion::V2025_03_26),
///     json!({"content": [{"type": "text", "text": "{\"rating\":1500}"}]})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResult {
    /// The unstructured content blocks (always present on the wire, possibly empty).
    #[serde(default)]
    pub content: Vec<Content>,
    /// The structured output (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// `Some(true)` for a tool execution error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// Literal result `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ToolResult {
    /// A successful result with these content blocks.
    pub fn new(content: Vec<Content>) -> Self {
        ToolResult {
            content,
            ..Default::default()
        }
    }

    /// A successful result with one text block.
    ///
    /// ```
    /// let r = mcpdesc::ToolResult::text("done");
    /// assert_eq!(serde_json::to_value(&r).unwrap(), serde_json::json!({"content": [{"type": "text", "text": "done"}]}));
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        ToolResult::new(vec![Content::text(text)])
    }

    /// A successful result with structured content and, as MCP recommends for clients
    /// that do not read `structuredContent`, a text block with its JSON.
    pub fn structured(value: Value) -> Self {
        ToolResult {
            content: vec![Content::text(value.to_string())],
            structured_content: Some(value),
            ..Default::default()
        }
    }

    /// A tool execution error (`isError: true`) with the message as its text.
    ///
    /// ```
    /// let r = mcpdesc::ToolResult::error("player not found");
    /// assert_eq!(r.is_error, Some(true));
    /// ```
    pub fn error(message: impl Into<String>) -> Self {
        ToolError::new(message).into()
    }

    /// The result of a typed output: `structuredContent` is its JSON and a text block
    /// repeats that JSON.
    ///
    /// Generated code calls this for tools with an `outputSchema`. It fails only when
    /// the value cannot be represented as JSON (for example a map with non-string keys).
    ///
    /// ```
    /// #[derive(serde::Serialize)]
    /// struct Rating { rating: u32 }
    ///
    /// let r = mcpdesc::ToolResult::from_output(&Rating { rating: 1500 }).unwrap();
    /// assert_eq!(r.structured_content, Some(serde_json::json!({"rating": 1500})));
    /// ```
    pub fn from_output<T: Serialize + ?Sized>(output: &T) -> Result<Self, ToolError> {
        let value = serde_json::to_value(output)
            .map_err(|e| ToolError::new(format!("the tool's output cannot be serialized: {e}")))?;
        Ok(ToolResult::structured(value))
    }

    /// The result of a typed output with extra content blocks and `_meta`: the output's
    /// JSON text block comes first, then the extra blocks.
    pub fn from_typed<T: Serialize>(typed: Typed<T>) -> Result<Self, ToolError> {
        let mut result = ToolResult::from_output(&typed.output)?;
        result.content.extend(typed.content);
        result.meta = typed.meta;
        Ok(result)
    }

    /// The same result with one more content block.
    pub fn with_content(mut self, block: Content) -> Self {
        self.content.push(block);
        self
    }

    /// The same result with `_meta` set.
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }

    /// Whether this is a tool execution error (`isError: true`).
    pub fn is_error_result(&self) -> bool {
        self.is_error == Some(true)
    }

    /// The result in the wire shape of `version`:
    ///
    /// - `resultType: "complete"` is added for 2026-07-28 only.
    /// - `structuredContent` is sent from 2025-06-18 on; before 2026-07-28 only when it
    ///   is an object. When it cannot be sent and no text block exists, a text block
    ///   with its JSON is added so the information still reaches the client.
    /// - An error result never carries `structuredContent` (MCP forbids it).
    /// - Content blocks are shaped per version (see [`Content::version_problems`]):
    ///   metadata a version lacks is dropped, and a block kind it lacks (audio before
    ///   2025-03-26, resource links before 2025-06-18) becomes a text block describing it.
    /// - `isError` and result `_meta` are kept (the base MCP `Result` has `_meta` in
    ///   every version).
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        self.clone().shape(version).into_wire(version)
    }

    /// The result with the rules of [`ToolResult::to_wire`] applied for `version`, not
    /// yet written as JSON: the rmcp adapter builds its result type from it directly,
    /// without a JSON detour, and `to_wire` writes it out.
    pub(crate) fn shape(self, version: ProtocolVersion) -> Shaped {
        let is_error = self.is_error_result();
        let has_text = self.content.iter().any(|c| matches!(c, Content::Text(_)));
        let mut content: Vec<ShapedBlock> = self
            .content
            .into_iter()
            .map(|block| block.shape(version))
            .collect();
        let mut structured_content = None;
        if let Some(structured) = self.structured_content {
            let sendable = !is_error
                && version.has_structured_content()
                && (structured.is_object() || version.allows_any_structured_content());
            if sendable {
                structured_content = Some(structured);
            } else if !is_error && !has_text {
                content.push(ShapedBlock::Text(structured.to_string()));
            }
        }
        Shaped {
            content,
            structured_content,
            is_error: self.is_error,
            meta: self.meta,
        }
    }
}

/// A [`ToolResult`] shaped for one protocol version ([`ToolResult::shape`]).
#[derive(Debug)]
pub(crate) struct Shaped {
    pub(crate) content: Vec<ShapedBlock>,
    pub(crate) structured_content: Option<Value>,
    pub(crate) is_error: Option<bool>,
    pub(crate) meta: Option<Meta>,
}

impl Shaped {
    /// The result's wire JSON, members in MCP order: `resultType` (2026-07-28 only),
    /// `content`, `structuredContent`, `isError`, `_meta`.
    fn into_wire(self, version: ProtocolVersion) -> Value {
        let mut map = Map::new();
        if version.has_result_type() {
            map.insert("resultType".into(), Value::from("complete"));
        }
        let content = self.content.into_iter().map(ShapedBlock::into_wire);
        map.insert("content".into(), Value::Array(content.collect()));
        if let Some(structured) = self.structured_content {
            map.insert("structuredContent".into(), structured);
        }
        if let Some(is_error) = self.is_error {
            map.insert("isError".into(), Value::Bool(is_error));
        }
        if let Some(meta) = self.meta {
            map.insert("_meta".into(), Value::Object(meta));
        }
        Value::Object(map)
    }
}

/// A typed output plus extra content blocks and result `_meta`, for tools with an
/// `outputSchema` that want to return more than their structured output.
///
/// Every output converts into it, so generated code can accept either form.
///
/// ```
/// use mcpdesc::{Content, ToolResult, Typed};
///
/// #[derive(serde::Serialize)]
/// struct Analysis { evaluation: f64 }
///
/// let typed = Typed::new(Analysis { evaluation: 0.3 })
///     .with_content(Content::image("iVBORw0KGgo=", "image/png"));
/// let result = ToolResult::from_typed(typed).unwrap();
/// assert_eq!(result.content.len(), 2);
/// let plain: Typed<Analysis> = Analysis { evaluation: 0.0 }.into();
/// assert!(plain.content.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Typed<T> {
    /// The structured output.
    pub output: T,
    /// Extra content blocks, sent after the output's JSON text block.
    pub content: Vec<Content>,
    /// Result `_meta`.
    pub meta: Option<Meta>,
}

impl<T> Typed<T> {
    /// The output alone.
    pub fn new(output: T) -> Self {
        Typed {
            output,
            content: Vec::new(),
            meta: None,
        }
    }

    /// The same value with one more content block.
    pub fn with_content(mut self, block: Content) -> Self {
        self.content.push(block);
        self
    }

    /// The same value with result `_meta` set.
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }
}

impl<T> From<T> for Typed<T> {
    fn from(output: T) -> Self {
        Typed::new(output)
    }
}

impl From<ToolError> for ToolResult {
    fn from(error: ToolError) -> Self {
        let mut content = Vec::with_capacity(1 + error.content.len());
        content.push(Content::text(error.message));
        content.extend(error.content);
        ToolResult {
            content,
            structured_content: None,
            is_error: Some(true),
            meta: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use ProtocolVersion::*;

    use super::*;

    #[test]
    fn result_type_only_in_2026() {
        for v in ProtocolVersion::ALL {
            let wire = ToolResult::text("x").to_wire(*v);
            assert_eq!(wire.get("resultType").is_some(), *v == V2026_07_28, "{v}");
        }
    }

    #[test]
    fn structured_content_per_version() {
        let r = ToolResult::structured(json!({"a": 1}));
        assert!(r.to_wire(V2025_03_26).get("structuredContent").is_none());
        assert_eq!(r.to_wire(V2025_06_18)["structuredContent"], json!({"a": 1}));

        // A non-object output only exists in 2026-07-28.
        let scalar = ToolResult {
            content: vec![],
            structured_content: Some(json!(42)),
            ..Default::default()
        };
        assert_eq!(scalar.to_wire(V2026_07_28)["structuredContent"], 42);
        let older = scalar.to_wire(V2025_11_25);
        assert!(older.get("structuredContent").is_none());
        assert_eq!(older["content"], json!([{"type": "text", "text": "42"}]));
    }

    #[test]
    fn errors_never_carry_structured_content() {
        let r = ToolResult {
            structured_content: Some(json!({})),
            ..ToolResult::error("bad")
        };
        let wire = r.to_wire(V2025_11_25);
        assert!(wire.get("structuredContent").is_none());
        assert_eq!(wire["isError"], true);
        assert_eq!(wire["content"], json!([{"type": "text", "text": "bad"}]));
    }

    #[test]
    fn parse_ignores_result_type() {
        let r: ToolResult = serde_json::from_value(json!({
            "resultType": "complete",
            "content": [{"type": "text", "text": "x"}],
            "isError": false
        }))
        .unwrap();
        assert_eq!(r.is_error, Some(false));
        assert_eq!(r.content, vec![Content::text("x")]);
    }

    #[test]
    fn tool_error_with_content() {
        let r: ToolResult = ToolError::new("failed")
            .with_content(Content::text("details"))
            .into();
        assert_eq!(
            r.to_wire(V2025_06_18),
            json!({"content": [{"type": "text", "text": "failed"}, {"type": "text", "text": "details"}], "isError": true})
        );
    }
}
