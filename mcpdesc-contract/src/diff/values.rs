//! Values as the comparisons see them: JSON compared as JSON Schema compares
//! instances, short renderings for messages, version lists.

use serde_json::Value;

use mcpdesc_description::protocol::{ProtocolVersion, VersionSet};

/// The version list of a set, for messages and JSON.
pub(crate) fn version_names(set: VersionSet) -> Vec<&'static str> {
    set.iter().map(ProtocolVersion::as_str).collect()
}

/// JSON values compared the way JSON Schema compares instances: numbers by value
/// (`1` equals `1.0`), objects without regard to member order.
pub(crate) fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(x), Some(y)) => x == y,
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

/// A short rendering of a value for messages.
pub(crate) fn brief(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 60 {
        text
    } else {
        format!("{}...", text.chars().take(57).collect::<String>())
    }
}
