//! Checks of a Tool's `inputSchema` and `outputSchema` (spec §9.2): root shape per
//! protocol version, the dialect set, validity in the dialect, the pre-2025-11-25
//! legacy shape, native-shape warnings, external references and `x-mcp-header`.

use std::collections::HashMap;

use jsonschema::Validator;
use serde_json::Value;

use super::keywords::misspelled_keywords;
use super::nested_refs::component_refs_inside;
use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::rules;
use crate::validate::cx::{display_path, Cx};
use crate::validate::dialect::{self, Dialect};

use ProtocolVersion::*;

/// Which of the two Tool schemas is being checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// `inputSchema`.
    Input,
    /// `outputSchema`.
    Output,
}

impl Which {
    fn member(self) -> &'static str {
        match self {
            Which::Input => "inputSchema",
            Which::Output => "outputSchema",
        }
    }
}

/// What example checks need to know about a schema once it has been checked.
pub struct Evaluation {
    /// The compiled schema, when the schema can be evaluated completely.
    pub validator: Option<Validator>,
    /// Why evaluation is incomplete, when it is (external references, invalid schema,
    /// or a scope with no defined dialect).
    pub incomplete: Option<String>,
    /// Whether example checks should warn that their validation is incomplete (not when
    /// the schema itself is already reported as broken).
    pub warn: bool,
}

impl Evaluation {
    fn broken(reason: &str) -> Self {
        Evaluation {
            validator: None,
            incomplete: Some(reason.to_owned()),
            warn: false,
        }
    }

    fn partial(reason: String) -> Self {
        Evaluation {
            validator: None,
            incomplete: Some(reason),
            warn: true,
        }
    }
}

/// The versions whose MCP Tool schema has a defined dialect (2020-12 by default).
fn dialect_versions() -> VersionSet {
    VersionSet::since(V2025_11_25)
}

/// Checks one schema of a tool and prepares it for example validation.
pub fn check(
    cx: &mut Cx<'_>,
    tool_at: &Pointer,
    which: Which,
    schema: &Value,
    scope: VersionSet,
) -> Evaluation {
    let at = tool_at.key(which.member());
    if crate::validate::refs::is_reference(schema) {
        // An unresolvable reference was reported during resolution.
        return Evaluation::broken("the schema reference could not be resolved");
    }
    if !schema.is_object() {
        // Structural validation already reported it.
        return Evaluation::broken("the schema is not an object");
    }
    root_shape(cx, &at, which, schema, scope);
    misspelled_keywords(cx, &at, schema);
    component_refs_inside(cx, &at, schema);
    if !scope.intersect(VersionSet::before(V2025_11_25)).is_empty() {
        legacy_shape(cx, &at, schema, scope);
    }
    if schema.get("$schema").is_some() {
        cx.field_versions(&at.key("$schema"), "$schema", scope, dialect_versions());
    }
    if which == Which::Input {
        mcp_headers(cx, &at, schema, scope);
    }

    let modern = scope.intersect(dialect_versions());
    let external = dialect::external_refs(schema);
    for (ptr, target) in &external {
        cx.warning(
            rules::TOOL_SCHEMA_VALID,
            "unresolved-external-tool-schema-reference",
            &at_inside(&at, ptr),
            format!(
                "{} references {target:?}, which is outside this document and is never fetched; the reference is preserved, but validation of this schema and of examples against it is incomplete",
                display_path(&at_inside(&at, ptr).parent().unwrap_or_default())
            ),
        );
    }
    if modern.is_empty() {
        // No dialect is defined before 2025-11-25; a schema that means the same in every
        // draft is still evaluated completely (§9.1 warns only when that is impossible).
        if external.is_empty() && super::portable::is_portable(schema) {
            if let Ok(validator) = dialect::compile(schema, Dialect::Draft202012) {
                return Evaluation {
                    validator: Some(validator),
                    incomplete: None,
                    warn: false,
                };
            }
        }
        return Evaluation::partial(format!(
            "{scope} define no embedded-schema dialect, so only the legacy shape and `required` are checked"
        ));
    }
    let dialect = match Dialect::declared(schema) {
        Ok(d) => d.unwrap_or(Dialect::Draft202012),
        Err(declared) => {
            cx.error(
                rules::TOOL_SCHEMA_VALID,
                "unsupported-tool-schema-dialect",
                &at.key("$schema"),
                format!(
                    "{}.$schema declares the dialect {declared}; a Tool schema may declare only JSON Schema 2020-12 (https://json-schema.org/draft/2020-12/schema) or draft-07 (http://json-schema.org/draft-07/schema#)",
                    display_path(&at)
                ),
            );
            return Evaluation::broken("the schema declares an unsupported dialect");
        }
    };
    let problems = dialect::problems(schema, dialect, !external.is_empty());
    for p in &problems {
        let ptr = at_inside(&at, &p.at);
        cx.error(
            rules::TOOL_SCHEMA_VALID,
            "invalid-tool-schema",
            &ptr,
            format!(
                "{} is not a valid {} schema (required for {modern}): {}",
                display_path(&at),
                dialect.name(),
                p.message
            ),
        );
    }
    if !problems.is_empty() {
        return Evaluation::broken("the schema is invalid");
    }
    if !external.is_empty() {
        return Evaluation::partial(
            "the schema has external references, which are never fetched".into(),
        );
    }
    match dialect::compile(schema, dialect) {
        Ok(validator) => Evaluation {
            validator: Some(validator),
            incomplete: None,
            warn: false,
        },
        Err(message) => {
            cx.error(
                rules::TOOL_SCHEMA_VALID,
                "invalid-tool-schema",
                &at,
                format!(
                    "{} cannot be compiled as a {} schema: {message}",
                    display_path(&at),
                    dialect.name()
                ),
            );
            Evaluation::broken("the schema is invalid")
        }
    }
}

