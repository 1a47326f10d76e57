//! Wrongly typed values that a lax parser coerces into the valid one: Python's
//! pydantic (the official Python SDK's argument parsing) turns `"7"` into `7` and
//! `"yes"` into `true`, JavaScript's `Number()` and many hand-written servers do the
//! same. The `inputSchema` rejects every one of them, so a server that accepts one
//! does not enforce its contract, and a client that relies on the contract can be
//! fooled by its own bugs.

use serde_json::{json, Value};

/// The coercible wrong values for `value` (valid, of the `type` `t`): what each is,
/// and the value. A value the schema's other listed types accept is left out.
pub(super) fn coercible(t: &Value, value: &Value) -> Vec<(String, Value)> {
    let types: Vec<&str> = match t {
        Value::String(s) => vec![s.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let has = |name: &str| types.contains(&name);
    let numeric = has("number") || has("integer");
    let mut out = Vec::new();
    match value {
        Value::Number(n) if numeric && !has("string") => {
            let kind = if n.is_f64() || !has("integer") {
                "a number"
            } else {
                "an integer"
            };
            out.push((
                format!("a numeric string for {kind}"),
                Value::String(n.to_string()),
            ));
            if let (Some(i), false) = (n.as_i64(), has("number")) {
                out.push((
                    "a float with a fraction for an integer".to_owned(),
                    json!(i as f64 + 0.5),
                ));
            }
        }
        Value::Bool(b) if has("boolean") => {
            if !has("string") {
                out.push((
                    format!("the string \"{b}\" for a boolean"),
                    Value::String(b.to_string()),
                ));
                let word = if *b { "yes" } else { "no" };
                out.push((
                    format!("the string \"{word}\" for a boolean"),
                    Value::String(word.to_owned()),
                ));
            }
            if !numeric {
                out.push((
                    format!("the number {} for a boolean", u8::from(*b)),
                    json!(u8::from(*b)),
                ));
            }
        }
        Value::String(s) if has("string") && !numeric => {
            let number = s
                .parse::<i64>()
                .ok()
                .filter(|_| !s.starts_with('+'))
                .map_or(json!(7), Value::from);
            out.push(("a number for a string".to_owned(), number));
        }
        Value::Array(items) if has("array") => {
            if let Some(first) = items.first() {
                out.push(("a single value for an array".to_owned(), first.clone()));
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::coercible;

    #[test]
    fn each_type_gets_the_values_a_lax_parser_coerces() {
        let values = |t, v| -> Vec<serde_json::Value> {
            coercible(&json!(t), &v)
                .into_iter()
                .map(|(_, v)| v)
                .collect()
        };
        assert_eq!(values("integer", json!(7)), vec![json!("7"), json!(7.5)]);
        assert_eq!(values("number", json!(2.5)), vec![json!("2.5")]);
        assert_eq!(
            values("boolean", json!(true)),
            vec![json!("true"), json!("yes"), json!(1)]
        );
        assert_eq!(values("string", json!("12")), vec![json!(12)]);
        assert_eq!(values("string", json!("abc")), vec![json!(7)]);
        assert_eq!(values("array", json!(["a", "b"])), vec![json!("a")]);
        // What another listed type accepts is no wrong value.
        assert!(coercible(&json!(["integer", "string"]), &json!(7)).is_empty());
    }
}
