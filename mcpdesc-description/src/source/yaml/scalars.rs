//! Plain scalars resolved by the YAML 1.2 JSON schema (`null`, `true`, `false`,
//! JSON-style numbers; everything else is a string), and the keys that would read as
//! something other than a string.

use serde_json::{Number, Value};

/// Resolves a plain scalar by the YAML 1.2 JSON schema, as the specification requires.
///
/// `null`, `true`, `false` and JSON-style numbers resolve; everything else (`yes`, `on`,
/// `~`, `Null`, `0x1F`, `+1`, `1_000`, `2026-01-01`, ...) stays a string. The empty plain
/// scalar, which is what an absent value such as `a:` produces, is null: that is how the
/// JSON schema resolves an empty node. `Err` means a non-finite number (`.inf`, `.nan` in
/// any of their spellings, or a literal that overflows to infinity), which the data model
/// cannot hold.
pub(super) fn resolve(text: &str) -> Result<Value, ()> {
    match text {
        "" | "null" => return Ok(Value::Null),
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        _ => {}
    }
    if is_non_finite(text) {
        return Err(());
    }
    if is_json_int(text) {
        // serde_json reads JSON `-0` as the float -0.0; do the same so that both
        // serializations of a document decode to the same data model.
        if text == "-0" {
            return Number::from_f64(-0.0).map(Value::Number).ok_or(());
        }
        if let Ok(n) = text.parse::<i64>() {
            return Ok(Value::Number(n.into()));
        }
        if let Ok(n) = text.parse::<u64>() {
            return Ok(Value::Number(n.into()));
        }
        // Too large for 64-bit integers: a float, like serde_json does.
        return float(text);
    }
    if is_json_float(text) {
        return float(text);
    }
    Ok(Value::String(text.to_owned()))
}

/// Parses a literal already known to match the JSON-schema float pattern.
fn float(text: &str) -> Result<Value, ()> {
    // `f64::from_str` accepts every spelling the pattern allows (`1.`, `1.e5` included)
    // and rounds correctly, like serde_json. `from_f64` refuses infinities.
    let f = text.parse::<f64>().map_err(|_| ())?;
    Number::from_f64(f).map(Value::Number).ok_or(())
}

/// `.inf`, `.nan` and their signed and capitalized spellings.
fn is_non_finite(text: &str) -> bool {
    let unsigned = text
        .strip_prefix('-')
        .or_else(|| text.strip_prefix('+'))
        .unwrap_or(text);
    matches!(
        unsigned,
        ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN"
    )
}

/// Length of the leading JSON-schema integer part `-?(0|[1-9][0-9]*)` of `text`, or
/// `None` when it does not start with one.
fn int_prefix(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let sign = usize::from(bytes.first() == Some(&b'-'));
    match bytes.get(sign) {
        Some(b'0') => Some(sign + 1),
        Some(b'1'..=b'9') => Some(sign + 1 + digits_at(bytes, sign + 1)),
        _ => None,
    }
}

/// Number of ASCII digits in `bytes` from `from` on (0 when `from` is past the end).
fn digits_at(bytes: &[u8], from: usize) -> usize {
    bytes
        .get(from..)
        .unwrap_or_default()
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count()
}

/// Whether `text` matches the JSON-schema integer `-?(0|[1-9][0-9]*)`.
fn is_json_int(text: &str) -> bool {
    int_prefix(text) == Some(text.len())
}

/// Whether `text` matches the JSON-schema float
/// `-?(0|[1-9][0-9]*)(\.[0-9]*)?([eE][-+]?[0-9]+)?`.
fn is_json_float(text: &str) -> bool {
    let Some(mut i) = int_prefix(text) else {
        return false;
    };
    let bytes = text.as_bytes();
    let digits = |from: usize| digits_at(bytes, from);
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        i += digits(i);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exponent = digits(i);
        if exponent == 0 {
            return false;
        }
        i += exponent;
    }
    i == bytes.len()
}

/// What a plain key would be read as, if not a string.
///
/// The JSON schema decides the data model, but a key is also rejected when YAML 1.2's
/// core schema, the default of most YAML tools, would read it as null, a boolean or a
/// number (`~`, `Null`, `TRUE`, `0x1F`, `+1`, `.5`): such a key would mean something else
/// to those tools, and quoting it costs nothing. Values are not treated this way; the
/// specification fixes their resolution and a schema check follows anyway.
pub(super) fn non_string_key(key: &str) -> Option<&'static str> {
    match resolve(key) {
        Ok(Value::String(_)) => {}
        Ok(Value::Null) => return Some("null"),
        Ok(Value::Bool(_)) => return Some("a boolean"),
        _ => return Some("a number"),
    }
    match key {
        "~" | "Null" | "NULL" => Some("null by YAML's core schema"),
        "True" | "TRUE" | "False" | "FALSE" => Some("a boolean by YAML's core schema"),
        _ if is_core_number(key) => Some("a number by YAML's core schema"),
        _ => None,
    }
}

/// Whether `text` is a number by the YAML 1.2 core schema but not by the JSON schema:
/// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+` or
/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`.
fn is_core_number(text: &str) -> bool {
    if let Some(octal) = text.strip_prefix("0o") {
        return !octal.is_empty() && octal.bytes().all(|b| matches!(b, b'0'..=b'7'));
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit());
    }
    let bytes = text.as_bytes();
    let mut i = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
    let digits = |from: usize| digits_at(bytes, from);
    let whole = digits(i);
    i += whole;
    let mut fraction = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        fraction = digits(i);
        i += fraction;
    }
    if whole == 0 && fraction == 0 {
        return false;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exponent = digits(i);
        if exponent == 0 {
            return false;
        }
        i += exponent;
    }
    i == bytes.len()
}
