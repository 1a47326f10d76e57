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

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::{Map, Value};

use super::naming::{self, NameAllocator};
use crate::diagnostic::{Diagnostic, Severity};
use crate::pointer::Pointer;
use crate::rules;
use crate::validate::dialect::percent_decode;

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

/// Calls `f` on every schema object of a *prepared* schema (whose keywords are the
/// normalized set this module writes).
fn visit_prepared(schema: &mut Value, f: &mut impl FnMut(&mut Map<String, Value>)) {
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    f(map);
    for keyword in ["items", "additionalItems", "additionalProperties"] {
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
pub struct Options {
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
}

/// Prepares `schema`, whose use site is `at` (such as `/tools/2/inputSchema`), as the
/// typify definition `root_name` with documentation `doc`. Definition names are claimed
/// from `names`; warnings go to `diagnostics`.
pub fn prepare(
    schema: &Value,
    at: &Pointer,
    root_name: &str,
    doc: Option<&str>,
    options: Options,
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
    };
    p.index(schema, &Pointer::root());
    let mut root = p.schema(schema, &Pointer::root());
    set_doc(&mut root, doc);
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
    };
    p.break_alias_cycles(&mut prepared);
    prepared
}

/// Keywords whose value is one subschema.
const SINGLE: [&str; 12] = [
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Keywords whose value is an array of subschemas.
const ARRAYS: [&str; 5] = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/// Keywords whose value is a map of subschemas.
const MAPS: [&str; 6] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];
/// Keywords that only annotate (allowed beside a `$ref` without an `allOf`).
const ANNOTATIONS: [&str; 7] = [
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
];
/// The JSON Schema instance types.
const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

struct Preparer<'a> {
    original: &'a Value,
    at: &'a Pointer,
    root_name: &'a str,
    options: Options,
    names: &'a mut NameAllocator,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Subschemas (below the root) that declare `$id`: they start a new resource, and
    /// `#` references inside them are relative to them.
    ids: BTreeSet<Pointer>,
    /// The root's `$id`, which a reference may spell out before its fragment.
    root_id: Option<String>,
    /// Reference targets (relative pointers) and their definition names.
    targets: BTreeMap<Pointer, String>,
    /// Targets still to transform.
    queue: VecDeque<(Pointer, String)>,
}

