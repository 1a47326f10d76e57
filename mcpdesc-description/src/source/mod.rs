//! Loading a description from text: format detection, strict JSON and restricted YAML
//! parsing, input limits, and the source map from JSON Pointers to line and column.
//!
//! Both formats produce the same data model (`serde_json::Value`), so every later stage
//! is format-blind, as the specification requires (digest §7). Loading never touches the
//! network or any file other than the one named.

mod emit;
pub(crate) mod error;
mod format;
mod json;
mod limits;
mod loaded;
mod yaml;

pub use emit::emit;
pub use error::SERIALIZATION_RULE;
pub use format::Format;
pub use limits::Limits;
pub use loaded::{parse, yaml_comment, Loaded};
// Positions live beside `diagnostic` (which locates itself through them), not here, so
// that `source` → `diagnostic` → `position` has no way back.
pub use crate::position::{Position, SourceMap};
