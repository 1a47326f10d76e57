//! Compiling the tool schemas of a declaration and reporting violations by JSON pointer.
//!
//! One job per file: the dialect (`dialect.rs`), which keywords only the full
//! validator checks (`needs.rs`), the built-in validator (`builtin/`), and the
//! compiled [`Validator`](validator::Validator) with its violations (`validator.rs`).

mod builtin;
pub(crate) mod dialect;
pub(crate) mod needs;
pub(crate) mod validator;
