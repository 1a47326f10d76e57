//! `mcpdesc migrate`: rewriting an MCP Description 0.7.x document (or a 0.8.0 one) as a
//! valid document of a newer format version.
//!
//! The 0.7 → 0.8 step follows the specification's published migration guide
//! (`spec/0.8.0/guides/migration-0.7-to-0.8.md`); the 0.8 → 0.9 step applies what
//! 0.9.0-rc.3 changed (digest §10). The guide's rule is that migration preserves the
//! author's intent and never infers a protocol revision, Tool parameters, OAuth scopes
//! or endpoints from insufficient evidence. So a migration either
//!
//! - succeeds: a document that passes [`mcpdesc_description::validate`], plus the list of every
//!   [`Change`] made and a warning for everything that could not be carried over, or
//! - stops ([`MigrateError::NeedsAuthor`]): every place where the author must decide,
//!   each an error diagnostic with the JSON pointer and line:column in the *input*.
//!
//! ```text
//! Loaded 0.7.x ──legacy::to_0_8──▶ 0.8.0 value ──gating──▶ fields the protocol version
//!   lacks removed ──to_0_9──▶ 0.9.0 value ──validate──▶ Migration | NeedsAuthor
//! ```
//!
//! Nothing is fetched and nothing is invented: an absent `info.protocolVersion` needs
//! `--protocol-version` ([`Options::protocol_version`]), a Tool without `inputSchema`
//! needs the author.

mod gating;
mod legacy;
mod migration;
mod pipeline;
mod run;
mod security;
mod to_0_9;

pub use mcpdesc_description::validate::fallout::{is_fallout, is_legacy_version};
pub use migration::{schema_uri, Change, MigrateError, Migration, Options};
pub use pipeline::migrate;

#[cfg(test)]
mod tests;
