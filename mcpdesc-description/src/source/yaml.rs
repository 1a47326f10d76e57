//! Restricted YAML loading (YAML 1.2.2, JSON schema for scalar resolution; digest §7).
//!
//! `yaml-rust2` does the scanning and parsing, but only at the event level: its
//! `YamlLoader` resolves scalars with YAML 1.1-like rules (`yes`, `0x1F`, `~`), keeps the
//! last of two duplicate keys silently and applies anchors, none of which a description
//! may rely on. This module pulls events one at a time and builds the JSON data model
//! itself, enforcing the serialization restrictions as it goes:
//!
//! - exactly one document;
//! - mapping keys are strings; duplicates, merge keys (`<<`), anchors, aliases and tags
//!   are errors (a tag is never applied);
//! - plain scalars resolve by the JSON schema (`null`, `true`, `false`, JSON-style
//!   numbers), everything else, quoted or block scalars included, is a string;
//! - numbers are finite (`.inf`, `.nan` and overflowing literals are errors);
//! - nesting depth and string length stay within [`Limits`].
//!
//! Hostile nesting cannot overflow the stack: the value tree is built with an explicit
//! heap stack, and the parser is driven through `Parser::next_token`, whose state machine
//! keeps its own heap stack. (`Parser::load`, which this module does not use, recurses
//! once per nesting level.) The scanner caps flow nesting at 255 levels by itself
//! ("recursion limit exceeded"), which also bounds the per-token work it does for open
//! flow collections; block nesting is reported by the depth check below as soon as the
//! offending level's event arrives, so no pre-scan of the text is needed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::str::Chars;

use serde_json::{Map, Number, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, Scanner, TScalarStyle, TokenType};

use super::{serialization_error, Limits, Position, SourceMap};
use crate::diagnostic::Diagnostic;
use crate::pointer::Pointer;

/// Parses `text` as one restricted-YAML document.
///
/// Returns the JSON data model of the document and the position of each of its values,
/// recorded like the JSON loader does: the root and array elements at the start of the
/// value, object members at their key. A failure is one error diagnostic.
pub(super) fn parse(
    text: &str,
    limits: &Limits,
) -> Result<(serde_json::Value, SourceMap), Diagnostic> {
    Loader::new(text, limits).run()
}

/// Converts a `yaml-rust2` marker (1-based line, 0-based column counted in characters)
/// to our 1-based [`Position`].
fn position(mark: &Marker) -> Position {
    Position {
        line: mark.line().max(1),
        column: mark.col() + 1,
    }
}

/// Pulls the next event from the parser.
///
/// `yaml-rust2` has a few `unwrap`s and `unreachable!`s on internal invariants. None is
/// known to be reachable from input, but the input is untrusted, so a panic inside the
/// parser is caught and reported as a syntax error instead of taking the process down.
fn next_event(parser: &mut Parser<Chars<'_>>) -> Result<(Event, Marker), Diagnostic> {
    match catch_unwind(AssertUnwindSafe(|| parser.next_token())) {
        Ok(Ok(event)) => Ok(event),
        Ok(Err(e)) => Err(scan_error(&e)),
        Err(_) => Err(serialization_error(
            "yaml-syntax",
            &Pointer::root(),
            None,
            "invalid YAML: the YAML parser failed on this input",
        )),
    }
}

/// Turns a `yaml-rust2` scan or parse error into a diagnostic.
///
/// A few of its errors are really violations of our restrictions, and get their code:
/// the scanner's own flow-nesting cap, an alias to an unknown anchor, and a tag whose
/// handle was not declared. The messages are matched verbatim; the dependency is pinned
/// to an exact version and a test covers each of them.
fn scan_error(e: &ScanError) -> Diagnostic {
    let at = Some(position(e.marker()));
    let root = Pointer::root();
    match e.info() {
        "recursion limit exceeded" => serialization_error(
            "nesting-too-deep",
            &root,
            at,
            "flow mappings and sequences are nested too deeply",
        ),
        "while parsing node, found unknown anchor" => serialization_error(
            "yaml-alias",
            &root,
            at,
            "aliases (`*name`) are not allowed in a description",
        ),
        "the handle wasn't declared" => serialization_error(
            "yaml-tag",
            &root,
            at,
            "tags are not allowed in a description (and this tag handle is not even declared)",
        ),
        info => serialization_error("yaml-syntax", &root, at, format!("invalid YAML: {info}")),
    }
}

/// One open collection while the value tree is built.
enum Frame {
    /// A mapping being filled.
    Mapping {
        /// Pointer of the mapping itself.
        at: Pointer,
        /// Members completed so far, in source order.
        members: Map<String, Value>,
        /// The key whose value comes next, with the member's pointer; `None` while a key
        /// is expected.
        pending: Option<(String, Pointer)>,
        /// Start marker of the mapping while its own position still has to be recorded
        /// (it is the root or an array element). See [`Loader::key`] for why it waits.
        locate: Option<Marker>,
    },
    /// A sequence being filled.
    Sequence {
        /// Pointer of the sequence itself.
        at: Pointer,
        /// Elements completed so far.
        items: Vec<Value>,
    },
}

