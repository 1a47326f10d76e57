//! Content blocks (tool results, prompt messages, sampling messages) per protocol
//! version (digest §5.3, rule `mcp.content-block.protocol-version`).
//!
//! The shapes of the blocks are structural. What depends on versions: a block may use
//! only the forms every version of its scope supports (`audio` from 2025-03-26,
//! `resource_link` from 2025-06-18, its `icons` from 2025-11-25, block and embedded
//! resource `_meta` and `annotations.lastModified` from 2025-06-18).

use serde_json::Value;

use super::cx::{display_path, Cx};
use super::meta::{self, MetaContext};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// Checks that the content block at `at` uses only forms every version of `scope`
/// supports. `code` names the caller's check (for example
/// `tool-example-content-version-mismatch`); the rule is
/// `mcp.content-block.protocol-version`. Block and embedded-resource `_meta` keys are
/// checked with [`meta::check`] in the content context.
pub fn check_block(
    cx: &mut Cx<'_>,
    at: &Pointer,
    block: &Value,
    scope: VersionSet,
    code: &'static str,
) {
    let Some(members) = block.as_object() else {
        return;
    };
    let kind = members.get("type").and_then(Value::as_str);
    match kind {
        Some("audio") => kind_needs(cx, at, "audio", scope, ProtocolVersion::V2025_03_26, code),
        Some("resource_link") => {
            kind_needs(
                cx,
                at,
                "resource-link",
                scope,
                ProtocolVersion::V2025_06_18,
                code,
            );
            if members.contains_key("icons") {
                member_needs(
                    cx,
                    &at.key("icons"),
                    scope,
                    ProtocolVersion::V2025_11_25,
                    code,
                );
            }
        }
        _ => {}
    }
    if let Some(meta) = members.get("_meta") {
        let meta_at = at.key("_meta");
        member_needs(cx, &meta_at, scope, ProtocolVersion::V2025_06_18, code);
        meta::check(cx, &meta_at, meta, scope, MetaContext::Content);
    }
    if kind == Some("resource") {
        if let Some(meta) = members.get("resource").and_then(|r| r.get("_meta")) {
            let meta_at = at.key("resource").key("_meta");
            member_needs(cx, &meta_at, scope, ProtocolVersion::V2025_06_18, code);
            meta::check(cx, &meta_at, meta, scope, MetaContext::Content);
        }
    }
    let annotations = members.get("annotations");
    if annotations.and_then(|a| a.get("lastModified")).is_some() {
        let last_modified = at.key("annotations").key("lastModified");
        member_needs(
            cx,
            &last_modified,
            scope,
            ProtocolVersion::V2025_06_18,
            code,
        );
    }
}

/// Reports a block kind that versions of `scope` before `since` do not define. The
/// pointer is the block's `type`.
fn kind_needs(
    cx: &mut Cx<'_>,
    at: &Pointer,
    kind: &str,
    scope: VersionSet,
    since: ProtocolVersion,
    code: &'static str,
) {
    let missing = scope.minus(VersionSet::since(since));
    if !missing.is_empty() {
        let type_at = at.key("type");
        cx.error(
            rules::CONTENT_BLOCK_PROTOCOL_VERSION,
            code,
            &type_at,
            format!(
                "{} uses {kind} content, which is not defined for {missing}; it requires MCP {since} or later",
                display_path(&type_at)
            ),
        );
    }
}

/// Reports a block member (at `at`) that versions of `scope` before `since` do not
/// define.
fn member_needs(
    cx: &mut Cx<'_>,
    at: &Pointer,
    scope: VersionSet,
    since: ProtocolVersion,
    code: &'static str,
) {
    let missing = scope.minus(VersionSet::since(since));
    if !missing.is_empty() {
        cx.error(
            rules::CONTENT_BLOCK_PROTOCOL_VERSION,
            code,
            at,
            format!(
                "{} is not defined for {missing}; it requires MCP {since} or later",
                display_path(at)
            ),
        );
    }
}

#[cfg(test)]
#[path = "tests/content.rs"]
mod tests;
