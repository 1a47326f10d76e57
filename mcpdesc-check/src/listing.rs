//! Listing comparison: what the server lists against the description's projection for
//! the negotiated version, as raw JSON values (key order and `1.0`/`1` aside).

use std::collections::BTreeSet;

use mcpdesc::testing::canonical;
use serde_json::Value;

use crate::expected::Declared;
use crate::finding::{Finding, Primitive, Severity};

/// Members whose difference is a failure: the contract a client programs against.
/// Other members (`icons`, `_meta`, `execution`, ...) differ with a warning.
const CONTRACT: &[&str] = &[
    "inputSchema",
    "outputSchema",
    "annotations",
    "title",
    "description",
    "arguments",
    "uri",
    "uriTemplate",
    "name",
    "mimeType",
];

/// Compares one listing: a described item missing, an undeclared one listed, and for
/// each item in both, every member that differs. `id` is the member naming an item
/// (`name`, `uri`, `uriTemplate`); `method` is named in messages.
pub fn compare(
    primitive: Primitive,
    method: &str,
    expected: &[Declared],
    listed: &[Value],
    id: &str,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut seen = BTreeSet::new();
    for item in listed {
        let Some(name) = item.get(id).and_then(Value::as_str) else {
            findings.push(Finding::server(
                "listing-malformed",
                Severity::Failure,
                format!("`{method}` lists an item without a string `{id}`: {item}"),
            ));
            continue;
        };
        if !seen.insert(name.to_owned()) {
            findings.push(Finding::new(
                "duplicate",
                Severity::Failure,
                primitive,
                name,
                format!("`{method}` lists it more than once"),
            ));
            continue;
        }
        match expected.iter().find(|d| d.id == name) {
            None => findings.push(Finding::new(
                "undeclared",
                Severity::Failure,
                primitive,
                name,
                format!("`{method}` lists it, but the description does not declare it"),
            )),
            Some(declared) => findings.extend(members(primitive, method, declared, item)),
        }
    }
    for declared in expected {
        if !seen.contains(&declared.id) {
            findings.push(Finding::new(
                "missing",
                Severity::Failure,
                primitive,
                &declared.id,
                format!("the description declares it, but `{method}` does not list it"),
            ));
        }
    }
    findings
}

/// The member differences of one item.
fn members(primitive: Primitive, method: &str, declared: &Declared, item: &Value) -> Vec<Finding> {
    let (Some(want), Some(got)) = (declared.native.as_object(), item.as_object()) else {
        return Vec::new();
    };
    let keys: BTreeSet<&String> = want.keys().chain(got.keys()).collect();
    let mut findings = Vec::new();
    for key in keys {
        let (w, g) = (want.get(key), got.get(key));
        if w.map(canonical) == g.map(canonical) {
            continue;
        }
        // The projection repairs a schema into the native shape (`type: object` added);
        // a server listing the declaration's own schema matches too.
        if let (Some(g), Some(original)) = (g, declared.declaration.get(key)) {
            if canonical(g) == canonical(original) {
                continue;
            }
        }
        let kind = match key.as_str() {
            "inputSchema" => "input-schema-differs",
            "outputSchema" => "output-schema-differs",
            _ => "member-differs",
        };
        let severity = if CONTRACT.contains(&key.as_str()) {
            Severity::Failure
        } else {
            Severity::Warning
        };
        let show = |v: Option<&Value>| v.map_or("(absent)".to_owned(), Value::to_string);
        findings.push(Finding::new(
            kind,
            severity,
            primitive,
            &declared.id,
            format!(
                "`{key}` in `{method}` differs from the description's{}:\n    described: {}\n    listed:    {}",
                first_difference(w, g).map_or(String::new(), |p| format!(" (first at {key}{p})")),
                show(w),
                show(g)
            ),
        ));
    }
    findings
}

/// The JSON pointer of the first difference between two values (`""` for the root).
fn first_difference(a: Option<&Value>, b: Option<&Value>) -> Option<String> {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                first_difference(x.get(k), y.get(k))
                    .map(|rest| format!("/{}{rest}", k.replace('~', "~0").replace('/', "~1")))
            })
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            x.iter().zip(y).enumerate().find_map(|(i, (p, q))| {
                first_difference(Some(p), Some(q)).map(|rest| format!("/{i}{rest}"))
            })
        }
        (x, y) if x.map(canonical) == y.map(canonical) => None,
        _ => Some(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn declared(native: Value) -> Declared {
        Declared {
            id: native["name"].as_str().unwrap().to_owned(),
            declaration: native.as_object().unwrap().clone(),
            native,
        }
    }

    #[test]
    fn drift_is_named() {
        let expected = vec![
            declared(
                json!({"name": "a", "inputSchema": {"type": "object", "properties": {"pgn": {"type": "string"}}}}),
            ),
            declared(json!({"name": "gone", "inputSchema": {"type": "object"}})),
        ];
        let listed = vec![
            json!({"name": "a", "inputSchema": {"properties": {"game": {"type": "string"}}, "type": "object"}}),
            json!({"name": "extra", "inputSchema": {"type": "object"}}),
        ];
        let findings = compare(Primitive::Tool, "tools/list", &expected, &listed, "name");
        let got: Vec<(&str, Option<&str>)> = findings
            .iter()
            .map(|f| (f.kind, f.name.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                ("input-schema-differs", Some("a")),
                ("undeclared", Some("extra")),
                ("missing", Some("gone"))
            ]
        );
        assert!(
            findings[0]
                .message
                .contains("first at inputSchema/properties/game"),
            "{}",
            findings[0].message
        );
        // Key order and 1.0 against 1 do not matter.
        let same = vec![
            json!({"inputSchema": {"properties": {"pgn": {"type": "string"}}, "type": "object"}, "name": "a"}),
        ];
        assert!(compare(Primitive::Tool, "tools/list", &expected[..1], &same, "name").is_empty());
    }
}