impl Preparer<'_> {
    /// Records the resources (`$id`) of the schema.
    fn index(&mut self, value: &Value, rel: &Pointer) {
        let Some(map) = value.as_object() else {
            return;
        };
        if let Some(id) = map.get("$id").and_then(Value::as_str) {
            if rel.as_str().is_empty() {
                self.root_id = Some(id.trim_end_matches('#').to_owned());
            } else {
                self.ids.insert(rel.clone());
            }
        }
        for_each_child(map, rel, |child, child_rel| self.index(child, &child_rel));
    }

    fn warn(&mut self, rel: &Pointer, code: &'static str, message: String) {
        let pointer = Pointer::parse(&format!("{}{}", self.at, rel)).unwrap_or_default();
        self.diagnostics.push(Diagnostic::new(
            Severity::Warning,
            rules::CODEGEN,
            code,
            &pointer,
            message,
        ));
    }

    /// Replaces the subschema at `rel` by `{}` (a `serde_json::Value`), keeping its
    /// documentation, and warns at `rel/keyword`.
    fn degrade(
        &mut self,
        map: &Map<String, Value>,
        rel: &Pointer,
        keyword: &str,
        why: &str,
    ) -> Value {
        let code = if keyword == "$ref" {
            "schema-reference-unsupported"
        } else {
            "schema-construct-unsupported"
        };
        self.warn(
            &rel.key(keyword),
            code,
            format!(
                "{why}; the generated type holds this value as serde_json::Value (the original schema is unchanged)"
            ),
        );
        let mut out = Map::new();
        if let Some(doc) = doc_of(map) {
            out.insert("description".into(), Value::String(doc));
        }
        Value::Object(out)
    }

    /// Transforms one subschema.
    fn schema(&mut self, value: &Value, rel: &Pointer) -> Value {
        match value {
            Value::Bool(true) => Value::Object(Map::new()),
            Value::Bool(false) => {
                self.warn(
                    rel,
                    "schema-construct-unsupported",
                    "the schema `false` (no value allowed) has no Rust type; the generated type holds this value as serde_json::Value (the original schema is unchanged)".into(),
                );
                Value::Object(Map::new())
            }
            Value::Object(map) => self.object(map, rel),
            // Not a schema: validation reports it; typify gets the permissive schema.
            _ => Value::Object(Map::new()),
        }
    }

    /// The first construct of `map` that typify cannot represent, as (keyword, reason).
    fn unsupported(&self, map: &Map<String, Value>) -> Option<(&'static str, String)> {
        if map.contains_key("$componentRef") {
            return Some((
                "$componentRef",
                "a `$componentRef` inside a schema is not a component reference (MCP Description 0.9 §3.2: only a whole schema can be one; inside, use `$ref` to `$defs`, which identical schemas share as one type) and allows any value".into(),
            ));
        }
        for keyword in ["if", "then", "else"] {
            if map.contains_key(keyword) {
                return Some((keyword, "`if`/`then`/`else` has no Rust type".into()));
            }
        }
        for keyword in ["$dynamicRef", "$recursiveRef"] {
            if map.contains_key(keyword) {
                return Some((
                    keyword,
                    format!("`{keyword}` is not supported by the generator"),
                ));
            }
        }
        for keyword in ["dependentSchemas", "dependencies"] {
            if map
                .get(keyword)
                .and_then(Value::as_object)
                .is_some_and(|m| !m.is_empty())
            {
                return Some((keyword, format!("`{keyword}` has no Rust type")));
            }
        }
        if let Some(deps) = map.get("dependentRequired").and_then(Value::as_object) {
            let declared = map.get("properties").and_then(Value::as_object);
            let all_declared = deps
                .values()
                .filter_map(Value::as_array)
                .flatten()
                .all(|n| {
                    n.as_str()
                        .is_some_and(|n| declared.is_some_and(|d| d.contains_key(n)))
                });
            if !all_declared {
                return Some((
                    "dependentRequired",
                    "`dependentRequired` names a property that `properties` does not declare, which a struct would drop".into(),
                ));
            }
        }
        if !self.options.format_types
            && map
                .get("patternProperties")
                .and_then(Value::as_object)
                .is_some_and(|m| !m.is_empty())
        {
            return Some((
                "patternProperties",
                "`patternProperties` needs format-specific types (regular expressions)".into(),
            ));
        }
        if let Some(not) = map.get("not") {
            if !supported_not(not) {
                return Some(("not", "this form of `not` has no Rust type".into()));
            }
        }
        if let Some(all_of) = map.get("allOf").and_then(Value::as_array) {
            if all_of.iter().any(|s| s == &Value::Bool(false)) {
                return Some((
                    "allOf",
                    "`allOf` with a `false` member allows no value".into(),
                ));
            }
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(list) = map.get(keyword).and_then(Value::as_array) {
                if list.iter().all(|s| s == &Value::Bool(false)) {
                    return Some((
                        keyword,
                        format!("`{keyword}` has no branch that allows a value"),
                    ));
                }
            }
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            let big = values
                .iter()
                .any(|v| v.as_u64().is_some_and(|n| n > i64::MAX as u64));
            let negative = values.iter().any(|v| v.as_i64().is_some_and(|n| n < 0));
            if big && negative {
                return Some((
                    "enum",
                    "no Rust integer type holds both the negative and the largest values of this `enum`".into(),
                ));
            }
        }
        if is_tuple(map) && !fixed_length(map) {
            let keyword = if map.contains_key("prefixItems") {
                "prefixItems"
            } else {
                "items"
            };
            return Some((
                keyword,
                "a tuple without equal `minItems` and `maxItems` has no Rust type".into(),
            ));
        }
        None
    }

    fn object(&mut self, map: &Map<String, Value>, rel: &Pointer) -> Value {
        if let Some((keyword, why)) = self.unsupported(map) {
            return self.degrade(map, rel, keyword, &why);
        }
        let reference = match map.get("$ref") {
            None => None,
            Some(Value::String(r)) => match self.resolve(r, rel) {
                Ok(name) => Some(name),
                Err(why) => return self.degrade(map, rel, "$ref", &why),
            },
            Some(_) => return self.degrade(map, rel, "$ref", "`$ref` is not a string"),
        };

        let mut out = Map::new();
        let keys = self.assertions(map, rel, &mut out);
        let default = if self.options.defaults {
            self.default_for(map, &out, &keys, rel)
        } else {
            None
        };

        let doc = if rel.as_str().is_empty() {
            // The caller writes the root's documentation.
            None
        } else {
            doc_of(map)
        };
        let mut out = match reference {
            None => out,
            Some(name) => {
                let only_ref = Value::Object(Map::from_iter([(
                    "$ref".to_owned(),
                    Value::String(format!("#/definitions/{name}")),
                )]));
                let has_assertions = out.keys().any(|k| !ANNOTATIONS.contains(&k.as_str()));
                if has_assertions {
                    Map::from_iter([(
                        "allOf".to_owned(),
                        Value::Array(vec![only_ref, Value::Object(out)]),
                    )])
                } else {
                    match only_ref {
                        Value::Object(m) => m,
                        _ => unreachable!(),
                    }
                }
            }
        };
        if let Some(doc) = doc {
            out.insert("description".into(), Value::String(doc));
        }
        if !out.contains_key("$ref") {
            if let Some(default) = default {
                out.insert("default".into(), default);
            }
        }
        Value::Object(out)
    }

    /// Copies the assertions typify understands, transformed, into `out`.
    /// Returns the properties given placeholders (original name → placeholder).
    fn assertions(
        &mut self,
        map: &Map<String, Value>,
        rel: &Pointer,
        out: &mut Map<String, Value>,
    ) -> BTreeMap<String, String> {
        // Instance type.
        match map.get("type") {
            Some(Value::String(t)) if TYPES.contains(&t.as_str()) => {
                out.insert("type".into(), Value::String(t.clone()));
            }
            Some(Value::Array(list)) => {
                let mut seen = BTreeSet::new();
                let types: Vec<Value> = list
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|t| TYPES.contains(t) && seen.insert(*t))
                    .map(|t| Value::String(t.to_owned()))
                    .collect();
                if !types.is_empty() {
                    out.insert("type".into(), Value::Array(types));
                }
            }
            _ => {}
        }
        // Values: `const` is a one-value `enum`; string values whose variant names would
        // collide get placeholders (naming rule 8).
        // Values of several JSON types are one `anyOf` branch per type (typify takes an
        // enum of one type only).
        if let Some(c) = map.get("const") {
            out.insert("enum".into(), Value::Array(vec![c.clone()]));
        } else if let Some(Value::Array(values)) = map.get("enum") {
            if let Some(branches) = split_enum(values) {
                // The values' own types say more than `type` beside them.
                out.remove("type");
                let branches = branches
                    .into_iter()
                    .map(|(kind, values)| {
                        let mut branch = Map::new();
                        branch.insert("type".into(), Value::String(kind.into()));
                        if kind != "null" {
                            branch.insert("enum".into(), Value::Array(self.enum_values(&values)));
                        }
                        Value::Object(branch)
                    })
                    .collect();
                out.insert("anyOf".into(), Value::Array(branches));
            } else if !values.is_empty() {
                out.insert("enum".into(), Value::Array(self.enum_values(values)));
            }
        }
        if self.options.format_types {
            for keyword in ["format", "pattern"] {
                if let Some(v @ Value::String(_)) = map.get(keyword) {
                    out.insert(keyword.into(), v.clone());
                }
            }
        }
        // Numbers (a draft-04 boolean `exclusiveMinimum` is not a number and is dropped).
        for keyword in [
            "multipleOf",
            "maximum",
            "exclusiveMaximum",
            "minimum",
            "exclusiveMinimum",
        ] {
            if let Some(v @ Value::Number(_)) = map.get(keyword) {
                if !no_op_number(out.get("type"), keyword, v) {
                    out.insert(keyword.into(), v.clone());
                }
            }
        }
        if self.options.output {
            let positive = out
                .get("minimum")
                .and_then(Value::as_f64)
                .is_some_and(|m| m > 0.0)
                || out
                    .get("exclusiveMinimum")
                    .and_then(Value::as_f64)
                    .is_some_and(|m| m >= 0.0);
            if positive {
                out.remove("exclusiveMinimum");
                out.insert("minimum".into(), Value::from(0));
            }
        }
        // Sizes typify reads as u32.
        for keyword in [
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
        ] {
            if let Some(n) = map.get(keyword).and_then(Value::as_u64) {
                // A lower bound of 0 holds for every size; typify would still write the
                // check (`value.chars().count() < 0usize`), which `deny(warnings)` rejects
                // as a comparison useless due to type limits.
                let no_op = n == 0 && keyword.starts_with("min");
                if n <= u64::from(u32::MAX) && !no_op {
                    out.insert(keyword.into(), Value::from(n));
                }
            }
        }
        // Arrays.
        if let Some(Value::Array(prefix)) = map.get("prefixItems") {
            let items = self.list(prefix, &rel.key("prefixItems"));
            out.insert("items".into(), Value::Array(items));
            if let Some(rest) = map.get("items") {
                let rest = self.additional(rest, &rel.key("items"));
                out.insert("additionalItems".into(), rest);
            }
        } else {
            match map.get("items") {
                Some(Value::Array(items)) => {
                    let items = self.list(items, &rel.key("items"));
                    out.insert("items".into(), Value::Array(items));
                    if let Some(rest) = map.get("additionalItems") {
                        let rest = self.additional(rest, &rel.key("additionalItems"));
                        out.insert("additionalItems".into(), rest);
                    }
                }
                Some(items) => {
                    let items = self.schema(items, &rel.key("items"));
                    out.insert("items".into(), items);
                }
                None => {}
            }
        }
        if !is_tuple(map) {
            if let Some(v @ Value::Bool(_)) = map.get("uniqueItems") {
                out.insert("uniqueItems".into(), v.clone());
            }
        }
        // Objects.
        // Property names whose field names would collide get placeholders (naming
        // rule 8); `required` follows.
        let mut keys: BTreeMap<String, String> = BTreeMap::new();
        if let Some(Value::Object(props)) = map.get("properties") {
            let at = rel.key("properties");
            let names: Vec<&str> = props.keys().map(String::as_str).collect();
            if let Some(renamed) = self.names.property_keys(&names) {
                for (old, new) in names.iter().zip(renamed) {
                    if *old != new {
                        keys.insert((*old).to_owned(), new);
                    }
                }
            }
            let props: Map<String, Value> = props
                .iter()
                .map(|(name, s)| {
                    let key = keys.get(name).unwrap_or(name).clone();
                    (key, self.schema(s, &at.key(name)))
                })
                .collect();
            out.insert("properties".into(), Value::Object(props));
        }
        if let Some(Value::Array(required)) = map.get("required") {
            let mut seen = BTreeSet::new();
            let required: Vec<Value> = required
                .iter()
                .filter_map(Value::as_str)
                .filter(|n| seen.insert(*n))
                .map(|n| Value::String(keys.get(n).map_or(n, String::as_str).to_owned()))
                .collect();
            out.insert("required".into(), Value::Array(required));
        }
        require_nullable(out);

        if let Some(extra) = map.get("additionalProperties") {
            let extra = self.additional(extra, &rel.key("additionalProperties"));
            out.insert("additionalProperties".into(), extra);
        } else if let Some(extra) = map.get("unevaluatedProperties") {
            // Equivalent to `additionalProperties` when nothing beside it evaluates
            // properties; otherwise it only restricts, and is dropped.
            let applicators = ["allOf", "anyOf", "oneOf", "$ref", "if", "dependentSchemas"];
            if !applicators.iter().any(|k| map.contains_key(*k)) {
                let extra = self.additional(extra, &rel.key("unevaluatedProperties"));
                out.insert("additionalProperties".into(), extra);
            }
        }
        if self.options.format_types {
            if let Some(Value::Object(patterns)) = map.get("patternProperties") {
                let at = rel.key("patternProperties");
                let patterns: Map<String, Value> = patterns
                    .iter()
                    .map(|(p, s)| (p.clone(), self.schema(s, &at.key(p))))
                    .collect();
                out.insert("patternProperties".into(), Value::Object(patterns));
            }
        }
        // Combinators; `false` branches of `anyOf`/`oneOf` never match and are removed.
        if let Some(Value::Array(all)) = map.get("allOf") {
            let all = self.list(all, &rel.key("allOf"));
            out.insert("allOf".into(), Value::Array(all));
        }
        for keyword in ["anyOf", "oneOf"] {
            if let Some(Value::Array(branches)) = map.get(keyword) {
                let at = rel.key(keyword);
                let branches: Vec<Value> = branches
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b != Value::Bool(false))
                    .map(|(i, b)| self.schema(b, &at.index(i)))
                    .collect();
                out.insert(keyword.into(), Value::Array(branches));
            }
        }
        // `not: false` allows everything and is dropped; the other supported forms are
        // an enum of excluded values.
        if let Some(Value::Object(not_map)) = map.get("not") {
            let mut kept = Map::new();
            for keyword in ["type", "enum"] {
                if let Some(v) = not_map.get(keyword) {
                    kept.insert(keyword.into(), v.clone());
                }
            }
            if let Some(c) = not_map.get("const") {
                kept.insert("enum".into(), Value::Array(vec![c.clone()]));
            }
            out.insert("not".into(), Value::Object(kept));
        }
        // An `enum` says everything about the values; bounds beside it only make typify
        // pick a type the values may not fit (`minimum: 0` with `enum: [-1, 1]`).
        if out.contains_key("enum") {
            for keyword in [
                "multipleOf",
                "maximum",
                "exclusiveMaximum",
                "minimum",
                "exclusiveMinimum",
                "minLength",
                "maxLength",
            ] {
                out.remove(keyword);
            }
        }
        keys
    }

    /// String enum values, with placeholders where typify's variant names would collide.
    fn enum_values(&mut self, values: &[Value]) -> Vec<Value> {
        let strings: Option<Vec<&str>> = values.iter().map(Value::as_str).collect();
        match strings.and_then(|s| self.names.enum_values(&s)) {
            Some(renamed) => renamed.into_iter().map(Value::String).collect(),
            None => values.to_vec(),
        }
    }

    /// The `default` of a subschema as typify's copy can take it (keys and enum values
    /// given their placeholders), or `None` with a warning when it does not fit the
    /// schema's own type, `enum` or bounds: typify would emit code that does not
    /// compile, or a default that cannot be constructed.
    fn default_for(
        &mut self,
        map: &Map<String, Value>,
        out: &Map<String, Value>,
        keys: &BTreeMap<String, String>,
        rel: &Pointer,
    ) -> Option<Value> {
        let default = map.get("default")?;
        let problem = default_problem(map, default);
        if let Some(why) = problem {
            self.warn(
                &rel.key("default"),
                "schema-default-dropped",
                format!("this `default` {why}; the generated type has no default for it (the original schema is unchanged)"),
            );
            return None;
        }
        if let (Some(Value::Array(original)), Some(Value::Array(prepared))) =
            (map.get("enum"), out.get("enum"))
        {
            if let Some(i) = original.iter().position(|v| v == default) {
                return prepared.get(i).cloned();
            }
        }
        match default {
            Value::Object(members) if !keys.is_empty() => Some(Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (keys.get(k).unwrap_or(k).clone(), v.clone()))
                    .collect(),
            )),
            other => Some(other.clone()),
        }
    }

    /// `additionalProperties` / `additionalItems`: `false` stays `false` (typify reads it
    /// as "closed"), `true` is dropped as the default, a schema is transformed.
    fn additional(&mut self, value: &Value, rel: &Pointer) -> Value {
        match value {
            Value::Bool(b) => Value::Bool(*b),
            other => self.schema(other, rel),
        }
    }

    fn list(&mut self, items: &[Value], rel: &Pointer) -> Vec<Value> {
        items
            .iter()
            .enumerate()
            .map(|(i, s)| self.schema(s, &rel.index(i)))
            .collect()
    }

    /// Resolves a `$ref` found in the subschema at `rel` to a definition name.
    fn resolve(&mut self, reference: &str, rel: &Pointer) -> Result<String, String> {
        // The resource the reference is relative to: the nearest subschema with `$id`.
        let mut base = Pointer::root();
        let mut cursor = Some(rel.clone());
        while let Some(p) = cursor {
            if self.ids.contains(&p) {
                base = p;
                break;
            }
            cursor = p.parent();
        }
        let fragment = match reference.split_once('#') {
            Some(("", fragment)) => fragment,
            Some((uri, fragment))
                if base.as_str().is_empty() && self.root_id.as_deref() == Some(uri) =>
            {
                fragment
            }
            None if base.as_str().is_empty() && self.root_id.as_deref() == Some(reference) => "",
            _ => {
                return Err(format!(
                    "`$ref` {reference:?} is not a local reference (`#...`) and is never fetched"
                ))
            }
        };
        let fragment = percent_decode(fragment);
        if !fragment.is_empty() && !fragment.starts_with('/') {
            return Err(format!(
                "`$ref` {reference:?} names an anchor, which the generator does not resolve"
            ));
        }
        let target = Pointer::parse(&format!("{base}{fragment}")).unwrap_or_default();
        if self.original.pointer(target.as_str()).is_none() {
            return Err(format!(
                "`$ref` {reference:?} points at nothing in this schema"
            ));
        }
        if target.as_str().is_empty() {
            return Ok(self.root_name.to_owned());
        }
        if let Some(name) = self.targets.get(&target) {
            return Ok(name.clone());
        }
        let name = self.names.claim(&def_candidate(self.root_name, &target));
        self.targets.insert(target.clone(), name.clone());
        self.queue.push_back((target, name.clone()));
        Ok(name)
    }

    /// A definition that is only a `$ref` to itself, directly or through other such
    /// aliases (`A: {$ref: B}`, `B: {allOf: [{$ref: A}]}`), has no structure for typify
    /// to build and would make it recurse forever: each such definition becomes `{}`.
    fn break_alias_cycles(&mut self, prepared: &mut PreparedSchema) {
        let mut alias_of: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (name, schema) in prepared.typify_defs() {
            alias_of.insert(name.to_owned(), alias_targets(schema));
        }
        let mut cyclic = BTreeSet::new();
        for start in alias_of.keys() {
            // Follow alias edges from `start` (bounded by the number of definitions).
            let mut seen = BTreeSet::new();
            let mut stack = alias_of[start].clone();
            while let Some(next) = stack.pop() {
                if &next == start {
                    cyclic.insert(start.clone());
                    break;
                }
                if seen.insert(next.clone()) {
                    stack.extend(alias_of.get(&next).cloned().unwrap_or_default());
                }
            }
        }
        if cyclic.is_empty() {
            return;
        }
        let defs_at: BTreeMap<String, Pointer> = self
            .targets
            .iter()
            .map(|(p, n)| (n.clone(), p.clone()))
            .collect();
        for name in &cyclic {
            let rel = defs_at.get(name).cloned().unwrap_or_default();
            self.warn(
                &rel,
                "schema-reference-cycle",
                "this schema only refers to itself through `$ref`/`allOf`, without an object or array in between; the generated type holds this value as serde_json::Value (the original schema is unchanged)".into(),
            );
        }
        let strip = |schema: &mut Value| {
            let doc = schema.get("description").cloned();
            let mut m = Map::new();
            if let Some(doc) = doc {
                m.insert("description".into(), doc);
            }
            *schema = Value::Object(m);
        };
        if cyclic.contains(&prepared.root_name) {
            strip(&mut prepared.root);
        }
        for (name, schema) in &mut prepared.defs {
            if cyclic.contains(name) {
                strip(schema);
            }
        }
    }
}

