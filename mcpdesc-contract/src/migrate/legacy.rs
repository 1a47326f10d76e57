//! The 0.7 → 0.8 rewrite, step by step as the migration guide's "Recommended algorithm"
//! lists it: format version and `$schema`, `info.protocolVersion` → root
//! `protocolVersions`, the Capabilities Object wrapped in an array, Tools without
//! `inputSchema` sent to the author, inline security schemes named, and empty ordinary
//! collections removed. Everything else is copied unchanged, in its original order.

use serde_json::{Map, Value};

use super::migration::{schema_uri, Options};
use super::run::{brief, Run};
use super::security::Schemes;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::ProtocolVersion;

/// The root collections that 0.8.0 requires to be non-empty when present (guide:
/// "Remove any empty ordinary declaration property rather than inserting a
/// placeholder"). `securitySchemes` and `capabilities` are produced by the migration.
const ROOT_COLLECTIONS: [&str; 6] = [
    "transports",
    "tools",
    "resources",
    "resourceTemplates",
    "prompts",
    "tags",
];

/// The primitive arrays and the per-item collections they may hold.
const PRIMITIVES: [&str; 4] = ["tools", "resources", "resourceTemplates", "prompts"];

/// Rewrites a 0.7 document as 0.8.0 (`mcpdesc` and `$schema` name the final target
/// directly, so a 0.9.0 migration reports each of them once).
pub(super) fn to_0_8(run: &mut Run<'_>, input: &Value, options: &Options) -> Value {
    let Some(root) = input.as_object() else {
        run.author(
            "not-an-object",
            &Pointer::root(),
            "the document root is not an object",
        );
        return input.clone();
    };
    let versions = protocol_versions(run, root, options);
    let schemes = Schemes::collect(run, root);
    let mut out = Map::new();
    let mut schemes_written = false;
    let here = Pointer::root();

    for (key, value) in root {
        let at = here.key(key);
        match key.as_str() {
            "$schema" => {
                let uri = schema_uri(options.target);
                out.insert(key.clone(), Value::String(uri.to_owned()));
                run.change(
                    Some(at.clone()),
                    Some(at),
                    format!(
                        "$schema {} replaced by the {} schema {uri}",
                        brief(value),
                        options.target.as_str()
                    ),
                );
            }
            "mcpdesc" => {
                let target = options.target.as_str();
                out.insert(key.clone(), Value::String(target.to_owned()));
                run.change(
                    Some(at.clone()),
                    Some(at),
                    format!("mcpdesc {} set to {target:?}", brief(value)),
                );
            }
            "info" => {
                out.insert(key.clone(), info(run, value, &at));
                if let Some(list) = versions.clone() {
                    out.insert("protocolVersions".to_owned(), list);
                }
            }
            "security" => {
                if !schemes.is_empty() && !schemes_written {
                    out.insert("securitySchemes".to_owned(), schemes.to_value());
                    schemes_written = true;
                }
                out.insert(key.clone(), schemes.requirements(run, value, &at));
            }
            "capabilities" => {
                out.insert(key.clone(), capabilities(run, value, &at));
            }
            "transports" if is_empty_array(value) => {
                run.change(
                    Some(at),
                    None,
                    "empty transports removed (0.8.0 omits a collection instead of leaving it empty; omission declares no transport)",
                );
            }
            "transports" => {
                out.insert(key.clone(), transports(run, value, &at, &schemes));
                if !schemes.is_empty() && !schemes_written && !root.contains_key("security") {
                    out.insert("securitySchemes".to_owned(), schemes.to_value());
                    schemes_written = true;
                }
            }
            k if ROOT_COLLECTIONS.contains(&k) && is_empty_array(value) => {
                run.change(
                    Some(at),
                    None,
                    format!(
                        "empty {k} removed (0.8.0 omits a collection instead of leaving it empty)"
                    ),
                );
            }
            k if PRIMITIVES.contains(&k) => {
                out.insert(key.clone(), primitives(run, k, value, &at));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    if !root.contains_key("info") {
        if let Some(list) = versions {
            out.insert("protocolVersions".to_owned(), list);
        }
    }
    if !schemes.is_empty() && !schemes_written {
        out.insert("securitySchemes".to_owned(), schemes.to_value());
    }
    Value::Object(out)
}

/// The root `protocolVersions` of the output: `--protocol-version`, else the moved
/// `info.protocolVersion`. `None` when neither gives a known version (a place for the
/// author: the guide forbids inventing one).
fn protocol_versions(
    run: &mut Run<'_>,
    root: &Map<String, Value>,
    options: &Options,
) -> Option<Value> {
    let info_at = Pointer::root().key("info");
    let declared_at = info_at.key("protocolVersion");
    let declared = root.get("info").and_then(|i| i.get("protocolVersion"));
    let to = Pointer::root().key("protocolVersions");
    let version = match (options.protocol_version, declared) {
        (Some(v), None) => {
            run.change(
                None,
                Some(to.clone()),
                format!("protocolVersions set to [{v:?}] from --protocol-version (the 0.7 document has no info.protocolVersion)", v = v.as_str()),
            );
            run.moved(to.clone(), info_at);
            v
        }
        (Some(v), Some(d)) => {
            if d.as_str() != Some(v.as_str()) {
                run.warn(
                    "protocol-version-overridden",
                    &declared_at,
                    format!(
                        "info.protocolVersion is {}, but --protocol-version {v} was given; the migrated document describes {v}",
                        brief(d)
                    ),
                );
            }
            run.change(
                Some(declared_at.clone()),
                Some(to.clone()),
                format!(
                    "info.protocolVersion moved to root protocolVersions [{:?}]",
                    v.as_str()
                ),
            );
            run.moved(to.clone(), declared_at);
            v
        }
        (None, Some(d)) => match d.as_str().and_then(ProtocolVersion::parse) {
            Some(v) => {
                run.change(
                    Some(declared_at.clone()),
                    Some(to.clone()),
                    format!(
                        "info.protocolVersion moved to root protocolVersions [{:?}]",
                        v.as_str()
                    ),
                );
                run.moved(to.clone(), declared_at);
                v
            }
            None => {
                let known: Vec<&str> = ProtocolVersion::ALL.iter().map(|v| v.as_str()).collect();
                run.author(
                    "no-protocol-version",
                    &declared_at,
                    format!(
                        "info.protocolVersion is {}, which is not an MCP protocol version MCP Description 0.8.0 supports ({}); give the version the server implements with --protocol-version",
                        brief(d),
                        known.join(", ")
                    ),
                );
                return None;
            }
        },
        (None, None) => {
            run.author(
                "no-protocol-version",
                &info_at,
                "the document does not say which MCP protocol version it describes (info.protocolVersion is absent), and 0.8.0 requires root protocolVersions; the migration never guesses one: give it with --protocol-version",
            );
            return None;
        }
    };
    run.root_version = Some(version);
    Some(Value::Array(vec![Value::String(
        version.as_str().to_owned(),
    )]))
}

/// The Info Object without `protocolVersion` (moved to the root) and without empty
/// `icons`.
fn info(run: &mut Run<'_>, value: &Value, at: &Pointer) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    let mut out = Map::new();
    for (key, member) in map {
        match key.as_str() {
            "protocolVersion" => {}
            "icons" if is_empty_array(member) => {
                run.change(Some(at.key(key)), None, "empty info.icons removed");
            }
            _ => {
                out.insert(key.clone(), member.clone());
            }
        }
    }
    Value::Object(out)
}

/// Transports with their inline security replaced by requirements.
fn transports(run: &mut Run<'_>, value: &Value, at: &Pointer, schemes: &Schemes) -> Value {
    let Some(items) = value.as_array() else {
        return value.clone();
    };
    let converted = items
        .iter()
        .enumerate()
        .map(|(index, transport)| {
            let t_at = at.index(index);
            let Some(map) = transport.as_object() else {
                return transport.clone();
            };
            let mut out = Map::new();
            for (key, member) in map {
                if key == "security" {
                    out.insert(
                        key.clone(),
                        schemes.requirements(run, member, &t_at.key(key)),
                    );
                } else {
                    out.insert(key.clone(), member.clone());
                }
            }
            Value::Object(out)
        })
        .collect();
    Value::Array(converted)
}

/// The members a 0.8.0 Capabilities Object defines, with the members each nested
/// object may have (`None`: any object value).
const CAPABILITY_MEMBERS: [(&str, Option<&[&str]>); 8] = [
    ("tools", Some(&["listChanged"])),
    ("prompts", Some(&["listChanged"])),
    ("resources", Some(&["listChanged", "subscribe"])),
    ("completions", None),
    ("logging", None),
    ("experimental", None),
    ("extensions", None),
    ("tasks", Some(&["list", "cancel", "requests"])),
];

/// The 0.7 Capabilities Object, wrapped in a one-item array (guide: "Wrap a present root
/// Capabilities Object in an array"). 0.7 allowed any member; 0.8.0 closes the object,
/// so members it does not define are dropped with a warning (never moved into
/// `experimental`, `_meta` or `x-*`, which would change their meaning).
fn capabilities(run: &mut Run<'_>, value: &Value, at: &Pointer) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    let out_at = at.index(0);
    run.moved(out_at.clone(), at.clone());
    let mut out = Map::new();
    for (key, member) in map {
        let m_at = at.key(key);
        if key.starts_with("x-") {
            out.insert(key.clone(), member.clone());
            continue;
        }
        let Some((_, nested)) = CAPABILITY_MEMBERS.iter().find(|(name, _)| name == key) else {
            run.warn(
                "capability-not-carried",
                &m_at,
                format!(
                    "capabilities.{key} is not a capability MCP Description 0.8.0 defines, so it was not carried over (its value was {}); if it is an experimental capability, declare it under capabilities[0].experimental yourself",
                    brief(member)
                ),
            );
            continue;
        };
        match (nested, member.as_object()) {
            (Some(allowed), Some(inner)) => {
                let mut kept = Map::new();
                for (name, v) in inner {
                    if allowed.contains(&name.as_str())
                        || (key != "tasks" && name.starts_with("x-"))
                    {
                        kept.insert(name.clone(), v.clone());
                    } else {
                        run.warn(
                            "capability-not-carried",
                            &m_at.key(name),
                            format!(
                                "capabilities.{key}.{name} is not defined by MCP Description 0.8.0, so it was not carried over (its value was {})",
                                brief(v)
                            ),
                        );
                    }
                }
                out.insert(key.clone(), Value::Object(kept));
            }
            _ => {
                out.insert(key.clone(), member.clone());
            }
        }
    }
    run.change(
        Some(at.clone()),
        Some(out_at),
        "the Capabilities Object is wrapped in a one-item capabilities array",
    );
    Value::Array(vec![Value::Object(out)])
}

/// One primitive array (`tools`, `resources`, `resourceTemplates`, `prompts`).
fn primitives(run: &mut Run<'_>, kind: &str, value: &Value, at: &Pointer) -> Value {
    let Some(items) = value.as_array() else {
        return value.clone();
    };
    let converted = items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let p_at = at.index(index);
            match item.as_object() {
                Some(map) => Value::Object(primitive(run, kind, map, &p_at)),
                None => item.clone(),
            }
        })
        .collect();
    Value::Array(converted)
}

fn primitive(
    run: &mut Run<'_>,
    kind: &str,
    map: &Map<String, Value>,
    at: &Pointer,
) -> Map<String, Value> {
    let label = label(kind, map, at);
    if kind == "tools" && !map.contains_key("inputSchema") {
        run.author(
            "missing-input-schema",
            at,
            format!(
                "{label} has no inputSchema; 0.8.0 requires one, and its absence does not say whether the tool takes no parameters or unknown ones. Add the schema (for a tool that takes no parameters: {{\"type\": \"object\", \"additionalProperties\": false}})"
            ),
        );
    }
    let mut out = Map::new();
    for (key, member) in map {
        let m_at = at.key(key);
        match key.as_str() {
            "icons" | "arguments" if is_empty_array(member) => {
                run.change(Some(m_at), None, format!("empty {key} of {label} removed"));
            }
            "tags" if is_empty_array(member) => {
                run.change(Some(m_at), None, format!("empty tags of {label} removed"));
            }
            "tags" => {
                out.insert(key.clone(), unique_tags(run, member, &m_at, &label));
            }
            "inputSchema" | "outputSchema" if kind == "tools" => {
                out.insert(key.clone(), object_root(run, member, &m_at, &label, key));
            }
            _ => {
                out.insert(key.clone(), member.clone());
            }
        }
    }
    out
}

/// `tools[0] ("search")`: how messages name a declaration.
fn label(kind: &str, map: &Map<String, Value>, at: &Pointer) -> String {
    let index = at.segments().last().unwrap_or_default();
    let id = match kind {
        "resources" => map.get("uri"),
        "resourceTemplates" => map.get("uriTemplate"),
        _ => map.get("name"),
    };
    match id.and_then(Value::as_str) {
        Some(id) => format!("{kind}[{index}] ({id:?})"),
        None => format!("{kind}[{index}]"),
    }
}

/// A primitive's tags without repeats (0.7 did not require prompt tags to be unique;
/// 0.8.0 does for every primitive).
fn unique_tags(run: &mut Run<'_>, value: &Value, at: &Pointer, label: &str) -> Value {
    let Some(items) = value.as_array() else {
        return value.clone();
    };
    let mut seen: Vec<&Value> = Vec::new();
    for item in items {
        if !seen.contains(&item) {
            seen.push(item);
        }
    }
    if seen.len() == items.len() {
        return value.clone();
    }
    run.change(
        Some(at.clone()),
        Some(at.clone()),
        format!("repeated tags of {label} removed (0.8.0 requires unique tag references)"),
    );
    Value::Array(seen.into_iter().cloned().collect())
}

/// A Tool schema whose root does not declare `type` gets `"type": "object"`: Tool
/// arguments (and, before MCP 2026-07-28, structured output) are always JSON objects, so
/// the added keyword rejects nothing the tool could receive or return, and MCP versions
/// before 2025-11-25 require it. A root that declares another type is left for the
/// author (the validator reports it).
fn object_root(run: &mut Run<'_>, value: &Value, at: &Pointer, label: &str, member: &str) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    let any_root_allowed =
        member == "outputSchema" && run.root_version == Some(ProtocolVersion::V2026_07_28);
    if map.contains_key("type") || any_root_allowed {
        return value.clone();
    }
    let mut out = map.clone();
    // After `$schema` when there is one, else first: where readers look for it.
    let index = usize::from(out.keys().next().is_some_and(|k| k == "$schema"));
    out.shift_insert(index, "type".to_owned(), Value::String("object".to_owned()));
    run.change(
        Some(at.clone()),
        Some(at.key("type")),
        format!("\"type\": \"object\" added to the {member} root of {label} (its root declared no type; tool {} are always objects)", if member == "inputSchema" { "arguments" } else { "structured results" }),
    );
    Value::Object(out)
}

fn is_empty_array(value: &Value) -> bool {
    value.as_array().is_some_and(Vec::is_empty)
}
