//! Security requirements (digest §1.6): every requirement names a declared scheme,
//! scopes only where a scheme has scopes, and scopes from the scheme's catalogue.
//!
//! Requirement arrays appear at the root, on transports and on every primitive. The
//! empty forms `[]` (clears inherited requirements) and `[{}]` (anonymous access is an
//! alternative) carry meaning and are never reported. Duplicate scopes within one
//! requirement are rejected by the structural schema (`uniqueItems`), so they are not
//! checked again here.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::cx::{display_path, Cx};
use super::scopes::PRIMITIVE_ARRAYS;
use crate::pointer::Pointer;
use crate::rules;

/// What a requirement may say about one declared scheme.
enum Scheme<'d> {
    /// `http` or `apiKey`: requirements must list no scopes.
    NoScopes(&'d str),
    /// `oauth2`: scopes should come from the union of its flows' `scopes` maps.
    OAuth(HashSet<&'d str>),
    /// `openIdConnect`: scopes are discovered at runtime, so none is catalogued.
    OpenIdConnect,
    /// A scheme whose `type` is unusable (a structural error already).
    Unknown,
}

/// Runs the security checks over the whole document.
pub fn check(cx: &mut Cx<'_>) {
    let doc = cx.doc;
    let schemes = schemes(doc);
    let mut sites = vec![(Pointer::root().key("security"), doc.get("security"))];
    if let Some(transports) = doc.get("transports").and_then(Value::as_array) {
        for (index, transport) in transports.iter().enumerate() {
            let at = Pointer::root().key("transports").index(index);
            sites.push((at.key("security"), transport.get("security")));
        }
    }
    for kind in PRIMITIVE_ARRAYS {
        for (index, primitive) in doc
            .get(kind)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            let at = Pointer::root().key(kind).index(index);
            sites.push((at.key("security"), primitive.get("security")));
        }
    }
    for (at, requirements) in sites {
        if let Some(list) = requirements.and_then(Value::as_array) {
            check_requirements(cx, &at, list, &schemes);
        }
    }
}

/// The declared schemes by name, with what requirements may say about each.
fn schemes(doc: &Value) -> HashMap<&str, Scheme<'_>> {
    let Some(map) = doc.get("securitySchemes").and_then(Value::as_object) else {
        return HashMap::new();
    };
    map.iter()
        .map(|(name, scheme)| {
            let kind = scheme.get("type").and_then(Value::as_str);
            let scheme = match kind {
                Some(t @ ("http" | "apiKey")) => Scheme::NoScopes(t),
                Some("oauth2") => Scheme::OAuth(oauth_catalogue(scheme)),
                Some("openIdConnect") => Scheme::OpenIdConnect,
                _ => Scheme::Unknown,
            };
            (name.as_str(), scheme)
        })
        .collect()
}

/// Every scope name any flow of an `oauth2` scheme declares.
fn oauth_catalogue(scheme: &Value) -> HashSet<&str> {
    scheme
        .get("flows")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|flows| flows.values())
        .filter_map(|flow| flow.get("scopes").and_then(Value::as_object))
        .flat_map(|scopes| scopes.keys().map(String::as_str))
        .collect()
}

/// Checks one Security Requirement Array at `at`.
fn check_requirements(
    cx: &mut Cx<'_>,
    at: &Pointer,
    list: &[Value],
    schemes: &HashMap<&str, Scheme<'_>>,
) {
    for (index, requirement) in list.iter().enumerate() {
        let Some(members) = requirement.as_object() else {
            continue;
        };
        for (name, scopes) in members {
            let entry_at = at.index(index).key(name);
            let Some(scheme) = schemes.get(name.as_str()) else {
                cx.error(
                    rules::SECURITY,
                    "unknown-security-scheme",
                    &entry_at,
                    format!(
                        "{} names the security scheme {name:?}, which securitySchemes does not declare",
                        display_path(&entry_at)
                    ),
                );
                continue;
            };
            let scopes = scopes.as_array().map(Vec::as_slice).unwrap_or_default();
            check_scopes(cx, &entry_at, name, scopes, scheme);
        }
    }
}

/// Checks the scopes one requirement lists for one scheme.
fn check_scopes(cx: &mut Cx<'_>, at: &Pointer, name: &str, scopes: &[Value], scheme: &Scheme<'_>) {
    match scheme {
        Scheme::NoScopes(kind) if !scopes.is_empty() => cx.error(
            rules::SECURITY,
            "non-oauth-scope-misuse",
            at,
            format!(
                "{} lists scopes for the {kind} scheme {name:?}; only oauth2 and openIdConnect requirements may list scopes, so use []",
                display_path(at)
            ),
        ),
        Scheme::OAuth(catalogue) => {
            for (index, scope) in scopes.iter().enumerate() {
                let Some(scope) = scope.as_str() else { continue };
                if !catalogue.contains(scope) {
                    uncatalogued(cx, &at.index(index), name, scope, "no flow of the oauth2 scheme declares it");
                }
            }
        }
        // Decision (following the reference validator): an openIdConnect scheme has no
        // static scope catalogue in the document, so every listed scope is reported as
        // uncatalogued — a warning, never a rejection.
        Scheme::OpenIdConnect => {
            for (index, scope) in scopes.iter().enumerate() {
                if let Some(scope) = scope.as_str() {
                    uncatalogued(
                        cx,
                        &at.index(index),
                        name,
                        scope,
                        "openIdConnect scopes are discovered at runtime and cannot be checked statically",
                    );
                }
            }
        }
        _ => {}
    }
}

/// Warns about a scope absent from the scheme's static catalogue.
fn uncatalogued(cx: &mut Cx<'_>, at: &Pointer, name: &str, scope: &str, why: &str) {
    cx.warning(
        rules::SECURITY,
        "uncatalogued-oauth-scope",
        at,
        format!(
            "{} requires scope {scope:?} of scheme {name:?}, which is not in its static scope catalogue ({why})",
            display_path(at)
        ),
    );
}

#[cfg(test)]
#[path = "tests/security.rs"]
mod tests;
