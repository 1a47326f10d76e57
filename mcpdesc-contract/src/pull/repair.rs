//! Making the candidate valid: the validator's errors, each answered by removing the
//! smallest member that holds it, round after round.
//!
//! | error at | action |
//! |---|---|
//! | a declaration itself, or its identity / `name` | the declaration is dropped |
//! | a Tool's `inputSchema` (or inside it) | replaced by the open schema; dropped if that fails too |
//! | an element of `icons` or Prompt `arguments` | that element is removed |
//! | a key inside `annotations` or `_meta` | that key is removed |
//! | any other member of a declaration (schemas as a whole) | the member is removed |
//! | `info.*` other than `name`/`version`, `instructions`, a capability | removed |
//! | anything else (`mcpdesc`, `protocolVersions`, ...) | not repairable: [`PullError::Invalid`] |
//!
//! A round applies every action at once (the outermost one where they nest, from the
//! last array index to the first so that indices stay right), then validates again.
//! Every round removes something, so the loop ends; it is also bounded.

use serde_json::Value;

use super::build::{quoted, Draft};
use super::kinds::{Kind, OPEN_INPUT_SCHEMA};
use super::outcome::{PullError, PullWarning, Source};
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::source::SourceMap;
use mcpdesc_description::validate;

/// More rounds than any document needs: each nesting level of an action is at most
/// one round (icons emptied, then `icons` removed), and a Tool schema takes two.
const MAX_ROUNDS: usize = 16;

/// What to do at one place.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    /// Remove the value at the pointer.
    Remove,
    /// Replace a Tool's `inputSchema` by the open schema.
    OpenInputSchema,
}

/// Repairs `draft` in place until the validator accepts it, recording a warning per
/// action and, at the end, the document's own validation warnings.
pub(crate) fn repair(draft: &mut Draft) -> Result<(), PullError> {
    for _ in 0..MAX_ROUNDS {
        let validation = validate::validate(&draft.value, &SourceMap::default());
        let errors: Vec<&Diagnostic> = validation
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .collect();
        if errors.is_empty() {
            for d in validation.diagnostics.iter() {
                let pointer = Pointer::parse(&d.pointer).unwrap_or_default();
                draft.warnings.push(PullWarning {
                    source: Source::Description,
                    pointer,
                    code: d.code,
                    rule: d.rule,
                    message: d.message.clone(),
                });
            }
            return Ok(());
        }
        let mut planned: Vec<(Pointer, Action, &Diagnostic)> = Vec::new();
        for d in &errors {
            let Some(at) = Pointer::parse(&d.pointer) else {
                return Err(invalid(draft, validation.diagnostics.clone()));
            };
            let Some((target, action)) = plan(&draft.value, &at) else {
                return Err(invalid(draft, validation.diagnostics.clone()));
            };
            planned.push((target, action, d));
        }
        // Outermost first, so that an action inside another one is skipped; then the
        // last index first, so that removals do not shift the others.
        planned.sort_by(|a, b| compare(&a.0, &b.0));
        let mut kept: Vec<(Pointer, Action, &Diagnostic)> = Vec::new();
        for entry in planned {
            if !kept.iter().any(|(outer, _, _)| entry.0.starts_with(outer)) {
                kept.push(entry);
            }
        }
        let mut applied = 0;
        let mut notes = Vec::new();
        for (target, action, d) in kept.into_iter().rev() {
            let note = describe_action(draft, &target, &action, d);
            if apply(draft, &target, &action) {
                applied += 1;
                notes.push(note);
            }
        }
        if applied == 0 {
            return Err(invalid(draft, validation.diagnostics.clone()));
        }
        // Reported in document order (they were applied last to first).
        draft.warnings.extend(notes.into_iter().rev());
    }
    let validation = validate::validate(&draft.value, &SourceMap::default());
    Err(invalid(draft, validation.diagnostics))
}

fn invalid(draft: &Draft, diagnostics: Vec<Diagnostic>) -> PullError {
    PullError::Invalid {
        value: draft.value.clone(),
        diagnostics: diagnostics.into_iter().filter(|d| d.is_error()).collect(),
        warnings: draft.warnings.clone(),
    }
}

/// The place to act on for an error at `at`, and the action; `None` when the error is
/// not in anything the pull may remove.
fn plan(document: &Value, at: &Pointer) -> Option<(Pointer, Action)> {
    let segments: Vec<String> = at.segments().collect();
    let first = segments.first()?.as_str();
    let root = Pointer::root();
    if let Some(kind) = Kind::from_collection(first) {
        let index: usize = segments.get(1)?.parse().ok()?;
        let item = root.key(first).index(index);
        let Some(member) = segments.get(2) else {
            return Some((item, Action::Remove));
        };
        if member == kind.identity() || kind.required().contains(&member.as_str()) {
            return Some((item, Action::Remove));
        }
        let member_at = item.key(member);
        if kind == Kind::Tool && member == "inputSchema" {
            let open: Value = serde_json::from_str(OPEN_INPUT_SCHEMA).ok()?;
            return if document.pointer(member_at.as_str()) == Some(&open) {
                Some((item, Action::Remove))
            } else {
                Some((member_at, Action::OpenInputSchema))
            };
        }
        return Some((within(member, &segments[3..], member_at), Action::Remove));
    }
    match first {
        "info" => {
            let member = segments.get(1)?;
            if member == "name" || member == "version" {
                return None;
            }
            let member_at = root.key("info").key(member);
            Some((within(member, &segments[2..], member_at), Action::Remove))
        }
        "instructions" => Some((root.key("instructions"), Action::Remove)),
        "capabilities" => match segments.get(2) {
            Some(member) => Some((
                root.key("capabilities").index(0).key(member),
                Action::Remove,
            )),
            None => Some((root.key("capabilities"), Action::Remove)),
        },
        _ => None,
    }
}

