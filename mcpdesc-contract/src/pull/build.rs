//! The candidate document: the handshake and the listings copied member by member to
//! where the format puts them, with warnings for what has no place.

use std::collections::{BTreeMap, HashMap};

use serde_json::{json, Map, Value};

use super::kinds::{
    is_extension, Kind, CAPABILITY_MEMBERS, INFO_MEMBERS, OPEN_INPUT_SCHEMA,
    PROMPT_ARGUMENT_MEMBERS,
};
use super::observed::Observed;
use super::outcome::{PullWarning, Source};
use crate::migrate::schema_uri;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::source::Limits;
use mcpdesc_description::validate::SpecVersion;

/// The document being built and repaired, with where each declaration came from.
pub(crate) struct Draft {
    pub(crate) value: Value,
    /// Per kind: for each declaration in the document, its index in the listing.
    pub(crate) origins: BTreeMap<Kind, Vec<usize>>,
    pub(crate) warnings: Vec<PullWarning>,
    /// Where the server info is in the handshake result (`/serverInfo`, or the
    /// `server/discover` result's `_meta` entry).
    pub(crate) info_at: Pointer,
}

impl Draft {
    pub(crate) fn warn(
        &mut self,
        source: Source,
        pointer: Pointer,
        code: &'static str,
        message: impl Into<String>,
    ) {
        self.warnings
            .push(PullWarning::new(source, pointer, code, message));
    }
}

/// How deep a declaration may nest inside the document: the loader's default limit, so
/// that the written file can be read back (and the validator never meets a value
/// deeper than a loaded document can be).
fn max_depth() -> usize {
    Limits::default().max_depth
}

/// The candidate document of `observed` (not yet validated).
pub(crate) fn build(observed: &Observed) -> Draft {
    let mut draft = Draft {
        value: Value::Null,
        origins: BTreeMap::new(),
        warnings: Vec::new(),
        info_at: Pointer::root().key("serverInfo"),
    };
    let mut root = Map::new();
    root.insert("$schema".to_owned(), json!(schema_uri(SpecVersion::V0_9_0)));
    root.insert("mcpdesc".to_owned(), json!("0.9.0"));
    root.insert("info".to_owned(), info(&mut draft, &observed.handshake));
    root.insert(
        "protocolVersions".to_owned(),
        json!([observed.protocol_version.as_str()]),
    );
    match observed.handshake.get("instructions") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => {
            root.insert("instructions".to_owned(), json!(text));
        }
        Some(other) => draft.warn(
            Source::Handshake,
            Pointer::root().key("instructions"),
            "invalid-member",
            format!(
                "`instructions` is {}, not a string; dropped",
                json_type(other)
            ),
        ),
    }
    if let Some(capabilities) = capabilities(&mut draft, &observed.handshake) {
        root.insert("capabilities".to_owned(), json!([capabilities]));
    }
    for kind in Kind::ALL {
        let Some(items) = observed.items(kind) else {
            continue;
        };
        let (declarations, origins) = declarations(&mut draft, kind, items);
        if !declarations.is_empty() {
            root.insert(kind.collection().to_owned(), Value::Array(declarations));
            draft.origins.insert(kind, origins);
        }
    }
    draft.value = Value::Object(root);
    draft
}

