//! Fields the described MCP protocol version does not define.
//!
//! 0.7 marked fields such as Tool `title` ("since MCP 2025-06-18") or `execution`
//! ("since 2025-11-25") but did not enforce the marks; 0.8.0 makes a field used in a
//! version that lacks it an error. A migrated document describes exactly one protocol
//! version, so such a field cannot be kept in a protocol-scoped variant: it is removed,
//! with a warning naming its pointer.
//!
//! Which fields are affected is what the validator says (rule
//! `mcp.declaration.field.protocol-version`), so the version tables live in one place.

use serde_json::Value;

use super::run::{brief, Run};
use crate::edit::remove_at;
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::rules;
use mcpdesc_description::source::SourceMap;
use mcpdesc_description::validate::{self, cx::display_path};

/// Removes, with a warning each, the values the validator reports as undefined for the
/// document's protocol version. Removing one never makes another appear, but the loop
/// runs until a validation reports none (bounded, in case of surprises).
pub(super) fn remove_unsupported_fields(run: &mut Run<'_>, value: &mut Value) {
    for _ in 0..4 {
        let validation = validate::validate(value, &SourceMap::default());
        let mut gated: Vec<Pointer> = validation
            .diagnostics
            .iter()
            .filter(|d| d.is_error() && d.rule == rules::DECLARATION_FIELD_PROTOCOL_VERSION)
            .filter_map(|d| Pointer::parse(&d.pointer))
            .collect();
        if gated.is_empty() {
            return;
        }
        // Deepest first, so removing one never shifts the index of another.
        gated.sort_by(|a, b| b.cmp(a));
        gated.dedup();
        let mut removed_any = false;
        for at in gated {
            let Some(old) = remove_at(value, &at) else {
                continue;
            };
            removed_any = true;
            let input = run.input_pointer(&at);
            let version = run.root_version.map_or("?", |v| v.as_str());
            let path = display_path(&input);
            run.warn(
                "field-not-carried",
                &input,
                format!(
                    "{path} (value {}) was not carried over: the document describes MCP {version}, which does not define it",
                    brief(&old)
                ),
            );
            run.change(
                Some(input),
                None,
                format!("{path} removed: not defined for MCP {version}"),
            );
        }
        if !removed_any {
            return;
        }
    }
}
