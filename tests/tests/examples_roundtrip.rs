//! Every Tool Example of the corpus round-trips through the generated types (typify's
//! triple, part 3): the input through `{Tool}Input`, a successful result's
//! `structuredContent` through `{Tool}Output`; the value after one round trip validates
//! against the original schema, and a second round trip is stable.
//!
//! The per-description tests are written by the snapshot test (`generate.rs`) into
//! `tests/generated/examples_roundtrip.rs`, next to the snapshots they include.

mod support;

include!("../generated/examples_roundtrip.rs");

/// The right implementation of the notebook fixture, which the example tests of the
/// `generator-implementation` snapshot (generated with the test server
/// `crate::notebook_right::Server::new()`) run against.
mod notebook_right {
    use crate::generator_implementation as contract;
    crate::support::notebook::notebook_server!(Server, false);
}