/// The definitions a prepared schema aliases: `$ref`s reachable through `$ref` and
/// `allOf` only (the places where typify merges instead of building a type).
fn alias_targets(schema: &Value) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        out.push(r.trim_start_matches("#/definitions/").to_owned());
    }
    if let Some(all) = schema.get("allOf").and_then(Value::as_array) {
        for s in all {
            out.extend(alias_targets(s));
        }
    }
    out
}

/// The values of an `enum` grouped by JSON type (numbers together), when there are
/// several types; `None` for an enum of one type.
fn split_enum(values: &[Value]) -> Option<Vec<(&'static str, Vec<Value>)>> {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for v in values {
        let kind = match v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, list)) => list.push(v.clone()),
            None => groups.push((kind, vec![v.clone()])),
        }
    }
    (groups.len() > 1).then_some(groups)
}

/// Why `default` cannot be the default of the schema `map`, if it cannot: not one of its
/// instance types, not in its `enum`, outside its bounds.
fn default_problem(map: &Map<String, Value>, default: &Value) -> Option<String> {
    let kind = match default {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Object(_) => "object",
        Value::Array(_) => "array",
        Value::String(_) => "string",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
    };
    let types: Vec<&str> = match map.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let fits = |t: &str| t == kind || (t == "number" && kind == "integer");
    if !types.is_empty() && !types.iter().any(|t| fits(t)) {
        return Some(format!(
            "is a JSON {kind}, not of the schema's type {}",
            types.join(" or ")
        ));
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        if !values.contains(default) {
            return Some("is not one of the schema's `enum` values".into());
        }
    }
    if let Some(c) = map.get("const") {
        if c != default {
            return Some("is not the schema's `const` value".into());
        }
    }
    if let Some(n) = default.as_f64() {
        let bound = |k: &str| map.get(k).and_then(Value::as_f64);
        let below = bound("minimum").is_some_and(|m| n < m)
            || bound("exclusiveMinimum").is_some_and(|m| n <= m);
        let above = bound("maximum").is_some_and(|m| n > m)
            || bound("exclusiveMaximum").is_some_and(|m| n >= m);
        if below || above {
            return Some("is outside the schema's bounds".into());
        }
    }
    if let Some(s) = default.as_str() {
        let len = s.chars().count() as u64;
        let size = |k: &str| map.get(k).and_then(Value::as_u64);
        if size("minLength").is_some_and(|m| len < m) || size("maxLength").is_some_and(|m| len > m)
        {
            return Some("does not have the length the schema requires".into());
        }
    }
    if let Some(items) = default.as_array() {
        let len = items.len() as u64;
        let size = |k: &str| map.get(k).and_then(Value::as_u64);
        if size("minItems").is_some_and(|m| len < m) || size("maxItems").is_some_and(|m| len > m) {
            return Some("does not have the number of items the schema requires".into());
        }
    }
    None
}