/// A pointer inside a schema, re-rooted at the schema's place in the document.
pub fn at_inside(schema_at: &Pointer, inner: &Pointer) -> Pointer {
    Pointer::parse(&format!("{}{}", schema_at.as_str(), inner.as_str()))
        .unwrap_or_else(|| schema_at.clone())
}

/// The root `type` of a schema as a list of names (`None` when `type` is absent).
fn root_types(schema: &Value) -> Option<Vec<&str>> {
    match schema.get("type")? {
        Value::String(s) => Some(vec![s.as_str()]),
        Value::Array(items) => Some(items.iter().filter_map(Value::as_str).collect()),
        _ => Some(Vec::new()),
    }
}

/// Object-root rules (errors) and the native-shape root restriction (warnings).
fn root_shape(cx: &mut Cx<'_>, at: &Pointer, which: Which, schema: &Value, scope: VersionSet) {
    let path = display_path(at);
    let types = root_types(schema);
    let declares_object = types.as_ref().map(|t| t.contains(&"object"));
    let exactly_object = schema.get("type").and_then(Value::as_str) == Some("object");
    let (rule, requires_declared, object_until) = match which {
        // 0.9.0: a declared type must include "object"; before 2025-11-25 the root must
        // declare "type": "object". 0.8.0 required the declaration in every version.
        Which::Input => (
            rules::TOOL_INPUT_SCHEMA_OBJECT_ROOT,
            if cx.is_0_9() {
                VersionSet::before(V2025_11_25)
            } else {
                VersionSet::all()
            },
            VersionSet::all(),
        ),
        // 2025-06-18 must declare "type": "object"; 2025-11-25 must describe an object;
        // 2026-07-28 allows any root.
        Which::Output => (
            rules::TOOL_OUTPUT_SCHEMA_OBJECT_ROOT,
            if cx.is_0_9() {
                VersionSet::before(V2025_11_25)
            } else {
                VersionSet::before(V2026_07_28)
            },
            VersionSet::before(V2026_07_28),
        ),
    };
    let object_scope = scope.intersect(object_until);
    let code = match which {
        Which::Input => "tool-input-schema-not-object",
        Which::Output => "tool-output-schema-not-object",
    };
    if declares_object == Some(false) && !object_scope.is_empty() {
        cx.error(
            rule,
            code,
            &at.key("type"),
            format!("{path} must describe an object for {object_scope}, so a declared `type` must be \"object\" or an array containing \"object\""),
        );
    } else if declares_object.is_none() {
        let needs = scope.intersect(requires_declared);
        if !needs.is_empty() {
            cx.error(
                rule,
                code,
                at,
                format!("{path} must declare \"type\": \"object\" at its root for {needs}"),
            );
        }
    }
    // The MCP Tool type of 2025-11-25 and 2026-07-28 requires "type": "object" at the
    // inputSchema root; 2025-11-25 also at the outputSchema root.
    let native = match which {
        Which::Input => VersionSet::since(V2025_11_25),
        Which::Output => VersionSet::only(V2025_11_25),
    }
    .intersect(scope);
    if !native.is_empty() && !exactly_object && declares_object != Some(false) {
        cx.warning(
            rules::TOOL_SCHEMA_NATIVE_SHAPE,
            "tool-schema-native-shape",
            at,
            format!(
                "{path} is valid in its dialect, but the MCP Tool type of {native} requires \"type\": \"object\" at its root, so native tools/list projection fails for those versions; add \"type\": \"object\" beside the root keywords or narrow protocolVersions"
            ),
        );
    }
    // 2025-11-25 also requires every top-level `properties` value to be an object.
    let native_props = VersionSet::only(V2025_11_25).intersect(scope);
    if let (false, Some(props)) = (
        native_props.is_empty(),
        schema.get("properties").and_then(Value::as_object),
    ) {
        for (name, sub) in props {
            if let Value::Bool(b) = sub {
                let p = at.key("properties").key(name);
                let fix = if *b { "{}" } else { "{ \"not\": {} }" };
                cx.warning(
                    rules::TOOL_SCHEMA_NATIVE_SHAPE,
                    "tool-schema-native-shape",
                    &p,
                    format!(
                        "{} is the boolean schema {b}; the MCP Tool type of {native_props} requires an object there, so native projection fails for that version; write {fix} instead",
                        display_path(&p)
                    ),
                );
            }
        }
    }
}

