//! Prompts: the static description generated code registers ([`PromptSpec`]), the
//! result a handler returns ([`PromptResult`]) and its wire shape per protocol version,
//! and the native `prompts/list` projection.
//!
//! # `prompts/list` members per version
//!
//! | member | versions |
//! |---|---|
//! | `name`, `description`, `arguments` (`name`, `description`, `required`) | all |
//! | `title`, argument `title`, `_meta` | 2025-06-18 and later |
//! | `icons` | 2025-11-25 and later |
//!
//! Everything else of a Prompt declaration (`examples`, `completionExamples`, `tags`,
//! `elicitations`, `deprecated`, `security`, `clientRequirements`, `protocolVersions`,
//! `x-*`) is mcpdesc-only and never listed.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::content::{Content, Meta, Role};
use super::version::ProtocolVersion;

/// The static description of one prompt, as generated code passes it to
/// `Router::prompt`.
///
/// ```
/// use mcpdesc::PromptSpec;
///
/// const BRIEF: PromptSpec = PromptSpec::new(
///     "brief",
///     &[],
///     r#"{"name": "brief", "arguments": [{"name": "city", "required": true}]}"#,
/// );
/// assert_eq!(BRIEF.name, "brief");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptSpec {
    /// The prompt name; must equal the declaration's `name`.
    pub name: &'static str,
    /// The prompt's effective protocol scope; empty means every version of the server.
    pub scope: &'static [ProtocolVersion],
    /// The resolved Prompt declaration as JSON (mcpdesc-only members may stay; they are
    /// stripped when listing).
    pub declaration: &'static str,
}

impl PromptSpec {
    /// A spec from its three parts.
    pub const fn new(
        name: &'static str,
        scope: &'static [ProtocolVersion],
        declaration: &'static str,
    ) -> Self {
        PromptSpec {
            name,
            scope,
            declaration,
        }
    }
}

/// One message of a prompt result: a role and one content block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PromptMessage {
    /// `user` or `assistant`.
    pub role: Role,
    /// The content block (text, image, audio, embedded resource or resource link).
    pub content: Content,
}

impl PromptMessage {
    /// A message with one content block.
    pub fn new(role: Role, content: Content) -> Self {
        PromptMessage { role, content }
    }

    /// A user message with one text block.
    pub fn user(text: impl Into<String>) -> Self {
        PromptMessage::new(Role::User, Content::text(text))
    }

    /// An assistant message with one text block.
    pub fn assistant(text: impl Into<String>) -> Self {
        PromptMessage::new(Role::Assistant, Content::text(text))
    }
}

/// A completed `prompts/get` result, independent of the protocol version.
///
/// Serde uses the MCP member names. `resultType` is not kept (it is a wire detail of
/// MCP 2026-07-28, which [`PromptResult::to_wire`] adds); other members an example
/// result carries beyond the known ones are kept in `extra` and sent unchanged, because
/// MCP results are open objects.
///
/// ```
/// use mcpdesc::{PromptMessage, PromptResult, ProtocolVersion};
/// use serde_json::json;
///
/// let result = PromptResult::new(vec![PromptMessage::user("Summarize Paris.")])
///     .with_description("A briefing");
/// assert_eq!(
///     result.to_wire(ProtocolVersion::V2026_07_28),
///     json!({
///         "resultType": "complete",
///         "description": "A briefing",
///         "messages": [{"role": "user", "content": {"type": "text", "text": "Summarize Paris."}}]
///     })
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PromptResult {
    /// An optional description of the prompt instance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    #[serde(default)]
    pub messages: Vec<PromptMessage>,
    /// Literal result `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Other result members, sent as they are (never `resultType`: read from the wire
    /// it is dropped, written it comes from the version).
    #[serde(flatten, deserialize_with = "without_wire_members")]
    pub extra: Map<String, Value>,
}

/// The other members of a result as read, without the wire-only `resultType` (MCP
/// 2026-07-28): a typed client's result would otherwise show it in `extra`, and
/// `to_wire` writes it from the version anyway.
pub(crate) fn without_wire_members<'de, D>(deserializer: D) -> Result<Map<String, Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let mut members = Map::<String, Value>::deserialize(deserializer)?;
    members.remove("resultType");
    Ok(members)
}

impl PromptResult {
    /// A result with these messages.
    pub fn new(messages: Vec<PromptMessage>) -> Self {
        PromptResult {
            messages,
            ..Default::default()
        }
    }

    /// The same result with a description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The same result with `_meta`.
    pub fn with_meta(mut self, meta: Meta) -> Self {
        self.meta = Some(meta);
        self
    }

    /// The result in the wire shape of `version`: `resultType: "complete"` for
    /// 2026-07-28 only; content blocks shaped per version as in tool results (metadata
    /// the version lacks dropped, a block kind it lacks described in a text block);
    /// `_meta` from 2025-06-18 on.
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut map = Map::new();
        if version.has_result_type() {
            map.insert("resultType".into(), Value::from("complete"));
        }
        if let Some(description) = &self.description {
            map.insert("description".into(), Value::from(description.clone()));
        }
        let messages = self
            .messages
            .iter()
            .map(|m| {
                let mut message = Map::new();
                message.insert(
                    "role".into(),
                    serde_json::to_value(m.role).unwrap_or(Value::Null),
                );
                message.insert("content".into(), m.content.to_wire(version));
                Value::Object(message)
            })
            .collect();
        map.insert("messages".into(), Value::Array(messages));
        insert_meta_and_extra(&mut map, self.meta.as_ref(), &self.extra, version);
        Value::Object(map)
    }
}