/// Calls `f` for every direct subschema of a schema object, with its relative pointer.
fn for_each_child(map: &Map<String, Value>, rel: &Pointer, mut f: impl FnMut(&Value, Pointer)) {
    for keyword in SINGLE {
        if let Some(child) = map.get(keyword).filter(|c| c.is_object() || c.is_boolean()) {
            f(child, rel.key(keyword));
        }
    }
    for keyword in ARRAYS {
        if let Some(Value::Array(list)) = map.get(keyword) {
            for (i, child) in list.iter().enumerate() {
                f(child, rel.key(keyword).index(i));
            }
        }
    }
    for keyword in MAPS {
        if let Some(Value::Object(children)) = map.get(keyword) {
            for (name, child) in children {
                f(child, rel.key(keyword).key(name));
            }
        }
    }
}

/// Lists the optional properties of the prepared object `out` whose type is nullable
/// (see [`is_nullable_option`]) under `required`, in typify's copy only.
///
/// typify makes an optional property `#[serde(default, skip_serializing_if =
/// "Option::is_none")] Option<T>`, and a nullable one is already `Option<T>`: a JSON
/// `null` would read as `None` and be written back as an absent member. Required, the
/// field is a plain `Option<T>`: serde still reads an absent `Option` member as `None`,
/// and `None` is written as `null`, which the original schema admits. So `{"x": null}`
/// round-trips unchanged, and an absent `x` comes back as `"x": null`.
///
/// ```text
/// {"properties": {"x": {"type": ["string", "null"]}}}
///   -> {"properties": {"x": {"type": ["string", "null"]}}, "required": ["x"]}
///   -> pub x: Option<String>,            // no serde attributes
/// ```
fn require_nullable(out: &mut Map<String, Value>) {
    let Some(Value::Object(props)) = out.get("properties") else {
        return;
    };
    let required: BTreeSet<&str> = match out.get("required") {
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_str).collect(),
        _ => BTreeSet::new(),
    };
    let added: Vec<Value> = props
        .iter()
        .filter(|(name, schema)| !required.contains(name.as_str()) && is_nullable_option(schema))
        .map(|(name, _)| Value::String(name.clone()))
        .collect();
    if added.is_empty() {
        return;
    }
    match out.get_mut("required") {
        Some(Value::Array(list)) => list.extend(added),
        _ => {
            out.insert("required".into(), Value::Array(added));
        }
    }
}

