//! The validator's entry point: the structural pass, `$componentRef` resolution, then
//! every semantic pass in order; the diagnostics located, sorted, and a 0.7 document's
//! version error first.

use serde_json::Value;

use super::cx::{self, SpecVersion};
use super::refs::{self, Resolution};
use super::{
    capabilities, client_requirements, elicitations, example_order, fallout, prompts, resources,
    root, security, tags, text, tools, transports,
};
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
    let mut found = super::structure::diagnostics(document);
    if resolution.substitutions.is_empty() {
        return found;
    }
    let known: std::collections::HashSet<(&'static str, String)> =
        found.iter().map(|d| (d.code, d.pointer.clone())).collect();
    let extra: Vec<Diagnostic> = super::structure::diagnostics(&resolution.value)
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
    example_order::check(&mut cx);
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

#[cfg(test)]
#[path = "tests/validation.rs"]
mod tests;