/// The smallest removable part of `member` holding the rest of the pointer: one
/// element of `icons` or `arguments`, one key of `annotations` or `_meta`, else the
/// whole member.
fn within(member: &str, rest: &[String], member_at: Pointer) -> Pointer {
    match (member, rest.first()) {
        ("icons" | "arguments", Some(index)) if index.parse::<usize>().is_ok() => {
            member_at.index(index.parse().unwrap_or_default())
        }
        ("annotations" | "_meta", Some(key)) => member_at.key(key),
        _ => member_at,
    }
}

/// Orders pointers by segment, array indices numerically; a pointer comes before the
/// pointers below it. Walked in reverse, removals go from the last index to the first.
fn compare(a: &Pointer, b: &Pointer) -> std::cmp::Ordering {
    let (mut a, mut b) = (a.segments(), b.segments());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(x), Some(y)) => {
                let order = match (x.parse::<usize>(), y.parse::<usize>()) {
                    (Ok(x), Ok(y)) => x.cmp(&y),
                    _ => x.cmp(&y),
                };
                if order != std::cmp::Ordering::Equal {
                    return order;
                }
            }
        }
    }
}

/// Applies one action; `false` when there was nothing at the pointer.
fn apply(draft: &mut Draft, target: &Pointer, action: &Action) -> bool {
    match action {
        Action::OpenInputSchema => match draft.value.pointer_mut(target.as_str()) {
            Some(slot) => {
                *slot = serde_json::from_str(OPEN_INPUT_SCHEMA).unwrap_or_default();
                true
            }
            None => false,
        },
        Action::Remove => {
            let segments: Vec<String> = target.segments().collect();
            let removed = crate::edit::remove_at(&mut draft.value, target).is_some();
            // A removed declaration takes its origin along.
            if removed && segments.len() == 2 {
                if let (Some(kind), Ok(index)) = (
                    Kind::from_collection(&segments[0]),
                    segments[1].parse::<usize>(),
                ) {
                    if let Some(origins) = draft.origins.get_mut(&kind) {
                        if index < origins.len() {
                            origins.remove(index);
                        }
                    }
                    // The format forbids an empty collection: it goes too.
                    let empty = draft
                        .value
                        .get(kind.collection())
                        .and_then(Value::as_array)
                        .is_some_and(Vec::is_empty);
                    if empty {
                        if let Some(root) = draft.value.as_object_mut() {
                            root.shift_remove(kind.collection());
                        }
                    }
                }
            }
            removed
        }
    }
}

/// The warning for an action, written before it is applied (the item's name is still
/// there), pointing into what the server sent.
fn describe_action(
    draft: &Draft,
    target: &Pointer,
    action: &Action,
    d: &Diagnostic,
) -> PullWarning {
    let segments: Vec<String> = target.segments().collect();
    let (source, pointer, label) = origin(draft, &segments);
    let what = segments
        .get(2..)
        .map(|rest| rest.join("/"))
        .unwrap_or_default();
    let (code, message) = match (action, segments.len()) {
        (Action::OpenInputSchema, _) => (
            "input-schema-replaced",
            format!(
                "{label}: `inputSchema` is not a valid schema ({}); written as {OPEN_INPUT_SCHEMA} (arguments unspecified)",
                d.message
            ),
        ),
        (Action::Remove, 2) if source != Source::Handshake => (
            "invalid-item",
            format!("{label} dropped: {}", d.message),
        ),
        _ => {
            let member = match source {
                Source::Handshake => pointer.as_str().to_owned(),
                _ => what,
            };
            (
                "invalid-member",
                format!("{label}: `{member}` dropped: {}", d.message),
            )
        }
    };
    PullWarning::new(source, pointer, code, message)
}

/// Where the value at document pointer `segments` came from, and how to name its item.
fn origin(draft: &Draft, segments: &[String]) -> (Source, Pointer, String) {
    let root = Pointer::root();
    let first = segments.first().map(String::as_str).unwrap_or_default();
    if let Some(kind) = Kind::from_collection(first) {
        let index: usize = segments
            .get(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_default();
        let listed = draft
            .origins
            .get(&kind)
            .and_then(|o| o.get(index))
            .copied()
            .unwrap_or(index);
        let mut pointer = root.key(kind.collection()).index(listed);
        for segment in segments.iter().skip(2) {
            pointer = pointer.key(segment);
        }
        let id = draft
            .value
            .pointer(root.key(first).index(index).key(kind.identity()).as_str())
            .and_then(Value::as_str)
            .map(quoted)
            .unwrap_or_else(|| format!("#{listed}"));
        return (
            Source::Listing(kind),
            pointer,
            format!("{} {id}", kind.label()),
        );
    }
    let (base, label) = match first {
        "info" => (draft.info_at.clone(), "server info"),
        "capabilities" => (root.key("capabilities"), "capabilities"),
        _ => (root.clone(), "the handshake result"),
    };
    // `info/x` → `/serverInfo/x`; `capabilities/0/x` → `/capabilities/x`;
    // `instructions` → `/instructions`.
    let skip = match first {
        "info" => 1,
        "capabilities" => 2,
        _ => 0,
    };
    let mut pointer = base;
    for segment in segments.iter().skip(skip) {
        pointer = pointer.key(segment);
    }
    (Source::Handshake, pointer, label.to_owned())
}