/// Where MCP 2026-07-28 puts the server's `Implementation` in the `server/discover`
/// result: its `_meta`.
const DISCOVER_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The Info Object from `serverInfo` (the `initialize` result's, or the
/// `server/discover` result's `_meta` entry).
fn info(draft: &mut Draft, handshake: &Value) -> Value {
    let in_meta = handshake.get("serverInfo").is_none()
        && handshake
            .get("_meta")
            .and_then(|m| m.get(DISCOVER_SERVER_INFO))
            .is_some();
    let (at, found) = if in_meta {
        (
            Pointer::root().key("_meta").key(DISCOVER_SERVER_INFO),
            handshake
                .get("_meta")
                .and_then(|m| m.get(DISCOVER_SERVER_INFO)),
        )
    } else {
        (
            Pointer::root().key("serverInfo"),
            handshake.get("serverInfo"),
        )
    };
    draft.info_at = at.clone();
    let server_info = match found {
        Some(Value::Object(map)) => map.clone(),
        other => {
            if other.is_some() {
                draft.warn(
                    Source::Handshake,
                    at.clone(),
                    "invalid-member",
                    "server info: `serverInfo` is not an object; ignored",
                );
            }
            Map::new()
        }
    };
    let mut info = keep_members(
        draft,
        &server_info,
        INFO_MEMBERS,
        false,
        Source::Handshake,
        &at,
        "server info",
    );
    // `name` and `version` are required in both MCP and the format; say so rather
    // than leave the description invalid.
    for member in ["name", "version"] {
        let usable = matches!(info.get(member), Some(Value::String(s)) if !s.is_empty());
        if !usable {
            draft.warn(
                Source::Handshake,
                at.key(member),
                "missing-server-info",
                format!(
                    "server info: `serverInfo.{member}` is missing, empty or not a string; written as \"unknown\" (replace it)"
                ),
            );
            info.insert(member.to_owned(), json!("unknown"));
        }
    }
    // Required members first, as authors write them.
    let mut ordered = Map::new();
    for member in ["name", "version"] {
        if let Some(v) = info.shift_remove(member) {
            ordered.insert(member.to_owned(), v);
        }
    }
    ordered.extend(info);
    Value::Object(ordered)
}

/// The Capabilities Object from the server's `capabilities` (`None` when it declares
/// nothing the format has a place for).
fn capabilities(draft: &mut Draft, handshake: &Value) -> Option<Value> {
    let at = Pointer::root().key("capabilities");
    let map = match handshake.get("capabilities") {
        Some(Value::Object(map)) => map,
        None | Some(Value::Null) => return None,
        Some(other) => {
            draft.warn(
                Source::Handshake,
                at,
                "invalid-member",
                format!(
                    "capabilities: `capabilities` is {}, not an object; ignored",
                    json_type(other)
                ),
            );
            return None;
        }
    };
    // x-* is allowed on a Capabilities Object, but MCP capabilities have no such
    // members; an `x-` key from a server is kept like any extension.
    let kept = keep_members(
        draft,
        map,
        CAPABILITY_MEMBERS,
        true,
        Source::Handshake,
        &at,
        "capabilities",
    );
    (!kept.is_empty()).then_some(Value::Object(kept))
}

/// The declarations of one listing and, for each, its index in the listing.
fn declarations(draft: &mut Draft, kind: Kind, items: &[Value]) -> (Vec<Value>, Vec<usize>) {
    let source = Source::Listing(kind);
    let base = Pointer::root().key(kind.collection());
    let identity = kind.identity();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    let mut origins = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let at = base.index(index);
        let Value::Object(map) = item else {
            draft.warn(
                source,
                at,
                "not-an-object",
                format!(
                    "{} {index} of the listing is {}, not an object; dropped",
                    kind.label(),
                    json_type(item)
                ),
            );
            continue;
        };
        let id = match map.get(identity) {
            Some(Value::String(id)) if !id.is_empty() => id.clone(),
            _ => {
                draft.warn(
                    source,
                    at.key(identity),
                    "missing-identity",
                    format!(
                        "{} {index} of the listing has no `{identity}` string; dropped",
                        kind.label()
                    ),
                );
                continue;
            }
        };
        let label = format!("{} {}", kind.label(), quoted(&id));
        if let Some(first) = seen.get(&id) {
            draft.warn(
                source,
                at,
                "duplicate",
                format!(
                    "{label} is listed again (first at {}); only the first is kept",
                    base.index(*first)
                ),
            );
            continue;
        }
        // Two levels above the item in the document: the root and the collection.
        if depth(item) + 2 > max_depth() {
            draft.warn(
                source,
                at,
                "too-deep",
                format!(
                    "{label} nests deeper than {} levels in the description; dropped",
                    max_depth()
                ),
            );
            continue;
        }
        seen.insert(id, index);
        let mut declaration = keep_members(draft, map, kind.members(), true, source, &at, &label);
        match kind {
            Kind::Tool => tool_schemas(draft, &mut declaration, &at, &label),
            Kind::Prompt => prompt_arguments(draft, &mut declaration, &at, &label),
            Kind::Resource | Kind::ResourceTemplate => {}
        }
        out.push(Value::Object(declaration));
        origins.push(index);
    }
    (out, origins)
}

