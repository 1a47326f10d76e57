//! A text parsed into the data model with the position of each value; the comments
//! of a YAML text, which the data model has no place for.

use super::error::serialization_error;
use super::format::Format;
use super::limits::Limits;
use super::{json, yaml};
use crate::diagnostic::Diagnostic;
use crate::pointer::Pointer;
use crate::position::{Position, SourceMap};

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
