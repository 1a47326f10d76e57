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
mod dialect;
mod elicitations;
mod meta;
mod prompts;
mod resources;
mod root;
mod security;
mod tags;
mod tools;
mod transports;

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

/// Validates a document. Positions come from `positions`; diagnostics inside values
/// that were substituted for a `$componentRef` keep the use-site pointer and point at
/// the component's text.
pub fn validate(document: &Value, positions: &SourceMap) -> Validation {
    let (spec, version_problem) = root::spec_version(document);
    let root_versions = root::root_versions(document);
    let (resolution, mut diagnostics) = refs::resolve(document);
    diagnostics.extend(version_problem);

    let mut cx = cx::Cx::new(&resolution.value, spec, root_versions);
    structure::check(&mut cx, document);
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
    Validation {
        spec,
        root_versions,
        resolution,
        diagnostics,
    }
}