/// Whether typify makes the *prepared* schema `schema` an `Option<T>` of its own:
/// `type` lists `"null"` and another type (with no `enum`, whose values decide), or
/// `anyOf`/`oneOf` has a `{"type": "null"}` branch and another branch. A schema with a
/// `default` other than `null` is left out: required, its field would lose the default
/// for an absent member. A `$ref` to a nullable definition is left out too (its type is the
/// definition's, optional as before).
fn is_nullable_option(schema: &Value) -> bool {
    let Some(map) = schema.as_object() else {
        return false;
    };
    let default = map.get("default").is_some_and(|d| !d.is_null());
    if default || map.contains_key("$ref") || map.contains_key("enum") {
        return false;
    }
    let is_null = |t: &Value| t.as_str() == Some("null");
    let typed = match map.get("type") {
        Some(Value::Array(types)) => types.iter().any(is_null) && types.iter().any(|t| !is_null(t)),
        _ => false,
    };
    let branched = ["anyOf", "oneOf"].iter().any(|k| match map.get(*k) {
        Some(Value::Array(branches)) => {
            let null_branch = |b: &Value| {
                b.as_object().is_some_and(|m| {
                    m.get("type").is_some_and(is_null)
                        && m.keys().all(|k| k == "type" || k == "description")
                })
            };
            branches.iter().any(null_branch) && branches.iter().any(|b| !null_branch(b))
        }
        _ => false,
    });
    let others_beside_branches = map
        .keys()
        .any(|k| !matches!(k.as_str(), "anyOf" | "oneOf" | "description"));
    typed || (branched && !others_beside_branches)
}

