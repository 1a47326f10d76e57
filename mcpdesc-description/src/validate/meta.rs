//! `_meta` objects: reserved key prefixes and the reserved keys of each protocol
//! version (digest §5.4, spec §3.5).
//!
//! `_meta` in a description is literal illustrative metadata, not a schema. Its key
//! grammar is structural (`schema/structure.json`), so malformed keys are reported
//! there and skipped here. What is checked here depends on protocol versions and on
//! where the object stands:
//!
//! - reserved keys known for a version must be used in a context that version allows
//!   them in, with a valid value (errors);
//! - an unknown key under an MCP-reserved prefix is kept but deserves a warning.
//!
//! Whether `_meta` may appear at all (declarations, results, content and embedded
//! resources from 2025-06-18) is reported by the owner of the object, whose rule and
//! code differ per object kind; [`check`] only looks at the keys.

use serde_json::Value;

use super::cx::{display_path, Cx};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// Where a `_meta` object stands, which decides the reserved keys it may carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetaContext {
    /// On a Tool, Resource, Resource Template or Prompt declaration.
    Declaration,
    /// On a completed result (tool, read-resource, prompt, completion).
    Result,
    /// On a content block or embedded resource contents.
    Content,
    /// On a root entry in a roots step, or an elicitation response.
    Carried,
}

impl MetaContext {
    /// How messages name the context.
    fn describe(self) -> &'static str {
        match self {
            MetaContext::Declaration => "declaration",
            MetaContext::Result => "result",
            MetaContext::Content => "content",
            MetaContext::Carried => "carried client value",
        }
    }
}

/// Checks the keys of one `_meta` object at `at`, used in a declaration whose scope is
/// `scope`. The caller reports `_meta` itself when a version of the scope lacks it.
pub fn check(cx: &mut Cx<'_>, at: &Pointer, meta: &Value, scope: VersionSet, context: MetaContext) {
    let Some(members) = meta.as_object() else {
        return;
    };
    // Reserved prefixes and keys exist from 2025-06-18 on; earlier versions get legacy
    // (incomplete) validation, like the reference validator.
    let scope = scope.intersect(VersionSet::since(ProtocolVersion::V2025_06_18));
    if scope.is_empty() {
        return;
    }
    for (key, value) in members {
        if let Some(prefix) = key_prefix(key) {
            check_key(cx, &at.key(key), key, prefix, value, scope, context);
        }
    }
}

