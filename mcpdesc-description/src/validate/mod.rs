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
//!        elicitations, tools, resources, prompts, example_order (x-mcpdesc-after)
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
mod example_order;
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
mod validation;

pub use cx::SpecVersion;
pub use refs::{Resolution, Substitution};
pub use validation::{validate, Validation};

#[cfg(test)]
pub(crate) mod testing;
