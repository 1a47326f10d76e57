//! What the user's own types replace in one module (the data; `replace.rs` decides
//! it): the definitions typify replaces, and one compile-time check per Rust type that
//! stands where a generated type would be.

use std::collections::BTreeMap;

use mcpdesc_description::pointer::Pointer;

/// The user's own types in one module.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OwnIr {
    /// Definitions typify does not generate: definition name → the user's Rust type.
    pub definitions: BTreeMap<String, String>,
    /// One check per Rust type of the user's that the generated code holds.
    pub checks: Vec<OwnCheck>,
}

/// A Rust type of the user's in generated code, and what it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnCheck {
    /// The Rust type (`crate::model::Issue`, `::uuid::Uuid`).
    pub path: String,
    /// What it replaces, in words (``the generated type `Issue` ``,
    /// ``format `uuid` ``).
    pub stands_for: String,
    /// Where in the description (the first places, in order).
    pub pointers: Vec<Pointer>,
}