/// Whether a number keyword constrains nothing for an instance of `ty` (typify's copy
/// drops it; the router still checks the original schema): on an integer-only schema,
/// `multipleOf: 1`, a `minimum` at or below `i64::MIN` and a `maximum` at or above
/// `u64::MAX` (the bounds of the widest types typify picks).
fn no_op_number(ty: Option<&Value>, keyword: &str, value: &Value) -> bool {
    if ty != Some(&Value::String("integer".into())) {
        return false;
    }
    let Some(v) = value.as_f64() else {
        return false;
    };
    match keyword {
        "multipleOf" => v == 1.0,
        "minimum" => v <= i64::MIN as f64,
        "maximum" => v >= u64::MAX as f64,
        _ => false,
    }
}

/// The forms of `not` typify converts: `false`, and an enum of excluded values (with at
/// most one instance type).
fn supported_not(not: &Value) -> bool {
    match not {
        Value::Bool(b) => !b,
        Value::Object(m) => {
            let values = m.get("enum").is_some_and(Value::is_array) || m.contains_key("const");
            let single_type = matches!(m.get("type"), None | Some(Value::String(_)));
            let only_known = m.keys().all(|k| {
                ["enum", "const", "type"].contains(&k.as_str()) || ANNOTATIONS.contains(&k.as_str())
            });
            values && single_type && only_known
        }
        _ => false,
    }
}