/// Builds the data model from the parser's events.
struct Loader<'t> {
    /// The whole source, for the parser and for locating node properties.
    text: &'t str,
    /// Depth and string-length bounds.
    limits: &'t Limits,
    /// Open collections, innermost last. Depth lives here, on the heap.
    stack: Vec<Frame>,
    /// Positions recorded so far.
    map: SourceMap,
    /// The finished root value, once the document's top node is complete.
    root: Option<Value>,
    /// Number of documents seen so far.
    documents: usize,
}

impl<'t> Loader<'t> {
    /// A loader for `text` that has seen nothing yet.
    fn new(text: &'t str, limits: &'t Limits) -> Self {
        Loader {
            text,
            limits,
            stack: Vec::new(),
            map: SourceMap::default(),
            root: None,
            documents: 0,
        }
    }

    /// Consumes the parser's events up to the end of the stream.
    fn run(mut self) -> Result<(Value, SourceMap), Diagnostic> {
        let mut parser = Parser::new_from_str(self.text);
        loop {
            let (event, mark) = next_event(&mut parser)?;
            match event {
                Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
                Event::DocumentStart => {
                    self.documents += 1;
                    if self.documents > 1 {
                        return Err(serialization_error(
                            "yaml-multiple-documents",
                            &Pointer::root(),
                            Some(position(&mark)),
                            "the YAML stream contains more than one document; a description \
                             is exactly one document",
                        ));
                    }
                }
                Event::StreamEnd => return self.finish(&mark),
                Event::Alias(_) => {
                    return Err(serialization_error(
                        "yaml-alias",
                        &self.node_pointer(),
                        Some(position(&mark)),
                        "aliases (`*name`) are not allowed in a description; write the value \
                         out in full",
                    ))
                }
                Event::Scalar(value, style, anchor, tag) => {
                    self.scalar(value, style, anchor, tag.as_ref(), &mark)?;
                }
                Event::SequenceStart(anchor, tag) => {
                    self.open(false, anchor, tag.as_ref(), &mark)?;
                }
                Event::MappingStart(anchor, tag) => {
                    self.open(true, anchor, tag.as_ref(), &mark)?;
                }
                Event::SequenceEnd | Event::MappingEnd => self.close()?,
            }
        }
    }

    /// Ends the stream: exactly one document must have been read.
    fn finish(self, mark: &Marker) -> Result<(Value, SourceMap), Diagnostic> {
        match self.root {
            Some(value) if self.documents == 1 && self.stack.is_empty() => Ok((value, self.map)),
            _ => Err(serialization_error(
                "yaml-no-document",
                &Pointer::root(),
                Some(position(mark)),
                "the YAML stream contains no document; a description is exactly one document",
            )),
        }
    }

    /// The pointer of the node the next event describes. While a mapping waits for a
    /// key, that is the mapping itself: a key has no pointer of its own until it is known
    /// to be a valid string.
    fn node_pointer(&self) -> Pointer {
        match self.stack.last() {
            None => Pointer::root(),
            Some(Frame::Sequence { at, items }) => at.index(items.len()),
            Some(Frame::Mapping {
                pending: Some((_, member)),
                ..
            }) => member.clone(),
            Some(Frame::Mapping { at, .. }) => at.clone(),
        }
    }

    /// Whether the next node is a mapping key.
    fn expects_key(&self) -> bool {
        matches!(
            self.stack.last(),
            Some(Frame::Mapping { pending: None, .. })
        )
    }

    /// Whether the next node's own position goes into the source map: the root and array
    /// elements are located at their value, members at their key instead.
    fn locates_value(&self) -> bool {
        !matches!(self.stack.last(), Some(Frame::Mapping { .. }))
    }

    /// Rejects node properties: any tag, and any anchor.
    ///
    /// The event carries the node's content marker, not the marker of the property, so
    /// the text is scanned again to point at the `!tag` or `&anchor` itself. This only
    /// happens on the error path, and the first property token in the stream belongs to
    /// this node, since events come in document order and every earlier node had none.
    fn reject_properties(
        &self,
        anchor: usize,
        tag: Option<&Tag>,
        at: &Pointer,
        mark: &Marker,
    ) -> Result<(), Diagnostic> {
        if anchor == 0 && tag.is_none() {
            return Ok(());
        }
        let first = Scanner::new(self.text.chars()).find_map(|token| match token.1 {
            TokenType::Tag(handle, suffix) => Some((true, tag_text(&handle, &suffix), token.0)),
            TokenType::Anchor(name) => Some((false, format!("&{name}"), token.0)),
            _ => None,
        });
        let (is_tag, text, mark) = match first {
            Some(found) => found,
            // Not expected; fall back on what the event says.
            None => match tag {
                Some(tag) => (true, format!("{}{}", tag.handle, tag.suffix), *mark),
                None => (false, "an anchor".to_owned(), *mark),
            },
        };
        Err(if is_tag {
            serialization_error(
                "yaml-tag",
                at,
                Some(position(&mark)),
                format!(
                    "the tag `{text}` is not allowed: a description never applies YAML tags; \
                     write the value without it"
                ),
            )
        } else {
            serialization_error(
                "yaml-anchor",
                at,
                Some(position(&mark)),
                format!(
                    "the anchor `{text}` is not allowed: a description uses no anchors or aliases"
                ),
            )
        })
    }

