//! Client capability requirements of primitives (digest §1.7 and §9 items 26–31).
//!
//! `clientRequirements` on a Tool, Resource, Resource Template or Prompt states the
//! minimum client capabilities `tools/call`, `resources/read` or `prompts/get` needs.
//! It has no scope of its own, so it must make sense in **every** version of the
//! primitive's effective scope; a requirement that differs between versions needs
//! disjoint primitive variants. Each finding is reported once, naming the versions.
//!
//! | Capability    | Defined in            | Members (where the set is closed)                     |
//! |---------------|-----------------------|-------------------------------------------------------|
//! | `roots`       | all (deprecated 2026) | `listChanged` (boolean); none in 2026                 |
//! | `sampling`    | all (deprecated 2026) | 2025-11-25+: `context` (deprecated), `tools`          |
//! | `elicitation` | 2025-06-18+           | 2025-11-25+: `form`, `url`                            |
//! | `tasks`       | 2025-11-25 only       | `list`, `cancel`, `requests{sampling{createMessage}, elicitation{create}}` |
//! | `extensions`  | 2026-07-28 only       | identifiers; unknown MCP-reserved ones warn           |
//! | `experimental`| all                   | open                                                  |
//!
//! Decision (as the reference validator): unknown capability names are kept without
//! diagnostics (MCP's client capabilities are open), and so are the members of
//! `sampling` and `elicitation` before 2025-11-25, whose MCP schemas type them as open
//! objects.

use serde_json::Value;

use super::capabilities::check_extension_identifiers;
use super::cx::{display_path, Cx};
use super::scopes::primitives;
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;

use ProtocolVersion::*;

/// The versions that define a client capability, or `None` for unknown names.
fn defined_in(capability: &str) -> Option<VersionSet> {
    Some(match capability {
        "roots" | "sampling" | "experimental" => VersionSet::all(),
        "elicitation" => VersionSet::since(V2025_06_18),
        "tasks" => VersionSet::only(V2025_11_25),
        "extensions" => VersionSet::only(V2026_07_28),
        _ => return None,
    })
}

/// The versions whose `sampling` and `elicitation` capabilities have a closed member set.
fn closed_from_2025_11_25() -> VersionSet {
    VersionSet::since(V2025_11_25)
}

/// Runs the client requirement checks for every primitive.
pub fn check(cx: &mut Cx<'_>) {
    for (_, primitive) in primitives(cx) {
        let Some(requirements) = primitive
            .value
            .get("clientRequirements")
            .and_then(Value::as_object)
        else {
            continue;
        };
        let at = primitive.at.key("clientRequirements");
        for (capability, value) in requirements {
            if capability.starts_with("x-") {
                continue;
            }
            let Some(defined) = defined_in(capability) else {
                continue;
            };
            let cap_at = at.key(capability);
            let undefined = primitive.scope.minus(defined);
            if !undefined.is_empty() {
                cx.error(
                    rules::CLIENT_REQUIREMENTS,
                    "client-requirement-version-mismatch",
                    &cap_at,
                    format!(
                        "{} is not defined by {undefined}; split the primitive into disjoint protocol-scoped variants when requirements differ",
                        display_path(&cap_at)
                    ),
                );
            }
            let versions = primitive.scope.intersect(defined);
            if !versions.is_empty() {
                check_capability(cx, &cap_at, capability, value, versions);
            }
        }
    }
}