/// Whether the array schema has the tuple form (`prefixItems`, or draft-07 `items: [..]`).
fn is_tuple(map: &Map<String, Value>) -> bool {
    map.get("prefixItems").is_some_and(Value::is_array)
        || map.get("items").is_some_and(Value::is_array)
}

/// Whether `minItems == maxItems > 0`, the only tuples typify builds.
fn fixed_length(map: &Map<String, Value>) -> bool {
    let min = map.get("minItems").and_then(Value::as_u64);
    let max = map.get("maxItems").and_then(Value::as_u64);
    matches!((min, max), (Some(a), Some(b)) if a == b && a > 0 && a <= u64::from(u32::MAX))
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

/// The name candidate of a hoisted definition: the root name followed by the
/// definition's key (`#/$defs/Point` → `AnalyzeGameInputPoint`), or, for a target that is
/// not under `$defs`, its last non-keyword segment.
fn def_candidate(root_name: &str, target: &Pointer) -> String {
    let segments: Vec<String> = target.segments().collect();
    let keywords: BTreeSet<&str> = SINGLE
        .iter()
        .chain(ARRAYS.iter())
        .chain(MAPS.iter())
        .copied()
        .collect();
    let word = segments
        .iter()
        .rev()
        .find(|s| !keywords.contains(s.as_str()) && !s.bytes().all(|b| b.is_ascii_digit()))
        .cloned()
        .unwrap_or_else(|| "Def".to_owned());
    let word = naming::upper_camel(&word);
    naming::type_name(root_name, word.trim_end_matches('_'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(schema: Value) -> (PreparedSchema, Vec<Diagnostic>) {
        let mut names = NameAllocator::new();
        let mut diags = Vec::new();
        let at = Pointer::parse("/tools/0/inputSchema").unwrap();
        let p = prepare(
            &schema,
            &at,
            "TInput",
            Some("Input of t."),
            Options {
                format_types: false,
                defaults: true,
                output: false,
            },
            &mut names,
            &mut diags,
        );
        (p, diags)
    }

    #[test]
    fn no_op_constraints_are_dropped_from_the_copy() {
        let (p, _) = run(json!({"type": "object", "properties": {
            "s": {"type": "string", "minLength": 0, "maxLength": 3},
            "a": {"type": "array", "minItems": 0, "maxItems": 2},
            "i": {"type": "integer", "multipleOf": 1, "minimum": -9223372036854775808i64, "maximum": 10},
            "n": {"type": "number", "multipleOf": 1, "minimum": 0},
        }}));
        let props = &p.root["properties"];
        assert_eq!(props["s"], json!({"type": "string", "maxLength": 3}));
        assert_eq!(props["a"], json!({"type": "array", "maxItems": 2}));
        assert_eq!(props["i"], json!({"type": "integer", "maximum": 10}));
        assert_eq!(
            props["n"],
            json!({"type": "number", "multipleOf": 1, "minimum": 0})
        );
    }

    fn pointers(diags: &[Diagnostic]) -> Vec<&str> {
        diags.iter().map(|d| d.pointer.as_str()).collect()
    }

    /// Optional nullable properties are listed as required in typify's copy (so that
    /// `None` is written as `null`); the original `required` comes first, and a non-null
    /// default, a `$ref`, a `null`-only type or a non-nullable type stay optional.
    #[test]
    fn optional_nullable_properties_become_required_in_the_copy() {
        let schema = json!({
            "type": "object",
            "properties": {
                "req": {"type": "string"},
                "arr": {"type": ["string", "null"]},
                "any": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                "one": {"oneOf": [{"type": "null"}, {"type": "object"}]},
                "en": {"enum": ["a", null]},
                "nulldef": {"type": ["string", "null"], "default": null},
                "def": {"type": ["string", "null"], "default": "d"},
                "only_null": {"type": "null"},
                "plain": {"type": "string"},
                "reffed": {"$ref": "#/$defs/N"}
            },
            "required": ["req"],
            "$defs": {"N": {"type": ["string", "null"]}}
        });
        let (p, _) = run(schema.clone());
        assert_eq!(
            p.root["required"],
            json!(["req", "arr", "any", "one", "en", "nulldef"])
        );
        // The definition's own schema has no properties: unchanged.
        assert_eq!(p.defs[0].1["type"], json!(["string", "null"]));
        // An object without `required` gets one only when a property is nullable.
        let (p, _) = run(json!({"properties": {"a": {"type": "string"}}}));
        assert!(p.root.get("required").is_none());
        let (p, _) = run(json!({"properties": {"a": {"type": ["integer", "null"]}}}));
        assert_eq!(p.root["required"], json!(["a"]));
    }

    #[test]
    fn hoists_nested_defs_and_rewrites_refs() {
        let (p, diags) = run(json!({
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/Point"},
                "b": {
                    "type": "object",
                    "properties": {"c": {"$ref": "#/properties/b/$defs/Inner"}},
                    "$defs": {"Inner": {"type": "string"}}
                },
                "self": {"$ref": "#"}
            },
            "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}}}}
        }));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            p.root["properties"]["a"],
            json!({"$ref": "#/definitions/TInputPoint"})
        );
        assert_eq!(
            p.root["properties"]["b"]["properties"]["c"],
            json!({"$ref": "#/definitions/TInputInner"})
        );
        assert_eq!(
            p.root["properties"]["self"],
            json!({"$ref": "#/definitions/TInput"})
        );
        let names: Vec<&str> = p.defs.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["TInputPoint", "TInputInner"]);
        assert!(p.root.get("$defs").is_none());
        assert_eq!(p.root["description"], "Input of t.");
    }

    #[test]
    fn translates_2020_12_forms() {
        let (p, diags) = run(json!({
            "type": "object",
            "properties": {
                "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                         "items": false, "minItems": 2, "maxItems": 2},
                "kind": {"const": "x"},
                "any": true,
                "closed": {"type": "object", "properties": {"a": {"type": "string"}}, "unevaluatedProperties": false},
                "refd": {"$ref": "#/$defs/S", "description": "doc", "minLength": 2},
                "annotated": {"$ref": "#/$defs/S", "description": "only docs"},
                "titled": {"title": "Point", "type": "object"}
            },
            "$defs": {"S": {"type": "string"}}
        }));
        assert!(diags.is_empty(), "{diags:?}");
        let props = &p.root["properties"];
        assert_eq!(
            props["pair"]["items"],
            json!([{"type": "string"}, {"type": "integer"}])
        );
        assert_eq!(props["pair"]["additionalItems"], json!(false));
        assert_eq!(props["kind"], json!({"enum": ["x"]}));
        assert_eq!(props["any"], json!({}));
        assert_eq!(props["closed"]["additionalProperties"], json!(false));
        assert_eq!(
            props["refd"],
            json!({"allOf": [{"$ref": "#/definitions/TInputS"}, {"minLength": 2}], "description": "doc"})
        );
        assert_eq!(
            props["annotated"],
            json!({"$ref": "#/definitions/TInputS", "description": "only docs"})
        );
        assert_eq!(
            props["titled"],
            json!({"type": "object", "description": "Point"})
        );
    }

    #[test]
    fn unsupported_constructs_degrade_with_a_warning_at_their_pointer() {
        let (p, diags) = run(json!({
            "type": "object",
            "properties": {
                "cond": {"if": {"type": "string"}, "then": {"minLength": 1}},
                "external": {"$ref": "https://example.invalid/s.json"},
                "anchor": {"$ref": "#here"},
                "missing": {"$ref": "#/$defs/Nope"},
                "dynamic": {"$dynamicRef": "#node"},
                "deps": {"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}},
                "negated": {"not": {"type": "object", "properties": {}}},
                "patterned": {"type": "object", "patternProperties": {"^x": {"type": "string"}}},
                "never": false,
                "tuple": {"type": "array", "prefixItems": [{"type": "string"}]}
            }
        }));
        let props = p.root["properties"].as_object().unwrap();
        for (name, schema) in props {
            assert_eq!(schema, &json!({}), "{name} was not degraded");
        }
        assert_eq!(
            pointers(&diags),
            [
                "/tools/0/inputSchema/properties/cond/if",
                "/tools/0/inputSchema/properties/external/$ref",
                "/tools/0/inputSchema/properties/anchor/$ref",
                "/tools/0/inputSchema/properties/missing/$ref",
                "/tools/0/inputSchema/properties/dynamic/$dynamicRef",
                "/tools/0/inputSchema/properties/deps/dependentSchemas",
                "/tools/0/inputSchema/properties/negated/not",
                "/tools/0/inputSchema/properties/patterned/patternProperties",
                "/tools/0/inputSchema/properties/never",
                "/tools/0/inputSchema/properties/tuple/prefixItems",
            ]
        );
        assert!(diags
            .iter()
            .all(|d| d.severity == Severity::Warning && d.rule == rules::CODEGEN));
    }

    #[test]
    fn pure_reference_cycles_degrade() {
        let (p, diags) = run(json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}}
        }));
        assert_eq!(p.defs.len(), 2);
        assert!(p.defs.iter().all(|(_, s)| s == &json!({})), "{:?}", p.defs);
        assert_eq!(diags.len(), 2, "{diags:?}");
    }

    #[test]
    fn formats_and_patterns_are_dropped_by_default() {
        let (p, _) = run(json!({
            "type": "object",
            "properties": {"when": {"type": "string", "format": "date-time", "pattern": "^2"}}
        }));
        assert_eq!(p.root["properties"]["when"], json!({"type": "string"}));
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("/$defs/a%20b"), "/$defs/a b");
        assert_eq!(percent_decode("/x%2"), "/x%2");
        assert_eq!(percent_decode("%"), "%");
    }
}
