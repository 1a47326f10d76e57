//! Edits of JSON values that `migrate` and `pull` share.

use serde_json::Value;

use mcpdesc_description::pointer::Pointer;

/// Removes the member at `at` from `value` (keeping the order of the other members),
/// returning it.
pub(crate) fn remove_at(value: &mut Value, at: &Pointer) -> Option<Value> {
    let parent = at.parent()?;
    let key = at.segments().last()?;
    match value.pointer_mut(parent.as_str())? {
        Value::Object(map) => map.shift_remove(&key),
        Value::Array(items) => {
            let index: usize = key.parse().ok()?;
            (index < items.len()).then(|| items.remove(index))
        }
        _ => None,
    }
}
