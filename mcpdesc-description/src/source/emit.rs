//! Writing a document back as text: pretty JSON, or block-style restricted YAML.
//!
//! `mcpdesc migrate` writes descriptions in the format it read them in (or the one the
//! output file's extension asks for). JSON is `serde_json`'s pretty printer. YAML is
//! written here because the emitter of `yaml-rust2` targets YAML 1.1 habits the format
//! forbids readers to rely on: it writes null as `~`, which the JSON schema for scalar
//! resolution (digest §7) reads back as the string `"~"`.
//!
//! The YAML writer only ever produces block mappings, block sequences, `[]`, `{}`,
//! JSON-schema scalars (`null`, `true`, `false`, JSON numbers), plain strings that cannot
//! be mistaken for anything else, JSON-escaped double-quoted strings and, for multi-line
//! text, literal block scalars. Every text it produces is parsed back with the
//! restricted loader and compared with the input; a mismatch falls back to quoting every
//! string, so what is written always decodes to the same data model.

use serde_json::Value;

use super::format::Format;
use super::limits::Limits;
use super::loaded::parse;

/// The text of `value` in `format`, ending with a newline.
///
/// ```
/// use mcpdesc_description::source::{emit, Format};
///
/// let doc = serde_json::json!({"mcpdesc": "0.9.0", "info": {"name": "notes", "version": "1"},
///                              "protocolVersions": ["2025-11-25"], "x-note": null});
/// assert_eq!(
///     emit(&doc, Format::Yaml),
///     "mcpdesc: 0.9.0\ninfo:\n  name: notes\n  version: \"1\"\nprotocolVersions:\n  - \"2025-11-25\"\nx-note: null\n"
/// );
/// ```
pub fn emit(value: &Value, format: Format) -> String {
    match format {
        Format::Json => {
            let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
            text.push('\n');
            text
        }
        Format::Yaml => {
            for style in [Style::Readable, Style::Quoted] {
                let text = yaml(value, style);
                if round_trips(&text, value) {
                    return text;
                }
            }
            // Quoting every string and never using block scalars leaves nothing that a
            // YAML 1.2 reader could resolve differently; this is the same text as the
            // last attempt, returned rather than an empty file.
            yaml(value, Style::Quoted)
        }
    }
}

/// Whether `text` parses (as restricted YAML, without limits) to exactly `value`.
fn round_trips(text: &str, value: &Value) -> bool {
    let limits = Limits {
        max_bytes: usize::MAX,
        max_depth: Limits::DEPTH_CEILING,
        max_string_len: usize::MAX,
    };
    parse(text, Format::Yaml, &limits).is_ok_and(|loaded| &loaded.value == value)
}

/// How strings are written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Plain where unambiguous, literal blocks for multi-line text, quoted otherwise.
    Readable,
    /// Every string double-quoted.
    Quoted,
}

fn yaml(value: &Value, style: Style) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => mapping(&mut out, map, 0, style),
        Value::Array(items) if !items.is_empty() => sequence(&mut out, items, 0, style),
        other => {
            out.push_str(&inline(other, style));
            out.push('\n');
        }
    }
    out
}

/// A scalar or empty collection on one line.
fn inline(value: &Value, style: Style) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => string(s, style),
        Value::Array(_) => "[]".to_owned(),
        Value::Object(_) => "{}".to_owned(),
    }
}

fn is_block(value: &Value) -> bool {
    match value {
        Value::Array(items) => !items.is_empty(),
        Value::Object(map) => !map.is_empty(),
        _ => false,
    }
}

/// Writes the members of a non-empty mapping, each line indented by `indent`.
fn mapping(out: &mut String, map: &serde_json::Map<String, Value>, indent: usize, style: Style) {
    for (index, (key, value)) in map.iter().enumerate() {
        // The first member of a mapping that is a sequence item follows its "- ".
        if index > 0 || !out.ends_with("- ") {
            pad(out, indent);
        }
        out.push_str(&string(key, style));
        out.push(':');
        member_value(out, value, indent, style);
    }
}

/// Writes the value of a mapping member whose key (at `indent`) was just written.
fn member_value(out: &mut String, value: &Value, indent: usize, style: Style) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            mapping(out, map, indent + 2, style);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            sequence(out, items, indent + 2, style);
        }
        Value::String(s) if style == Style::Readable && literal_block_ok(s) => {
            literal_block(out, s, indent + 2);
        }
        scalar => {
            out.push(' ');
            out.push_str(&inline(scalar, style));
            out.push('\n');
        }
    }
}

