//! Server Capabilities Objects (digest §1.7): scopes, disjointness, and the protocol
//! versions of each capability.
//!
//! At most one Capabilities Object applies to any version, so effective scopes must be
//! pairwise disjoint. `completions` exists from 2025-03-26; core `tasks` only in
//! 2025-11-25 (the 2026 Tasks extension is a different thing); `logging` is deprecated
//! in 2026-07-28; `extensions` is formal only in 2026-07-28.

use serde_json::Value;

use super::cx::{display_path, Cx};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// Extension identifiers under the MCP-reserved prefix that the official MCP extension
/// catalogue assigns (the reference validator's catalogue, effective 2026-09-04).
/// Unknown identifiers under that prefix are kept but warned about.
pub(crate) const OFFICIAL_EXTENSIONS: [&str; 4] = [
    "io.modelcontextprotocol/enterprise-managed-authorization",
    "io.modelcontextprotocol/oauth-client-credentials",
    "io.modelcontextprotocol/tasks",
    "io.modelcontextprotocol/ui",
];

/// Whether an extension identifier uses the MCP-reserved prefix: its second label is
/// `modelcontextprotocol` or `mcp` (case-insensitive).
pub(crate) fn uses_reserved_prefix(identifier: &str) -> bool {
    let Some((prefix, _)) = identifier.split_once('/') else {
        return false;
    };
    prefix.split('.').nth(1).is_some_and(|label| {
        label.eq_ignore_ascii_case("modelcontextprotocol") || label.eq_ignore_ascii_case("mcp")
    })
}

/// Warns about every key of the extension map at `at` that uses the MCP-reserved
/// prefix without being a catalogued MCP extension.
pub(crate) fn check_extension_identifiers(cx: &mut Cx<'_>, at: &Pointer, map: &Value) {
    let Some(members) = map.as_object() else {
        return;
    };
    for identifier in members.keys() {
        if uses_reserved_prefix(identifier) && !OFFICIAL_EXTENSIONS.contains(&identifier.as_str()) {
            let key_at = at.key(identifier);
            cx.warning(
                rules::EXTENSIONS,
                "unknown-reserved-extension-identifier",
                &key_at,
                format!(
                    "{} is not a catalogued MCP extension, but uses the MCP-reserved prefix; it is kept, but review its authority",
                    display_path(&key_at)
                ),
            );
        }
    }
}

/// Runs the capabilities checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let Some(list) = cx.doc.get("capabilities").and_then(Value::as_array) else {
        return;
    };
    let root = cx.root;
    // The index of the object that claimed each version first; five versions exist, so
    // this keeps disjointness linear in the number of objects.
    let mut owner: [Option<usize>; 5] = Default::default();
    for (index, capability) in list.iter().enumerate() {
        let at = Pointer::root().key("capabilities").index(index);
        let scope = cx.scope_of(capability, &at, root);
        check_overlap(cx, &at, capability, index, scope, &mut owner);
        check_members(cx, &at, capability, scope);
    }
}

/// Reports versions an earlier Capabilities Object already covers.
fn check_overlap(
    cx: &mut Cx<'_>,
    at: &Pointer,
    capability: &Value,
    index: usize,
    scope: VersionSet,
    owner: &mut [Option<usize>; 5],
) {
    let mut overlaps: Vec<(usize, VersionSet)> = Vec::new();
    for version in scope.iter() {
        let slot = &mut owner[version as usize];
        match *slot {
            Some(earlier) => match overlaps.iter_mut().find(|(i, _)| *i == earlier) {
                Some((_, set)) => set.insert(version),
                None => overlaps.push((earlier, VersionSet::only(version))),
            },
            None => *slot = Some(index),
        }
    }
    let report_at = if capability.get("protocolVersions").is_some() {
        at.key("protocolVersions")
    } else {
        at.clone()
    };
    for (earlier, common) in overlaps {
        cx.error(
            rules::CAPABILITIES,
            "capability-scope-overlap",
            &report_at,
            format!(
                "{} overlaps capabilities[{earlier}] for {common}; Capabilities Objects must have pairwise-disjoint protocolVersions",
                display_path(&report_at)
            ),
        );
    }
}

/// Checks the version rules of the members of one Capabilities Object.
fn check_members(cx: &mut Cx<'_>, at: &Pointer, capability: &Value, scope: VersionSet) {
    use ProtocolVersion::*;
    if capability.get("completions").is_some() {
        cx.field_versions(
            &at.key("completions"),
            "completions",
            scope,
            VersionSet::since(V2025_03_26),
        );
    }
    if capability.get("tasks").is_some() {
        check_core_tasks(cx, &at.key("tasks"), scope);
    }
    if capability.get("logging").is_some() && scope.contains(V2026_07_28) {
        let logging_at = at.key("logging");
        cx.warning(
            rules::CAPABILITIES,
            "logging-deprecated-in-2026",
            &logging_at,
            format!(
                "{} applies to MCP 2026-07-28, where logging is deprecated",
                display_path(&logging_at)
            ),
        );
    }
    if let Some(extensions) = capability.get("extensions") {
        let extensions_at = at.key("extensions");
        check_pre_standard_extensions(cx, &extensions_at, scope);
        check_extension_identifiers(cx, &extensions_at, extensions);
    }
}

/// Core `tasks` is a 2025-11-25 capability; 2026-07-28 has a Tasks extension instead, and
/// the two must never be converted into each other.
fn check_core_tasks(cx: &mut Cx<'_>, at: &Pointer, scope: VersionSet) {
    use ProtocolVersion::*;
    let earlier = scope.intersect(VersionSet::before(V2025_11_25));
    if !earlier.is_empty() {
        cx.field_versions(at, "tasks", earlier, VersionSet::only(V2025_11_25));
    }
    if scope.contains(V2026_07_28) {
        cx.error(
            rules::CAPABILITIES,
            "tasks-core-not-valid-in-2026",
            at,
            format!(
                "{} cannot apply to MCP 2026-07-28; declare the io.modelcontextprotocol/tasks extension under capabilities.extensions instead",
                display_path(at)
            ),
        );
    }
}

/// `extensions` is formal only in 2026-07-28; earlier scopes keep it with a warning
/// (stable 0.8.0 relaxed the draft's error).
fn check_pre_standard_extensions(cx: &mut Cx<'_>, at: &Pointer, scope: VersionSet) {
    let early = scope.minus(VersionSet::only(ProtocolVersion::V2026_07_28));
    if early.is_empty() {
        return;
    }
    cx.warning(
        rules::CAPABILITIES,
        "pre-standard-extensions",
        at,
        format!(
            "{} applies to {early}, which predates the standard extensions capability of MCP 2026-07-28; clients of those versions may ignore it",
            display_path(at)
        ),
    );
}

#[cfg(test)]
#[path = "tests/capabilities.rs"]
mod tests;