    /// Checks the length limit of a scalar or key.
    fn check_length(&self, text: &str, at: &Pointer, mark: &Marker) -> Result<(), Diagnostic> {
        if text.len() > self.limits.max_string_len {
            return Err(serialization_error(
                "string-too-long",
                at,
                Some(position(mark)),
                format!(
                    "a string of {} bytes exceeds the limit of {} bytes",
                    text.len(),
                    self.limits.max_string_len
                ),
            ));
        }
        Ok(())
    }

    /// Handles a scalar event: a mapping key or a value.
    fn scalar(
        &mut self,
        text: String,
        style: TScalarStyle,
        anchor: usize,
        tag: Option<&Tag>,
        mark: &Marker,
    ) -> Result<(), Diagnostic> {
        let at = self.node_pointer();
        self.reject_properties(anchor, tag, &at, mark)?;
        self.check_length(&text, &at, mark)?;
        if self.expects_key() {
            return self.key(text, style, mark);
        }
        // Only plain scalars are resolved; quoted and block scalars are always strings.
        let value = if style == TScalarStyle::Plain {
            resolve(&text).map_err(|()| {
                serialization_error(
                    "yaml-non-finite-number",
                    &at,
                    Some(position(mark)),
                    format!(
                        "`{text}` is not a finite number; a description has only finite \
                         numbers (quote it to write a string)"
                    ),
                )
            })?
        } else {
            Value::String(text)
        };
        if self.locates_value() {
            self.map.insert(&at, position(mark));
        }
        self.complete(value)
    }

    /// Accepts a scalar as the next key of the innermost mapping.
    fn key(&mut self, key: String, style: TScalarStyle, mark: &Marker) -> Result<(), Diagnostic> {
        let Loader { stack, map, .. } = self;
        let Some(Frame::Mapping {
            at,
            members,
            pending,
            locate,
        }) = stack.last_mut()
        else {
            return Err(internal(Some(mark)));
        };
        if style == TScalarStyle::Plain {
            if key == "<<" {
                return Err(serialization_error(
                    "yaml-merge-key",
                    &at.key(&key),
                    Some(position(mark)),
                    "merge keys (`<<`) are not allowed in a description; write the members \
                     out (quote the key if `<<` is really meant as a name)",
                ));
            }
            if let Some(kind) = non_string_key(&key) {
                return Err(serialization_error(
                    "yaml-non-string-key",
                    at,
                    Some(position(mark)),
                    format!(
                        "{} is read as {kind}, but keys must be strings; quote it to use it \
                         as a name",
                        if key.is_empty() {
                            "the empty mapping key".to_owned()
                        } else {
                            format!("the mapping key `{key}`")
                        }
                    ),
                ));
            }
        }
        // A block mapping's start event is marked at the `:` after its first key, a flow
        // mapping's at its `{`: the earlier of the start and the first key is where the
        // mapping begins in both cases.
        if let Some(start) = locate.take() {
            let begin = if start.index() <= mark.index() {
                start
            } else {
                *mark
            };
            map.insert(at, position(&begin));
        }
        let member = at.key(&key);
        if members.contains_key(&key) {
            return Err(serialization_error(
                "yaml-duplicate-key",
                &member,
                Some(position(mark)),
                format!(
                    "duplicate key \"{key}\" in one mapping (after resolution, so `a` and \
                     `\"a\"` are the same key); neither value can be kept"
                ),
            ));
        }
        map.insert(&member, position(mark));
        *pending = Some((key, member));
        Ok(())
    }

    /// Opens a mapping or sequence.
    fn open(
        &mut self,
        mapping: bool,
        anchor: usize,
        tag: Option<&Tag>,
        mark: &Marker,
    ) -> Result<(), Diagnostic> {
        let at = self.node_pointer();
        self.reject_properties(anchor, tag, &at, mark)?;
        if self.expects_key() {
            return Err(serialization_error(
                "yaml-non-string-key",
                &at,
                Some(position(mark)),
                format!(
                    "a {} is used as a mapping key, but keys must be strings",
                    if mapping { "mapping" } else { "sequence" }
                ),
            ));
        }
        if self.stack.len() >= self.limits.depth() {
            return Err(serialization_error(
                "nesting-too-deep",
                &at,
                Some(position(mark)),
                format!(
                    "mappings and sequences are nested more than {} levels deep",
                    self.limits.depth()
                ),
            ));
        }
        let located = self.locates_value();
        if mapping {
            self.stack.push(Frame::Mapping {
                at,
                members: Map::new(),
                pending: None,
                locate: located.then_some(*mark),
            });
        } else {
            if located {
                self.map.insert(&at, position(mark));
            }
            self.stack.push(Frame::Sequence {
                at,
                items: Vec::new(),
            });
        }
        Ok(())
    }

