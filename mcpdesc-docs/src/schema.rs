//! A JSON Schema as nested tables: one row per property (name, type, required, and the
//! details: description, constraints, default, enum), objects and array items nested
//! inside the details cell, composition (`allOf`/`anyOf`/`oneOf`) as a table of its
//! branches.
//!
//! References are never expanded inline: a local `$ref` to `#/$defs/X` (or
//! `#/definitions/X`) links to the table of `X`, rendered once under the schema. So a
//! recursive schema renders in finite space and the page grows linearly with the
//! schema. Nesting deeper than [`MAX_DEPTH`] stops with a note (the raw schema is shown
//! under the tables anyway).

use serde_json::{Map, Value};

use crate::html::{anchor, attr, json, text};

/// Deepest nesting of tables; a deeper subschema is summarised by its type.
const MAX_DEPTH: usize = 12;

/// Keywords shown as constraints, in this order, with their label.
const CONSTRAINTS: &[(&str, &str)] = &[
    ("format", "format"),
    ("pattern", "pattern"),
    ("minLength", "min length"),
    ("maxLength", "max length"),
    ("minimum", "≥"),
    ("exclusiveMinimum", ">"),
    ("maximum", "≤"),
    ("exclusiveMaximum", "<"),
    ("multipleOf", "multiple of"),
    ("minItems", "min items"),
    ("maxItems", "max items"),
    ("uniqueItems", "unique items"),
    ("minProperties", "min properties"),
    ("maxProperties", "max properties"),
    ("contentMediaType", "media type"),
    ("contentEncoding", "encoding"),
    ("readOnly", "read-only"),
    ("writeOnly", "write-only"),
    ("deprecated", "deprecated"),
];

/// The tables of `schema`; `id` is the unique prefix of the anchors of its definitions.
pub(crate) fn render(schema: &Value, id: &str) -> String {
    let cx = Cx { id };
    let mut out = String::new();
    let body = cx.structure(schema, 0);
    if body.is_empty() {
        out.push_str("<p class=\"schema-type\">");
        out.push_str(&cx.type_of(schema));
        out.push_str("</p>");
        out.push_str(&cx.details(schema, 0, false));
    } else {
        out.push_str(&cx.details(schema, 0, false));
        out.push_str(&body);
    }
    for key in ["$defs", "definitions"] {
        let Some(defs) = schema.get(key).and_then(Value::as_object) else {
            continue;
        };
        for (name, def) in defs {
            out.push_str(&format!(
                "<div class=\"def\" id=\"{}\"><h6>{}</h6><p class=\"schema-type\">{}</p>{}</div>",
                attr(&cx.def_anchor(key, name)),
                text(name),
                cx.type_of(def),
                cx.details(def, 1, true)
            ));
        }
    }
    out.push_str("<details class=\"raw\"><summary>JSON Schema</summary><pre>");
    out.push_str(&json(schema));
    out.push_str("</pre></details>");
    out
}

/// The rendering context of one schema.
struct Cx<'a> {
    /// The unique prefix of the anchors of the schema's definitions.
    id: &'a str,
}

