//! Inputs generated from a tool's `inputSchema`: valid ones, and invalid ones that
//! break exactly one explicit constraint.
//!
//! The generator serves a subset of JSON Schema: `type` (one or a list), `properties`,
//! `required`, `additionalProperties`, `items`, `minItems`/`maxItems`, `uniqueItems`,
//! `enum`, `const`, `minimum`/`maximum` and their exclusive forms, `multipleOf` on
//! integers, `minLength`/`maxLength`, `pattern` (strings generated from the pattern,
//! `pattern.rs`), `format` (well-known formats get a value of that form; formats are
//! annotations anyway; URLs, e-mail addresses and host names are in the reserved
//! `.invalid` domain and IP addresses are loopback ones, so that a server that acts on
//! them reaches nobody), `anyOf`/`oneOf` (one branch), local `$ref`s that do not
//! recurse, and annotations. Any other assertion (`not`, `allOf`, `if`,
//! `patternProperties`, `dependentRequired`, ...), a `pattern` the regex parser cannot
//! read (look-arounds, back-references) or a recursive `$ref` makes the schema
//! [`Unsupported`]: the check reports it as `skipped` rather than sending inputs it
//! cannot vouch for.
//!
//! Every generated input is verified against the schema with `jsonschema` before it
//! is sent: a "valid" input must validate and an "invalid" one must not, so the
//! generator's own mistakes become `skipped` findings, never false failures.
//!
//! Invalid inputs come only from explicit constraints (a `required` member removed,
//! a value of another `type`, among them the ones a lax parser coerces (`lax.rs`), a
//! bound crossed by one, a length one past its limit, a string the `pattern` rejects, a
//! value outside an `enum`, a member `additionalProperties: false` forbids), inside
//! the argument object (its root stays an object, as MCP requires) and never inside an
//! `anyOf`/`oneOf` branch, where another branch could still accept the value.
//!
//! Files: `schema.rs` (what the generator reads of a schema), `generator.rs` (the
//! cases), `valid.rs` and `invalid.rs` (the values), `lax.rs` (coercible wrong
//! values), `pattern.rs` (strings for a `pattern`).

mod generator;
mod invalid;
mod lax;
mod pattern;
mod schema;
#[cfg(test)]
mod tests;
mod valid;

pub use generator::{Case, Generator};
pub use schema::Unsupported;
