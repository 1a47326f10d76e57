//! The first difference between two JSON values, as a JSON pointer with both sides:
//! what an implementation test prints when a result is not the example's.

use std::fmt;

use serde_json::Value;

use crate::protocol::json::canonical;

/// Where two JSON values first differ, and what each side has there.
///
/// `None` on a side means the member or item is absent there (an object member only one
/// side has, an array item beyond the shorter array).
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// The JSON pointer of the first difference, relative to the compared values (`""`
    /// for the values themselves).
    pub pointer: String,
    /// The expected value at [`Difference::pointer`], `None` when absent.
    pub expected: Option<Value>,
    /// The actual value at [`Difference::pointer`], `None` when absent.
    pub actual: Option<Value>,
}

impl fmt::Display for Difference {
    /// ```text
    /// at /structuredContent/evaluation
    ///     expected: 10000.0
    ///     actual:   12.5
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: &Option<Value>| v.as_ref().map_or("(absent)".to_owned(), Value::to_string);
        let at = if self.pointer.is_empty() {
            "(the whole value)"
        } else {
            &self.pointer
        };
        write!(
            f,
            "at {at}\n    expected: {}\n    actual:   {}",
            show(&self.expected),
            show(&self.actual)
        )
    }
}

/// The first place where `actual` differs from `expected`, or `None` when they are equal.
///
/// Values are compared as JSON data: object members in any order (their union is walked
/// in key order, so "first" is deterministic), array items in order, numbers by value
/// (`1.0` equals `1`, as [`canonical`] writes them), strings exactly.
///
/// ```
/// use serde_json::json;
/// use mcpdesc::testing::first_difference;
///
/// let expected = json!({"content": [{"type": "text", "text": "1500"}], "isError": false});
/// let actual = json!({"isError": false, "content": [{"type": "text", "text": "1516"}]});
/// let d = first_difference(&expected, &actual).unwrap();
/// assert_eq!(d.pointer, "/content/0/text");
/// assert_eq!((d.expected, d.actual), (Some(json!("1500")), Some(json!("1516"))));
/// assert!(first_difference(&json!({"a": 1.0}), &json!({"a": 1})).is_none());
/// assert_eq!(first_difference(&json!([1]), &json!([1, 2])).unwrap().pointer, "/1");
/// ```
pub fn first_difference(expected: &Value, actual: &Value) -> Option<Difference> {
    let mut pointer = String::new();
    walk(&canonical(expected), &canonical(actual), &mut pointer)
}

fn walk(expected: &Value, actual: &Value, pointer: &mut String) -> Option<Difference> {
    let here = |pointer: &str, e: Option<&Value>, a: Option<&Value>| Difference {
        pointer: pointer.to_owned(),
        expected: e.cloned(),
        actual: a.cloned(),
    };
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            // `canonical` sorted both maps; walk the union of their keys in order.
            let mut keys: Vec<&String> = e.keys().chain(a.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                let found = match (e.get(key), a.get(key)) {
                    (Some(ev), Some(av)) => walk(ev, av, pointer),
                    (ev, av) => Some(here(pointer, ev, av)),
                };
                if found.is_some() {
                    return found;
                }
                pointer.truncate(len);
            }
            None
        }
        (Value::Array(e), Value::Array(a)) => {
            for i in 0..e.len().max(a.len()) {
                let len = pointer.len();
                pointer.push_str(&format!("/{i}"));
                let found = match (e.get(i), a.get(i)) {
                    (Some(ev), Some(av)) => walk(ev, av, pointer),
                    (ev, av) => Some(here(pointer, ev, av)),
                };
                if found.is_some() {
                    return found;
                }
                pointer.truncate(len);
            }
            None
        }
        (e, a) if e == a => None,
        (e, a) => Some(here(pointer, Some(e), Some(a))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn equal_values_have_no_difference() {
        let v = json!({"a": [1, {"b": "x"}], "c": null});
        assert_eq!(first_difference(&v, &v.clone()), None);
    }

    #[test]
    fn missing_and_extra_members_are_absent_on_one_side() {
        let d = first_difference(&json!({"a": 1, "b": 2}), &json!({"a": 1})).unwrap();
        assert_eq!((d.pointer.as_str(), d.actual), ("/b", None));
        let d = first_difference(&json!({"a": 1}), &json!({"a": 1, "z": true})).unwrap();
        assert_eq!((d.pointer.as_str(), d.expected), ("/z", None));
    }

    #[test]
    fn the_first_in_key_order_wins_and_keys_are_escaped() {
        let d = first_difference(&json!({"b/c": 1, "a~": 1}), &json!({"b/c": 2, "a~": 2})).unwrap();
        assert_eq!(d.pointer, "/a~0");
        let d = first_difference(&json!({"b/c": 1}), &json!({"b/c": 2})).unwrap();
        assert_eq!(d.pointer, "/b~1c");
    }

    #[test]
    fn different_types_differ_at_the_value() {
        let d = first_difference(&json!({"a": "1"}), &json!({"a": 1})).unwrap();
        assert_eq!(d.pointer, "/a");
        assert_eq!(d.to_string(), "at /a\n    expected: \"1\"\n    actual:   1");
        let d = first_difference(&json!(1), &json!(2)).unwrap();
        assert!(d.to_string().starts_with("at (the whole value)"));
    }
}
