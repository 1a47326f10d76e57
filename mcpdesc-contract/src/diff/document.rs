//! Document-level changes: root protocol versions, unscoped members (instructions,
//! `info.name`, security scheme definitions), and per view the transports and the
//! Capabilities Object.

use std::collections::BTreeSet;

use serde_json::Value;

use super::change::Subject;
use super::found::Found;
use super::rules::{self, Rule};
use super::side::Side;
use super::values::json_equal;
use super::view::{find, View};
use mcpdesc_description::pointer::Pointer;

/// Root `protocolVersions` removed and added.
pub(super) fn versions(old: &Side<'_>, new: &Side<'_>) -> Vec<Found> {
    let at = Pointer::root().key("protocolVersions");
    let mut out = Vec::new();
    for v in old.root.minus(new.root).iter() {
        out.push(
            Found::new(
                &rules::PROTOCOL_VERSION_REMOVED,
                Subject::Document,
                "",
                format!("MCP {v} is no longer described; clients that negotiate it lose the whole contract"),
            )
            .path(v.as_str())
            .at(Some(at.clone()), Some(at.clone())),
        );
    }
    for v in new.root.minus(old.root).iter() {
        out.push(
            Found::new(
                &rules::PROTOCOL_VERSION_ADDED,
                Subject::Document,
                "",
                format!("MCP {v} is newly described"),
            )
            .path(v.as_str())
            .at(Some(at.clone()), Some(at.clone())),
        );
    }
    out
}

/// Members that no protocol scope governs.
pub(super) fn unscoped(old: &Side<'_>, new: &Side<'_>) -> Vec<Found> {
    let mut out = Vec::new();
    let root = Pointer::root();
    let instructions = root.key("instructions");
    let (a, b) = (old.doc.get("instructions"), new.doc.get("instructions"));
    if a != b {
        out.push(
            Found::new(
                &rules::SERVER_INSTRUCTIONS_CHANGED,
                Subject::Document,
                "",
                match (a, b) {
                    (None, Some(_)) => "instructions were added".to_owned(),
                    (Some(_), None) => "instructions were removed".to_owned(),
                    _ => "instructions changed".to_owned(),
                },
            )
            .at(
                a.map(|_| instructions.clone()),
                b.map(|_| instructions.clone()),
            ),
        );
    }
    let name = root.key("info").key("name");
    let (a, b) = (old.doc.pointer("/info/name"), new.doc.pointer("/info/name"));
    if a != b {
        out.push(
            Found::new(
                &rules::SERVER_NAME_CHANGED,
                Subject::Document,
                "",
                format!(
                    "info.name changed from {} to {}",
                    a.map_or("nothing".to_owned(), Value::to_string),
                    b.map_or("nothing".to_owned(), Value::to_string)
                ),
            )
            .at(Some(name.clone()), Some(name)),
        );
    }
    let schemes = |doc: &Value| {
        doc.get("securitySchemes")
            .and_then(Value::as_object)
            .cloned()
    };
    if let (Some(a), Some(b)) = (schemes(old.doc), schemes(new.doc)) {
        for (scheme, before) in &a {
            let Some(after) = b.get(scheme) else { continue };
            if !json_equal(before, after) {
                let at = root.key("securitySchemes").key(scheme);
                out.push(
                    Found::new(
                        &rules::SECURITY_SCHEME_CHANGED,
                        Subject::SecurityScheme,
                        scheme.clone(),
                        format!("the definition of security scheme {scheme:?} changed; clients may need other credentials or endpoints"),
                    )
                    .at(Some(at.clone()), Some(at)),
                );
            }
        }
    }
    out
}