/// Adds result `_meta` (2025-06-18 and later) and the extra members that the known
/// members do not already cover.
pub(crate) fn insert_meta_and_extra(
    map: &mut Map<String, Value>,
    meta: Option<&Meta>,
    extra: &Map<String, Value>,
    version: ProtocolVersion,
) {
    if let Some(meta) = meta.filter(|_| version.has_content_meta()) {
        map.insert("_meta".into(), Value::Object(meta.clone()));
    }
    for (key, value) in extra {
        if key != "resultType" && !map.contains_key(key) {
            map.insert(key.clone(), value.clone());
        }
    }
}

/// Whether the MCP `Prompt` type of `version` defines the member `key`.
fn prompt_member(key: &str, version: ProtocolVersion) -> bool {
    use ProtocolVersion::*;
    match key {
        "name" | "description" | "arguments" => true,
        "title" | "_meta" => version >= V2025_06_18,
        "icons" => version >= V2025_11_25,
        _ => false,
    }
}

/// Whether the MCP `PromptArgument` type of `version` defines the member `key`.
fn argument_member(key: &str, version: ProtocolVersion) -> bool {
    match key {
        "name" | "description" | "required" => true,
        "title" => version >= ProtocolVersion::V2025_06_18,
        _ => false,
    }
}

/// Projects a resolved Prompt declaration to the native MCP `Prompt` value of
/// `version` (see the module docs for the members).
///
/// ```
/// use mcpdesc::prompts::native_prompt;
/// use mcpdesc::ProtocolVersion;
/// use serde_json::json;
///
/// let declaration = json!({
///     "name": "brief", "title": "Brief", "tags": ["x"],
///     "arguments": [{"name": "city", "title": "City", "required": true, "x-a": 1}],
///     "examples": {"e": {"result": {"messages": []}}}
/// });
/// let declaration = declaration.as_object().unwrap();
/// assert_eq!(
///     native_prompt(declaration, ProtocolVersion::V2025_03_26),
///     json!({"name": "brief", "arguments": [{"name": "city", "required": true}]})
/// );
/// assert_eq!(native_prompt(declaration, ProtocolVersion::V2025_11_25)["title"], "Brief");
/// ```
pub fn native_prompt(declaration: &Map<String, Value>, version: ProtocolVersion) -> Value {
    let mut prompt = Map::new();
    for (key, value) in declaration {
        if !prompt_member(key, version) {
            continue;
        }
        let value = match (key.as_str(), value) {
            ("arguments", Value::Array(arguments)) => Value::Array(
                arguments
                    .iter()
                    .map(|argument| match argument {
                        Value::Object(members) => Value::Object(
                            members
                                .iter()
                                .filter(|(k, _)| argument_member(k, version))
                                .map(|(k, v)| (k.clone(), v.clone()))
                                .collect(),
                        ),
                        other => other.clone(),
                    })
                    .collect(),
            ),
            _ => value.clone(),
        };
        prompt.insert(key.clone(), value);
    }
    Value::Object(prompt)
}

/// The declared arguments of a prompt: `(name, required)` in declaration order.
pub(crate) fn declared_arguments(declaration: &Map<String, Value>) -> Vec<(String, bool)> {
    declaration
        .get("arguments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|argument| {
            let name = argument.get("name")?.as_str()?.to_owned();
            let required = argument.get("required").and_then(Value::as_bool) == Some(true);
            Some((name, required))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use ProtocolVersion::*;

    use super::*;

    #[test]
    fn wire_shape_per_version() {
        let result: PromptResult = serde_json::from_value(json!({
            "resultType": "complete",
            "description": "d",
            "messages": [{"role": "assistant", "content": {"type": "resource_link", "uri": "x:///b", "name": "b"}}],
            "_meta": {"k": 1}
        }))
        .unwrap();
        // A wire detail, not one of the result's other members.
        assert!(!result.extra.contains_key("resultType"), "{result:?}");
        let latest = result.to_wire(V2026_07_28);
        assert_eq!(latest["resultType"], "complete");
        assert_eq!(latest["messages"][0]["content"]["type"], "resource_link");
        assert_eq!(latest["_meta"], json!({"k": 1}));
        // 2025-03-26: no resultType, no _meta, no resource links (described in text).
        let old = result.to_wire(V2025_03_26);
        assert!(old.get("resultType").is_none() && old.get("_meta").is_none());
        assert_eq!(old["messages"][0]["content"]["type"], "text");
    }

    #[test]
    fn extra_members_are_kept() {
        let result: PromptResult =
            serde_json::from_value(json!({"messages": [], "vendor": {"a": 1}})).unwrap();
        assert_eq!(
            result.to_wire(V2025_11_25),
            json!({"messages": [], "vendor": {"a": 1}})
        );
    }

    #[test]
    fn unknown_message_members_are_refused() {
        let bad = serde_json::from_value::<PromptResult>(json!({
            "messages": [{"role": "user", "content": {"type": "text", "text": "x"}, "extra": 1}]
        }));
        assert!(bad.is_err());
    }
}