    /// Closes the innermost collection and hands its value to its parent.
    fn close(&mut self) -> Result<(), Diagnostic> {
        let value = match self.stack.pop() {
            Some(Frame::Sequence { items, .. }) => Value::Array(items),
            Some(Frame::Mapping {
                at,
                members,
                pending: None,
                locate,
            }) => {
                // An empty mapping never saw a key: it starts at its start event (`{`).
                if let Some(start) = locate {
                    self.map.insert(&at, position(&start));
                }
                Value::Object(members)
            }
            // The parser always sends a value after a key and never closes what it did
            // not open; report rather than panic if that ever changes.
            _ => return Err(internal(None)),
        };
        self.complete(value)
    }

    /// Stores a finished value in its parent (or as the root).
    fn complete(&mut self, value: Value) -> Result<(), Diagnostic> {
        match self.stack.last_mut() {
            None => self.root = Some(value),
            Some(Frame::Sequence { items, .. }) => items.push(value),
            Some(Frame::Mapping {
                members, pending, ..
            }) => match pending.take() {
                Some((key, _)) => {
                    members.insert(key, value);
                }
                None => return Err(internal(None)),
            },
        }
        Ok(())
    }
}

/// An event sequence the parser is not supposed to produce, reported rather than
/// panicked on.
fn internal(mark: Option<&Marker>) -> Diagnostic {
    serialization_error(
        "yaml-syntax",
        &Pointer::root(),
        mark.map(position),
        "invalid YAML: unexpected event from the YAML parser",
    )
}

/// The source form of a tag token, for messages: `!local`, `!!float`, `!<uri>`, `!`.
fn tag_text(handle: &str, suffix: &str) -> String {
    if handle.is_empty() {
        if suffix == "!" {
            "!".to_owned()
        } else {
            format!("!<{suffix}>")
        }
    } else {
        format!("{handle}{suffix}")
    }
}

/// Resolves a plain scalar by the YAML 1.2 JSON schema, as the specification requires.
///
/// `null`, `true`, `false` and JSON-style numbers resolve; everything else (`yes`, `on`,
/// `~`, `Null`, `0x1F`, `+1`, `1_000`, `2026-01-01`, ...) stays a string. The empty plain
/// scalar, which is what an absent value such as `a:` produces, is null: that is how the
/// JSON schema resolves an empty node. `Err` means a non-finite number (`.inf`, `.nan` in
/// any of their spellings, or a literal that overflows to infinity), which the data model
/// cannot hold.
fn resolve(text: &str) -> Result<Value, ()> {
    match text {
        "" | "null" => return Ok(Value::Null),
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        _ => {}
    }
    if is_non_finite(text) {
        return Err(());
    }
    if is_json_int(text) {
        // serde_json reads JSON `-0` as the float -0.0; do the same so that both
        // serializations of a document decode to the same data model.
        if text == "-0" {
            return Number::from_f64(-0.0).map(Value::Number).ok_or(());
        }
        if let Ok(n) = text.parse::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        if let Ok(n) = text.parse::<u64>() {
            return Ok(Value::Number(n.into()));
        }
        // Too large for 64-bit integers: a float, like serde_json does.
        return float(text);
    }
    if is_json_float(text) {
        return float(text);
    }
    Ok(Value::String(text.to_owned()))
}

/// Parses a literal already known to match the JSON-schema float pattern.
fn float(text: &str) -> Result<Value, ()> {
    // `f64::from_str` accepts every spelling the pattern allows (`1.`, `1.e5` included)
    // and rounds correctly, like serde_json. `from_f64` refuses infinities.
    let f = text.parse::<f64>().map_err(|_| ())?;
    Number::from_f64(f).map(Value::Number).ok_or(())
}

/// `.inf`, `.nan` and their signed and capitalized spellings.
fn is_non_finite(text: &str) -> bool {
    let unsigned = text
        .strip_prefix('-')
        .or_else(|| text.strip_prefix('+'))
        .unwrap_or(text);
    matches!(
        unsigned,
        ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN"
    )
}

/// Length of the leading JSON-schema integer part `-?(0|[1-9][0-9]*)` of `text`, or
/// `None` when it does not start with one.
fn int_prefix(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let sign = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(sign) {
        Some(b'0') => Some(sign + 1),
        Some(b'1'..=b'9') => Some(sign + 1 + digits_at(bytes, sign + 1)),
        _ => None,
    }
}