/// Transports and capabilities of one protocol version.
pub(super) fn view(old: &View<'_>, new: &View<'_>) -> Vec<Found> {
    let mut out = Vec::new();
    for t in &old.transports {
        if find(&new.transports, &t.id).is_none() {
            out.push(
                Found::new(
                    &rules::TRANSPORT_REMOVED,
                    Subject::Transport,
                    t.id.clone(),
                    format!("transport {} is no longer declared", t.id),
                )
                .at(Some(t.at.clone()), None),
            );
        }
    }
    for t in &new.transports {
        if find(&old.transports, &t.id).is_none() {
            out.push(
                Found::new(
                    &rules::TRANSPORT_ADDED,
                    Subject::Transport,
                    t.id.clone(),
                    format!("transport {} is newly declared", t.id),
                )
                .at(None, Some(t.at.clone())),
            );
        }
    }
    // Omitting capabilities makes no statement (digest §1.2): compare only when both
    // sides declare a Capabilities Object for this version.
    if let (Some(a), Some(b)) = (&old.capabilities, &new.capabilities) {
        let before = capability_paths(a.value);
        let after = capability_paths(b.value);
        for path in outermost(before.difference(&after)) {
            out.push(capability(path, false, &a.at, &b.at));
        }
        for path in outermost(after.difference(&before)) {
            out.push(capability(path, true, &a.at, &b.at));
        }
    }
    out
}

/// The declared capabilities as member paths: members (`completions`, `tools`,
/// `experimental` › `x`, `extensions` › `io.example/y`, `tasks` › `requests` › `tools` ›
/// `call`) and the flags that are true (`resources` › `subscribe`, `tools` ›
/// `listChanged`).
fn capability_paths(caps: &Value) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    let Some(map) = caps.as_object() else {
        return out;
    };
    for (key, value) in map {
        if key == "protocolVersions" || key.starts_with("x-") {
            continue;
        }
        let path = vec![key.clone()];
        walk(&path, value, &mut out);
        out.insert(path);
    }
    out
}

fn walk(prefix: &[String], value: &Value, out: &mut BTreeSet<Vec<String>>) {
    let Some(map) = value.as_object() else {
        return;
    };
    let open = matches!(prefix, [p] if p == "experimental" || p == "extensions");
    let tasks = prefix.first().is_some_and(|p| p == "tasks");
    for (key, inner) in map {
        if key.starts_with("x-") && !open {
            continue;
        }
        let mut path = prefix.to_vec();
        path.push(key.clone());
        match inner {
            Value::Bool(true) => {
                out.insert(path);
            }
            Value::Object(_) if open || tasks => {
                if tasks {
                    walk(&path, inner, out);
                }
                out.insert(path);
            }
            _ => {}
        }
    }
}

/// The paths of a set that no other path of the set contains (a removed `resources`
/// capability is one change, not one per flag).
fn outermost<'a>(paths: impl Iterator<Item = &'a Vec<String>>) -> Vec<&'a Vec<String>> {
    let all: Vec<&Vec<String>> = paths.collect();
    all.iter()
        .filter(|p| !all.iter().any(|q| q.len() < p.len() && p.starts_with(q)))
        .copied()
        .collect()
}

fn capability(path: &[String], added: bool, old_at: &Pointer, new_at: &Pointer) -> Found {
    let notification = path.last().is_some_and(|p| p == "listChanged");
    let rule: &'static Rule = match (notification, added) {
        (true, false) => &rules::CAPABILITY_NOTIFICATION_REMOVED,
        (true, true) => &rules::CAPABILITY_NOTIFICATION_ADDED,
        (false, false) => &rules::CAPABILITY_REMOVED,
        (false, true) => &rules::CAPABILITY_ADDED,
    };
    let member = |base: &Pointer| path.iter().fold(base.clone(), |p, s| p.key(s));
    let (old, new) = if added {
        (Some(old_at.clone()), Some(member(new_at)))
    } else {
        (Some(member(old_at)), Some(new_at.clone()))
    };
    let dotted = path.join(".");
    let what = if notification {
        format!("{dotted} notifications are")
    } else {
        format!("capability {dotted} is")
    };
    Found::new(
        rule,
        Subject::Document,
        "",
        format!(
            "{what} {}",
            if added {
                "newly declared"
            } else {
                "no longer declared"
            }
        ),
    )
    .path(format!("capabilities.{dotted}"))
    .at(old, new)
}
