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

use serde_json::{Map, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, ScanError, Scanner, TScalarStyle, TokenType};

mod scalars;

#[cfg(test)]
mod tests;

use super::error::serialization_error;
use super::limits::Limits;
use crate::diagnostic::Diagnostic;
use crate::pointer::Pointer;
use crate::position::{Position, SourceMap};
use scalars::{non_string_key, resolve};

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
