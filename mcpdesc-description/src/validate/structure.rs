//! The structural pass: the document against mcpdesc-rs's own JSON Schema of the
//! format (`schema/structure.json`), with every failure turned into a diagnostic.
//!
//! The schema covers shapes (closed objects, required members, types, enumerations,
//! non-empty collections, name patterns). Everything that depends on protocol versions,
//! on the 0.8.0/0.9.0 difference or on other parts of the document is a semantic check.

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use super::cx::display_path;
use crate::pointer::Pointer;
use crate::rules;

const SCHEMA_TEXT: &str = include_str!("../../schema/structure.json");

fn validator() -> Option<&'static Validator> {
    static VALIDATOR: OnceLock<Option<Validator>> = OnceLock::new();
    VALIDATOR
        .get_or_init(|| {
            let schema: Value = serde_json::from_str(SCHEMA_TEXT).ok()?;
            jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .build(&schema)
                .ok()
        })
        .as_ref()
}

/// Collects structural diagnostics (the validation context is not needed here).
#[derive(Default)]
pub struct Sink(pub Vec<crate::diagnostic::Diagnostic>);

impl Sink {
    fn error(
        &mut self,
        rule: &'static str,
        code: &'static str,
        at: &Pointer,
        message: impl Into<String>,
    ) {
        self.0.push(crate::diagnostic::Diagnostic::new(
            crate::diagnostic::Severity::Error,
            rule,
            code,
            at,
            message,
        ));
    }
}

/// The structural diagnostics of `document`.
pub fn diagnostics(document: &Value) -> Vec<crate::diagnostic::Diagnostic> {
    let mut sink = Sink::default();
    check(&mut sink, document);
    sink.0
}

/// Checks the shape of the whole document.
fn check(cx: &mut Sink, document: &Value) {
    let Some(validator) = validator() else {
        // The embedded schema is tested to compile; this is unreachable in practice but
        // must not panic in a user's build.
        cx.error(
            rules::DOCUMENT_SCHEMA,
            "internal-schema",
            &Pointer::root(),
            "internal error: the structural schema of mcpdesc-rs failed to compile",
        );
        return;
    };
    for error in validator.iter_errors(document) {
        report(cx, &error);
    }
}

/// The rule a structural problem belongs to, chosen by where it is.
fn rule_for(at: &Pointer) -> &'static str {
    let segments: Vec<String> = at.segments().collect();
    let s: Vec<&str> = segments.iter().map(String::as_str).collect();
    match s.as_slice() {
        ["tools", _, "annotations", ..] => rules::TOOL_ANNOTATIONS_MEMBERS,
        ["tools", _, "examples", ..] | ["components", "toolExamples", ..] => rules::EXAMPLE_MEMBERS,
        ["tools", _, "interactionExamples", ..] => rules::TOOL_INTERACTION_MEMBERS,
        ["tools", _] | ["tools", _, "inputSchema"] | ["tools", _, "execution", ..] => {
            rules::TOOL_MEMBERS
        }
        _ => rules::DOCUMENT_SCHEMA,
    }
}

fn pointer_of(error: &ValidationError<'_>) -> Pointer {
    Pointer::parse(error.instance_path().as_str()).unwrap_or_default()
}

fn type_name(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Single(t) => t.to_string(),
        TypeKind::Multiple(ts) => ts
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(" or "),
    }
}

fn actual_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A short rendering of a value for messages (never a whole subtree).
fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        text
    } else {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    }
}

