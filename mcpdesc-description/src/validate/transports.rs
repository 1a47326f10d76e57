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
mod tests {
    use serde_json::json;

    use super::*;
    use crate::validate::testing::{codes, doc, found};

    #[test]
    fn overlapping_transports_covering_the_root_pass() {
        let d = doc(
            &["2025-11-25", "2026-07-28"],
            json!({"transports": [
                {"type": "stdio", "command": "s"},
                {"type": "streamable-http", "url": "https://x.example/mcp", "protocolVersions": ["2026-07-28"]}
            ]}),
        );
        assert!(codes(&d).is_empty(), "{:?}", codes(&d));
    }

    #[test]
    fn coverage_gaps_are_errors_only_when_transports_exist() {
        let d = doc(
            &["2025-11-25", "2026-07-28"],
            json!({"transports": [{"type": "stdio", "command": "s", "protocolVersions": ["2025-11-25"]}]}),
        );
        assert_eq!(
            found(&d, "transport-coverage-gap"),
            [(rules::TRANSPORTS, "/transports".to_owned())]
        );
        let d = doc(&["2025-11-25"], json!({}));
        assert!(found(&d, "transport-coverage-gap").is_empty());
    }

    #[test]
    fn streamable_http_needs_2025_03_26() {
        let d = doc(
            &["2024-11-05"],
            json!({"transports": [{"type": "streamable-http", "url": "https://x.example/mcp"}]}),
        );
        assert_eq!(
            found(&d, "transport-not-supported-by-version"),
            [(rules::TRANSPORTS, "/transports/0/type".to_owned())]
        );
    }

    #[test]
    fn sse_warns_for_modern_versions() {
        let d = doc(
            &["2024-11-05", "2025-03-26"],
            json!({"transports": [{"type": "sse", "url": "https://x.example/sse"}]}),
        );
        let diags = crate::validate::testing::run(&d);
        let sse: Vec<_> = diags
            .iter()
            .filter(|d| d.code == "legacy-sse-for-modern-version")
            .collect();
        assert_eq!(sse.len(), 1);
        assert_eq!(sse[0].pointer, "/transports/0/type");
        assert!(!sse[0].is_error());
        assert!(
            sse[0].message.contains("MCP 2025-03-26"),
            "{}",
            sse[0].message
        );
        assert!(!sse[0].message.contains("2024-11-05"), "{}", sse[0].message);
    }

    #[test]
    fn positions_come_from_the_source() {
        let text = r#"{
  "mcpdesc": "0.9.0",
  "info": {"name": "t", "version": "1"},
  "protocolVersions": ["2024-11-05"],
  "transports": [
    {"type": "streamable-http", "url": "https://x.example/mcp"}
  ]
}"#;
        let desc = crate::Description::from_text(
            "t.json",
            text.to_owned(),
            None,
            &crate::Limits::default(),
        );
        let d = desc
            .diagnostics
            .iter()
            .find(|d| d.code == "transport-not-supported-by-version")
            .expect("reported");
        assert_eq!((d.line, d.column), (6, 6));
    }
}
