//! Text that is valid JSON but unsafe or unusual where it ends up: bidirectional control
//! characters anywhere in the document (they make text read differently from how it is
//! stored: "Trojan Source"; generated code escapes them, other consumers may not), and
//! tool names outside the character set and length MCP recommends
//! (`[A-Za-z0-9_.-]{1,128}`). Both are warnings of the implementation's own rule
//! ([`rules::CODEGEN`]), never errors: the document stays valid.

use serde_json::Value;

use super::cx::Cx;
use crate::pointer::Pointer;
use crate::rules;

/// Whether `c` is one of the bidirectional controls U+202A–U+202E, U+2066–U+2069 (the
/// ones rustc's deny-by-default lints reject, and "Trojan Source" uses).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Runs both checks.
pub fn check(cx: &mut Cx<'_>) {
    let doc = cx.doc;
    let mut found = Vec::new();
    bidi(doc, &Pointer::root(), &mut found);
    for (at, what) in found {
        cx.warning(
            rules::CODEGEN,
            "text-bidi-control",
            &at,
            format!("this {what} contains a bidirectional control character (U+202A–U+202E, U+2066–U+2069), which makes text display differently from how it reads; generated code writes it as an escape"),
        );
    }
    if let Some(tools) = doc.get("tools").and_then(Value::as_array) {
        for (i, tool) in tools.iter().enumerate() {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let recommended = (1..=128).contains(&name.chars().count())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
            if !recommended {
                cx.warning(
                    rules::CODEGEN,
                    "tool-name-format",
                    &Pointer::root().key("tools").index(i).key("name"),
                    format!("tool name {name:?} is outside what MCP recommends for tool names: 1 to 128 characters among A-Z, a-z, 0-9, `_`, `-` and `.`"),
                );
            }
        }
    }
}

/// Every string value or member name holding a bidi control, with its pointer.
fn bidi(value: &Value, at: &Pointer, out: &mut Vec<(Pointer, &'static str)>) {
    match value {
        Value::String(s) if s.chars().any(is_bidi_control) => out.push((at.clone(), "text")),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                bidi(item, &at.index(i), out);
            }
        }
        Value::Object(members) => {
            for (key, item) in members {
                let child = at.key(key);
                if key.chars().any(is_bidi_control) {
                    out.push((child.clone(), "member name"));
                }
                bidi(item, &child, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "tests/text.rs"]
mod tests;