fn report(cx: &mut Sink, error: &ValidationError<'_>) {
    let at = pointer_of(error);
    let path = display_path(&at);
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            for key in unexpected {
                let member = at.key(key);
                let hint = if key.starts_with("x-") {
                    " (specification extensions are not allowed in this object)"
                } else {
                    ""
                };
                cx.error(
                    rule_for(&at),
                    "unknown-property",
                    &member,
                    format!("{path} has an unknown property `{key}`{hint}"),
                );
            }
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            cx.error(
                rule_for(&at),
                "missing-property",
                &at,
                format!("{path} is missing the required property `{name}`"),
            );
        }
        ValidationErrorKind::MinItems { limit: 1 }
        | ValidationErrorKind::MinProperties { limit: 1 } => {
            cx.error(
                rule_for(&at),
                "empty-collection",
                &at,
                format!("{path} must not be empty; omit it instead of leaving it empty"),
            );
        }
        ValidationErrorKind::Type { kind } => cx.error(
            rule_for(&at),
            "wrong-type",
            &at,
            format!(
                "{path} must be of type {}, not {}",
                type_name(kind),
                actual_type(error.instance())
            ),
        ),
        ValidationErrorKind::Enum { options } => cx.error(
            rule_for(&at),
            "invalid-value",
            &at,
            format!(
                "{path} is {}, which is not one of {}",
                brief(error.instance()),
                brief(options)
            ),
        ),
        ValidationErrorKind::Constant { expected_value } => cx.error(
            rule_for(&at),
            "invalid-value",
            &at,
            format!(
                "{path} is {}, but must be {}",
                brief(error.instance()),
                brief(expected_value)
            ),
        ),
        ValidationErrorKind::PropertyNames { error: inner } => {
            let name = inner.instance().as_str().unwrap_or_default().to_owned();
            let member = at.key(&name);
            cx.error(
                rule_for(&member),
                "invalid-name",
                &member,
                format!("{path} has a member named {name:?}, which is not an allowed name here ({inner})"),
            );
        }
        ValidationErrorKind::Pattern { pattern } => cx.error(
            rule_for(&at),
            "invalid-value",
            &at,
            format!(
                "{path} is {}, which does not match `{pattern}`",
                brief(error.instance())
            ),
        ),
        ValidationErrorKind::Format { format } => cx.error(
            rule_for(&at),
            "invalid-format",
            &at,
            format!(
                "{path} is {}, which is not a valid {format}",
                brief(error.instance())
            ),
        ),
        ValidationErrorKind::UniqueItems => cx.error(
            rule_for(&at),
            "duplicate-items",
            &at,
            format!("{path} must not contain the same value twice"),
        ),
        ValidationErrorKind::MinLength { limit: 1 } => cx.error(
            rule_for(&at),
            "empty-string",
            &at,
            format!("{path} must not be an empty string"),
        ),
        ValidationErrorKind::MaxProperties { limit: 0 } => cx.error(
            rule_for(&at),
            "unknown-property",
            &at,
            format!("{path} must be an empty object"),
        ),
        ValidationErrorKind::OneOfNotValid { .. } | ValidationErrorKind::AnyOf { .. } => cx.error(
            rule_for(&at),
            "schema-violation",
            &at,
            format!(
                "{path} does not match any allowed form ({})",
                brief_error(error)
            ),
        ),
        _ => cx.error(
            rule_for(&at),
            "schema-violation",
            &at,
            format!("{path}: {}", brief_error(error)),
        ),
    }
}

fn brief_error(error: &ValidationError<'_>) -> String {
    // jsonschema's messages embed the instance; keep them short.
    let instance = error.instance().to_string();
    let text = error.to_string();
    if instance.len() > 60 {
        text.replace(&instance, "the value")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(doc: Value) -> Vec<crate::diagnostic::Diagnostic> {
        diagnostics(&doc)
    }

    #[test]
    fn embedded_schema_compiles() {
        assert!(validator().is_some());
    }

    #[test]
    fn minimal_document_is_well_formed() {
        let d = run(
            json!({"mcpdesc": "0.9.0", "info": {"name": "a", "version": "1"}, "protocolVersions": ["2025-11-25"]}),
        );
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn unknown_members_are_reported_at_the_member() {
        let d = run(json!({
            "mcpdesc": "0.9.0", "info": {"name": "a", "version": "1"}, "protocolVersions": ["2025-11-25"],
            "tools": [{"name": "t", "inputSchema": {"type": "object"}, "summary": "x"}]
        }));
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].pointer, "/tools/0/summary");
        assert_eq!(d[0].rule, rules::TOOL_MEMBERS);
        assert_eq!(d[0].code, "unknown-property");
    }

    #[test]
    fn empty_collections_and_missing_members() {
        let d = run(
            json!({"mcpdesc": "0.9.0", "info": {"name": "a"}, "protocolVersions": [], "tools": []}),
        );
        let codes: Vec<_> = d.iter().map(|d| (d.code, d.pointer.as_str())).collect();
        assert!(codes.contains(&("missing-property", "/info")), "{codes:?}");
        assert!(
            codes.contains(&("empty-collection", "/protocolVersions")),
            "{codes:?}"
        );
        assert!(codes.contains(&("empty-collection", "/tools")), "{codes:?}");
    }

    #[test]
    fn discriminated_unions_report_the_branch_member() {
        let d = run(json!({
            "mcpdesc": "0.9.0", "info": {"name": "a", "version": "1"}, "protocolVersions": ["2025-11-25"],
            "transports": [{"type": "stdio"}, {"type": "sse", "url": "https://x.example/sse", "command": "c"}]
        }));
        let got: Vec<_> = d.iter().map(|d| (d.code, d.pointer.as_str())).collect();
        assert_eq!(
            got,
            [
                ("missing-property", "/transports/0"),
                ("unknown-property", "/transports/1/command")
            ]
        );
    }
}