impl Cx<'_> {
    fn def_anchor(&self, key: &str, name: &str) -> String {
        anchor(&format!("{}:{key}", self.id), name)
    }

    /// A short type: `string`, `integer | null`, `array of object`, a link to a
    /// definition, `one of`...
    fn type_of(&self, schema: &Value) -> String {
        let Some(obj) = schema.as_object() else {
            return match schema {
                Value::Bool(false) => "nothing (false)".to_owned(),
                _ => "any".to_owned(),
            };
        };
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            return self.reference(r);
        }
        let mut out = match obj.get("type") {
            Some(Value::String(t)) => text(t),
            Some(Value::Array(ts)) => ts
                .iter()
                .map(|t| text(t.as_str().unwrap_or("?")))
                .collect::<Vec<_>>()
                .join(" | "),
            _ if obj.contains_key("const") => "const".to_owned(),
            _ if obj.contains_key("enum") => "enum".to_owned(),
            _ if obj.contains_key("properties") => "object".to_owned(),
            _ if obj.contains_key("oneOf") => "one of".to_owned(),
            _ if obj.contains_key("anyOf") => "any of".to_owned(),
            _ if obj.contains_key("allOf") => "all of".to_owned(),
            _ => "any".to_owned(),
        };
        if out == "array" {
            if let Some(items) = obj.get("items").filter(|i| i.is_object()) {
                out = format!("array of {}", self.type_of(items));
            }
        }
        out
    }

    /// A `$ref`: a link when it names a definition of the root, else its text.
    fn reference(&self, r: &str) -> String {
        for key in ["$defs", "definitions"] {
            if let Some(name) = r.strip_prefix(&format!("#/{key}/")) {
                if !name.contains('/') {
                    let name = name.replace("~1", "/").replace("~0", "~");
                    return format!(
                        "<a href=\"#{}\">→ {}</a>",
                        attr(&self.def_anchor(key, &name)),
                        text(&name)
                    );
                }
            }
        }
        if r == "#" {
            return "→ (this whole schema)".to_owned();
        }
        format!("→ <code>{}</code>", text(r))
    }

    /// The nested part of `schema`: a properties table, the items' structure, the
    /// composition tables. Empty for a leaf.
    fn structure(&self, schema: &Value, depth: usize) -> String {
        let Some(obj) = schema.as_object() else {
            return String::new();
        };
        if depth >= MAX_DEPTH {
            return format!(
                "<p class=\"note\">nested deeper than {MAX_DEPTH} levels: see the JSON Schema</p>"
            );
        }
        let mut out = String::new();
        if let Some(table) = self.properties(obj, depth) {
            out.push_str(&table);
        }
        if let Some(items) = obj.get("items").filter(|i| i.is_object()) {
            let inner = self.structure(items, depth + 1);
            if !inner.is_empty() {
                out.push_str("<p class=\"sub\">Items:</p>");
                out.push_str(&inner);
            }
        }
        for (key, label) in [
            ("prefixItems", "Items by position"),
            ("allOf", "All of"),
            ("anyOf", "Any of"),
            ("oneOf", "One of"),
        ] {
            if let Some(branches) = obj.get(key).and_then(Value::as_array) {
                out.push_str(&format!("<p class=\"sub\">{label}:</p>"));
                let rows = branches.iter().enumerate().map(|(i, b)| {
                    let name = if key == "prefixItems" {
                        format!("[{i}]")
                    } else {
                        format!("#{}", i + 1)
                    };
                    (name, b, false)
                });
                out.push_str(&self.table(rows, depth));
            }
        }
        if let Some(not) = obj.get("not") {
            out.push_str(&format!("<p class=\"sub\">Not: {}</p>", self.type_of(not)));
        }
        if obj.contains_key("if") {
            out.push_str(
                "<p class=\"sub\">Conditional (<code>if</code>/<code>then</code>/<code>else</code>): see the JSON Schema.</p>",
            );
        }
        out
    }

    /// The table of an object's `properties`, `patternProperties` and
    /// `additionalProperties` (when it is a schema), or `None` when it has none.
    fn properties(&self, obj: &Map<String, Value>, depth: usize) -> Option<String> {
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut rows: Vec<(String, &Value, bool)> = Vec::new();
        if let Some(props) = obj.get("properties").and_then(Value::as_object) {
            for (name, s) in props {
                rows.push((name.clone(), s, required.contains(&name.as_str())));
            }
        }
        if let Some(pats) = obj.get("patternProperties").and_then(Value::as_object) {
            for (pat, s) in pats {
                rows.push((format!("/{pat}/"), s, false));
            }
        }
        if let Some(extra) = obj.get("additionalProperties").filter(|a| a.is_object()) {
            rows.push(("(any other name)".to_owned(), extra, false));
        }
        (!rows.is_empty()).then(|| self.table(rows.into_iter(), depth))
    }

    /// One table: a row per (name, schema, required).
    fn table<'v>(
        &self,
        rows: impl Iterator<Item = (String, &'v Value, bool)>,
        depth: usize,
    ) -> String {
        let mut out = String::from(
            "<table class=\"schema\"><thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Details</th></tr></thead><tbody>",
        );
        for (name, schema, required) in rows {
            out.push_str(&format!(
                "<tr><td><code>{}</code></td><td class=\"type\">{}</td><td>{}</td><td>{}</td></tr>",
                text(&name),
                self.type_of(schema),
                if required {
                    "<b class=\"req\">required</b>"
                } else {
                    ""
                },
                self.details(schema, depth + 1, true)
            ));
        }
        out.push_str("</tbody></table>");
        out
    }

    /// Title, description, constraints, default, enum values, then (with `nested`) the
    /// nested structure.
    fn details(&self, schema: &Value, depth: usize, nested: bool) -> String {
        let Some(obj) = schema.as_object() else {
            return String::new();
        };
        let mut out = String::new();
        if let Some(t) = obj.get("title").and_then(Value::as_str) {
            out.push_str(&format!("<p class=\"title\">{}</p>", text(t)));
        }
        if let Some(d) = obj.get("description").and_then(Value::as_str) {
            out.push_str(&format!("<p class=\"desc\">{}</p>", text(d)));
        }
        let mut facts: Vec<String> = CONSTRAINTS
            .iter()
            .filter_map(|(key, label)| {
                let v = obj.get(*key)?;
                Some(match v {
                    Value::Bool(true) => (*label).to_owned(),
                    Value::Bool(false) => return None,
                    Value::String(s) => format!("{label} <code>{}</code>", text(s)),
                    other => format!("{label} {}", text(&other.to_string())),
                })
            })
            .collect();
        if obj.get("additionalProperties") == Some(&Value::Bool(false)) {
            facts.push("no other properties".to_owned());
        }
        if let Some(c) = obj.get("const") {
            facts.push(format!("always <code>{}</code>", text(&c.to_string())));
        }
        if !facts.is_empty() {
            out.push_str(&format!(
                "<p class=\"facts\">{}</p>",
                facts.join("<span class=\"sep\"> · </span>")
            ));
        }
        if let Some(d) = obj.get("default") {
            out.push_str(&format!(
                "<p class=\"default\">default <code>{}</code></p>",
                text(&d.to_string())
            ));
        }
        if let Some(values) = obj.get("enum").and_then(Value::as_array) {
            let list: Vec<String> = values
                .iter()
                .map(|v| format!("<code>{}</code>", text(&v.to_string())))
                .collect();
            out.push_str(&format!("<p class=\"enum\">one of {}</p>", list.join(" ")));
        }
        if let Some(examples) = obj.get("examples").and_then(Value::as_array) {
            let list: Vec<String> = examples
                .iter()
                .map(|v| format!("<code>{}</code>", text(&v.to_string())))
                .collect();
            out.push_str(&format!("<p class=\"enum\">e.g. {}</p>", list.join(" ")));
        }
        if nested {
            out.push_str(&self.structure(schema, depth));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recursive_refs_link_instead_of_expanding() {
        let schema = json!({
            "type": "object",
            "properties": { "root": { "$ref": "#/$defs/Node" } },
            "required": ["root"],
            "$defs": { "Node": {
                "type": "object",
                "properties": {
                    "children": { "type": "array", "items": { "$ref": "#/$defs/Node" } }
                }
            } }
        });
        let html = render(&schema, "tool-t:input");
        assert!(html.contains("id=\"tool-t:input:$defs-Node\""), "{html}");
        assert_eq!(html.matches("href=\"#tool-t:input:$defs-Node\"").count(), 2);
        assert!(html.contains("<b class=\"req\">required</b>"));
        assert!(html.contains("array of <a href"));
    }

    #[test]
    fn depth_is_bounded() {
        let mut s = json!({"type": "string"});
        for _ in 0..40 {
            s = json!({"type": "object", "properties": {"x": s}});
        }
        let html = render(&s, "tool-deep:input");
        assert!(html.contains("nested deeper than 12 levels"));
    }
}
