//! The server capabilities advertised per protocol version: the one place that
//! decides them, from the description's `capabilities` declaration and the
//! primitives the router serves.
//!
//! # Rules
//!
//! - The declaration object whose scope (its `protocolVersions`, else every version
//!   of the server) contains the version is the starting point; scopes are disjoint
//!   in a valid description, so at most one applies.
//! - Only what this runtime implements is advertised: `tools` (without
//!   `listChanged`: the tool set never changes while serving), `logging` (served by
//!   [`Context::log`](crate::Context::log) and `logging/setLevel`) and
//!   `experimental` (what the author declared, passed on). `tasks`, `extensions` and
//!   a declared `listChanged` or `subscribe` are not advertised: the server does not
//!   implement them. (`prompts`, `resources` and `completions` come with the
//!   primitives that serve them.)
//! - `tools` is advertised whenever the router serves a tool in the version, even
//!   when the declaration leaves it out: a server that answers `tools/list` must
//!   declare it.

use serde_json::{json, Map, Value};

use crate::version::VersionSet;
use crate::ProtocolVersion;

/// One declaration object with its scope.
#[derive(Debug, Clone, PartialEq)]
struct Declared {
    scope: VersionSet,
    members: Map<String, Value>,
}

/// The description's `capabilities` declaration, parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Capabilities {
    /// `None` when the description declares no capabilities.
    declared: Option<Vec<Declared>>,
}

impl Capabilities {
    /// Parses the `capabilities` array (JSON text; `None`: no declaration).
    /// `server` are the server's versions, the scope of an object without
    /// `protocolVersions`.
    pub fn parse(text: Option<&str>, server: VersionSet) -> Result<Self, String> {
        let Some(text) = text else {
            return Ok(Capabilities::default());
        };
        let list: Vec<Map<String, Value>> = serde_json::from_str(text).map_err(|e| {
            format!("the `capabilities` declaration is not an array of objects: {e}")
        })?;
        let mut declared = Vec::with_capacity(list.len());
        for mut members in list {
            let scope = match members.remove("protocolVersions") {
                Some(versions) => {
                    let versions: Vec<ProtocolVersion> = serde_json::from_value(versions)
                        .map_err(|e| format!("bad `protocolVersions` in `capabilities`: {e}"))?;
                    VersionSet::of(&versions)
                }
                None => server,
            };
            declared.push(Declared { scope, members });
        }
        Ok(Capabilities {
            declared: Some(declared),
        })
    }

    /// The declaration object that applies to `version`, if any.
    fn declared(&self, version: ProtocolVersion) -> Option<&Map<String, Value>> {
        self.declared
            .as_ref()?
            .iter()
            .find(|d| d.scope.contains(version))
            .map(|d| &d.members)
    }

    /// Whether the description declares `logging` for `version`.
    pub fn logging(&self, version: ProtocolVersion) -> bool {
        self.declared(version)
            .is_some_and(|d| d.contains_key("logging"))
    }

    /// The native MCP `ServerCapabilities` object for `version` (see the module
    /// docs); `serves_tools` says whether the router serves a tool in `version`.
    pub fn advertised(&self, version: ProtocolVersion, serves_tools: bool) -> Value {
        let mut advertised = Map::new();
        if let Some(declared) = self.declared(version) {
            for (key, value) in declared {
                match key.as_str() {
                    "tools" => {
                        advertised.insert(key.clone(), without(value, &["listChanged"]));
                    }
                    "logging" | "experimental" => {
                        advertised.insert(key.clone(), without(value, &[]));
                    }
                    _ => {}
                }
            }
        }
        if serves_tools && !advertised.contains_key("tools") {
            advertised.insert("tools".into(), json!({}));
        }
        Value::Object(advertised)
    }
}

/// `value` (an object) without the `keys` and without `x-*` extension members,
/// which are mcpdesc-only.
fn without(value: &Value, keys: &[&str]) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !keys.contains(&k.as_str()) && !k.starts_with("x-"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        _ => json!({}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SERVER: &[ProtocolVersion] = &[
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    #[test]
    fn without_a_declaration_tools_come_from_the_router() {
        let caps = Capabilities::parse(None, VersionSet::of(SERVER)).unwrap();
        let v = ProtocolVersion::V2025_11_25;
        assert_eq!(caps.advertised(v, true), json!({"tools": {}}));
        assert_eq!(caps.advertised(v, false), json!({}));
        assert!(!caps.logging(v));
    }

    #[test]
    fn the_declaration_of_the_version_applies_without_what_is_not_implemented() {
        let text = r#"[
            {"protocolVersions": ["2025-06-18", "2025-11-25"],
             "tools": {"listChanged": true, "x-note": 1}, "logging": {},
             "resources": {"subscribe": true}, "tasks": {"list": {}}, "experimental": {"chess": {}}},
            {"protocolVersions": ["2026-07-28"], "extensions": {"io.example/x": {}}}
        ]"#;
        let caps = Capabilities::parse(Some(text), VersionSet::of(SERVER)).unwrap();
        let v = ProtocolVersion::V2025_11_25;
        assert_eq!(
            caps.advertised(v, false),
            json!({"tools": {}, "logging": {}, "experimental": {"chess": {}}})
        );
        assert!(caps.logging(v));
        let latest = ProtocolVersion::V2026_07_28;
        assert_eq!(caps.advertised(latest, true), json!({"tools": {}}));
        assert!(!caps.logging(latest));
    }

    #[test]
    fn an_object_without_versions_covers_the_server() {
        let caps =
            Capabilities::parse(Some(r#"[{"logging": {}}]"#), VersionSet::of(SERVER)).unwrap();
        assert!(SERVER.iter().all(|v| caps.logging(*v)));
        assert!(!caps.logging(ProtocolVersion::V2024_11_05));
    }

    #[test]
    fn a_malformed_declaration_is_refused() {
        let err = Capabilities::parse(Some("{}"), VersionSet::of(SERVER)).unwrap_err();
        assert!(
            err.starts_with("the `capabilities` declaration is not an array"),
            "{err}"
        );
    }
}