/// Number of ASCII digits in `bytes` from `from` on (0 when `from` is past the end).
fn digits_at(bytes: &[u8], from: usize) -> usize {
    bytes
        .get(from..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count()
}

/// Whether `text` matches the JSON-schema integer `-?(0|[1-9][0-9]*)`.
fn is_json_int(text: &str) -> bool {
    int_prefix(text) == Some(text.len())
}

/// Whether `text` matches the JSON-schema float
/// `-?(0|[1-9][0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]+)?`.
fn is_json_float(text: &str) -> bool {
    let Some(mut i) = int_prefix(text) else {
        return false;
    };
    let bytes = text.as_bytes();
    let digits = |from: usize| digits_at(bytes, from);
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        i += digits(i);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exponent = digits(i);
        if exponent == 0 {
            return false;
        }
        i += exponent;
    }
    i == bytes.len()
}

/// What a plain key would be read as, if not a string.
///
/// The JSON schema decides the data model, but a key is also rejected when YAML 1.2's
/// core schema, the default of most YAML tools, would read it as null, a boolean or a
/// number (`~`, `Null`, `TRUE`, `0x1F`, `+1`, `.5`): such a key would mean something else
/// to those tools, and quoting it costs nothing. Values are not treated this way; the
/// specification fixes their resolution and a schema check follows anyway.
fn non_string_key(key: &str) -> Option<&'static str> {
    match resolve(key) {
        Ok(Value::String(_)) => {}
        Ok(Value::Null) => return Some("null"),
        Ok(Value::Bool(_)) => return Some("a boolean"),
        _ => return Some("a number"),
    }
    match key {
        "~" | "Null" | "NULL" => Some("null by YAML's core schema"),
        "True" | "TRUE" | "False" | "FALSE" => Some("a boolean by YAML's core schema"),
        _ if is_core_number(key) => Some("a number by YAML's core schema"),
        _ => None,
    }
}

