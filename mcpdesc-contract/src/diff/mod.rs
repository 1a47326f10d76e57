//! `mcpdesc diff`: every change between two valid descriptions, classified as breaking,
//! warning or compatible from a client's and from a server implementer's point of view,
//! each under a stable rule id ([`rules`], documented in `docs/diff.md`).
//!
//! ```text
//! old, new Description (valid; $componentRef already substituted by validation)
//!   ├─ document::versions            root protocolVersions removed / added
//!   └─ per protocol version V both describe (Effective Protocol View of each side):
//!        document::view              transports, capabilities
//!        primitives::compare         tools, prompts, resources, templates by identity
//!          ├─ schema::compare         inputSchema / outputSchema, recursively
//!          │    └─ witness::find      an input the old schema accepts, the new rejects
//!          └─ security::compare       effective requirement per primitive and transport
//!   → the same change found in several views is reported once, with its versions
//! ```
//!
//! Every report states the version bump the changes need and whether `info.version`
//! moved that far ([`bump`]).
//!
//! Comparing view by view is what makes protocol-scoped variants work: a tool that
//! splits into two variants, or narrows its `protocolVersions`, is compared with what a
//! client of each version saw before.

pub mod bump;
mod change;
mod compare;
mod document;
mod found;
mod primitives;
mod report;
pub mod rules;
mod schema;
mod security;
mod side;
mod types;
mod values;
mod view;
mod witness;

pub use bump::{Bump, VersionBump};
pub use change::{Change, FailOn, Location, Report, Subject};
pub use compare::diff;
pub use rules::{Level, Perspective, Rule};
pub use side::DiffError;

#[cfg(test)]
mod tests;
