//! Completed results in Resource, Resource Template, Prompt and completion examples:
//! the members every kind of completed result shares (digest §5.2, rules
//! `mcpdesc.example.completed-result-form` and `mcpdesc.example.result.protocol-fidelity`).
//!
//! An example result is the completed payload without the JSON-RPC envelope; task,
//! input-required and other workflow forms are not completed results. `resultType` is
//! required (`"complete"`) in 2026-07-28 and undefined before; result `_meta` exists
//! from 2025-06-18 in mcpdesc's reading of these results.

use serde_json::{Map, Value};

use super::cx::{display_path, Cx};
use super::meta::{self, MetaContext};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// The diagnostic codes one kind of example result reports with (they follow the
/// reference validator, which names each result kind).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ResultCodes {
    /// A JSON-RPC envelope member (`jsonrpc`, `id`, `error`) in the result.
    pub envelope: &'static str,
    /// A workflow member (`task`, `inputRequests`, `requestState`) in the result.
    pub incomplete: &'static str,
    /// A result member used in a version that does not define it, or missing where
    /// required.
    pub version: &'static str,
}

/// JSON-RPC envelope members that never belong in a completed result payload.
const ENVELOPE_MEMBERS: [&str; 3] = ["jsonrpc", "id", "error"];

/// Members of task, input-required and streaming forms, which are not completed results.
const WORKFLOW_MEMBERS: [&str; 3] = ["task", "inputRequests", "requestState"];

/// Checks the shared members of a completed result at `at` for every version of
/// `scope`, and the keys of its `_meta`. Returns the result's members when it is an
/// object, for the caller's own checks.
pub(crate) fn check_completed<'v>(
    cx: &mut Cx<'_>,
    at: &Pointer,
    result: &'v Value,
    scope: VersionSet,
    codes: ResultCodes,
) -> Option<&'v Map<String, Value>> {
    let members = result.as_object()?;
    for member in ENVELOPE_MEMBERS {
        if members.contains_key(member) {
            let member_at = at.key(member);
            cx.error(
                rules::EXAMPLE_COMPLETED_FORM,
                codes.envelope,
                &member_at,
                format!(
                    "{} is a JSON-RPC envelope member; an example result is the completed result payload only",
                    display_path(&member_at)
                ),
            );
        }
    }
    for member in WORKFLOW_MEMBERS {
        if members.contains_key(member) {
            let member_at = at.key(member);
            cx.error(
                rules::EXAMPLE_COMPLETED_FORM,
                codes.incomplete,
                &member_at,
                format!(
                    "{} belongs to a non-completed workflow form; example results must be completed results",
                    display_path(&member_at)
                ),
            );
        }
    }
    check_result_type(cx, at, members, scope, codes.version);
    if let Some(meta) = members.get("_meta") {
        let meta_at = at.key("_meta");
        member_since(
            cx,
            &meta_at,
            scope,
            ProtocolVersion::V2025_06_18,
            codes.version,
        );
        meta::check(cx, &meta_at, meta, scope, MetaContext::Result);
    }
    Some(members)
}

/// `resultType`: required and `"complete"` in 2026-07-28, undefined before.
///
/// Decision: 0.9.0's "carried MCP values" (§3.6) changed this for Tool results only; the
/// 0.8.0 rule (an error before 2026-07-28) is kept for the other result kinds, whose
/// 0.9.0 text is not available.
fn check_result_type(
    cx: &mut Cx<'_>,
    at: &Pointer,
    members: &Map<String, Value>,
    scope: VersionSet,
    code: &'static str,
) {
    let modern = scope.intersect(VersionSet::only(ProtocolVersion::V2026_07_28));
    let type_at = at.key("resultType");
    match members.get("resultType") {
        // A present but wrong value fails the structural `const`; only absence is
        // reported here.
        None if !modern.is_empty() => cx.error(
            rules::EXAMPLE_RESULT_FIDELITY,
            code,
            &type_at,
            format!(
                "{} is missing; {modern} requires resultType \"complete\" in a completed result",
                display_path(&type_at)
            ),
        ),
        Some(_) => {
            let legacy = scope.minus(modern);
            if !legacy.is_empty() {
                cx.error(
                    rules::EXAMPLE_RESULT_FIDELITY,
                    code,
                    &type_at,
                    format!(
                        "{} is not defined for {legacy}; it exists only in MCP 2026-07-28, so remove it or narrow protocolVersions",
                        display_path(&type_at)
                    ),
                );
            }
        }
        None => {}
    }
}

/// Reports the result member at `at` when `scope` includes versions before `since`.
pub(crate) fn member_since(
    cx: &mut Cx<'_>,
    at: &Pointer,
    scope: VersionSet,
    since: ProtocolVersion,
    code: &'static str,
) {
    let missing = scope.minus(VersionSet::since(since));
    if !missing.is_empty() {
        cx.error(
            rules::EXAMPLE_RESULT_FIDELITY,
            code,
            at,
            format!(
                "{} is not defined for {missing}; it requires MCP {since} or later",
                display_path(at)
            ),
        );
    }
}
