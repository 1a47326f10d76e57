//! A primitive's `clientRequirements` (MCP Description §8.5) against the capabilities
//! a client declared: the router refuses a `tools/call`, `prompts/get` or
//! `resources/read` whose requirements the client does not meet, before the handler
//! runs; the typed client refuses such a call locally.
//!
//! Decisions:
//! - **Error code.** MCP 2026-07-28 defines `-32021` (Missing Required Client
//!   Capability) with `data.requiredCapabilities`. Earlier versions define no such
//!   error; the closest is `-32602` (Invalid params: the request cannot be served as
//!   made, as for an unknown tool), with the same `data`, so a client can tell why.
//! - **Matching.** Requirements are conjunctive and matched member by member: an
//!   object requires the member to be declared and its own members to match; any
//!   other value must be declared equal (`roots.listChanged: true`). `x-*` members are
//!   description metadata and ignored. `elicitation.form` is met by a bare
//!   `elicitation: {}` too: MCP reads an elicitation capability naming neither mode as
//!   form support (and MCP 2025-06-18 has no modes).
//! - **Unknown capabilities** (a context built without them, as in unit tests) are
//!   not enforced: only a client that said what it supports can lack something.

use serde_json::{json, Map, Value};

use super::error::ProtocolError;
use super::version::ProtocolVersion;

/// MCP 2026-07-28's "Missing required client capability".
pub const MISSING_CLIENT_CAPABILITY: i32 = -32021;

/// The members of `required` (a `clientRequirements` object) that `declared` (the
/// client's capabilities) lacks, as a capabilities object; `None` when all are met.
pub fn missing(required: &Map<String, Value>, declared: &Value) -> Option<Map<String, Value>> {
    let mut lacking = Map::new();
    for (key, want) in required {
        if key.starts_with("x-") {
            continue;
        }
        let have = declared.get(key);
        match (want, have) {
            (_, None) => {
                lacking.insert(key.clone(), want.clone());
            }
            (Value::Object(want), Some(have)) => {
                let bare_elicitation =
                    key == "elicitation" && have.get("form").is_none() && have.get("url").is_none();
                let mut want = want.clone();
                if bare_elicitation {
                    want.remove("form");
                }
                if let Some(inner) = missing(&want, have) {
                    lacking.insert(key.clone(), Value::Object(inner));
                }
            }
            (want, Some(have)) if want != have => {
                lacking.insert(key.clone(), want.clone());
            }
            _ => {}
        }
    }
    (!lacking.is_empty()).then_some(lacking)
}

/// The dotted paths of a capabilities object's leaves (`elicitation.url`, `roots`).
fn paths(capabilities: &Map<String, Value>, prefix: &str, into: &mut Vec<String>) {
    for (key, value) in capabilities {
        let path = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match value {
            Value::Object(inner) if !inner.is_empty() => paths(inner, &path, into),
            _ => into.push(path),
        }
    }
}

/// The names of the capabilities `lacking` lists: `elicitation.url`, `sampling`.
pub fn describe(lacking: &Map<String, Value>) -> String {
    let mut list = Vec::new();
    paths(lacking, "", &mut list);
    list.join(", ")
}

/// Checks the `clientRequirements` of a declaration against the client's declared
/// capabilities (`None`: unknown, not enforced): the JSON-RPC error to answer
/// instead of running the handler of `what` (`tool `x``), in `version`.
pub(crate) fn check(
    declaration: &Map<String, Value>,
    declared: Option<&Value>,
    version: ProtocolVersion,
    what: &str,
) -> Result<(), ProtocolError> {
    let (Some(Value::Object(required)), Some(declared)) =
        (declaration.get("clientRequirements"), declared)
    else {
        return Ok(());
    };
    let Some(lacking) = missing(required, declared) else {
        return Ok(());
    };
    let names = describe(&lacking);
    let code = if version >= ProtocolVersion::V2026_07_28 {
        MISSING_CLIENT_CAPABILITY
    } else {
        ProtocolError::INVALID_PARAMS
    };
    Err(ProtocolError {
        code,
        message: format!(
            "Missing required client capability: {what} requires the client capability {names}, which the client did not declare"
        ),
        data: Some(json!({ "requiredCapabilities": Value::Object(lacking) })),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lacking(required: Value, declared: Value) -> Option<Value> {
        missing(required.as_object().unwrap(), &declared).map(Value::Object)
    }

    #[test]
    fn requirements_are_matched_member_by_member() {
        let form = json!({"elicitation": {"form": {}}});
        assert_eq!(
            lacking(form.clone(), json!({"elicitation": {"form": {}}})),
            None
        );
        assert_eq!(lacking(form.clone(), json!({"elicitation": {}})), None);
        assert_eq!(lacking(form.clone(), json!({})), Some(form.clone()));
        assert_eq!(
            lacking(form.clone(), json!({"elicitation": {"url": {}}})),
            Some(form)
        );
        let both = json!({"sampling": {"tools": {}}, "roots": {"listChanged": true}, "x-note": 1});
        assert_eq!(
            lacking(both.clone(), json!({"sampling": {}, "roots": {}})),
            Some(json!({"sampling": {"tools": {}}, "roots": {"listChanged": true}}))
        );
        assert_eq!(
            lacking(
                both,
                json!({"sampling": {"tools": {}}, "roots": {"listChanged": true}})
            ),
            None
        );
    }

    #[test]
    fn the_error_names_the_capability_per_version() {
        let decl = json!({"clientRequirements": {"elicitation": {"url": {}}, "roots": {}}});
        let decl = decl.as_object().unwrap();
        let declared = json!({"roots": {}});
        let new = check(
            decl,
            Some(&declared),
            ProtocolVersion::V2026_07_28,
            "tool `t`",
        )
        .unwrap_err();
        assert_eq!(new.code, -32021);
        assert_eq!(
            new.message,
            "Missing required client capability: tool `t` requires the client capability elicitation.url, which the client did not declare"
        );
        assert_eq!(
            new.data,
            Some(json!({"requiredCapabilities": {"elicitation": {"url": {}}}}))
        );
        let old = check(
            decl,
            Some(&declared),
            ProtocolVersion::V2025_11_25,
            "tool `t`",
        )
        .unwrap_err();
        assert_eq!(old.code, -32602);
        assert!(check(decl, None, ProtocolVersion::V2026_07_28, "tool `t`").is_ok());
    }
}
