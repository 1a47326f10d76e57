//! Resources and Resource Templates (spec §10): identity and scopes, fields per
//! protocol version, URI templates, and named examples (completed `resources/read`
//! results).
//!
//! Example results follow the shared completed-result rules (`results.rs`) plus the
//! read-result specifics: the cache hints `ttlMs` and `cacheScope` are required in
//! 2026-07-28 and undefined before; `contents[]._meta` exists from 2025-06-18; a `blob`
//! is canonical base64. The example should return the requested URI, with the
//! declared MIME type and size; a mismatch is only a warning, because a collection or an
//! indirection may legitimately differ.

use serde_json::{Map, Value};

use super::cx::{display_path, Cx};
use super::meta::{self, MetaContext};
use super::results::{self, ResultCodes};
use super::scopes::{check_disjoint, Scoped};
use super::uri_template::UriTemplate;
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

/// The codes of Resource and Resource Template example results.
const RESULT_CODES: ResultCodes = ResultCodes {
    envelope: "resource-example-json-rpc-envelope",
    incomplete: "incomplete-resource-example-result",
    version: "resource-example-result-version-mismatch",
};

/// Runs the Resource and Resource Template checks.
pub fn check(cx: &mut Cx<'_>) {
    let resources = cx.resources.clone();
    let templates = cx.resource_templates.clone();
    check_disjoint(cx, "uri", &resources);
    check_disjoint(cx, "uriTemplate", &templates);
    for resource in &resources {
        check_declaration_fields(cx, resource, true);
        check_examples(cx, resource, rules::RESOURCES, None);
    }
    for template in &templates {
        check_declaration_fields(cx, template, true);
        let parsed = parse_template(cx, template);
        check_examples(
            cx,
            template,
            rules::RESOURCE_TEMPLATES,
            Some(parsed.as_ref()),
        );
    }
}

/// Fields of Resource, Resource Template and Prompt declarations that exist only in some
/// protocol versions: `title` and `_meta` (2025-06-18), `icons` (2025-11-25) and, where
/// the declaration has Resource Annotations, `annotations.lastModified` (2025-06-18).
///
/// Decision: Resource `size` is not gated (the reference validator does not gate it, and
/// the stored MCP schemas did not settle whether 2024-11-05 defines it).
pub(crate) fn check_declaration_fields(cx: &mut Cx<'_>, decl: &Scoped<'_>, has_annotations: bool) {
    use ProtocolVersion::*;
    let value = decl.value;
    if value.get("title").is_some() {
        cx.field_versions(
            &decl.at.key("title"),
            "title",
            decl.scope,
            VersionSet::since(V2025_06_18),
        );
    }
    if value.get("icons").is_some() {
        cx.field_versions(
            &decl.at.key("icons"),
            "icons",
            decl.scope,
            VersionSet::since(V2025_11_25),
        );
    }
    if let Some(meta) = value.get("_meta") {
        let meta_at = decl.at.key("_meta");
        cx.field_versions(
            &meta_at,
            "_meta",
            decl.scope,
            VersionSet::since(V2025_06_18),
        );
        meta::check(cx, &meta_at, meta, decl.scope, MetaContext::Declaration);
    }
    let last_modified = value.get("annotations").and_then(|a| a.get("lastModified"));
    if has_annotations && last_modified.is_some() {
        let missing = decl.scope.minus(VersionSet::since(V2025_06_18));
        if !missing.is_empty() {
            let at = decl.at.key("annotations").key("lastModified");
            cx.error(
                rules::DECLARATION_FIELD_PROTOCOL_VERSION,
                "resource-annotation-not-supported-by-version",
                &at,
                format!(
                    "{} is not defined for {missing}; it requires MCP 2025-06-18 or later",
                    display_path(&at)
                ),
            );
        }
    }
}

/// The parsed `uriTemplate` of a Resource Template without reporting anything (the
/// Resource Template pass reports malformed templates once).
pub(crate) fn template_of(template: &Value) -> Option<UriTemplate> {
    UriTemplate::parse(template.get("uriTemplate")?.as_str()?).ok()
}