/// The prefix labels of a well-formed key (`io.modelcontextprotocol/x` → `["io",
/// "modelcontextprotocol"]`; no prefix → empty). `None` for a malformed key, which the
/// structural pass reports.
fn key_prefix(key: &str) -> Option<Vec<&str>> {
    let (prefix, name) = match key.rsplit_once('/') {
        Some((prefix, name)) => (Some(prefix), name),
        None => (None, key),
    };
    let name_ok = name.is_empty()
        || (name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.ends_with(|c: char| c.is_ascii_alphanumeric())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')));
    if !name_ok {
        return None;
    }
    let Some(prefix) = prefix else {
        return Some(Vec::new());
    };
    let labels: Vec<&str> = prefix.split('.').collect();
    labels.iter().all(|l| is_label(l)).then_some(labels)
}

/// A DNS-style label: a letter, then letters, digits and inner hyphens.
fn is_label(label: &str) -> bool {
    label.starts_with(|c: char| c.is_ascii_alphabetic())
        && label.ends_with(|c: char| c.is_ascii_alphanumeric())
        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Whether a label is one MCP reserves (`modelcontextprotocol`, `mcp`).
fn is_mcp_label(label: &str) -> bool {
    label.eq_ignore_ascii_case("modelcontextprotocol") || label.eq_ignore_ascii_case("mcp")
}

/// Whether the prefix is reserved for MCP in `version`.
///
/// 2025-06-18 reserves a prefix when any label but the last is `modelcontextprotocol`
/// or `mcp` (`modelcontextprotocol.io/`, `tools.mcp.com/`); from 2025-11-25 on, when the
/// second label is (`io.modelcontextprotocol/`).
fn is_reserved_prefix(labels: &[&str], version: ProtocolVersion) -> bool {
    if version == ProtocolVersion::V2025_06_18 {
        labels
            .split_last()
            .is_some_and(|(_, init)| init.iter().any(|l| is_mcp_label(l)))
    } else {
        labels.get(1).is_some_and(|l| is_mcp_label(l))
    }
}

/// What a version says about one known reserved key.
enum Known {
    /// The key is not a known reserved key in this version.
    No,
    /// Known, and allowed in this context with this value.
    Valid,
    /// Known, but not allowed in this context.
    WrongContext,
    /// Known and allowed here, but the value is invalid.
    WrongValue,
}

/// Classifies `key` = `value` in `context` for `version` (digest §5.4 table).
fn classify(key: &str, value: &Value, context: MetaContext, version: ProtocolVersion) -> Known {
    use ProtocolVersion::*;
    let result_like = matches!(context, MetaContext::Result);
    let (allowed, valid) = match (key, version) {
        // Request-only in every version that defines it; a description only shows
        // declarations, results, content and carried client values.
        ("progressToken", V2025_06_18 | V2025_11_25 | V2026_07_28) => {
            (false, value.is_string() || value.is_number())
        }
        // Decision: an elicitation response (a carried client result) may also relate to
        // a task in 2025-11-25, so `Carried` accepts `related-task` as results do.
        ("io.modelcontextprotocol/related-task", V2025_11_25) => (
            result_like || context == MetaContext::Carried,
            value.get("taskId").is_some_and(Value::is_string),
        ),
        ("io.modelcontextprotocol/serverInfo", V2026_07_28) => {
            (result_like, is_implementation(value))
        }
        ("io.modelcontextprotocol/protocolVersion", V2026_07_28) => (false, value.is_string()),
        ("io.modelcontextprotocol/clientInfo", V2026_07_28) => (false, is_implementation(value)),
        ("io.modelcontextprotocol/clientCapabilities", V2026_07_28) => (false, value.is_object()),
        ("io.modelcontextprotocol/logLevel", V2026_07_28) => (
            false,
            value.as_str().is_some_and(|s| {
                [
                    "debug",
                    "info",
                    "notice",
                    "warning",
                    "error",
                    "critical",
                    "alert",
                    "emergency",
                ]
                .contains(&s)
            }),
        ),
        // Notifications and subscription results only; a completed example result is
        // neither.
        ("io.modelcontextprotocol/subscriptionId", V2026_07_28) => {
            (false, value.is_string() || value.is_number())
        }
        ("traceparent" | "tracestate" | "baggage", V2026_07_28) => {
            (true, value.as_str().is_some_and(|s| !s.is_empty()))
        }
        _ => return Known::No,
    };
    match (allowed, valid) {
        (false, _) => Known::WrongContext,
        (true, false) => Known::WrongValue,
        (true, true) => Known::Valid,
    }
}

/// An MCP `Implementation`: an object with string `name` and `version`.
fn is_implementation(value: &Value) -> bool {
    value.get("name").is_some_and(Value::is_string)
        && value.get("version").is_some_and(Value::is_string)
}

/// Checks one well-formed key against every version of `scope` and reports once per
/// finding, naming the versions concerned.
fn check_key(
    cx: &mut Cx<'_>,
    at: &Pointer,
    key: &str,
    prefix: Vec<&str>,
    value: &Value,
    scope: VersionSet,
    context: MetaContext,
) {
    let mut wrong_context = VersionSet::EMPTY;
    let mut wrong_value = VersionSet::EMPTY;
    let mut unknown_reserved = VersionSet::EMPTY;
    for version in scope.iter() {
        match classify(key, value, context, version) {
            Known::Valid => {}
            Known::WrongContext => wrong_context.insert(version),
            Known::WrongValue => wrong_value.insert(version),
            Known::No if is_reserved_prefix(&prefix, version) => unknown_reserved.insert(version),
            Known::No => {}
        }
    }
    let path = display_path(at);
    if !wrong_context.is_empty() {
        cx.error(
            rules::META,
            "meta-reserved-key-context",
            at,
            format!(
                "{path} uses the reserved _meta key {key:?} in a {} context, where {wrong_context} does not define it",
                context.describe()
            ),
        );
    }
    if !wrong_value.is_empty() {
        cx.error(
            rules::META,
            "meta-reserved-key-value",
            at,
            format!(
                "{path} has an invalid value for the reserved _meta key {key:?} in {wrong_value}"
            ),
        );
    }
    if !unknown_reserved.is_empty() {
        cx.warning(
            rules::META,
            "meta-unknown-reserved-key",
            at,
            format!(
                "{path} is an unrecognized key under an MCP-reserved prefix for {unknown_reserved}; it is kept, but review its authority"
            ),
        );
    }
}

#[cfg(test)]
#[path = "tests/meta.rs"]
mod tests;
