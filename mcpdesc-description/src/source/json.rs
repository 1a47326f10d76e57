//! Strict JSON (RFC 8259) loading.
//!
//! `serde_json` does the parsing proper. Before it runs, a single iterative pass over
//! the text (no recursion, so no stack overflow on hostile nesting) enforces the limits,
//! rejects duplicate member names (RFC 8259 leaves them undefined; the description model
//! has no meaning for them) and records the position of every value by JSON Pointer.

use std::collections::HashSet;

use super::error::serialization_error;
use super::limits::Limits;
use crate::diagnostic::Diagnostic;
use crate::pointer::Pointer;
use crate::position::{Position, SourceMap};

pub(super) fn parse(
    text: &str,
    limits: &Limits,
) -> Result<(serde_json::Value, SourceMap), Diagnostic> {
    let positions = match Indexer::new(text, limits).run() {
        Ok(map) => map,
        Err(IndexError::Limit(d)) | Err(IndexError::Duplicate(d)) => return Err(d),
        // Syntax problems are described by serde_json, whose messages are precise.
        Err(IndexError::Syntax(fallback)) => {
            return Err(match serde_json::from_str::<serde_json::Value>(text) {
                Err(e) => syntax_error(&e),
                Ok(_) => fallback,
            })
        }
    };
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => Ok((value, positions)),
        Err(e) => Err(syntax_error(&e)),
    }
}

fn syntax_error(e: &serde_json::Error) -> Diagnostic {
    let message = e.to_string();
    // serde_json appends " at line L column C"; the position is reported separately.
    let message = message
        .rsplit_once(" at line ")
        .map(|(m, _)| m.to_owned())
        .unwrap_or(message);
    serialization_error(
        "json-syntax",
        &Pointer::root(),
        Some(Position {
            line: e.line().max(1),
            column: e.column().max(1),
        }),
        format!("invalid JSON: {message}"),
    )
}

enum IndexError {
    Limit(Diagnostic),
    Duplicate(Diagnostic),
    Syntax(Diagnostic),
}

/// One open container during the scan.
enum Frame {
    Object {
        at: Pointer,
        keys: HashSet<String>,
        /// Pointer and position of the member whose value comes next.
        pending: Option<Pointer>,
    },
    Array {
        at: Pointer,
        next: usize,
    },
}

struct Indexer<'t> {
    bytes: &'t [u8],
    text: &'t str,
    limits: &'t Limits,
    offset: usize,
    line: usize,
    column: usize,
    stack: Vec<Frame>,
    map: SourceMap,
}

impl<'t> Indexer<'t> {
    fn new(text: &'t str, limits: &'t Limits) -> Self {
        Indexer {
            bytes: text.as_bytes(),
            text,
            limits,
            offset: 0,
            line: 1,
            column: 1,
            stack: Vec::new(),
            map: SourceMap::default(),
        }
    }

    fn here(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }

    fn bump(&mut self) {
        if let Some(&b) = self.bytes.get(self.offset) {
            self.offset += 1;
            if b == b'\n' {
                self.line += 1;
                self.column = 1;
            } else if b & 0xC0 != 0x80 {
                // Count characters, not UTF-8 continuation bytes.
                self.column += 1;
            }
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.offset) {
            self.bump();
        }
    }

    fn syntax(&self) -> IndexError {
        IndexError::Syntax(serialization_error(
            "json-syntax",
            &Pointer::root(),
            Some(self.here()),
            "invalid JSON",
        ))
    }

