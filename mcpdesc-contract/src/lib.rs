//! The contract tools of MCP Descriptions: what changed between two descriptions and
//! whether it breaks clients or servers ([`diff`]), a 0.7/0.8 document rewritten in a
//! newer format ([`migrate`]), and a description written from what a live server
//! answered ([`pull`]).
//!
//! They work on the description library's values and diagnostics
//! (`mcpdesc-description`) and need no code generation, and no build script needs
//! them: the `mcpdesc` command and its tests use this crate, a server crate's
//! `build.rs` (through `mcpdesc-codegen`) never compiles it. Their pipelines are in
//! `ARCHITECTURE.md` at the repository root.
//!
//! # Example
//!
//! ```
//! use mcpdesc_contract::diff::{self, Level, Perspective};
//! use mcpdesc_description::{Description, Limits};
//!
//! let describe = |required: &str| {
//!     let text = format!(
//!         r#"{{"mcpdesc": "0.9.0", "info": {{"name": "s", "version": "1"}},
//!             "protocolVersions": ["2025-11-25"],
//!             "tools": [{{"name": "greet", "inputSchema": {{"type": "object",
//!               "properties": {{"name": {{"type": "string"}}, "style": {{"type": "string"}}}},
//!               "required": {required}}}}}]}}"#
//!     );
//!     Description::from_text("s.json", text, None, &Limits::default())
//! };
//! // A new required argument breaks the clients that do not send it.
//! let report = diff::diff(&describe(r#"["name"]"#), &describe(r#"["name", "style"]"#))
//!     .expect("both descriptions are valid");
//! assert!(report.count(Perspective::Client, Level::Breaking) > 0);
//! ```

pub mod diff;
mod edit;
pub mod migrate;
pub mod pull;
