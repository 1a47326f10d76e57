//! The assertions of one schema object in typify's copy: instance types, values,
//! numeric bounds, sizes, array and object keywords and combinators, each transformed
//! to the draft-07 form typify reads.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::keywords::TYPES;
use super::preparer::Preparer;
use super::shapes::{is_tuple, no_op_number, require_nullable, split_enum};
use mcpdesc_description::pointer::Pointer;

impl Preparer<'_> {
    /// Copies the assertions typify understands, transformed, into `out`.
    /// Returns the properties given placeholders (original name → placeholder).
    pub(super) fn assertions(
        &mut self,
        map: &Map<String, Value>,
        rel: &Pointer,
        out: &mut Map<String, Value>,
    ) -> BTreeMap<String, String> {
        Self::instance_type(map, out);
        self.values(map, out);
        self.formats(map, out);
        self.numbers(map, out);
        Self::sizes(map, out);
        self.arrays(map, rel, out);
        let keys = self.objects(map, rel, out);
        self.combinators(map, rel, out);
        Self::negation(map, out);
        Self::drop_bounds_beside_enum(out);
        keys
    }

    /// `type`, when it names JSON Schema instance types (each once).
    fn instance_type(map: &Map<String, Value>, out: &mut Map<String, Value>) {
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
    }

    /// Values: `const` is a one-value `enum`; string values whose variant names would
    /// collide get placeholders (naming rule 8). Values of several JSON types are one
    /// `anyOf` branch per type (typify takes an enum of one type only).
    fn values(&mut self, map: &Map<String, Value>, out: &mut Map<String, Value>) {
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
    }

    /// `format` and `pattern`, kept only with format-specific types.
    fn formats(&self, map: &Map<String, Value>, out: &mut Map<String, Value>) {
        if self.options.format_types {
            for keyword in ["format", "pattern"] {
                if let Some(v @ Value::String(_)) = map.get(keyword) {
                    out.insert(keyword.into(), v.clone());
                }
            }
        }
    }

    /// Numeric bounds (a draft-04 boolean `exclusiveMinimum` is not a number and is
    /// dropped); a positive lower bound becomes `minimum: 0` (a plain integer, not a
    /// `NonZero*`) for an output, and for an input unless `NonZero*` types are asked
    /// for.
    fn numbers(&self, map: &Map<String, Value>, out: &mut Map<String, Value>) {
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
        if self.options.output || !self.options.non_zero {
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
    }

    /// Sizes typify reads as u32.
    fn sizes(map: &Map<String, Value>, out: &mut Map<String, Value>) {
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
    }

    /// Arrays: tuples in the draft-07 `items: [..]` form, `items`, `uniqueItems`.
    fn arrays(&mut self, map: &Map<String, Value>, rel: &Pointer, out: &mut Map<String, Value>) {
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
    }

    /// Objects: property names whose field names would collide get placeholders
    /// (naming rule 8) and `required` follows; nullable options become required;
    /// additional and pattern properties. Returns the properties given placeholders.
    fn objects(
        &mut self,
        map: &Map<String, Value>,
        rel: &Pointer,
        out: &mut Map<String, Value>,
    ) -> BTreeMap<String, String> {
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
        keys
    }

    /// Combinators; `false` branches of `anyOf`/`oneOf` never match and are removed.
    fn combinators(
        &mut self,
        map: &Map<String, Value>,
        rel: &Pointer,
        out: &mut Map<String, Value>,
    ) {
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
    }

    /// `not: false` allows everything and is dropped; the other supported forms are
    /// an enum of excluded values.
    fn negation(map: &Map<String, Value>, out: &mut Map<String, Value>) {
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
    }

    /// An `enum` says everything about the values; bounds beside it only make typify
    /// pick a type the values may not fit (`minimum: 0` with `enum: [-1, 1]`).
    fn drop_bounds_beside_enum(out: &mut Map<String, Value>) {
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
    }
}
