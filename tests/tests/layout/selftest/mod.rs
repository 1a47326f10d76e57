//! The checker's own tests: small crates written to a temporary folder, each with the
//! exact graph, circles or sizes the rule gives them, so that the check of the
//! workspace cannot pass by finding nothing.

mod circles;
mod files;
mod fixture;
mod not_edges;
