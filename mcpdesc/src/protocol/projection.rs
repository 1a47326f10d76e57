//! Native `tools/list` projection: from a resolved mcpdesc Tool declaration to the MCP
//! `Tool` value of one protocol version.
//!
//! # Members
//!
//! The projection keeps only the members the MCP `Tool` type of the version defines
//! (an allow-list, so `examples`, `interactionExamples`, `tags`, `security`,
//! `clientRequirements`, `elicitations`, `deprecated`, `protocolVersions` and every
//! `x-*` key are removed, and so is anything else that is not an MCP field):
//!
//! | member | versions |
//! |---|---|
//! | `name`, `description`, `inputSchema` | all |
//! | `annotations` | 2025-03-26 and later |
//! | `title`, `outputSchema`, `_meta` | 2025-06-18 and later |
//! | `icons` | 2025-11-25 and later |
//! | `execution` | 2025-11-25 only |
//!
//! A valid description never puts a member in a scope whose version lacks it, so for a
//! valid description the allow-list removes exactly the mcpdesc-only members.
//!
//! # Schemas with a native-shape warning
//!
//! MCP Description 0.9 (§9.2) allows tool schemas that are valid in their dialect but do
//! not meet the syntax the native MCP `Tool` type requires, with a validator warning,
//! "because native projection fails for them". This runtime does not fail: it
//! **rewrites the schema into an equivalent native shape** and serves the tool. Each
//! rewrite is reported as a [`Repair`]. The rewrites are:
//!
//! - `inputSchema` root (every version) and `outputSchema` root (2025-06-18 and
//!   2025-11-25) without `"type": "object"`: the root gets `"type": "object"`; a `type`
//!   array that contains `"object"` becomes `"object"`. Both roots must describe an
//!   object in those versions anyway (tool arguments and structured output are objects),
//!   so no valid instance changes meaning.
//! - 2025-11-25: a boolean schema as a top-level `properties` value becomes `{}`
//!   (for `true`) or `{"not": {}}` (for `false`), which accept the same instances.
//!
//! Arguments and outputs are still validated against the original schemas, never the
//! rewritten ones. The alternative, serving the declaration unchanged, would send a
//! `tools/list` answer that a strict client rejects as a whole, hiding every tool.

use serde_json::{json, Map, Value};

use super::version::ProtocolVersion;

/// One change the projection made to reach the native shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// JSON pointer into the projected Tool value.
    pub pointer: String,
    /// What was changed and why.
    pub message: String,
}

/// The result of projecting one declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct NativeTool {
    /// The MCP `Tool` value.
    pub tool: Value,
    /// The native-shape rewrites that were needed (empty for a well-shaped tool).
    pub repairs: Vec<Repair>,
}

/// Whether the MCP `Tool` type of `version` defines the member `key`.
fn member_defined(key: &str, version: ProtocolVersion) -> bool {
    use ProtocolVersion::*;
    match key {
        "name" | "description" | "inputSchema" => true,
        "annotations" => version >= V2025_03_26,
        "title" | "outputSchema" | "_meta" => version >= V2025_06_18,
        "icons" => version >= V2025_11_25,
        "execution" => version == V2025_11_25,
        _ => false,
    }
}

/// Projects a resolved Tool declaration (`$componentRef`s already substituted) to the
/// native MCP `Tool` value of `version`. The caller decides whether the tool's scope
/// contains `version`.
///
/// ```
/// use mcpdesc::projection::native_tool;
/// use mcpdesc::ProtocolVersion;
/// use serde_json::json;
///
/// let declaration = json!({
///     "name": "echo",
///     "inputSchema": {"$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object"}}},
///     "tags": ["demo"],
///     "x-owner": "me"
/// });
/// let native = native_tool(declaration.as_object().unwrap(), ProtocolVersion::V2025_11_25);
/// assert_eq!(native.tool, json!({
///     "name": "echo",
///     "inputSchema": {"type": "object", "$ref": "#/$defs/Args", "$defs": {"Args": {"type": "object"}}}
/// }));
/// assert_eq!(native.repairs[0].pointer, "/inputSchema");
/// ```
pub fn native_tool(declaration: &Map<String, Value>, version: ProtocolVersion) -> NativeTool {
    let mut repairs = Vec::new();
    let mut tool = Map::new();
    for (key, value) in declaration {
        if !member_defined(key, version) {
            continue;
        }
        let value = match key.as_str() {
            "inputSchema" => native_schema(value, "/inputSchema", version, true, &mut repairs),
            "outputSchema" => {
                let needs_object_root = version < ProtocolVersion::V2026_07_28;
                native_schema(
                    value,
                    "/outputSchema",
                    version,
                    needs_object_root,
                    &mut repairs,
                )
            }
            _ => value.clone(),
        };
        tool.insert(key.clone(), value);
    }
    NativeTool {
        tool: Value::Object(tool),
        repairs,
    }
}

