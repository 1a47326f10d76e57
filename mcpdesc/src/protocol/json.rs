//! JSON helpers every layer uses: the canonical form examples and answers are
//! compared in, and the JSON Pointer of where deserialization stopped.

use serde_json::Value;

/// The canonical form examples are matched in: object members sorted by key, numbers
/// with an integral value written as integers (`1.0` equals `1`).
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&map[k])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => value.clone(),
        },
        other => other.clone(),
    }
}

/// The JSON pointer (relative, `""` for the root) of where deserialization stopped:
/// object keys and array indexes; enum variant steps add nothing (an untagged or
/// internally tagged enum has no key of its own), and an unknown step ends the pointer.
pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Enum { .. } => {}
            Segment::Unknown => break,
        }
    }
    pointer
}