/// Checks one capability's value for the versions that define it.
fn check_capability(
    cx: &mut Cx<'_>,
    at: &Pointer,
    capability: &str,
    value: &Value,
    versions: VersionSet,
) {
    // A non-object capability value fails the structural schema already.
    if !value.is_object() {
        return;
    }
    match capability {
        "roots" => check_roots(cx, at, value, versions),
        "sampling" => {
            let closed = versions.intersect(closed_from_2025_11_25());
            check_marker_members(cx, at, value, &["context", "tools"], closed);
            if value.get("context").is_some() && !closed.is_empty() {
                let context_at = at.key("context");
                cx.warning(
                    rules::CLIENT_REQUIREMENTS,
                    "deprecated-client-requirement",
                    &context_at,
                    format!(
                        "{} requires the context-inclusion capability, which {closed} deprecates",
                        display_path(&context_at)
                    ),
                );
            }
        }
        "elicitation" => {
            let closed = versions.intersect(closed_from_2025_11_25());
            check_marker_members(cx, at, value, &["form", "url"], closed);
        }
        "tasks" => check_tasks(cx, at, value, versions),
        "extensions" => check_extension_identifiers(cx, at, value),
        _ => {}
    }
    let deprecated = versions.intersect(VersionSet::only(V2026_07_28));
    if matches!(capability, "roots" | "sampling") && !deprecated.is_empty() {
        cx.warning(
            rules::CLIENT_REQUIREMENTS,
            "deprecated-client-requirement",
            at,
            format!(
                "{} requires a client capability that {deprecated} deprecates",
                display_path(at)
            ),
        );
    }
}

/// `roots{listChanged}` before 2026-07-28; in 2026-07-28 `roots` must be empty.
fn check_roots(cx: &mut Cx<'_>, at: &Pointer, value: &Value, versions: VersionSet) {
    let Some(members) = value.as_object() else {
        return;
    };
    let legacy = versions.minus(VersionSet::only(V2026_07_28));
    for (member, member_value) in members {
        let member_at = at.key(member);
        let undefined = if member == "listChanged" {
            versions.minus(legacy)
        } else {
            versions
        };
        undefined_member(cx, &member_at, member, undefined);
        if member == "listChanged" && !legacy.is_empty() && !member_value.is_boolean() {
            invalid_value(cx, &member_at, "a boolean", legacy);
        }
    }
}

/// `tasks{list, cancel, requests{sampling{createMessage}, elicitation{create}}}`.
fn check_tasks(cx: &mut Cx<'_>, at: &Pointer, value: &Value, versions: VersionSet) {
    check_marker_members(cx, at, value, &["list", "cancel", "requests"], versions);
    let Some(requests) = value.get("requests").filter(|r| r.is_object()) else {
        return;
    };
    let requests_at = at.key("requests");
    check_marker_members(
        cx,
        &requests_at,
        requests,
        &["sampling", "elicitation"],
        versions,
    );
    for (family, operation) in [("sampling", "createMessage"), ("elicitation", "create")] {
        if let Some(family_value) = requests.get(family).filter(|f| f.is_object()) {
            check_marker_members(
                cx,
                &requests_at.key(family),
                family_value,
                &[operation],
                versions,
            );
        }
    }
}

/// Checks an object whose members, for `versions`, must be among `allowed` and be
/// objects (marker objects such as `{}`). Nested values of allowed members are left to
/// the caller. Nothing is reported when `versions` is empty.
fn check_marker_members(
    cx: &mut Cx<'_>,
    at: &Pointer,
    value: &Value,
    allowed: &[&str],
    versions: VersionSet,
) {
    let Some(members) = value.as_object() else {
        return;
    };
    if versions.is_empty() {
        return;
    }
    for (member, member_value) in members {
        let member_at = at.key(member);
        if !allowed.contains(&member.as_str()) {
            undefined_member(cx, &member_at, member, versions);
        } else if !member_value.is_object() {
            invalid_value(cx, &member_at, "an object", versions);
        }
    }
}

/// Reports a capability member that `versions` do not define.
fn undefined_member(cx: &mut Cx<'_>, at: &Pointer, member: &str, versions: VersionSet) {
    if versions.is_empty() {
        return;
    }
    cx.error(
        rules::CLIENT_REQUIREMENTS,
        "client-requirement-version-mismatch",
        at,
        format!(
            "{} names the member {member:?}, which {versions} does not define for this client capability",
            display_path(at)
        ),
    );
}

/// Reports a member value of the wrong kind.
fn invalid_value(cx: &mut Cx<'_>, at: &Pointer, expected: &str, versions: VersionSet) {
    cx.error(
        rules::CLIENT_REQUIREMENTS,
        "invalid-client-requirement-value",
        at,
        format!("{} must be {expected} for {versions}", display_path(at)),
    );
}

#[cfg(test)]
#[path = "tests/client_requirements.rs"]
mod tests;
