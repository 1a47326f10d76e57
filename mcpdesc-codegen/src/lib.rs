//! Parse, validate and generate Rust code from MCP Description documents.
//!
//! The pipeline (see `ARCHITECTURE.md` at the repository root):
//!
//! ```text
//! source text ──source::parse──▶ Value + SourceMap ──validate──▶ diagnostics,
//!   resolved document ──model──▶ typed Document ──generate──▶ Rust code
//! ```
//!
//! Start with [`Description::from_path`]; in a build script, use [`Builder`].

pub mod builder;
pub mod description;
pub mod diagnostic;
pub mod diff;
pub mod generate;
pub mod migrate;
pub mod model;
pub mod pointer;
pub mod protocol;
pub mod pull;
pub mod recover;
pub mod rules;
pub mod scaffold;
pub mod settings;
pub mod source;
pub mod validate;

pub use builder::{BuildError, Builder};
pub use description::Description;
pub use diagnostic::{Diagnostic, Severity};
pub use generate::{generate, generate_tokens, GenerateError, Generated};
pub use pointer::Pointer;
pub use protocol::{ProtocolVersion, VersionSet};
pub use settings::{Settings, Side, TypePatch};
pub use source::{Format, Limits, Loaded, Position, SourceMap};
