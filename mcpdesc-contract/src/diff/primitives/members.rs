//! Members of two declarations compared, and where a member is written.

use serde_json::Value;

use crate::diff::values::json_equal;
use crate::diff::view::Decl;
use mcpdesc_description::pointer::Pointer;

/// Whether `a` and `b` have the same `key` member (both absent counts).
pub(super) fn same_member(a: &Value, b: &Value, key: &str) -> bool {
    match (a.get(key), b.get(key)) {
        (Some(x), Some(y)) => json_equal(x, y),
        (None, None) => true,
        _ => false,
    }
}

/// The pointer of `d`'s `key` member, or of `d` itself when it has none.
pub(super) fn member_or_self(d: &Decl<'_>, key: &str) -> Pointer {
    if d.value.get(key).is_some() {
        d.at.key(key)
    } else {
        d.at.clone()
    }
}
