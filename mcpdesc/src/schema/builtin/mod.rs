//! The built-in validator: the shape keywords of JSON Schema, without regular
//! expressions, checked with the messages `jsonschema` gives for the same keywords
//! (so an error reads the same whichever validator found it).
//!
//! It is only given schemas that [`super::needs`] found free of the keywords it does
//! not know; a keyword it knows with a malformed value is a compile error, as the
//! meta-schema would make it.
//!
//! One job per file: the compiled form (`node.rs`), compiling a schema into it
//! (`compile.rs`), evaluating an instance against it (`schema.rs`).

mod compile;
mod node;
pub(crate) mod schema;
