//! Loading a description from text: format detection, strict JSON and restricted YAML
//! parsing, input limits, and the source map from JSON Pointers to line and column.
//!
//! Both formats produce the same data model (`serde_json::Value`), so every later stage
//! is format-blind, as the specification requires (digest §7). Loading never touches the
//! network or any file other than the one named.

mod emit;
mod json;
mod yaml;

pub use emit::emit;
// Positions live beside `diagnostic` (which locates itself through them), not here, so
// that `source` → `diagnostic` → `position` has no way back.
pub use crate::position::{Position, SourceMap};

use std::path::Path;

use crate::diagnostic::{Diagnostic, Severity};
use crate::pointer::Pointer;

/// Rule id of every serialization diagnostic.
pub const SERIALIZATION_RULE: &str = "mcpdesc.serialization";

/// The serialization of a description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// RFC 8259 JSON (`.mcpdesc.json`).
    Json,
    /// Restricted YAML 1.2 (`.mcpdesc.yaml`, `.mcpdesc.yml`).
    Yaml,
}

impl Format {
    /// Chooses the format from a file name, `None` when the extension says nothing.
    pub fn from_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "json" => Some(Format::Json),
            "yaml" | "yml" => Some(Format::Yaml),
            _ => None,
        }
    }

    /// Guesses the format from content: a document whose first significant character
    /// opens a JSON object or array is JSON, anything else is YAML.
    pub fn sniff(text: &str) -> Format {
        match text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .chars()
            .next()
        {
            Some('{') | Some('[') => Format::Json,
            _ => Format::Yaml,
        }
    }
}

/// Bounds applied to untrusted input before and while parsing it.
///
/// Exceeding one is a clear error, never a panic or a stack overflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted source, in bytes. Default 16 MiB.
    pub max_bytes: usize,
    /// Deepest accepted nesting of objects and arrays. Default 100; values above
    /// [`Limits::DEPTH_CEILING`] are treated as the ceiling.
    pub max_depth: usize,
    /// Longest accepted string (keys included), in bytes. Default 1 MiB.
    pub max_string_len: usize,
}

impl Limits {
    /// The hard upper bound for `max_depth`, which keeps recursive consumers of the data
    /// model (serde, `jsonschema`, typify) far from the end of the stack.
    pub const DEPTH_CEILING: usize = 128;

    pub(crate) fn depth(&self) -> usize {
        self.max_depth.min(Self::DEPTH_CEILING)
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 * 1024 * 1024,
            max_depth: 100,
            max_string_len: 1024 * 1024,
        }
    }
}

/// A parsed document with the source position of each of its values.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The JSON data model of the document.
    pub value: serde_json::Value,
    /// Positions of the values, by JSON Pointer.
    pub positions: SourceMap,
    /// The format the text was parsed as.
    pub format: Format,
}

/// Parses `text` in the given format under `limits`.
///
/// A failure is one error diagnostic (rule `mcpdesc.serialization`) with the line and
/// column of the problem.
pub fn parse(text: &str, format: Format, limits: &Limits) -> Result<Loaded, Diagnostic> {
    if text.len() > limits.max_bytes {
        return Err(serialization_error(
            "input-too-large",
            &Pointer::root(),
            None,
            format!(
                "the description is {} bytes, more than the limit of {} bytes",
                text.len(),
                limits.max_bytes
            ),
        ));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (value, positions) = match format {
        Format::Json => json::parse(text, limits)?,
        Format::Yaml => yaml::parse(text, limits)?,
    };
    Ok(Loaded {
        value,
        positions,
        format,
    })
}

/// The position of the first comment of a YAML text, if it has one.
///
/// The data model has no place for comments, so rewriting a YAML description (as
/// `mcpdesc migrate` does) loses them; this lets the caller say so. A `#` starts a
/// comment only outside scalars, which the parser does not report; so each candidate
/// (a `#` at the start of a line or after a space or tab) is cut to the end of its line
/// and the text parsed again: if the value is unchanged, the `#` was a comment.
pub fn yaml_comment(text: &str, limits: &Limits) -> Option<Position> {
    let Ok(original) = parse(text, Format::Yaml, limits) else {
        return None;
    };
    let mut offset = 0;
    // Bounded: a description with hundreds of `#` inside strings is not worth parsing
    // hundreds of times for a warning.
    let mut tries = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let bytes = line.as_bytes();
        for (col, _) in line.match_indices('#') {
            if col > 0 && !matches!(bytes[col - 1], b' ' | b'\t') {
                continue;
            }
            tries += 1;
            if tries > 64 {
                return None;
            }
            let end = line.trim_end_matches(['\n', '\r']).len();
            let cut = format!("{}{}", &text[..offset + col], &text[offset + end..]);
            if parse(&cut, Format::Yaml, limits).is_ok_and(|l| l.value == original.value) {
                return Some(Position {
                    line: index + 1,
                    column: line[..col].chars().count() + 1,
                });
            }
        }
        offset += line.len();
    }
    None
}

/// Builds a serialization error at a pointer and, when known, a position.
pub(crate) fn serialization_error(
    code: &'static str,
    pointer: &Pointer,
    position: Option<Position>,
    message: impl Into<String>,
) -> Diagnostic {
    let mut d = Diagnostic::new(Severity::Error, SERIALIZATION_RULE, code, pointer, message);
    if let Some(pos) = position {
        d.line = pos.line;
        d.column = pos.column;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_comments_are_found_and_hashes_in_strings_are_not() {
        let limits = Limits::default();
        assert_eq!(yaml_comment("a: 1\nb: \"x #y\"\nc: z#w\n", &limits), None);
        assert_eq!(
            yaml_comment("a: \"x #y\"\nb: 2 # two\n", &limits),
            Some(Position { line: 2, column: 6 })
        );
        assert_eq!(
            yaml_comment("# header\na: 1\n", &limits),
            Some(Position { line: 1, column: 1 })
        );
        let block = "a: |\n  text # not a comment\nb: 1\n";
        assert_eq!(yaml_comment(block, &limits), None);
    }
}
