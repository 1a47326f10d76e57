//! What preparation produces: the schema typify reads, with its hoisted definitions,
//! and the options of one preparation.

use serde_json::{Map, Value};

use mcpdesc_description::pointer::Pointer;

use crate::own_types::OwnTypes;

/// The mark the preparation leaves on every schema object with a `title` (the title,
/// trimmed): sharing (`ir::share`) names a type shared by identical schemas after it;
/// [`strip_marks`] removes the marks before typify runs.
pub const TITLE_MARK: &str = "x-mcpdesc-title";

/// One place where a Rust type of the user's stands in a prepared schema: a mapped
/// `format` or an honoured `x-rust-type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnUse {
    /// The Rust type (`::uuid::Uuid`).
    pub path: String,
    /// What put it there, in words (``format `uuid` ``, `` `x-rust-type` ``).
    pub what: String,
    /// Where, in the description.
    pub pointer: Pointer,
}

/// A schema ready for typify: its root and the definitions it references.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedSchema {
    /// The typify name of the root (the Rust type name before patches).
    pub root_name: String,
    /// The root schema.
    pub root: Value,
    /// Hoisted definitions (`typify name`, schema), in the order they were first
    /// referenced.
    pub defs: Vec<(String, Value)>,
    /// Where each definition of `defs` is in the original schema, relative to its root
    /// (for diagnostics).
    pub def_pointers: Vec<Pointer>,
    /// The root's own documentation (its title and description), which the root of
    /// typify's copy replaces with the caller's; what the root would be documented
    /// with as a part of another schema (sharing compares it so).
    pub own_doc: Option<String>,
    /// The Rust type an honoured `x-rust-type` at the root names: the whole schema is
    /// that type.
    pub rust_type: Option<String>,
    /// The user's types standing in this schema (mapped formats, `x-rust-type`).
    pub own_uses: Vec<OwnUse>,
}

impl PreparedSchema {
    /// The schema's definitions for typify, root first.
    pub fn typify_defs(&self) -> impl Iterator<Item = (&str, &Value)> {
        std::iter::once((self.root_name.as_str(), &self.root))
            .chain(self.defs.iter().map(|(n, v)| (n.as_str(), v)))
    }

    /// The fallback used when typify cannot convert this schema: a `serde_json::Value`
    /// newtype with the same name and documentation.
    pub fn fallback(&self) -> PreparedSchema {
        let mut root = Map::new();
        if let Some(doc) = self.root.get("description") {
            root.insert("description".into(), doc.clone());
        }
        PreparedSchema {
            root_name: self.root_name.clone(),
            root: Value::Object(root),
            defs: Vec::new(),
            def_pointers: Vec::new(),
            own_doc: self.own_doc.clone(),
            rust_type: None,
            own_uses: Vec::new(),
        }
    }
}

impl PreparedSchema {
    /// Renames the definition `old` (the root or a hoisted one) to `new`, rewriting the
    /// references to it.
    pub fn rename(&mut self, old: &str, new: &str) {
        let old_ref = format!("#/definitions/{old}");
        let new_ref = Value::String(format!("#/definitions/{new}"));
        if self.root_name == old {
            self.root_name = new.to_owned();
        }
        for (name, _) in &mut self.defs {
            if name == old {
                *name = new.to_owned();
            }
        }
        for schema in std::iter::once(&mut self.root).chain(self.defs.iter_mut().map(|(_, s)| s)) {
            visit_prepared(schema, &mut |m| {
                if m.get("$ref").and_then(Value::as_str) == Some(old_ref.as_str()) {
                    m.insert("$ref".into(), new_ref.clone());
                }
            });
        }
    }
}

/// Removes every `default` of a prepared schema (the first fallback when typify rejects
/// a default value).
pub fn strip_defaults(prepared: &mut PreparedSchema) {
    for schema in
        std::iter::once(&mut prepared.root).chain(prepared.defs.iter_mut().map(|(_, s)| s))
    {
        visit_prepared(schema, &mut |m| {
            m.remove("default");
        });
    }
}

/// Removes the [`TITLE_MARK`]s of a prepared schema (typify would see them as
/// extensions, and its conversion table compares extensions).
pub fn strip_marks(prepared: &mut PreparedSchema) {
    for schema in
        std::iter::once(&mut prepared.root).chain(prepared.defs.iter_mut().map(|(_, s)| s))
    {
        visit_prepared(schema, &mut |m| {
            m.remove(TITLE_MARK);
        });
    }
}

/// Calls `f` on every schema object of a *prepared* schema (whose keywords are the
/// normalized set this module writes).
fn visit_prepared(schema: &mut Value, f: &mut impl FnMut(&mut Map<String, Value>)) {
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    f(map);
    for keyword in ["items", "additionalItems", "additionalProperties", "not"] {
        match map.get_mut(keyword) {
            Some(Value::Array(list)) => list.iter_mut().for_each(|s| visit_prepared(s, f)),
            Some(s) => visit_prepared(s, f),
            None => {}
        }
    }
    for keyword in ["properties", "patternProperties"] {
        if let Some(Value::Object(children)) = map.get_mut(keyword) {
            children.values_mut().for_each(|s| visit_prepared(s, f));
        }
    }
    for keyword in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = map.get_mut(keyword) {
            list.iter_mut().for_each(|s| visit_prepared(s, f));
        }
    }
}

/// Options of one preparation.
#[derive(Debug, Clone, Copy)]
pub struct Options<'a> {
    /// Keep `format` and `pattern` (format-specific types).
    pub format_types: bool,
    /// Keep `default` values (a retry without them is the first fallback when typify
    /// rejects a default).
    pub defaults: bool,
    /// The schema is a tool's `outputSchema` (its own type, not shared with an input):
    /// a lower bound of 1 or more does not make a `NonZero*` type, which handlers would
    /// have to build with `NonZeroU64::new(x).unwrap()`; the router checks every
    /// structured output against the original schema anyway.
    pub output: bool,
    /// Inputs bounded below by 1 or more keep the bound for typify, which makes them
    /// `NonZero*` ([`crate::settings::Settings::non_zero_integers`]); otherwise the
    /// bound becomes `minimum: 0` for typify, as for outputs, and is checked at run
    /// time against the original schema.
    pub non_zero: bool,
    /// The format types and the crates declared for `x-rust-type`.
    pub own: &'a OwnTypes,
}

/// The trimmed, non-empty `title` of a schema object.
pub(super) fn title_of(map: &Map<String, Value>) -> Option<String> {
    map.get("title")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

/// A schema's own documentation: its title and description, joined by a blank line as
/// typify would join them.
pub fn schema_doc(schema: &Value) -> Option<String> {
    schema.as_object().and_then(doc_of)
}

/// The title and description of a schema object, joined as typify joins them.
pub(super) fn doc_of(map: &Map<String, Value>) -> Option<String> {
    let title = map
        .get("title")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty());
    let description = map
        .get("description")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty());
    match (title, description) {
        (Some(t), Some(d)) => Some(format!("{t}\n\n{d}")),
        (Some(t), None) => Some(t.to_owned()),
        (None, Some(d)) => Some(d.to_owned()),
        (None, None) => None,
    }
}