/// Parses a template's `uriTemplate`, reporting RFC 6570 syntax errors.
///
/// Decision: a malformed template is reported whether or not the template has examples
/// (the reference validator only noticed it while checking examples); RFC 6570 syntax is
/// part of the field's meaning.
fn parse_template(cx: &mut Cx<'_>, template: &Scoped<'_>) -> Option<UriTemplate> {
    let text = template.value.get("uriTemplate")?.as_str()?;
    match UriTemplate::parse(text) {
        Ok(parsed) => Some(parsed),
        Err(why) => {
            let at = template.at.key("uriTemplate");
            cx.error(
                rules::RESOURCE_TEMPLATES,
                "invalid-uri-template",
                &at,
                format!(
                    "{} is not a valid RFC 6570 URI Template: {why}",
                    display_path(&at)
                ),
            );
            None
        }
    }
}

/// Checks the named examples of a Resource (`template` is `None`) or Resource Template
/// (`template` is `Some`, holding the parsed template when it is valid).
fn check_examples(
    cx: &mut Cx<'_>,
    owner: &Scoped<'_>,
    rule: &'static str,
    template: Option<Option<&UriTemplate>>,
) {
    let Some(examples) = owner.value.get("examples").and_then(Value::as_object) else {
        return;
    };
    // One matcher per template, shared by its examples.
    let matcher = template.flatten().and_then(UriTemplate::matcher);
    for (name, example) in examples {
        let at = owner.at.key("examples").key(name);
        let requested = match template {
            None => owner.value.get("uri").and_then(Value::as_str),
            Some(_) => example.get("uri").and_then(Value::as_str),
        };
        if let (Some(matcher), Some(uri)) = (&matcher, requested.filter(|_| template.is_some())) {
            if !matcher.is_match(uri) {
                let uri_at = at.key("uri");
                cx.error(
                    rules::RESOURCE_TEMPLATES,
                    "resource-template-example-invalid-expansion",
                    &uri_at,
                    format!(
                        "{} is {uri:?}, which is not an expansion of the template {:?}",
                        display_path(&uri_at),
                        owner
                            .value
                            .get("uriTemplate")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                    ),
                );
            }
        }
        let Some(result) = example.get("result") else {
            continue;
        };
        let result_at = at.key("result");
        let Some(members) =
            results::check_completed(cx, &result_at, result, owner.scope, RESULT_CODES)
        else {
            continue;
        };
        check_cache_fields(cx, &result_at, members, owner.scope);
        check_contents(cx, &result_at, members, owner, requested, rule);
    }
}

/// `ttlMs` and `cacheScope` are required in 2026-07-28 and undefined before.
fn check_cache_fields(
    cx: &mut Cx<'_>,
    at: &Pointer,
    members: &Map<String, Value>,
    scope: VersionSet,
) {
    let modern = scope.intersect(VersionSet::only(ProtocolVersion::V2026_07_28));
    let legacy = scope.minus(modern);
    for field in ["ttlMs", "cacheScope"] {
        let field_at = at.key(field);
        let message = match members.contains_key(field) {
            true if !legacy.is_empty() => format!(
                "{} is not defined for {legacy}; cache hints exist only in MCP 2026-07-28",
                display_path(&field_at)
            ),
            false if !modern.is_empty() => format!(
                "{} is missing; {modern} requires the cache hints ttlMs and cacheScope in a completed read result",
                display_path(&field_at)
            ),
            _ => continue,
        };
        cx.error(
            rules::EXAMPLE_RESULT_FIDELITY,
            "resource-example-cache-fields-version-mismatch",
            &field_at,
            message,
        );
    }
}