/// A Tool's schemas: a missing or non-object `inputSchema` is replaced by the open
/// schema; an `outputSchema` that is not an object schema is dropped (MCP requires
/// `"type": "object"` at its root).
fn tool_schemas(draft: &mut Draft, tool: &mut Map<String, Value>, at: &Pointer, label: &str) {
    let open: Value = serde_json::from_str(OPEN_INPUT_SCHEMA).unwrap_or_default();
    match tool.get("inputSchema") {
        Some(Value::Object(_)) => {}
        other => {
            let what = other.map_or("missing".to_owned(), |v| json_type(v).to_owned());
            draft.warn(
                Source::Listing(Kind::Tool),
                at.key("inputSchema"),
                "input-schema-replaced",
                format!(
                    "{label}: `inputSchema` is {what}, not a schema object; written as {OPEN_INPUT_SCHEMA} (arguments unspecified)"
                ),
            );
            tool.insert("inputSchema".to_owned(), open);
        }
    }
    let object_type = |t: &Value| match t {
        Value::String(s) => s == "object",
        Value::Array(types) => types.iter().any(|t| t == "object"),
        _ => false,
    };
    let problem = match tool.get("outputSchema") {
        None => None,
        Some(Value::Object(schema)) => match schema.get("type") {
            Some(t) if !object_type(t) => Some(format!("of type {t}")),
            _ => None,
        },
        Some(other) => Some(json_type(other).to_owned()),
    };
    if let Some(problem) = problem {
        tool.shift_remove("outputSchema");
        draft.warn(
            Source::Listing(Kind::Tool),
            at.key("outputSchema"),
            "output-schema-not-object",
            format!("{label}: `outputSchema` is {problem}, not an object schema; dropped"),
        );
    }
}

/// A Prompt's arguments keep only the members a Prompt Argument has.
fn prompt_arguments(draft: &mut Draft, prompt: &mut Map<String, Value>, at: &Pointer, label: &str) {
    let Some(Value::Array(arguments)) = prompt.get_mut("arguments") else {
        return;
    };
    let mut kept = Vec::new();
    for (i, argument) in std::mem::take(arguments).into_iter().enumerate() {
        let arg_at = at.key("arguments").index(i);
        match argument {
            Value::Object(map) => {
                let name = map.get("name").and_then(Value::as_str).unwrap_or("?");
                let arg_label = format!("{label}, argument {}", quoted(name));
                let source = Source::Listing(Kind::Prompt);
                let argument = keep_members(
                    draft,
                    &map,
                    PROMPT_ARGUMENT_MEMBERS,
                    true,
                    source,
                    &arg_at,
                    &arg_label,
                );
                kept.push(Value::Object(argument));
            }
            other => {
                // Left for the validator, which names the problem.
                kept.push(other);
            }
        }
    }
    if let Some(Value::Array(arguments)) = prompt.get_mut("arguments") {
        *arguments = kept;
    }
}

/// The members of `map` named in `members` (and `x-*` ones when `extensions`), in the
/// server's order; a warning for each other member.
fn keep_members(
    draft: &mut Draft,
    map: &Map<String, Value>,
    members: &[&str],
    extensions: bool,
    source: Source,
    at: &Pointer,
    label: &str,
) -> Map<String, Value> {
    let mut kept = Map::new();
    for (key, value) in map {
        if members.contains(&key.as_str()) || (extensions && is_extension(key)) {
            kept.insert(key.clone(), value.clone());
        } else {
            draft.warn(
                source,
                at.key(key),
                "unknown-member",
                format!("{label}: member `{key}` has no place in an MCP Description; dropped"),
            );
        }
    }
    kept
}

/// The nesting depth of a value (a scalar is 1), without recursion.
fn depth(value: &Value) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(value, 1usize)];
    while let Some((value, level)) = stack.pop() {
        deepest = deepest.max(level);
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, level + 1))),
            Value::Object(map) => stack.extend(map.values().map(|v| (v, level + 1))),
            _ => {}
        }
    }
    deepest
}

/// A JSON type name for messages.
pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A name in messages: JSON-quoted, so that odd characters stay visible.
pub(crate) fn quoted(text: &str) -> String {
    Value::String(text.to_owned()).to_string()
}
