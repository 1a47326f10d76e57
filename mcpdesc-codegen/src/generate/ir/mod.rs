//! The generator's intermediate representation: everything the emitters need about the
//! chosen tools, and nothing they would have to re-read from raw JSON.
//!
//! ```text
//! Description ──view::select──▶ tools of the view ──build──▶ ModuleIr
//!                                                               ├─ tools: ToolIr (names, scope, docs,
//!                                                               │    original + prepared schemas, examples)
//!                                                               └─ shared: SharedSchemaIr (component
//!                                                                    schemas used by several tools)
//! ```
//!
//! The IR keeps two copies of each schema: the *original* (resolved, untouched; what a
//! server serves and validates against) and the *prepared* one (typify's normalized copy,
//! see [`super::prepare`]).

pub mod build;
pub mod elicitation;
mod module;
pub mod own;
pub mod replace;
pub mod security;
pub mod share;
mod tool;
pub mod variants;

pub use build::build;
pub use elicitation::ElicitationIr;
pub use module::{ModuleIr, ServerIr};
pub use security::SecurityIr;
pub use tool::{
    ExampleIr, InteractionExampleIr, Role, SchemaIr, SharedSchemaIr, ToolIr, TypeSource,
};