/// Writes the items of a non-empty sequence, each `- ` at `indent`.
fn sequence(out: &mut String, items: &[Value], indent: usize, style: Style) {
    for (index, item) in items.iter().enumerate() {
        if index > 0 || !out.ends_with("- ") {
            pad(out, indent);
        }
        match item {
            Value::Object(map) if !map.is_empty() => {
                out.push_str("- ");
                mapping(out, map, indent + 2, style);
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push_str("- ");
                sequence(out, inner, indent + 2, style);
            }
            Value::String(s) if style == Style::Readable && literal_block_ok(s) => {
                out.push('-');
                literal_block(out, s, indent + 2);
            }
            scalar => {
                debug_assert!(!is_block(scalar));
                out.push_str("- ");
                out.push_str(&inline(scalar, style));
                out.push('\n');
            }
        }
    }
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// Whether a multi-line string can be written as a literal block scalar (`|` or `|-`)
/// without an indentation or keep indicator.
fn literal_block_ok(s: &str) -> bool {
    let body = s.strip_suffix('\n').unwrap_or(s);
    body.contains('\n')
        && !body.ends_with('\n')
        && !body.starts_with([' ', '\t'])
        && !body.chars().any(|c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(c, '\u{feff}' | '\u{85}' | '\u{2028}' | '\u{2029}')
        })
        // A line of only spaces would be taken for indentation, not content.
        && !body.split('\n').any(|line| !line.is_empty() && line.trim_start_matches(' ').is_empty())
}

fn literal_block(out: &mut String, s: &str, indent: usize) {
    let body = s.strip_suffix('\n');
    out.push_str(if body.is_some() { " |\n" } else { " |-\n" });
    for line in body.unwrap_or(s).split('\n') {
        if !line.is_empty() {
            pad(out, indent);
            out.push_str(line);
        }
        out.push('\n');
    }
}

/// A string scalar: plain when it reads back as the same string in YAML 1.2 and 1.1,
/// else JSON-escaped in double quotes (a JSON string is a valid YAML double-quoted
/// scalar).
fn string(s: &str, style: Style) -> String {
    if style == Style::Readable && plain_ok(s) {
        s.to_owned()
    } else {
        serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
    }
}

/// Conservative test for strings that can be written as plain scalars.
fn plain_ok(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    // Anything a YAML 1.1 or 1.2 reader might resolve to another type stays quoted:
    // numbers (and what looks like one), booleans, nulls, timestamps.
    // Dates (`2025-06-18`) stay quoted too: YAML 1.1 readers resolve them to timestamps.
    if first.is_ascii_digit() && !looks_like_dotted_version(s) {
        return false;
    }
    if matches!(first, '-' | '+' | '.')
        && s[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
    {
        return false;
    }
    const RESERVED: [&str; 12] = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n", "~", ".inf", ".nan",
    ];
    if RESERVED.contains(&s.to_ascii_lowercase().as_str()) {
        return false;
    }
    if !first.is_alphanumeric() && !matches!(first, '_' | '/' | '$' | '(' | '^') {
        return false;
    }
    if s.ends_with([' ', ':']) || s.contains(": ") || s.contains(" #") {
        return false;
    }
    // After the first character, block-context plain scalars may hold flow indicators
    // and quotes; control characters, tabs, backslashes and double quotes are left to
    // the quoted form.
    s.chars()
        .all(|c| c.is_alphanumeric() || c == ' ' || "_./$()+=-:@;~^<>%!?*&|',[]{}#`".contains(c))
}

/// `1.2.0`: three or more dot-separated digit groups are a number in no YAML schema.
fn looks_like_dotted_version(s: &str) -> bool {
    let parts: Vec<&str> = s.split('.').collect();
    parts.len() >= 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn back(text: &str) -> Value {
        parse(text, Format::Yaml, &Limits::default()).unwrap().value
    }

    #[test]
    fn awkward_values_round_trip() {
        let doc = json!({
            "null": null, "t": true, "n": -0.5, "big": 1e300, "int": 18446744073709551615u64,
            "empty": "", "spaces": " padded ", "looks": ["1", "1.5", "-2", "true", "~", "yes", "null", ".inf", "0x1F"],
            "colon": "a: b", "hash": "a #b", "url": "https://example.com/a?b=c#d",
            "quote": "it's \"quoted\"", "tab": "a\tb", "unicode": "héllo ✓", "ctrl": "\u{1}",
            "multi": "line one\nline two\n", "multi-strip": "a\n\n  indented\nb",
            "lead": "  starts with spaces\nx", "crlf": "a\r\nb", "trailing": "a\n\n",
            "nested": [[1, [2]], [], {}, {"a": []}, [{"k": {"deep": [null]}}]],
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "-dash": "- item", "date": "2025-06-18", "semver": "1.2.0", "float-like": "1.2", "when": "2025-06-18T10:00:00Z",
            "keys": {"": 1, "a b": 2, "x-y": 3, "1": 4, "true": 5}
        });
        let text = emit(&doc, Format::Yaml);
        assert_eq!(back(&text), doc, "{text}");
        assert!(
            text.contains("multi: |\n  line one\n  line two\n"),
            "{text}"
        );
        assert!(text.contains("date: \"2025-06-18\"\n"), "{text}");
        assert!(text.contains("semver: 1.2.0\n"), "{text}");
        assert!(
            text.contains("null: null\n") || text.contains("\"null\": null\n"),
            "{text}"
        );
    }

    #[test]
    fn json_is_pretty_with_a_final_newline() {
        let text = emit(&json!({"a": [1]}), Format::Json);
        assert_eq!(text, "{\n  \"a\": [\n    1\n  ]\n}\n");
    }

    #[test]
    fn scalars_and_empty_roots() {
        for v in [json!(null), json!({}), json!([]), json!("s"), json!(3)] {
            assert_eq!(back(&emit(&v, Format::Yaml)), v);
        }
    }
}
