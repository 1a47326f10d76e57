//! MCP Description documents: load them with positions, validate them, read them as a
//! typed model, and project them onto a protocol version.
//!
//! This is the part of mcpdesc that every tool reading descriptions needs, and nothing
//! more: no code generation (`mcpdesc-codegen`), no contract tools (`mcpdesc-contract`:
//! `diff`, `migrate`, `pull`). Its pipeline (see `ARCHITECTURE.md` at the repository
//! root):
//!
//! ```text
//! source text ──source::parse──▶ Value + SourceMap ──validate──▶ diagnostics,
//!   resolved document ──model──▶ typed Document ──view──▶ the declarations of a version
//! ```
//!
//! [`Description`] runs the whole pipeline; each step is also public on its own
//! ([`source::parse`], [`validate::validate`], [`model::Document::from_resolved`],
//! [`view::select_view`]).
//!
//! # Example
//!
//! ```
//! use mcpdesc_description::{view, Description, Limits, ProtocolVersion};
//!
//! let text = r#"{
//!   "mcpdesc": "0.9.0",
//!   "info": { "name": "greeter", "version": "1.0.0" },
//!   "protocolVersions": ["2025-06-18", "2025-11-25"],
//!   "tools": [{
//!     "name": "greet",
//!     "description": "Says hello.",
//!     "inputSchema": {
//!       "type": "object",
//!       "properties": { "name": { "type": "string" } },
//!       "required": ["name"]
//!     }
//!   }]
//! }"#;
//! let desc = Description::from_text("greeter.json", text.to_owned(), None, &Limits::default());
//! assert!(desc.is_valid(), "{}", desc.render_diagnostics());
//!
//! // The typed model, and the declarations a server of 2025-11-25 serves.
//! let doc = desc.document().expect("a valid description has a model");
//! let version = ProtocolVersion::parse("2025-11-25").expect("a known version");
//! let served = view::select_view(doc, Some(version)).expect("no overlapping variants");
//! assert_eq!(served.tools[0].tool.name, "greet");
//!
//! // Errors and warnings carry a JSON Pointer and, through the SourceMap, a line.
//! let text = "{\n  \"mcpdesc\": 1\n}".to_owned();
//! let bad = Description::from_text("bad.json", text, None, &Limits::default());
//! assert!(!bad.is_valid());
//! assert!(bad.errors().any(|d| d.pointer == "/mcpdesc" && d.line == 2));
//! ```

pub mod description;
pub mod diagnostic;
pub mod example_order;
pub mod model;
pub mod pointer;
pub mod position;
pub mod protocol;
pub mod recover;
pub mod rules;
pub mod source;
pub mod validate;
pub mod view;

pub use description::Description;
pub use diagnostic::{Diagnostic, Severity};
pub use pointer::Pointer;
pub use protocol::{ProtocolVersion, VersionSet};
pub use source::{Format, Limits, Loaded, Position, SourceMap};
