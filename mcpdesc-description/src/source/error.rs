//! The diagnostic of a text that cannot be loaded: rule `mcpdesc.serialization`.

use crate::diagnostic::{Diagnostic, Severity};
use crate::pointer::Pointer;
use crate::position::Position;

/// Rule id of every serialization diagnostic.
pub const SERIALIZATION_RULE: &str = "mcpdesc.serialization";

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