/// Checks `contents`: entry `_meta` per version, base64 blobs, and consistency with the
/// requested URI and the declaration's MIME type and size.
fn check_contents(
    cx: &mut Cx<'_>,
    at: &Pointer,
    members: &Map<String, Value>,
    owner: &Scoped<'_>,
    requested: Option<&str>,
    rule: &'static str,
) {
    let Some(contents) = members.get("contents").and_then(Value::as_array) else {
        return;
    };
    let contents_at = at.key("contents");
    let mut returned = false;
    for (index, entry) in contents.iter().enumerate() {
        let entry_at = contents_at.index(index);
        if let Some(meta) = entry.get("_meta") {
            let meta_at = entry_at.key("_meta");
            results::member_since(
                cx,
                &meta_at,
                owner.scope,
                ProtocolVersion::V2025_06_18,
                "resource-example-content-version-mismatch",
            );
            meta::check(cx, &meta_at, meta, owner.scope, MetaContext::Content);
        }
        if let Some(blob) = entry.get("blob").and_then(Value::as_str) {
            if decoded_len(blob).is_none() {
                let blob_at = entry_at.key("blob");
                cx.error(
                    rule,
                    "invalid-resource-example-base64",
                    &blob_at,
                    format!("{} is not valid canonical base64", display_path(&blob_at)),
                );
            }
        }
        if requested.is_some() && entry.get("uri").and_then(Value::as_str) == requested {
            returned = true;
            check_requested_entry(cx, &entry_at, entry, owner.value, rule);
        }
    }
    if let (Some(uri), false) = (requested, returned) {
        cx.warning(
            rule,
            "resource-example-requested-uri-not-returned",
            &contents_at,
            format!(
                "{} has no entry for the requested URI {uri:?}; this is valid only for a documented collection or indirection",
                display_path(&contents_at)
            ),
        );
    }
}

/// The entry for the requested URI should agree with the declared MIME type and size.
fn check_requested_entry(
    cx: &mut Cx<'_>,
    at: &Pointer,
    entry: &Value,
    owner: &Value,
    rule: &'static str,
) {
    let declared_mime = owner.get("mimeType").and_then(Value::as_str);
    let actual_mime = entry.get("mimeType").and_then(Value::as_str);
    if let (Some(declared), Some(actual)) = (declared_mime, actual_mime) {
        if declared != actual {
            let mime_at = at.key("mimeType");
            cx.warning(
                rule,
                "resource-example-mime-type-mismatch",
                &mime_at,
                format!(
                    "{} is {actual:?}, which differs from the declared MIME type {declared:?}",
                    display_path(&mime_at)
                ),
            );
        }
    }
    let Some(declared_size) = owner.get("size").and_then(Value::as_f64) else {
        return;
    };
    // The declared size counts raw bytes: UTF-8 bytes of `text`, decoded bytes of `blob`.
    let actual = match (entry.get("text"), entry.get("blob")) {
        (Some(Value::String(text)), _) => Some(text.len()),
        (_, Some(Value::String(blob))) => decoded_len(blob),
        _ => None,
    };
    if let Some(actual) = actual.filter(|n| *n as f64 != declared_size) {
        cx.warning(
            rule,
            "resource-example-size-mismatch",
            at,
            format!(
                "{} contains {actual} raw bytes, which differs from the declared size {declared_size}",
                display_path(at)
            ),
        );
    }
}

/// The decoded length of canonical base64 (RFC 4648 §4, padded, no whitespace, zero
/// padding bits), or `None` when `text` is not canonical base64.
fn decoded_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let padding = bytes.iter().rev().take_while(|b| **b == b'=').count();
    if padding > 2 {
        return None;
    }
    let data = &bytes[..bytes.len() - padding];
    let value = |b: u8| -> Option<u8> {
        Some(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    };
    let mut last = 0;
    for b in data {
        last = value(*b)?;
    }
    // The bits of the last character that fall past the data must be zero.
    let unused_mask = match padding {
        2 => 0b1111,
        1 => 0b11,
        _ => 0,
    };
    if last & unused_mask != 0 {
        return None;
    }
    Some(bytes.len() / 4 * 3 - padding)
}

#[cfg(test)]
#[path = "tests/resources.rs"]
mod tests;
