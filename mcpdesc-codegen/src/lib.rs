//! Generate Rust code from MCP Description documents.
//!
//! The pipeline (see `ARCHITECTURE.md` at the repository root):
//!
//! ```text
//! source text ──source::parse──▶ Value + SourceMap ──validate──▶ diagnostics,
//!   resolved document ──model──▶ typed Document ──generate──▶ Rust code
//! ```
//!
//! Everything before `generate` is the description library, `mcpdesc-description`,
//! re-exported here under its old paths (`mcpdesc_codegen::source`, `validate`,
//! `model`, ...). The contract tools (`diff`, `migrate`, `pull`) are in
//! `mcpdesc-contract`, which a build script never compiles; the `contract` feature
//! (off by default) re-exports them here too.
//!
//! Start with [`Description::from_path`]; in a build script, use [`Builder`].

pub mod builder;
pub mod generate;
pub mod own_types;
pub mod scaffold;
pub mod settings;

pub use mcpdesc_description::{
    description, diagnostic, model, pointer, protocol, recover, rules, source, validate,
};

/// `mcpdesc_contract`'s modules, under the paths they had in this crate.
#[cfg(feature = "contract")]
pub use mcpdesc_contract::{diff, migrate, pull};

pub use builder::{BuildError, Builder};
pub use generate::{generate, generate_tokens, GenerateError, Generated};
pub use mcpdesc_description::{
    Description, Diagnostic, Format, Limits, Loaded, Pointer, Position, ProtocolVersion, Severity,
    SourceMap, VersionSet,
};
pub use settings::{Settings, Side, TypePatch};