/// The shape MCP versions before 2025-11-25 define for Tool schemas: `properties` an
/// object of objects, `required` an array of strings. Other keywords are preserved and
/// not judged by any inferred meta-schema.
fn legacy_shape(cx: &mut Cx<'_>, at: &Pointer, schema: &Value, scope: VersionSet) {
    let legacy = scope.intersect(VersionSet::before(V2025_11_25));
    if let Some(props) = schema.get("properties") {
        match props.as_object() {
            None => cx.error(
                rules::TOOL_SCHEMA_LEGACY_SHAPE,
                "invalid-legacy-tool-schema-shape",
                &at.key("properties"),
                format!(
                    "{}.properties must be an object for {legacy}",
                    display_path(at)
                ),
            ),
            Some(map) => {
                for (name, sub) in map {
                    if !sub.is_object() {
                        let p = at.key("properties").key(name);
                        cx.error(
                            rules::TOOL_SCHEMA_LEGACY_SHAPE,
                            "invalid-legacy-tool-schema-shape",
                            &p,
                            format!("{} must be an object schema for {legacy}", display_path(&p)),
                        );
                    }
                }
            }
        }
    }
    if let Some(required) = schema.get("required") {
        let ok = required
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_string));
        if !ok {
            cx.error(
                rules::TOOL_SCHEMA_LEGACY_SHAPE,
                "invalid-legacy-tool-schema-shape",
                &at.key("required"),
                format!(
                    "{}.required must be an array of strings for {legacy}",
                    display_path(at)
                ),
            );
        }
    }
}

/// `x-mcp-header` (2026-07-28): placement, value, type and case-insensitive uniqueness.
fn mcp_headers(cx: &mut Cx<'_>, at: &Pointer, schema: &Value, scope: VersionSet) {
    let mut found: Vec<(Pointer, Pointer, &Value)> = Vec::new();
    collect_headers(schema, &Pointer::root(), &mut found);
    if found.is_empty() {
        return;
    }
    let mut seen: HashMap<String, Pointer> = HashMap::new();
    for (inner_prop, inner_value_at, value) in found {
        let prop_at = at_inside(at, &inner_prop);
        let value_at = at_inside(at, &inner_value_at);
        cx.field_versions(
            &value_at,
            "x-mcp-header",
            scope,
            VersionSet::only(V2026_07_28),
        );
        let path = display_path(&prop_at);
        if !reachable_through_properties(&inner_prop) {
            cx.error(
                rules::TOOL_INPUT_SCHEMA_X_MCP_HEADER,
                "invalid-x-mcp-header",
                &value_at,
                format!("{path} carries x-mcp-header, but the annotation is allowed only on a property reached from the schema root through `properties` alone (not through arrays, composition, conditionals, definitions or $ref)"),
            );
            continue;
        }
        let Some(name) = value.as_str().filter(|n| is_http_token(n)) else {
            cx.error(
                rules::TOOL_INPUT_SCHEMA_X_MCP_HEADER,
                "invalid-x-mcp-header",
                &value_at,
                format!("{path}.x-mcp-header is {value}, which is not a non-empty HTTP field-name token"),
            );
            continue;
        };
        let prop = schema.pointer(inner_prop.as_str());
        let ty = prop.and_then(|p| p.get("type")).and_then(Value::as_str);
        if !matches!(ty, Some("string" | "integer" | "boolean")) {
            cx.error(
                rules::TOOL_INPUT_SCHEMA_X_MCP_HEADER,
                "invalid-x-mcp-header",
                &value_at,
                format!("{path} carries x-mcp-header, which is allowed only on a property of type string, integer or boolean"),
            );
        }
        let key = name.to_ascii_lowercase();
        if let Some(first) = seen.get(&key) {
            cx.error(
                rules::TOOL_INPUT_SCHEMA_X_MCP_HEADER,
                "duplicate-x-mcp-header",
                &value_at,
                format!("{path}.x-mcp-header {name:?} repeats the header of {} (header names are compared case-insensitively)", display_path(first)),
            );
        } else {
            seen.insert(key, prop_at);
        }
    }
}

fn collect_headers<'v>(
    value: &'v Value,
    at: &Pointer,
    out: &mut Vec<(Pointer, Pointer, &'v Value)>,
) {
    dialect::walk(value, at, &mut |p, node| {
        if let Some(v) = node.get("x-mcp-header") {
            out.push((p.clone(), p.key("x-mcp-header"), v));
        }
    });
}

/// Whether a pointer inside a schema is `/properties/a/properties/b/...` only.
fn reachable_through_properties(at: &Pointer) -> bool {
    let segments: Vec<String> = at.segments().collect();
    !segments.is_empty()
        && segments.len().is_multiple_of(2)
        && segments.chunks(2).all(|pair| pair[0] == "properties")
}

/// RFC 9110 `token`: `1*tchar`.
fn is_http_token(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'!' | b'#'
                        | b'$'
                        | b'%'
                        | b'&'
                        | b'\''
                        | b'*'
                        | b'+'
                        | b'-'
                        | b'.'
                        | b'^'
                        | b'_'
                        | b'`'
                        | b'|'
                        | b'~'
                )
        })
}