/// Whether `text` is a number by the YAML 1.2 core schema but not by the JSON schema:
/// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+` or
/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_core_number(text: &str) -> bool {
    if let Some(octal) = text.strip_prefix("0o") {
        return !octal.is_empty() && octal.bytes().all(|b| matches!(b, b'0'..=b'7'));
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let bytes = text.as_bytes();
    let mut i = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
    let digits = |from: usize| digits_at(bytes, from);
    let whole = digits(i);
    i += whole;
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        fraction = digits(i);
        i += fraction;
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exponent = digits(i);
        if exponent == 0 {
            return false;
        }
        i += exponent;
    }
    i == bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<(Value, SourceMap), Diagnostic> {
        parse(text, &Limits::default())
    }

    fn value(text: &str) -> Value {
        match load(text) {
            Ok((value, _)) => value,
            Err(e) => panic!("rejected {text:?}: {e:?}"),
        }
    }

    fn error(text: &str) -> Diagnostic {
        match load(text) {
            Ok((value, _)) => panic!("accepted {text:?} as {value}"),
            Err(e) => e,
        }
    }

    /// Code, pointer, line and column of the error for `text`.
    fn rejected(text: &str) -> (&'static str, String, usize, usize) {
        let e = error(text);
        (e.code, e.pointer, e.line, e.column)
    }

    fn pos(map: &SourceMap, p: &str) -> (usize, usize) {
        let at = map.get(&Pointer::parse(p).unwrap()).unwrap();
        (at.line, at.column)
    }

    /// The six files of `serialization-0.8.0/expected-invalid`, verbatim (none ends with a
    /// newline). An integration test reads the files themselves.
    #[test]
    fn conformance_expected_invalid_files_are_rejected() {
        let cases = [
            // custom-tag.yaml
            ("a: !example value", "yaml-tag", "/a", 1, 4),
            // duplicate-key.yaml
            ("a: 1\n\"a\": 2", "yaml-duplicate-key", "/a", 2, 1),
            // merge-alias.yaml: the anchor is the first offence in document order.
            (
                "base: &base\n  a: 1\nvalue:\n  <<: *base",
                "yaml-anchor",
                "/base",
                1,
                7,
            ),
            // multiple-documents.yaml
            ("---\na: 1\n---\nb: 2", "yaml-multiple-documents", "", 3, 1),
            // positive-infinity.yaml
            ("value: .inf", "yaml-non-finite-number", "/value", 1, 8),
            // tagged-non-finite-number.yaml: the tag is refused before anything else.
            ("value: !!float .nan", "yaml-tag", "/value", 1, 8),
        ];
        for (text, code, pointer, line, column) in cases {
            assert_eq!(
                rejected(text),
                (code, pointer.to_owned(), line, column),
                "{text:?}"
            );
        }
    }

    #[test]
    fn equivalent_document_decodes_like_its_json_form() {
        // serialization-0.8.0/equivalent/document.json
        let json = r#"{
  "mcpdesc": "0.8.0",
  "info": { "name": "example", "version": "1.0.0" },
  "protocolVersions": ["2026-07-28"],
  "x-values": [true, false, null, 12, -1.5, 6.02e23, "2026-08-25"]
}"#;
        let yaml = "\
# The same document in block style.
mcpdesc: 0.8.0
info:
  name: example
  version: 1.0.0
protocolVersions:
  - \"2026-07-28\"
x-values:
  - true
  - false
  - null
  - 12
  - -1.5
  - 6.02e23
  - 2026-08-25
";
        let expected: Value = serde_json::from_str(json).unwrap();
        let actual = value(yaml);
        assert_eq!(actual, expected);
        // Same member order too, not only the same members.
        assert_eq!(actual.to_string(), expected.to_string());
    }

    #[test]
    fn plain_scalars_resolve_by_the_json_schema_only() {
        let v = value(
            "a: null\nb: true\nc: false\nd: 0\ne: -7\nf: 18446744073709551615\n\
             g: 123456789012345678901234567890\nh: 1.\ni: 1e5\nj: -0\nk: 0.5E-3\nl:\n",
        );
        let expected = serde_json::json!({
            "a": null, "b": true, "c": false, "d": 0, "e": -7,
            "f": 18446744073709551615u64, "g": 1.2345678901234568e29, "h": 1.0,
            "i": 100000.0, "j": -0.0, "k": 0.0005, "l": null,
        });
        assert_eq!(v, expected);
        // `-0` decodes exactly as serde_json decodes it from JSON.
        assert_eq!(v["j"], serde_json::from_str::<Value>("-0").unwrap());

        // YAML 1.1 and core-schema spellings, and anything else, stay strings.
        for s in [
            "yes",
            "no",
            "on",
            "off",
            "y",
            "n",
            "~",
            "Null",
            "NULL",
            "True",
            "FALSE",
            "0x1F",
            "0o17",
            "2026-01-01",
            "1_000",
            "+1",
            ".5",
            "01",
            "1e",
            "1.2.3",
            "<<",
            "=",
            "12:30",
        ] {
            let text = format!("v: {s}\n");
            assert_eq!(value(&text)["v"], Value::String(s.to_owned()), "{s:?}");
        }
        // Quoted and block scalars are never resolved.
        let v = value("a: \"true\"\nb: '12'\nc: \"\"\nd: |\n  null\n");
        assert_eq!(
            v,
            serde_json::json!({"a": "true", "b": "12", "c": "", "d": "null\n"})
        );
    }

    #[test]
    fn non_finite_numbers_are_rejected() {
        for s in [
            ".inf", "-.inf", "+.inf", ".Inf", "-.Inf", ".INF", "+.INF", ".nan", ".NaN", ".NAN",
            "-.nan", "+.NaN", "1e400", "-1e400",
        ] {
            let text = format!("list:\n  - {s}\n");
            assert_eq!(
                rejected(&text),
                ("yaml-non-finite-number", "/list/0".to_owned(), 2, 5),
                "{s:?}"
            );
        }
        // Quoted, they are strings.
        assert_eq!(value("v: '.inf'")["v"], ".inf");
        // An integer too long for any float is not finite either.
        let huge = format!("v: 1{}", "0".repeat(400));
        assert_eq!(error(&huge).code, "yaml-non-finite-number");
    }

    #[test]
    fn records_positions_of_members_and_elements() {
        let text = "a:\n  - 1\n  - b/c: true\n    \"é~\": [x, {y: 2}]\nz: {}\n";
        let (v, map) = load(text).unwrap();
        assert_eq!(v["a"][1]["é~"][1]["y"], 2);
        assert_eq!(pos(&map, ""), (1, 1));
        assert_eq!(pos(&map, "/a"), (1, 1));
        assert_eq!(pos(&map, "/a/0"), (2, 5));
        assert_eq!(pos(&map, "/a/1"), (3, 5));
        assert_eq!(pos(&map, "/a/1/b~1c"), (3, 5));
        assert_eq!(pos(&map, "/a/1/é~0"), (4, 5));
        assert_eq!(pos(&map, "/a/1/é~0/0"), (4, 12));
        assert_eq!(pos(&map, "/a/1/é~0/1"), (4, 15));
        assert_eq!(pos(&map, "/a/1/é~0/1/y"), (4, 16));
        assert_eq!(pos(&map, "/z"), (5, 1));
        // One entry per value, as for JSON.
        assert_eq!(map.len(), 10);

        // Flow root, block sequence root, empty mapping element, scalar root, CRLF.
        assert_eq!(pos(&load("  {a: [1, 2]}").unwrap().1, ""), (1, 3));
        let (_, map) = load("- x\n- {}\n").unwrap();
        assert_eq!((pos(&map, ""), pos(&map, "/1")), ((1, 1), (2, 3)));
        assert_eq!(pos(&load("\n\n  hello").unwrap().1, ""), (3, 3));
        let (_, map) = load("a: 1\r\nb:\r\n  c: 2\r\n").unwrap();
        assert_eq!((pos(&map, "/b"), pos(&map, "/b/c")), ((2, 1), (3, 3)));
    }

    #[test]
    fn flow_style_and_key_order() {
        assert_eq!(value("{a: [1, 2]}"), serde_json::json!({"a": [1, 2]}));
        let v = value("{z: 1, a: {y: [], b: null}, m: 'q'}");
        assert_eq!(v.to_string(), r#"{"z":1,"a":{"y":[],"b":null},"m":"q"}"#);
        let v = value("z: 1\na: 2\nm: 3\n");
        assert_eq!(
            v.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["z", "a", "m"]
        );
    }

    #[test]
    fn block_scalars_are_strings_and_plain_scalars_fold() {
        let v = value(
            "lit: |\n  12\n  true\nfold: >\n  one\n  two\n\n  three\nstrip: |-\n  x\n\
             plain: first\n  second\n\n  third\n",
        );
        assert_eq!(v["lit"], "12\ntrue\n");
        assert_eq!(v["fold"], "one two\nthree\n");
        assert_eq!(v["strip"], "x");
        assert_eq!(v["plain"], "first second\nthird");
    }

    #[test]
    fn keys_must_be_plain_strings() {
        for (text, pointer, line, column) in [
            ("1: x", "", 1, 1),
            ("true: x", "", 1, 1),
            ("null: x", "", 1, 1),
            ("~: x", "", 1, 1),
            ("a:\n  -1.5: x", "/a", 2, 3),
            ("0x1F: x", "", 1, 1),
            ("TRUE: x", "", 1, 1),
            (".inf: x", "", 1, 1),
            (": x", "", 1, 1),
            ("? [a]\n: b", "", 1, 3),
            ("[a]: b", "", 1, 1),
            ("{a: 1}: b", "", 1, 1),
            ("x: {[1]: 2}", "/x", 1, 5),
        ] {
            assert_eq!(
                rejected(text),
                ("yaml-non-string-key", pointer.to_owned(), line, column),
                "{text:?}"
            );
        }
        let v = value("\"1\": a\n'true': b\n\"~\": c\nyes: d\nx: e\ny: f\n\"\": g\n");
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["1", "true", "~", "yes", "x", "y", ""]);
    }

    #[test]
    fn duplicate_keys_are_rejected_at_the_second_occurrence() {
        assert_eq!(
            rejected("a: 1\nb:\n  c: 1\n  d: 2\n  'c': 3\n"),
            ("yaml-duplicate-key", "/b/c".to_owned(), 5, 3)
        );
        assert_eq!(
            rejected("{x/y: 1, \"x/y\": 2}"),
            ("yaml-duplicate-key", "/x~1y".to_owned(), 1, 10)
        );
        // The same key in different mappings is fine.
        value("a: {k: 1}\nb: {k: 2}\n");
    }

    #[test]
    fn anchors_aliases_merge_keys_and_tags_are_rejected() {
        for (text, code, pointer, line, column) in [
            ("a: &x 1", "yaml-anchor", "/a", 1, 4),
            ("- &x\n  k: v", "yaml-anchor", "/0", 1, 3),
            ("*x", "yaml-alias", "", 1, 1),
            ("a: 1\nb: [*x]", "yaml-alias", "", 2, 5),
            ("a:\n  <<: {b: 1}", "yaml-merge-key", "/a/<<", 2, 3),
            ("a: !!str x", "yaml-tag", "/a", 1, 4),
            ("a: !<tag:yaml.org,2002:str> x", "yaml-tag", "/a", 1, 4),
            ("a: ! x", "yaml-tag", "/a", 1, 4),
            ("a: !!null", "yaml-tag", "/a", 1, 4),
            ("--- !t\na: 1", "yaml-tag", "", 1, 5),
            ("!!str k: v", "yaml-tag", "", 1, 1),
            ("a: [1, !x 2]", "yaml-tag", "/a/1", 1, 8),
            ("a: !e!x 1", "yaml-tag", "", 1, 4),
            ("a: !t &x 1", "yaml-tag", "/a", 1, 4),
            ("a: &x !t 1", "yaml-anchor", "/a", 1, 4),
        ] {
            assert_eq!(
                rejected(text),
                (code, pointer.to_owned(), line, column),
                "{text:?}"
            );
        }
        assert!(error("a: !!float .nan").message.contains("`!!float`"));
        // A quoted `<<` is an ordinary key.
        assert_eq!(value("\"<<\": 1"), serde_json::json!({"<<": 1}));
    }

    #[test]
    fn exactly_one_document() {
        for text in ["", "# nothing here\n", "\n\n"] {
            assert_eq!(error(text).code, "yaml-no-document", "{text:?}");
        }
        for (text, line) in [
            ("--- 1\n--- 2\n", 2),
            ("a: 1\n---\n", 2),
            ("a\n...\nb\n", 3),
        ] {
            let e = error(text);
            assert_eq!(
                (e.code, e.line),
                ("yaml-multiple-documents", line),
                "{text:?}"
            );
        }
        assert_eq!(
            value("---\na: 1\n...\n# trailing comment\n"),
            serde_json::json!({"a": 1})
        );
        // An explicit but empty document is one document, whose value is null.
        assert_eq!(value("---\n"), Value::Null);
    }

    /// Runs `f` on a thread with a small stack: any recursion per nesting level in the
    /// loader or in yaml-rust2 would overflow it.
    fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap()
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let codes = on_small_stack(|| {
            let flow_sequences = "[".repeat(100_000) + &"]".repeat(100_000);
            let flow_mappings = "{a: ".repeat(100_000);
            let block_sequences = "- ".repeat(100_000) + "x";
            let block_mappings: String = (0..5_000).map(|i| " ".repeat(i) + "k:\n").collect();
            let mixed = "- a:\n".to_owned()
                + &(1..3_000)
                    .map(|i| " ".repeat(2 * i) + "- a:\n")
                    .collect::<String>();
            [
                flow_sequences,
                flow_mappings,
                block_sequences,
                block_mappings,
                mixed,
            ]
            .iter()
            .map(|text| load(text).map(|_| ()).unwrap_err().code)
            .collect::<Vec<_>>()
        });
        assert!(codes.iter().all(|c| *c == "nesting-too-deep"), "{codes:?}");
    }

    #[test]
    fn nesting_limit_is_exact() {
        let limits = Limits::default();
        let depth = limits.depth();
        let ok = "[".repeat(depth) + &"]".repeat(depth);
        assert!(parse(&ok, &limits).is_ok());
        let deep = "[".repeat(depth + 1) + &"]".repeat(depth + 1);
        let e = parse(&deep, &limits).unwrap_err();
        assert_eq!(e.code, "nesting-too-deep");
        assert_eq!(e.pointer, "/0".repeat(depth));
        assert_eq!((e.line, e.column), (1, depth + 1));

        let small = Limits {
            max_depth: 2,
            ..Limits::default()
        };
        assert!(parse("a:\n  b: 1\n", &small).is_ok());
        let e = parse("a:\n  b:\n    - 1\n", &small).unwrap_err();
        assert_eq!((e.code, e.pointer.as_str()), ("nesting-too-deep", "/a/b"));
        assert_eq!((e.line, e.column), (3, 5));
    }

    #[test]
    fn long_strings_are_bounded() {
        let limits = Limits {
            max_string_len: 8,
            ..Limits::default()
        };
        for (text, pointer) in [
            ("k: \"0123456789\"", "/k"),
            ("k: 0123456789", "/k"),
            ("k: |\n  0123456\n  89\n", "/k"),
            ("- x\n- '0123456789'", "/1"),
            ("a:\n  0123456789: 1", "/a"),
        ] {
            let e = parse(text, &limits).unwrap_err();
            assert_eq!(
                (e.code, e.pointer.as_str()),
                ("string-too-long", pointer),
                "{text:?}"
            );
        }
        assert!(parse("k: '01234567'", &limits).is_ok());
    }

    #[test]
    fn syntax_errors_have_a_position() {
        for (text, line, column) in [
            ("a: b: c", 1, 5),
            ("a: 'x", 1, 4),
            ("a:\n  - [1, 2\nb: 3\n", 3, 2),
            ("a: 1\n b: 2\n", 2, 3),
            ("a: @x", 1, 4),
        ] {
            let e = error(text);
            assert_eq!(e.code, "yaml-syntax", "{text:?}");
            assert_eq!(
                (e.line, e.column),
                (line, column),
                "{text:?}: {}",
                e.message
            );
            assert!(e.message.starts_with("invalid YAML: "), "{}", e.message);
        }
    }

    /// yaml-rust2's own flow-nesting cap and unknown-alias error keep their meaning; these
    /// messages are matched verbatim in `scan_error`, so an upgrade that rewords them
    /// fails here.
    #[test]
    fn yaml_rust2_errors_are_classified() {
        assert_eq!(error(&"[".repeat(300)).code, "nesting-too-deep");
        assert_eq!(error("- *nowhere").code, "yaml-alias");
        assert_eq!(error("a: !undeclared!x 1").code, "yaml-tag");
    }

    #[test]
    fn pointers_escape_keys() {
        let (_, map) = load("a/b:\n  c~d: 1\n").unwrap();
        assert_eq!(pos(&map, "/a~1b/c~0d"), (2, 3));
    }

    /// Malformed and odd inputs never panic, inside this module or inside yaml-rust2 (a
    /// caught yaml-rust2 panic would show up as its "parser failed" message).
    #[test]
    fn arbitrary_input_never_panics() {
        let alphabet: Vec<char> = "-?:,[]{}#&*!|>'\"%@` \n\t\rab01.~<é\u{feff}"
            .chars()
            .collect();
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let sample = "a: [1, {b: 'c'}]\n? x\n: |\n  y\n- z\n--- &a !t *a\n";
        let mut inputs: Vec<String> = (0..=sample.len())
            .filter(|&i| sample.is_char_boundary(i))
            .map(|i| sample[..i].to_owned())
            .collect();
        for _ in 0..3_000 {
            let len = (next() % 24) as usize;
            inputs.push(
                (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect(),
            );
        }
        for text in &inputs {
            if let Err(e) = load(text) {
                assert!(!e.message.contains("parser failed"), "{text:?}: {e:?}");
                assert!(e.line >= 1 || e.column == 0, "{text:?}: {e:?}");
            }
        }
    }
}
