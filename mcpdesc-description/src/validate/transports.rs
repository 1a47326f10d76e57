//! Transports (digest §1.5): effective scopes, coverage of the root versions, and the
//! versions each transport type exists in.
//!
//! Transport scopes may overlap, but when `transports` is present their union must be
//! exactly the root `protocolVersions`. Without `transports` the document makes no
//! statement about transports and no coverage check runs.

use serde_json::Value;

use super::cx::{display_path, Cx};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// Runs the transport checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let Some(list) = cx.doc.get("transports").and_then(Value::as_array) else {
        return;
    };
    let root = cx.root;
    let mut covered = VersionSet::EMPTY;
    for (index, transport) in list.iter().enumerate() {
        let at = Pointer::root().key("transports").index(index);
        let scope = cx.scope_of(transport, &at, root);
        covered = covered.union(scope);
        match transport.get("type").and_then(Value::as_str) {
            Some("streamable-http") => check_streamable_http(cx, &at, scope),
            Some("sse") => check_sse(cx, &at, scope),
            _ => {}
        }
    }
    // An empty array is a structural error already; a coverage gap on top adds nothing.
    if !list.is_empty() {
        check_coverage(cx, covered);
    }
}

/// The union of transport scopes must cover every root version.
fn check_coverage(cx: &mut Cx<'_>, covered: VersionSet) {
    let gap = cx.root.minus(covered);
    if gap.is_empty() {
        return;
    }
    // Decision: reported at `/transports` (the reference validator uses
    // `/protocolVersions`): the fix is a transport that covers the versions.
    let at = Pointer::root().key("transports");
    cx.error(
        rules::TRANSPORTS,
        "transport-coverage-gap",
        &at,
        format!(
            "{} has no transport for {gap}, which root protocolVersions lists; when transports is present, every root version needs at least one transport",
            display_path(&at)
        ),
    );
}

/// Streamable HTTP exists from 2025-03-26.
fn check_streamable_http(cx: &mut Cx<'_>, at: &Pointer, scope: VersionSet) {
    let missing = scope.minus(VersionSet::since(ProtocolVersion::V2025_03_26));
    if missing.is_empty() {
        return;
    }
    let type_at = at.key("type");
    cx.error(
        rules::TRANSPORTS,
        "transport-not-supported-by-version",
        &type_at,
        format!(
            "{} is \"streamable-http\", which is not defined for {missing}; Streamable HTTP requires MCP 2025-03-26 or later (use sse for MCP 2024-11-05)",
            display_path(&type_at)
        ),
    );
}

/// SSE is the legacy remote transport of 2024-11-05; later versions use Streamable HTTP.
fn check_sse(cx: &mut Cx<'_>, at: &Pointer, scope: VersionSet) {
    let modern = scope.intersect(VersionSet::since(ProtocolVersion::V2025_03_26));
    if modern.is_empty() {
        return;
    }
    let type_at = at.key("type");
    cx.warning(
        rules::TRANSPORTS,
        "legacy-sse-for-modern-version",
        &type_at,
        format!(
            "{} is the legacy \"sse\" transport, but applies to {modern}, where Streamable HTTP is the standard remote transport",
            display_path(&type_at)
        ),
    );
}

#[cfg(test)]
#[path = "tests/transports.rs"]
mod tests;
