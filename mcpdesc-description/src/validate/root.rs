//! Root-level semantics: the `mcpdesc` format version and root `protocolVersions`.

use serde_json::Value;

use super::cx::{Cx, SpecVersion};
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// The code of the error a 0.7.x document gets: it leads the diagnostics and points
/// to `mcpdesc migrate` (see [`super::fallout::is_fallout`]).
pub const LEGACY_VERSION_CODE: &str = "legacy-mcpdesc-version";

/// Reads `mcpdesc`, reporting anything other than 0.8.0 or 0.9.0.
///
/// Returns the declared version, or 0.9.0 (the newest rules) when it is unusable, so
/// that the rest of the document is still checked.
pub fn spec_version(doc: &Value) -> (SpecVersion, Option<crate::diagnostic::Diagnostic>) {
    let at = Pointer::root().key("mcpdesc");
    match doc.get("mcpdesc") {
        Some(Value::String(text)) => match SpecVersion::parse(text) {
            Some(v) => (v, None),
            None if super::fallout::is_legacy_version(text) => (
                SpecVersion::V0_9_0,
                Some(crate::diagnostic::Diagnostic::new(
                    crate::diagnostic::Severity::Error,
                    rules::DOCUMENT_VERSION,
                    LEGACY_VERSION_CODE,
                    &at,
                    format!("mcpdesc is {text:?}: this is an MCP Description 0.7 document, which this tool supports only as input to `mcpdesc migrate`; run `mcpdesc migrate FILE -o NEW_FILE` to rewrite it as 0.9.0"),
                )),
            ),
            None => (
                SpecVersion::V0_9_0,
                Some(crate::diagnostic::Diagnostic::new(
                    crate::diagnostic::Severity::Error,
                    rules::DOCUMENT_VERSION,
                    "unsupported-mcpdesc-version",
                    &at,
                    format!("mcpdesc is {text:?}; this tool supports MCP Description \"0.8.0\" and \"0.9.0\""),
                )),
            ),
        },
        // A missing or non-string value is a structural error, reported there.
        _ => (SpecVersion::V0_9_0, None),
    }
}

/// The known versions of root `protocolVersions`.
pub fn root_versions(doc: &Value) -> VersionSet {
    doc.get("protocolVersions")
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .filter_map(ProtocolVersion::parse)
                .collect()
        })
        .unwrap_or_default()
}

/// Warns that 2024-11-05 and 2025-03-26 are validated only partly (digest §2.1).
pub fn check(cx: &mut Cx<'_>) {
    let legacy = cx
        .root
        .intersect(VersionSet::before(ProtocolVersion::V2025_06_18));
    if !legacy.is_empty() {
        cx.warning(
            rules::PROTOCOL_VERSIONS,
            "legacy-protocol-validation-incomplete",
            &Pointer::root().key("protocolVersions"),
            format!(
                "protocolVersions includes {legacy}; validation for versions before 2025-06-18 applies structural checks and a selected set of semantic checks only, and is not complete"
            ),
        );
    }
}

#[cfg(test)]
#[path = "tests/root.rs"]
mod tests;
