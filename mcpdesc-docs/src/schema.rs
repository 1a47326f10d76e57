//! A JSON Schema as an indented, collapsible property tree (as Redoc shows schemas): one
//! entry per property (name, type, required, then the details: description,
//! constraints, default, enum), the members of nested objects and array items as a
//! `<details>` under it, composition (`allOf`/`anyOf`/`oneOf`) as a tree of its
//! branches. No tables: a level costs only its indentation, so the tree fits a
//! 1,280 px window at any depth; it folds without JavaScript.
//!
//! References are never expanded inline: a local `$ref` to `#/$defs/X` (or
//! `#/definitions/X`) links to the tree of `X`, rendered once under the schema. So a
//! recursive schema renders in finite space and the page grows linearly with the
//! schema. Nesting deeper than [`MAX_DEPTH`] stops with a note (the raw schema is shown
//! under the tree anyway).

use serde_json::{Map, Value};

use crate::html::{anchor, attr, ident, json, text};

/// Deepest nesting of the tree; a deeper subschema is summarised by its type.
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

/// The property tree of `schema`; `id` is the unique prefix of the anchors of its definitions.
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

/// What a member of the tree is called.
enum Name {
    /// A property name: an identifier.
    Property(String),
    /// A `patternProperties` pattern.
    Pattern(String),
    /// A branch or position (`#1`, `[0]`), or "(any other name)".
    Position(String),
}

impl Name {
    fn html(&self) -> String {
        match self {
            Name::Property(n) => ident(n),
            Name::Pattern(p) => format!("<code class=\"pattern\">/{}/</code>", text(p)),
            Name::Position(p) => format!("<span class=\"pos\">{}</span>", text(p)),
        }
    }
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

    /// The nested part of `schema`: a property tree, the items' structure, the
    /// composition branches. Empty for a leaf.
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
        if let Some(tree) = self.properties(obj, depth) {
            out.push_str(&tree);
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
                    (Name::Position(name), b, false)
                });
                out.push_str(&self.tree(rows, depth));
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

    /// The tree of an object's `properties`, `patternProperties` and
    /// `additionalProperties` (when it is a schema), or `None` when it has none.
    fn properties(&self, obj: &Map<String, Value>, depth: usize) -> Option<String> {
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut rows: Vec<(Name, &Value, bool)> = Vec::new();
        if let Some(props) = obj.get("properties").and_then(Value::as_object) {
            for (name, s) in props {
                let req = required.contains(&name.as_str());
                rows.push((Name::Property(name.clone()), s, req));
            }
        }
        if let Some(pats) = obj.get("patternProperties").and_then(Value::as_object) {
            for (pat, s) in pats {
                rows.push((Name::Pattern(pat.clone()), s, false));
            }
        }
        if let Some(extra) = obj.get("additionalProperties").filter(|a| a.is_object()) {
            rows.push((Name::Position("(any other name)".to_owned()), extra, false));
        }
        (!rows.is_empty()).then(|| self.tree(rows.into_iter(), depth))
    }

    /// One level of the property tree: a `<li>` per (name, schema, required). A member
    /// with a nested structure is a `<details>` whose `<summary>` is its name, type and
    /// requiredness, so the page folds without JavaScript; the members of the
    /// schema's own level are open, deeper ones start folded (as Redoc shows them).
    /// Each level is indented by the list's padding only, so even the deepest level
    /// ([`MAX_DEPTH`]) keeps most of the width of the page.
    fn tree<'v>(
        &self,
        rows: impl Iterator<Item = (Name, &'v Value, bool)>,
        depth: usize,
    ) -> String {
        let mut out = String::from("<ul class=\"tree\">");
        for (name, schema, required) in rows {
            let head = format!(
                "{} <span class=\"type\">{}</span>{}",
                name.html(),
                self.type_of(schema),
                if required {
                    " <b class=\"req\">required</b>"
                } else {
                    ""
                }
            );
            let facts = self.details(schema, depth + 1, false);
            let nested = self.structure(schema, depth + 1);
            if nested.is_empty() {
                out.push_str(&format!("<li><div class=\"leaf\">{head}</div>{facts}</li>"));
            } else {
                let open = if depth == 0 { " open" } else { "" };
                out.push_str(&format!(
                    "<li><details{open}><summary>{head}</summary>{facts}{nested}</details></li>"
                ));
            }
        }
        out.push_str("</ul>");
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
