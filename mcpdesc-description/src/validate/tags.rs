//! Tags (digest §4, rule `mcpdesc.tags.references`): the root catalogue has unique
//! names, and when it exists every primitive's `tags` entry names a declared tag.
//!
//! Without a catalogue, primitive tags are unconstrained strings. An empty catalogue is
//! a structural error (producers omit it); references are then not checked, since
//! every one would fail for the same reason.

use std::collections::HashMap;

use serde_json::Value;

use super::cx::{display_path, Cx};
use super::scopes::PRIMITIVE_ARRAYS;
use crate::pointer::Pointer;
use crate::rules;

/// Runs the tag checks over the whole document (tools included).
pub fn check(cx: &mut Cx<'_>) {
    let Some(catalogue) = cx.doc.get("tags").and_then(Value::as_array) else {
        return;
    };
    let declared = declared_tags(cx, catalogue);
    if catalogue.is_empty() {
        return;
    }
    let doc = cx.doc;
    for kind in PRIMITIVE_ARRAYS {
        let primitives = doc
            .get(kind)
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        for (index, primitive) in primitives.enumerate() {
            let Some(tags) = primitive.get("tags").and_then(Value::as_array) else {
                continue;
            };
            let at = Pointer::root().key(kind).index(index).key("tags");
            for (position, tag) in tags.iter().enumerate() {
                let Some(name) = tag.as_str() else { continue };
                if !declared.contains_key(name) {
                    let tag_at = at.index(position);
                    cx.error(
                        rules::TAGS_REFERENCES,
                        "unknown-tag-reference",
                        &tag_at,
                        format!(
                            "{} references the tag {name:?}, which the root tags catalogue does not declare",
                            display_path(&tag_at)
                        ),
                    );
                }
            }
        }
    }
}

/// The catalogue's names (first declaration wins), reporting duplicates.
fn declared_tags<'d>(cx: &mut Cx<'_>, catalogue: &'d [Value]) -> HashMap<&'d str, usize> {
    let mut declared = HashMap::new();
    for (index, tag) in catalogue.iter().enumerate() {
        let Some(name) = tag.get("name").and_then(Value::as_str) else {
            continue;
        };
        if let Some(first) = declared.get(name) {
            let at = Pointer::root().key("tags").index(index).key("name");
            cx.error(
                rules::TAGS_REFERENCES,
                "duplicate-root-tag",
                &at,
                format!(
                    "{} repeats the tag name {name:?} already declared by tags[{first}]; root tag names must be unique",
                    display_path(&at)
                ),
            );
        } else {
            declared.insert(name, index);
        }
    }
    declared
}

#[cfg(test)]
#[path = "tests/tags.rs"]
mod tests;
