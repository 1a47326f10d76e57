//! Schema preparation: turns one resolved Tool schema into the draft-07-shaped schema
//! `typify` 0.8 reads correctly, on a copy. The original stays untouched in the IR, for
//! everything that is served or validated at run time.
//!
//! What happens to each construct (see `docs/generated-code.md` for the full table):
//!
//! | construct | in typify's copy |
//! |---|---|
//! | `$defs` / `definitions` at any depth, any local `$ref` target | hoisted to a root definition named `{Type}{Name}` (`AnalyzeGameInputPoint`), `$ref`s rewritten; `#` is the schema's own type |
//! | `prefixItems` (+ `items`) | draft-07 `items: [..]` (+ `additionalItems`); kept only for fixed-length tuples, else `Value` |
//! | `true` / `false` subschema | `{}` (`Value`); a `false` outside `additionalProperties` warns |
//! | `$ref` with siblings | the `$ref` alone when the siblings are annotations, else `allOf: [{$ref}, {siblings}]` |
//! | `unevaluatedProperties` | `additionalProperties` when no applicator is beside it, else dropped |
//! | `const` | single-value `enum` |
//! | optional property of a nullable type (`type: [T, "null"]`, a `null` branch) | listed in `required`, so that typify writes `None` as `null` (`require_nullable`) |
//! | `title` below the root | folded into `description`, so that titles never become type names (two tools' `Point`s would collide) |
//! | `format`, `pattern` | dropped unless [`Settings::format_types`](crate::settings::Settings::format_types) |
//! | `contains`, `propertyNames`, `dependentRequired`, `unevaluatedItems`, `deprecated`, `readOnly`, `writeOnly`, `examples`, `$comment`, `x-*` | dropped: they restrict values or annotate them, and dropping them keeps every valid value representable |
//! | `if`/`then`/`else`, `$dynamicRef`, `$recursiveRef`, `dependentSchemas`, `dependencies`, `patternProperties`, unsupported `not`, external or anchor `$ref`, reference cycles without structure | that subschema becomes `{}` (`serde_json::Value`) with a warning at its pointer |
//!
//! The walk is linear in the size of the schema: every subschema and every reference
//! target is transformed once. Only the check for reference cycles without structure
//! follows alias edges from each definition (definitions × aliases, both small).

mod assertions;
mod keywords;
pub mod own;
mod preparer;
mod shapes;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::{Map, Value};

use super::naming::NameAllocator;
use crate::diagnostic::Diagnostic;
use crate::own_types::OwnTypes;
use crate::pointer::Pointer;
use preparer::Preparer;

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
pub(super) fn visit_prepared(schema: &mut Value, f: &mut impl FnMut(&mut Map<String, Value>)) {
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
    /// The format types and the crates declared for `x-rust-type`.
    pub own: &'a OwnTypes,
}

/// Prepares `schema`, whose use site is `at` (such as `/tools/2/inputSchema`), as the
/// typify definition `root_name` with documentation `doc`. Definition names are claimed
/// from `names`; warnings go to `diagnostics`.
pub fn prepare(
    schema: &Value,
    at: &Pointer,
    root_name: &str,
    doc: Option<&str>,
    options: Options<'_>,
    names: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> PreparedSchema {
    let mut p = Preparer {
        original: schema,
        at,
        root_name,
        options,
        names,
        diagnostics,
        ids: BTreeSet::new(),
        root_id: None,
        targets: BTreeMap::new(),
        queue: VecDeque::new(),
        own_uses: Vec::new(),
        root_rust_type: None,
    };
    p.index(schema, &Pointer::root());
    let mut root = p.schema(schema, &Pointer::root());
    set_doc(&mut root, doc);
    let title = schema.as_object().and_then(title_of);
    if let (Some(map), Some(title)) = (root.as_object_mut(), title) {
        map.insert(TITLE_MARK.into(), Value::String(title));
    }
    let mut defs = Vec::new();
    let mut def_pointers = Vec::new();
    while let Some((rel, name)) = p.queue.pop_front() {
        let target = schema.pointer(rel.as_str()).unwrap_or(&Value::Null);
        let prepared = p.schema(target, &rel);
        defs.push((name, prepared));
        def_pointers.push(rel);
    }
    let mut prepared = PreparedSchema {
        root_name: root_name.to_owned(),
        root,
        defs,
        def_pointers,
        own_doc: schema_doc(schema),
        rust_type: p.root_rust_type.take(),
        own_uses: std::mem::take(&mut p.own_uses),
    };
    p.break_alias_cycles(&mut prepared);
    prepared
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

fn doc_of(map: &Map<String, Value>) -> Option<String> {
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

/// Sets the root documentation to the caller's text (which includes the schema's own
/// title and description, see [`schema_doc`]).
fn set_doc(root: &mut Value, doc: Option<&str>) {
    if let Some(map) = root.as_object_mut() {
        match doc {
            Some(doc) if !doc.is_empty() => {
                map.insert("description".into(), Value::String(doc.to_owned()));
            }
            _ => {
                map.remove("description");
            }
        }
    }
}
