//! Parse, validate and generate Rust code from MCP Description documents.

pub mod diagnostic;
pub mod pointer;
pub mod source;

pub use diagnostic::{Diagnostic, Severity};
pub use pointer::Pointer;
pub use source::{Format, Limits, Loaded, Position, SourceMap};
