//! `mcpdesc pull`: a description of a live server, from what it answered.
//!
//! The MCP client (`mcpdesc::client` in the runtime) gathers the raw JSON of the
//! handshake and of every listing the server's capabilities declare; this module turns
//! that [`Observed`] into a valid MCP Description 0.9.0 value, with a
//! [`PullWarning`] for everything it had to drop or fix:
//!
//! ```text
//! Observed ──build──▶ candidate value ──repair (validator, bounded rounds)──▶ Pulled
//!   handshake: serverInfo → info, capabilities → capabilities[0],     | PullError::Invalid
//!     instructions, negotiated version → protocolVersions
//!   listings: each item → a declaration of its kind (members the format has a
//!     place for; unknown members, duplicates and non-objects dropped)
//! ```
//!
//! Nothing is invented: no examples, no tags, no security; a declaration carries only
//! what the server sent. Two fixes stand in for required values the server did not
//! give: a missing `serverInfo.name`/`version` becomes `"unknown"`, and a Tool whose
//! `inputSchema` is missing or not a valid schema gets [`OPEN_INPUT_SCHEMA`] (arguments
//! unspecified, not "no arguments"); both are warnings.
//!
//! The validator ([`mcpdesc_description::validate`]) is the judge: whatever it still rejects is
//! removed at the smallest enclosing member (a Tool schema always as a whole), round
//! after round, and named in a warning. What cannot be removed that way is a
//! [`PullError::Invalid`] with the validator's diagnostics.

mod build;
mod describe;
mod kinds;
mod observed;
mod outcome;
mod repair;
#[cfg(test)]
mod tests;

pub use describe::describe;
pub use kinds::{Kind, OPEN_INPUT_SCHEMA};
pub use observed::Observed;
pub use outcome::{PullError, PullWarning, Pulled, Source};
