//! Validation of a loaded description: structure, `$componentRef` resolution, then the
//! semantic rules of every part of the document. All diagnostics are collected; nothing
//! stops at the first problem.
//!
//! ```text
//! Loaded (Value + SourceMap)
//!   ├─ structure::check        shapes, closed objects, non-empty collections
//!   ├─ root::spec_version      "0.8.0" | "0.9.0"
//!   ├─ refs::resolve           $componentRef substitution (use-site diagnostics)
//!   └─ semantic passes over the resolved document
//!        root, transports, security, capabilities, tags, client_requirements,
//!        elicitations, tools, resources, prompts
//! ```

pub mod cx;
pub mod refs;
pub mod scopes;
pub mod structure;

mod capabilities;
mod client_requirements;
mod content;
pub mod dialect;
mod elicitations;
pub mod fallout;
mod meta;
mod prompts;
mod resources;
mod results;
mod root;
mod security;
mod tags;
pub mod text;
mod tools;
mod transports;
pub mod uri_template;

use serde_json::Value;

pub use cx::SpecVersion;
pub use refs::{Resolution, Substitution};

use crate::diagnostic::{self, Diagnostic};
use crate::pointer::Pointer;
use crate::protocol::VersionSet;
use crate::source::SourceMap;

/// The outcome of validating one loaded document.
#[derive(Debug, Clone)]
pub struct Validation {
    /// The declared format version (0.9.0 when the declaration is unusable).
    pub spec: SpecVersion,
    /// The known root protocol versions.
    pub root_versions: VersionSet,
    /// The document with `$componentRef`s substituted, and what was substituted.
    pub resolution: Resolution,
    /// Every diagnostic, located and sorted.
    pub diagnostics: Vec<Diagnostic>,
}

impl Validation {
    /// Whether the document has no errors (warnings allowed).
    pub fn is_valid(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The structural pass, run on the source document and again on the values substituted
/// for `$componentRef`s: a component is checked where it is written, and a use site
/// adds the shape its context demands (a `schemas` component used as an elicitation
/// `requestedSchema` must be a restricted form schema). A problem already reported at
/// the component is not repeated at each use site.
fn structure_after_substitution(document: &Value, resolution: &Resolution) -> Vec<Diagnostic> {
    let mut found = structure::diagnostics(document);
    if resolution.substitutions.is_empty() {
        return found;
    }
    let known: std::collections::HashSet<(&'static str, String)> =
        found.iter().map(|d| (d.code, d.pointer.clone())).collect();
    let extra: Vec<Diagnostic> = structure::diagnostics(&resolution.value)
        .into_iter()
        .filter(|d| {
            let at = Pointer::parse(&d.pointer).unwrap_or_default();
            let source = resolution.source_pointer(&at);
            source != at && !known.contains(&(d.code, source.as_str().to_owned()))
        })
        .collect();
    found.extend(extra);
    found
}

/// Validates a document. Positions come from `positions`; diagnostics inside values
/// that were substituted for a `$componentRef` keep the use-site pointer and point at
/// the component's text.
pub fn validate(document: &Value, positions: &SourceMap) -> Validation {
    let (spec, version_problem) = root::spec_version(document);
    let root_versions = root::root_versions(document);
    let (resolution, mut diagnostics) = refs::resolve(document);
    diagnostics.extend(version_problem);

    diagnostics.extend(structure_after_substitution(document, &resolution));
    let mut cx = cx::Cx::new(&resolution.value, spec, root_versions);
    root::check(&mut cx);
    transports::check(&mut cx);
    security::check(&mut cx);
    capabilities::check(&mut cx);
    tags::check(&mut cx);
    client_requirements::check(&mut cx);
    elicitations::check(&mut cx);
    tools::check(&mut cx);
    resources::check(&mut cx);
    prompts::check(&mut cx);
    text::check(&mut cx);
    diagnostics.extend(cx.into_diagnostics());

    for d in &mut diagnostics {
        if d.line == 0 {
            let at = Pointer::parse(&d.pointer).unwrap_or_default();
            if let Some(pos) = positions.nearest(&resolution.source_pointer(&at)) {
                d.line = pos.line;
                d.column = pos.column;
            }
        }
    }
    diagnostic::sort(&mut diagnostics);
    diagnostics.dedup();
    legacy_first(&mut diagnostics);
    Validation {
        spec,
        root_versions,
        resolution,
        diagnostics,
    }
}

/// For a 0.7.x document: the version error (which says to run `mcpdesc migrate`) goes
/// first, and the errors that only restate the change of format are left out and counted
/// in its message (issue 19; see [`fallout::is_fallout`]).
fn legacy_first(diagnostics: &mut Vec<Diagnostic>) {
    let Some(index) = diagnostics
        .iter()
        .position(|d| d.code == root::LEGACY_VERSION_CODE)
    else {
        return;
    };
    let mut version_error = diagnostics.remove(index);
    let before = diagnostics.len();
    diagnostics.retain(|d| !fallout::is_fallout(d));
    let hidden = before - diagnostics.len();
    if hidden > 0 {
        version_error.message.push_str(&format!(
            " ({hidden} follow-on error{} caused only by the 0.7 format {} not shown)",
            if hidden == 1 { "" } else { "s" },
            if hidden == 1 { "is" } else { "are" }
        ));
    }
    diagnostics.insert(0, version_error);
}

/// Helpers shared by the unit tests of the semantic passes.
#[cfg(test)]
pub(crate) mod testing {
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
        super::validate(doc, &SourceMap::default()).diagnostics
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
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::testing::{doc, run};

    /// The semantic passes run on structurally invalid documents too, so every member
    /// of the wrong type must be tolerated (diagnosed by the structural pass, never a
    /// panic).
    #[test]
    fn wrong_types_everywhere_do_not_panic() {
        let wrong = [
            json!(null),
            json!(1),
            json!("x"),
            json!([1]),
            json!({"a": [null]}),
        ];
        let members = [
            "transports",
            "securitySchemes",
            "security",
            "capabilities",
            "tools",
            "resources",
            "resourceTemplates",
            "prompts",
            "tags",
            "components",
        ];
        for value in &wrong {
            for member in members {
                let d = doc(&["2024-11-05", "2026-07-28"], json!({ member: value }));
                let _ = run(&d);
            }
        }
        let d = doc(
            &["2025-06-18"],
            json!({
                "transports": [null, {"type": 1, "protocolVersions": "x"}],
                "security": [null, {"a": "b"}, {"a": [1, null]}],
                "capabilities": [null, {"extensions": [], "protocolVersions": [1]}],
                "tags": [{"name": 1}, null],
                "resources": [null, {"examples": {"e": {"result": {"contents": [null, {"blob": 1}], "_meta": []}}},
                              "elicitations": [null, {"mode": "form", "requestedSchema": {"properties": {"p": {"default": [], "enum": 1}}, "required": "x"}}],
                              "clientRequirements": {"roots": [], "tasks": {"requests": []}}}],
                "resourceTemplates": [{"uriTemplate": 7, "completionExamples": {"e": {"argument": [], "context": {"arguments": []}}}}],
                "prompts": [{"arguments": [null, {"name": 1}], "examples": {"e": {"arguments": [], "result": {"messages": [null, {"content": []}]}}},
                             "completionExamples": {"e": null}}]
            }),
        );
        assert!(run(&d).iter().any(|d| d.is_error()));
    }
}
