//! Source positions: where each value of a loaded document starts, so that a
//! diagnostic about a JSON Pointer can name a line and column.

use std::collections::HashMap;

use crate::pointer::Pointer;

/// A 1-based line and column (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Where each value of a loaded document starts in its source.
///
/// For an object member the position is that of its key, which is where a reader looks
/// for `"inputSchema": ...`; for an array element or the root, that of the value.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    positions: HashMap<String, Position>,
}

impl SourceMap {
    /// Records where the value at `pointer` starts (the loaders call it).
    pub(crate) fn insert(&mut self, pointer: &Pointer, position: Position) {
        self.positions.insert(pointer.as_str().to_owned(), position);
    }

    /// The position of exactly this pointer.
    pub fn get(&self, pointer: &Pointer) -> Option<Position> {
        self.positions.get(pointer.as_str()).copied()
    }

    /// The position of the pointer or, failing that, of its nearest ancestor.
    pub fn nearest(&self, pointer: &Pointer) -> Option<Position> {
        let mut at = Some(pointer.clone());
        while let Some(p) = at {
            if let Some(pos) = self.get(&p) {
                return Some(pos);
            }
            at = p.parent();
        }
        None
    }

    /// Number of located values.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether no value is located.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}
