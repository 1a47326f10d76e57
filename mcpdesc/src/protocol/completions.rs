//! Completions (`completion/complete`): what a completion handler receives
//! ([`CompletionRequest`]) and returns ([`CompletionResult`]), and its wire shape.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::content::Meta;
use super::prompts::insert_meta_and_extra;
use super::version::ProtocolVersion;

/// What a completion handler completes: a prompt (by name) or a resource template (by
/// its URI template), as `completion/complete` names them in `ref`.
///
/// ```
/// use mcpdesc::CompletionTarget;
///
/// let target = CompletionTarget::resource_template("repo://{owner}/{repo}");
/// assert_eq!((target.kind(), target.id()), ("resource template", "repo://{owner}/{repo}"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CompletionTarget {
    /// `{"type": "ref/prompt", "name": ...}`.
    Prompt(String),
    /// `{"type": "ref/resource", "uri": ...}` naming a resource template.
    ResourceTemplate(String),
}

impl CompletionTarget {
    /// The prompt `name`.
    pub fn prompt(name: impl Into<String>) -> Self {
        CompletionTarget::Prompt(name.into())
    }

    /// The resource template `uri_template`.
    pub fn resource_template(uri_template: impl Into<String>) -> Self {
        CompletionTarget::ResourceTemplate(uri_template.into())
    }

    /// `"prompt"` or `"resource template"`.
    pub fn kind(&self) -> &'static str {
        match self {
            CompletionTarget::Prompt(_) => "prompt",
            CompletionTarget::ResourceTemplate(_) => "resource template",
        }
    }

    /// The prompt name or URI template.
    pub fn id(&self) -> &str {
        match self {
            CompletionTarget::Prompt(id) | CompletionTarget::ResourceTemplate(id) => id,
        }
    }
}

/// One `completion/complete` request, after the router checked that the argument is a
/// declared prompt argument or template variable.
///
/// ```
/// use mcpdesc::CompletionRequest;
///
/// let request = CompletionRequest::new("name", "a").with_context("department", "engineering");
/// assert_eq!(request.context.get("department").map(String::as_str), Some("engineering"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CompletionRequest {
    /// The argument (prompt argument or template variable) being completed.
    pub argument: String,
    /// What the user typed so far.
    pub value: String,
    /// The values of the other, already resolved arguments (`context.arguments`, MCP
    /// 2025-06-18 and later; empty otherwise).
    pub context: BTreeMap<String, String>,
}

impl CompletionRequest {
    /// A request for `argument` with the partial `value` and no context.
    pub fn new(argument: impl Into<String>, value: impl Into<String>) -> Self {
        CompletionRequest {
            argument: argument.into(),
            value: value.into(),
            context: BTreeMap::new(),
        }
    }

    /// The same request with one more context argument.
    pub fn with_context(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.context.insert(name.into(), value.into());
        self
    }

    /// The request as a completion example writes it: `{"argument": {"name", "value"}}`
    /// plus `{"context": {"arguments": ...}}` when there is context.
    pub fn to_example_request(&self) -> Value {
        let mut request = json!({"argument": {"name": self.argument, "value": self.value}});
        if !self.context.is_empty() {
            request["context"] = json!({ "arguments": self.context });
        }
        request
    }
}

/// A completed `completion/complete` result: suggested values, and optionally how many
/// exist in total and whether more exist than were sent.
///
/// MCP allows at most 100 values per result; [`CompletionResult::to_wire`] sends the
/// first 100 and sets `hasMore` when a handler returns more.
///
/// ```
/// use mcpdesc::{CompletionResult, ProtocolVersion};
/// use serde_json::json;
///
/// let result = CompletionResult::new(vec!["Ada".into(), "Alan".into()]).with_total(2, false);
/// assert_eq!(
///     result.to_wire(ProtocolVersion::V2025_11_25),
///     json!({"completion": {"values": ["Ada", "Alan"], "total": 2, "hasMore": false}})
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CompletionResult {
    /// The suggestions.
    pub completion: Completion,
    /// Literal result `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
    /// Other result members, sent as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The `completion` member of a [`CompletionResult`].
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// The suggested values.
    pub values: Vec<String>,
    /// How many values exist in total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Whether more values exist than were sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_more: Option<bool>,
}

/// The most values one completion result carries.
pub const MAX_COMPLETION_VALUES: usize = 100;

impl CompletionResult {
    /// A result with these values.
    pub fn new(values: Vec<String>) -> Self {
        CompletionResult {
            completion: Completion {
                values,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    /// The same result with `total` and `hasMore`.
    pub fn with_total(mut self, total: u64, has_more: bool) -> Self {
        self.completion.total = Some(total);
        self.completion.has_more = Some(has_more);
        self
    }

    /// The result in the wire shape of `version`: `resultType: "complete"` for
    /// 2026-07-28, `_meta` from 2025-06-18 on, at most 100 values (`hasMore: true` when
    /// values were cut).
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut map = Map::new();
        if version.has_result_type() {
            map.insert("resultType".into(), Value::from("complete"));
        }
        let mut completion = self.completion.clone();
        if completion.values.len() > MAX_COMPLETION_VALUES {
            completion.values.truncate(MAX_COMPLETION_VALUES);
            completion.has_more = Some(true);
        }
        map.insert(
            "completion".into(),
            serde_json::to_value(&completion).unwrap_or(Value::Null),
        );
        insert_meta_and_extra(&mut map, self.meta.as_ref(), &self.extra, version);
        Value::Object(map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_results_round_trip() {
        let example = json!({
            "resultType": "complete",
            "completion": {"values": ["120", "121"], "hasMore": true, "total": 14},
            "_meta": {"captured": "inspector"}
        });
        let result: CompletionResult = serde_json::from_value(example.clone()).unwrap();
        assert_eq!(result.to_wire(ProtocolVersion::V2026_07_28), example);
        let older = result.to_wire(ProtocolVersion::V2025_03_26);
        assert_eq!(
            older,
            json!({"completion": {"values": ["120", "121"], "hasMore": true, "total": 14}})
        );
    }

    #[test]
    fn at_most_one_hundred_values() {
        let many = CompletionResult::new((0..150).map(|i| i.to_string()).collect());
        let wire = many.to_wire(ProtocolVersion::V2025_11_25);
        assert_eq!(wire["completion"]["values"].as_array().unwrap().len(), 100);
        assert_eq!(wire["completion"]["hasMore"], true);
    }

    #[test]
    fn example_requests() {
        assert_eq!(
            CompletionRequest::new("issue", "12").to_example_request(),
            json!({"argument": {"name": "issue", "value": "12"}})
        );
    }
}