fn native_schema(
    schema: &Value,
    pointer: &str,
    version: ProtocolVersion,
    needs_object_root: bool,
    repairs: &mut Vec<Repair>,
) -> Value {
    let mut map = match schema {
        Value::Object(map) => map.clone(),
        Value::Bool(accepts) if needs_object_root => {
            repairs.push(Repair {
                pointer: pointer.to_owned(),
                message: format!(
                    "the boolean schema `{accepts}` was written as an object schema (the MCP {version} Tool type needs an object root)"
                ),
            });
            let mut map = Map::new();
            if !accepts {
                map.insert("not".into(), json!({}));
            }
            map
        }
        other => return other.clone(),
    };
    if needs_object_root {
        let repaired = match map.get("type") {
            None => Some("added \"type\": \"object\""),
            Some(Value::String(t)) if t == "object" => None,
            Some(Value::Array(types)) if types.iter().any(|t| t == "object") => {
                Some("narrowed the `type` array to \"object\"")
            }
            // Any other `type` makes the description invalid; leave it for the client.
            Some(_) => None,
        };
        if let Some(what) = repaired {
            // Put `type` first, where readers of a tools/list answer expect it.
            let mut ordered = Map::new();
            ordered.insert("type".into(), json!("object"));
            for (k, v) in map {
                if k != "type" {
                    ordered.insert(k, v);
                }
            }
            map = ordered;
            repairs.push(Repair {
                pointer: pointer.to_owned(),
                message: format!("{what} (the MCP {version} Tool type needs an object root)"),
            });
        }
    }
    if version == ProtocolVersion::V2025_11_25 {
        if let Some(Value::Object(properties)) = map.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if let Value::Bool(accepts) = *property {
                    *property = if accepts {
                        json!({})
                    } else {
                        json!({"not": {}})
                    };
                    repairs.push(Repair {
                        pointer: format!("{pointer}/properties/{}", escape(name)),
                        message: format!(
                            "the boolean schema `{accepts}` became {} (the MCP 2025-11-25 Tool type needs object property schemas)",
                            property
                        ),
                    });
                }
            }
        }
    }
    Value::Object(map)
}

/// Escapes one JSON pointer token (RFC 6901).
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use ProtocolVersion::*;

    use super::*;

    fn project(declaration: Value, version: ProtocolVersion) -> NativeTool {
        native_tool(declaration.as_object().unwrap(), version)
    }

    #[test]
    fn members_follow_the_version() {
        let declaration = json!({
            "name": "t", "title": "T", "description": "d",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true},
            "execution": {"taskSupport": "optional"},
            "icons": [{"src": "https://example.invalid/i.png"}],
            "_meta": {"k": 1},
            "examples": {"a": {"input": {}, "result": {"content": []}}},
            "interactionExamples": {}, "tags": ["x"], "security": [], "clientRequirements": {},
            "elicitations": [], "deprecated": true, "protocolVersions": ["2025-11-25"], "x-a": 1
        });
        let keys = |v: ProtocolVersion| -> Vec<String> {
            project(declaration.clone(), v)
                .tool
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect()
        };
        assert_eq!(keys(V2024_11_05), ["name", "description", "inputSchema"]);
        assert_eq!(
            keys(V2025_03_26),
            ["name", "description", "inputSchema", "annotations"]
        );
        assert_eq!(
            keys(V2025_06_18),
            [
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "_meta"
            ]
        );
        assert_eq!(
            keys(V2025_11_25),
            [
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "execution",
                "icons",
                "_meta"
            ]
        );
        assert_eq!(
            keys(V2026_07_28),
            [
                "name",
                "title",
                "description",
                "inputSchema",
                "outputSchema",
                "annotations",
                "icons",
                "_meta"
            ]
        );
        assert!(project(declaration, V2025_11_25).repairs.is_empty());
    }

    #[test]
    fn native_shape_repairs() {
        let declaration = json!({
            "name": "t",
            "inputSchema": {"allOf": [{"properties": {"a": true}}], "properties": {"b": true, "c": false}},
            "outputSchema": {"type": ["object", "null"], "properties": {"n": {"type": "number"}}}
        });
        let native = project(declaration.clone(), V2025_11_25);
        assert_eq!(
            native.tool["inputSchema"],
            json!({"type": "object", "allOf": [{"properties": {"a": true}}], "properties": {"b": {}, "c": {"not": {}}}})
        );
        assert_eq!(native.tool["outputSchema"]["type"], "object");
        let pointers: Vec<&str> = native.repairs.iter().map(|r| r.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/inputSchema",
                "/inputSchema/properties/b",
                "/inputSchema/properties/c",
                "/outputSchema"
            ]
        );

        // 2026-07-28 keeps boolean property schemas and any output root.
        let latest = project(declaration, V2026_07_28);
        assert_eq!(latest.tool["inputSchema"]["properties"]["b"], true);
        assert_eq!(
            latest.tool["outputSchema"]["type"],
            json!(["object", "null"])
        );
        assert_eq!(latest.repairs.len(), 1);
    }

    #[test]
    fn boolean_roots() {
        let native = project(json!({"name": "t", "inputSchema": true}), V2026_07_28);
        assert_eq!(native.tool["inputSchema"], json!({"type": "object"}));
        let native = project(
            json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": false}),
            V2026_07_28,
        );
        assert_eq!(native.tool["outputSchema"], false);
    }
}
