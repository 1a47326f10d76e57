//! Which validation errors of a 0.7 document are only the old format showing through.
//!
//! `mcpdesc validate` on a 0.7.x document reports the version error first and tells the
//! user to run `mcpdesc migrate`. The structural errors that merely restate what 0.7
//! allowed and 0.8.0 changed (the places migration rewrites, or hands to the author)
//! would bury it, so they are left out and counted in its message instead. Everything
//! else (an undeclared tag reference, a malformed URI, ...) is still reported: it is
//! wrong in either version.
//!
//! A 0.7 document has no root `protocolVersions`, so no version-dependent rule fires on
//! it; only structural and version-independent semantic errors need sorting here.

use crate::diagnostic::Diagnostic;
use crate::pointer::Pointer;

/// Whether an `mcpdesc` value names the 0.7 format (`0.7.0`, `0.7.1`, ...).
pub fn is_legacy_version(mcpdesc: &str) -> bool {
    mcpdesc
        .strip_prefix("0.7.")
        .is_some_and(|patch| !patch.is_empty() && patch.bytes().all(|b| b.is_ascii_digit()))
}

/// Subtrees that 0.7 shaped differently and migration rewrites as a whole.
const REWRITTEN: [&str; 4] = [
    "/info/protocolVersion",
    "/capabilities",
    "/security",
    "/$schema",
];

/// Whether `d`, found in a 0.7 document, only reflects the change of format.
pub fn is_fallout(d: &Diagnostic) -> bool {
    let Some(at) = Pointer::parse(&d.pointer) else {
        return false;
    };
    let segments: Vec<String> = at.segments().collect();
    let s: Vec<&str> = segments.iter().map(String::as_str).collect();
    if REWRITTEN
        .iter()
        .filter_map(|p| Pointer::parse(p))
        .any(|p| at.starts_with(&p))
    {
        return true;
    }
    let mentions = |member: &str| d.message.contains(&format!("`{member}`"));
    match (d.code, s.as_slice()) {
        // Transport-level inline security schemes.
        (_, ["transports", _, "security", ..]) => true,
        // 0.7 allowed empty collections (migration removes them).
        ("empty-collection", _) => true,
        // Root protocolVersions is new (moved from info.protocolVersion).
        ("missing-property", []) => mentions("protocolVersions"),
        // inputSchema was optional in 0.7 (migration lists these for the author).
        ("missing-property", ["tools", _]) => mentions("inputSchema"),
        // Tool Annotations were open in 0.7.
        ("unknown-tool-annotation", _) => true,
        // Prompt tags did not have to be unique in 0.7.
        ("duplicate-items", ["prompts", _, "tags"]) => true,
        _ => false,
    }
}

#[cfg(test)]
#[path = "tests/fallout.rs"]
mod tests;
