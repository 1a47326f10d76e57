//! What the description says a server lists in one protocol version: the resolved
//! declarations whose scope contains it, each with its native projection (the
//! runtime's, so that `check` expects exactly what a server generated from the
//! description lists).

use mcpdesc::projection::native_tool;
use mcpdesc::prompts::native_prompt;
use mcpdesc::resources::{native_resource, native_resource_template};
use mcpdesc::ProtocolVersion;
use mcpdesc_description::view;
use mcpdesc_description::{Description, VersionSet};
use serde_json::{Map, Value};

/// One declaration served in the version.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    /// Its identity in listings: a tool's or prompt's `name`, a resource's `uri`, a
    /// template's `uriTemplate`.
    pub id: String,
    /// The resolved declaration (`$componentRef`s substituted), examples included.
    pub declaration: Map<String, Value>,
    /// The native MCP value the version lists.
    pub native: Value,
}

impl Declared {
    /// The `tools/call` params of this tool with `arguments`: task-augmented
    /// (`task: {}`) when its declaration requires a task in `version` (MCP
    /// 2025-11-25 `execution.taskSupport: required`), since a plain call of it is
    /// refused.
    pub fn tool_call_params(&self, version: ProtocolVersion, arguments: Value) -> Value {
        let mut params = serde_json::json!({"name": self.id, "arguments": arguments});
        if mcpdesc::TaskSupport::of(&self.declaration, version) == mcpdesc::TaskSupport::Required {
            params["task"] = serde_json::json!({});
        }
        params
    }

    /// A string member of the declaration.
    pub fn text(&self, member: &str) -> Option<&str> {
        self.declaration.get(member).and_then(Value::as_str)
    }

    /// The named examples of `member` (`examples`, `interactionExamples`), sorted by
    /// name.
    pub fn examples(&self, member: &str) -> Vec<(&str, &Value)> {
        let mut list: Vec<(&str, &Value)> = self
            .declaration
            .get(member)
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.as_str(), v))
            .collect();
        list.sort_by(|a, b| a.0.cmp(b.0));
        list
    }

    /// Whether the description annotates the tool `readOnlyHint: true`.
    pub fn read_only(&self) -> bool {
        self.declaration
            .get("annotations")
            .and_then(|a| a.get("readOnlyHint"))
            .and_then(Value::as_bool)
            == Some(true)
    }
}

impl Expected {
    /// Whether a selection item names something of this version: a declaration of
    /// that id or `name` (`example` `None`), or one of its examples, interaction
    /// examples or completion examples.
    pub fn knows(&self, name: &str, example: Option<&str>) -> bool {
        self.tools
            .iter()
            .chain(&self.prompts)
            .chain(&self.resources)
            .chain(&self.templates)
            .filter(|d| d.id == name || d.text("name") == Some(name))
            .any(|d| {
                example.is_none_or(|e| {
                    ["examples", "interactionExamples", "completionExamples"]
                        .iter()
                        .any(|member| d.examples(member).iter().any(|(n, _)| *n == e))
                })
            })
    }
}

/// Every declaration of a description served in one protocol version.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Expected {
    /// The tools, in document order.
    pub tools: Vec<Declared>,
    /// The prompts.
    pub prompts: Vec<Declared>,
    /// The static resources.
    pub resources: Vec<Declared>,
    /// The resource templates.
    pub templates: Vec<Declared>,
}

impl Expected {
    /// The declarations of a **valid** description served in `version` (empty lists
    /// for an invalid one).
    pub fn of(desc: &Description, version: ProtocolVersion) -> Self {
        let (Some(doc), Some(validation)) = (desc.document(), desc.validation.as_ref()) else {
            return Expected::default();
        };
        let root = view::root_versions(doc);
        let resolved = &validation.resolution.value;
        let gather = |array: &str, id: &str, project: &dyn Fn(&Map<String, Value>) -> Value| {
            declarations(resolved, array, root, version)
                .into_iter()
                .map(|declaration| Declared {
                    id: declaration
                        .get(id)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    native: project(&declaration),
                    declaration,
                })
                .collect::<Vec<_>>()
        };
        Expected {
            tools: gather("tools", "name", &|d| native_tool(d, version).tool),
            prompts: gather("prompts", "name", &|d| native_prompt(d, version)),
            resources: gather("resources", "uri", &|d| native_resource(d, version)),
            templates: gather("resourceTemplates", "uriTemplate", &|d| {
                native_resource_template(d, version)
            }),
        }
    }
}

/// The protocol versions a valid description describes (its root `protocolVersions`),
/// in the runtime's spelling, oldest first.
pub fn described_versions(desc: &Description) -> Vec<ProtocolVersion> {
    let Some(doc) = desc.document() else {
        return Vec::new();
    };
    to_runtime(view::root_versions(doc))
}

fn to_runtime(set: VersionSet) -> Vec<ProtocolVersion> {
    set.iter()
        .filter_map(|v| {
            ProtocolVersion::ALL
                .iter()
                .copied()
                .find(|r| r.as_str() == v.as_str())
        })
        .collect()
}

/// The resolved declarations of `array` whose effective scope contains `version`.
fn declarations(
    resolved: &Value,
    array: &str,
    root: VersionSet,
    version: ProtocolVersion,
) -> Vec<Map<String, Value>> {
    resolved
        .get(array)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .filter(|declaration| {
            let declared: Option<Vec<String>> = declaration
                .get("protocolVersions")
                .and_then(|v| serde_json::from_value(v.clone()).ok());
            to_runtime(view::scope_in(declared.as_deref(), root)).contains(&version)
        })
        .cloned()
        .collect()
}
