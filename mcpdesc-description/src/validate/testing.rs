//! Helpers shared by the unit tests of the semantic passes.

use serde_json::{json, Value};

use crate::diagnostic::Diagnostic;
use crate::source::SourceMap;

/// A minimal valid document declaring `versions`, with the members of `extra`
/// (an object) added or replaced.
pub fn doc(versions: &[&str], extra: Value) -> Value {
    let mut doc = json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "t", "version": "1"},
        "protocolVersions": versions,
    });
    if let (Some(target), Value::Object(members)) = (doc.as_object_mut(), extra) {
        target.extend(members);
    }
    doc
}

/// Every diagnostic of validating `doc` (no source positions).
pub fn run(doc: &Value) -> Vec<Diagnostic> {
    super::validation::validate(doc, &SourceMap::default()).diagnostics
}

/// The diagnostics of `doc` with `code`, as `(rule, pointer)` pairs, sorted.
pub fn found(doc: &Value, code: &str) -> Vec<(&'static str, String)> {
    let mut out: Vec<_> = run(doc)
        .into_iter()
        .filter(|d| d.code == code)
        .map(|d| (d.rule, d.pointer))
        .collect();
    out.sort();
    out
}

/// The codes of every diagnostic of `doc`, sorted (to assert a clean document).
pub fn codes(doc: &Value) -> Vec<&'static str> {
    let mut out: Vec<_> = run(doc).into_iter().map(|d| d.code).collect();
    out.sort();
    out
}
