//! The server capabilities advertised per protocol version: the one place that
//! decides them, from the description's `capabilities` declaration and the
//! primitives the router serves.
//!
//! # Rules
//!
//! - The declaration object whose scope (its `protocolVersions`, else every version
//!   of the server) contains the version is the starting point; scopes are disjoint
//!   in a valid description, so at most one applies.
//! - Only what this runtime implements is advertised: `tools`, `prompts`, `resources`
//!   and `completions`, `logging` (served by `Context::log`
//!   and `logging/setLevel`) and `experimental` (what the author declared, passed
//!   on). A declared `listChanged` (tools, prompts, resources) and `subscribe`
//!   (resources) are advertised before MCP 2026-07-28: the server serves
//!   `resources/subscribe` and sends what the implementation announces through
//!   [`ChangeNotifier`]. From 2026-07-28 on they are not
//!   (that revision delivers them through `subscriptions/listen`, not served yet).
//!   A declared `tasks` or `extensions` is not advertised from here: `tasks` follows
//!   the tools' `execution.taskSupport` (`Router::capabilities`
//!   adds it), `extensions` are not implemented.
//! - `tools`, `prompts`, `resources` and `completions` are advertised whenever the
//!   router serves one in the version (a tool; a prompt; a resource or resource
//!   template; a completion handler, from MCP 2025-03-26 on), even when the
//!   declaration leaves it out: a server that answers `tools/list` or `prompts/get`
//!   must declare it. A declared one the router does not serve is advertised too (its
//!   list is empty; `completion/complete` completes to no values).
//!
//! [`ChangeNotifier`]: super::subscriptions::ChangeNotifier

use serde_json::{json, Map, Value};

use super::subscriptions::ListChanged;
use crate::protocol::version::{ProtocolVersion, VersionSet};

/// One declaration object with its scope.
#[derive(Debug, Clone, PartialEq)]
struct Declared {
    scope: VersionSet,
    members: Map<String, Value>,
}

/// What the router serves in one version: the capabilities advertised even when the
/// declaration leaves them out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Served {
    /// A tool.
    pub tools: bool,
    /// A prompt.
    pub prompts: bool,
    /// A resource or resource template.
    pub resources: bool,
    /// A completion handler.
    pub completions: bool,
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

    /// Whether the declaration for `version` sets `flag` (`listChanged`, `subscribe`)
    /// of `capability` to `true`, in a version where this runtime serves it.
    fn flag(&self, version: ProtocolVersion, capability: &str, flag: &str) -> bool {
        version < ProtocolVersion::V2026_07_28
            && self
                .declared(version)
                .and_then(|d| d.get(capability))
                .and_then(|c| c.get(flag))
                .and_then(Value::as_bool)
                .unwrap_or(false)
    }

    /// Which lists announce their changes in `version` (declared and served).
    pub fn list_changed(&self, version: ProtocolVersion) -> ListChanged {
        ListChanged {
            tools: self.flag(version, "tools", "listChanged"),
            prompts: self.flag(version, "prompts", "listChanged"),
            resources: self.flag(version, "resources", "listChanged"),
        }
    }

    /// Whether `resources/subscribe` is served in `version` (declared and served).
    pub fn subscribe(&self, version: ProtocolVersion) -> bool {
        self.flag(version, "resources", "subscribe")
    }

    /// The native MCP `ServerCapabilities` object for `version` (see the module
    /// docs); `served` says what the router serves in `version`.
    pub fn advertised(&self, version: ProtocolVersion, served: Served) -> Value {
        let mut advertised = Map::new();
        // Before 2026-07-28 the declared flags are served; from it on they are not.
        let unserved: &[&str] = if version < ProtocolVersion::V2026_07_28 {
            &[]
        } else {
            &["listChanged", "subscribe"]
        };
        if let Some(declared) = self.declared(version) {
            for (key, value) in declared {
                match key.as_str() {
                    "tools" | "prompts" | "resources" => {
                        advertised.insert(key.clone(), without(value, unserved));
                    }
                    "completions" => {
                        advertised.insert(key.clone(), without(value, &[]));
                    }
                    "logging" | "experimental" => {
                        advertised.insert(key.clone(), without(value, &[]));
                    }
                    _ => {}
                }
            }
        }
        let completions = served.completions && version >= ProtocolVersion::V2025_03_26;
        for (key, serves) in [
            ("tools", served.tools),
            ("prompts", served.prompts),
            ("resources", served.resources),
            ("completions", completions),
        ] {
            if serves && !advertised.contains_key(key) {
                advertised.insert(key.into(), json!({}));
            }
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

    fn tools() -> Served {
        Served {
            tools: true,
            ..Served::default()
        }
    }

    #[test]
    fn served_primitives_are_advertised_with_their_declared_flags() {
        let text = r#"[{"prompts": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true, "x-a": 1}}]"#;
        let caps = Capabilities::parse(Some(text), VersionSet::of(SERVER)).unwrap();
        let served = Served {
            resources: true,
            completions: true,
            ..Served::default()
        };
        assert_eq!(
            caps.advertised(ProtocolVersion::V2025_11_25, served),
            json!({"prompts": {"listChanged": true}, "resources": {"subscribe": true, "listChanged": true}, "completions": {}})
        );
        assert!(caps.subscribe(ProtocolVersion::V2025_11_25));
        assert_eq!(
            caps.list_changed(ProtocolVersion::V2025_11_25),
            ListChanged {
                tools: false,
                prompts: true,
                resources: true
            }
        );
        // 2026-07-28 delivers them through `subscriptions/listen`, not served.
        assert_eq!(
            caps.advertised(ProtocolVersion::V2026_07_28, served),
            json!({"prompts": {}, "resources": {}, "completions": {}})
        );
        assert!(!caps.subscribe(ProtocolVersion::V2026_07_28));
        assert_eq!(
            caps.list_changed(ProtocolVersion::V2026_07_28),
            ListChanged::default()
        );
        // No completions capability before 2025-03-26.
        let none = Capabilities::parse(None, VersionSet::of(SERVER)).unwrap();
        assert_eq!(
            none.advertised(ProtocolVersion::V2024_11_05, served),
            json!({"resources": {}})
        );
    }

    const SERVER: &[ProtocolVersion] = &[
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    #[test]
    fn without_a_declaration_tools_come_from_the_router() {
        let caps = Capabilities::parse(None, VersionSet::of(SERVER)).unwrap();
        let v = ProtocolVersion::V2025_11_25;
        assert_eq!(caps.advertised(v, tools()), json!({"tools": {}}));
        assert_eq!(caps.advertised(v, Served::default()), json!({}));
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
        // `resources` stays, with `subscribe` (the server answers resources/list
        // and resources/read even with no resource); `tasks` goes.
        assert_eq!(
            caps.advertised(v, Served::default()),
            json!({"tools": {"listChanged": true}, "logging": {}, "resources": {"subscribe": true}, "experimental": {"chess": {}}})
        );
        assert!(caps.logging(v));
        let latest = ProtocolVersion::V2026_07_28;
        assert_eq!(caps.advertised(latest, tools()), json!({"tools": {}}));
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