    /// Scans a string token starting at `"`; returns its raw text with the quotes.
    fn string(&mut self, at: &Pointer) -> Result<&'t str, IndexError> {
        let start = self.offset;
        let start_pos = self.here();
        self.bump();
        loop {
            match self.bytes.get(self.offset) {
                None => return Err(self.syntax()),
                Some(b'"') => {
                    self.bump();
                    break;
                }
                Some(b'\\') => {
                    self.bump();
                    self.bump();
                }
                Some(_) => self.bump(),
            }
        }
        let len = self.offset - start - 2;
        if len > self.limits.max_string_len {
            return Err(IndexError::Limit(serialization_error(
                "string-too-long",
                at,
                Some(start_pos),
                format!(
                    "a string of {len} bytes exceeds the limit of {} bytes",
                    self.limits.max_string_len
                ),
            )));
        }
        Ok(&self.text[start..self.offset])
    }

    /// Called at the start of every value: records where it is and returns its pointer.
    fn begin_value(&mut self) -> Pointer {
        let pos = self.here();
        match self.stack.last_mut() {
            None => {
                let p = Pointer::root();
                self.map.insert(&p, pos);
                p
            }
            Some(Frame::Object { pending, at, .. }) => pending.take().unwrap_or_else(|| at.clone()),
            Some(Frame::Array { at, next }) => {
                let p = at.index(*next);
                *next += 1;
                self.map.insert(&p, pos);
                p
            }
        }
    }

    fn run(mut self) -> Result<SourceMap, IndexError> {
        // A two-state machine: either a value is expected, or one has just ended.
        // Depth lives in `self.stack` (heap), never in the call stack.
        let mut expect_value = true;
        loop {
            self.skip_ws();
            if expect_value {
                expect_value = self.open_or_scalar()?;
                continue;
            }
            if self.stack.is_empty() {
                break;
            }
            match self.bytes.get(self.offset) {
                Some(b',') => {
                    self.bump();
                    self.skip_ws();
                    if let Some(Frame::Object { .. }) = self.stack.last() {
                        self.member_key()?;
                    }
                    expect_value = true;
                }
                Some(b'}') if matches!(self.stack.last(), Some(Frame::Object { .. })) => {
                    self.bump();
                    self.stack.pop();
                }
                Some(b']') if matches!(self.stack.last(), Some(Frame::Array { .. })) => {
                    self.bump();
                    self.stack.pop();
                }
                _ => return Err(self.syntax()),
            }
        }
        if self.offset != self.bytes.len() {
            return Err(self.syntax());
        }
        Ok(self.map)
    }

    /// Scans `"key" :` inside an object and makes the key the pending member.
    fn member_key(&mut self) -> Result<(), IndexError> {
        if self.bytes.get(self.offset) != Some(&b'"') {
            return Err(self.syntax());
        }
        let pos = self.here();
        let container = match self.stack.last() {
            Some(Frame::Object { at, .. }) => at.clone(),
            _ => Pointer::root(),
        };
        let raw = self.string(&container)?;
        let key = if raw.contains('\\') {
            serde_json::from_str::<String>(raw).map_err(|_| self.syntax())?
        } else {
            raw[1..raw.len() - 1].to_owned()
        };
        let Some(Frame::Object { at, keys, pending }) = self.stack.last_mut() else {
            return Err(self.syntax());
        };
        let member = at.key(&key);
        if !keys.insert(key.clone()) {
            return Err(IndexError::Duplicate(serialization_error(
                "duplicate-key",
                &member,
                Some(pos),
                format!("duplicate member name \"{key}\" in one object"),
            )));
        }
        self.map.insert(&member, pos);
        *pending = Some(member);
        self.skip_ws();
        if self.bytes.get(self.offset) != Some(&b':') {
            return Err(self.syntax());
        }
        self.bump();
        Ok(())
    }

    /// Scans the start of one value. A scalar is consumed whole; a container is opened
    /// (pushed) and, for an object, its first key scanned. Returns whether a value is
    /// expected next (true right after opening a non-empty container).
    fn open_or_scalar(&mut self) -> Result<bool, IndexError> {
        let at = self.begin_value();
        match self.bytes.get(self.offset) {
            Some(&open @ (b'{' | b'[')) => {
                if self.stack.len() >= self.limits.depth() {
                    return Err(IndexError::Limit(serialization_error(
                        "nesting-too-deep",
                        &at,
                        Some(self.here()),
                        format!(
                            "objects and arrays are nested more than {} levels deep",
                            self.limits.depth()
                        ),
                    )));
                }
                self.bump();
                self.skip_ws();
                let close = if open == b'{' { b'}' } else { b']' };
                if self.bytes.get(self.offset) == Some(&close) {
                    self.bump();
                    return Ok(false);
                }
                if open == b'{' {
                    self.stack.push(Frame::Object {
                        at,
                        keys: HashSet::new(),
                        pending: None,
                    });
                    self.member_key()?;
                } else {
                    self.stack.push(Frame::Array { at, next: 0 });
                }
                Ok(true)
            }
            Some(b'"') => self.string(&at).map(|_| false),
            Some(_) => {
                let start = self.offset;
                while let Some(b) = self.bytes.get(self.offset) {
                    if matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.bump();
                }
                if self.offset == start {
                    return Err(self.syntax());
                }
                Ok(false)
            }
            None => Err(self.syntax()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<(serde_json::Value, SourceMap), Diagnostic> {
        parse(text, &Limits::default())
    }

    fn pos(map: &SourceMap, p: &str) -> (usize, usize) {
        let at = map.get(&Pointer::parse(p).unwrap()).unwrap();
        (at.line, at.column)
    }

    #[test]
    fn records_positions_of_members_and_elements() {
        let text = "{\n  \"a\": [1, {\"b/c\": true}],\n  \"é\": \"x\"\n}";
        let (value, map) = load(text).unwrap();
        assert_eq!(value["a"][1]["b/c"], true);
        assert_eq!(pos(&map, ""), (1, 1));
        assert_eq!(pos(&map, "/a"), (2, 3));
        assert_eq!(pos(&map, "/a/0"), (2, 9));
        assert_eq!(pos(&map, "/a/1"), (2, 12));
        assert_eq!(pos(&map, "/a/1/b~1c"), (2, 13));
        assert_eq!(pos(&map, "/é"), (3, 3));
    }

    #[test]
    fn escaped_keys_are_decoded() {
        let (_, map) = load(r#"{"\u0041": 1}"#).unwrap();
        assert!(map.get(&Pointer::root().key("A")).is_some());
    }

    #[test]
    fn rejects_duplicate_keys_with_position() {
        let err = load("{\"a\": 1,\n \"a\": 2}").unwrap_err();
        assert_eq!(err.code, "duplicate-key");
        assert_eq!((err.line, err.column), (2, 2));
        assert_eq!(err.pointer, "/a");
    }

    #[test]
    fn syntax_errors_come_from_serde_json_with_position() {
        let err = load("{\n  \"a\": tru,\n  \"b\": 1\n}").unwrap_err();
        assert_eq!(err.code, "json-syntax");
        assert_eq!(err.line, 2);
        assert!(err.message.starts_with("invalid JSON"), "{}", err.message);
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "NaN",
            "[1] [2]",
            "{'a': 1}",
            "[\"\\x\"]",
        ] {
            assert!(load(bad).is_err(), "accepted {bad:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000) + &"]".repeat(100_000);
        let err = load(&text).unwrap_err();
        assert_eq!(err.code, "nesting-too-deep");
        let nested = "{\"a\":".repeat(100_000);
        assert_eq!(load(&nested).unwrap_err().code, "nesting-too-deep");
    }

    #[test]
    fn long_strings_are_bounded() {
        let limits = Limits {
            max_string_len: 8,
            ..Limits::default()
        };
        let err = parse(r#"{"k": "0123456789"}"#, &limits).unwrap_err();
        assert_eq!(err.code, "string-too-long");
        assert_eq!(err.pointer, "/k");
    }
}
