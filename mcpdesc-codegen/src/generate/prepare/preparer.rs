//! The walk that builds typify's copy of one schema: resources and references,
//! unsupported constructs degraded with a warning, `$ref` targets hoisted to
//! definitions, defaults checked, and reference cycles without structure broken.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::{Map, Value};

use super::keywords::{def_candidate, for_each_child, ANNOTATIONS};
use super::own::{self, Verdict, RUST_TYPE};
use super::prepared::{doc_of, title_of, Options, OwnUse, PreparedSchema, TITLE_MARK};
use super::shapes::{alias_targets, default_problem, fixed_length, is_tuple, supported_not};
use crate::generate::naming::NameAllocator;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::rules;
use mcpdesc_description::validate::dialect::percent_decode;

/// The state of one preparation: the schema being prepared, where it is used, the
/// names and diagnostics it adds to, and the reference targets found so far.
pub(super) struct Preparer<'a> {
    pub(super) original: &'a Value,
    pub(super) at: &'a Pointer,
    pub(super) root_name: &'a str,
    pub(super) options: Options<'a>,
    pub(super) names: &'a mut NameAllocator,
    pub(super) diagnostics: &'a mut Vec<Diagnostic>,
    /// Subschemas (below the root) that declare `$id`: they start a new resource, and
    /// `#` references inside them are relative to them.
    pub(super) ids: BTreeSet<Pointer>,
    /// The root's `$id`, which a reference may spell out before its fragment.
    pub(super) root_id: Option<String>,
    /// Reference targets (relative pointers) and their definition names.
    pub(super) targets: BTreeMap<Pointer, String>,
    /// Targets still to transform.
    pub(super) queue: VecDeque<(Pointer, String)>,
    /// The user's types put in place so far (mapped formats, `x-rust-type`).
    pub(super) own_uses: Vec<OwnUse>,
    /// The Rust type of an honoured `x-rust-type` at the root.
    pub(super) root_rust_type: Option<String>,
}

impl Preparer<'_> {
    /// Records the resources (`$id`) of the schema.
    pub(super) fn index(&mut self, value: &Value, rel: &Pointer) {
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

    /// The description's pointer of the subschema at `rel`.
    fn absolute(&self, rel: &Pointer) -> Pointer {
        Pointer::parse(&format!("{}{}", self.at, rel)).unwrap_or_default()
    }

    pub(super) fn warn(&mut self, rel: &Pointer, code: &'static str, message: String) {
        let pointer = self.absolute(rel);
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
    pub(super) fn degrade(
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
    pub(super) fn schema(&mut self, value: &Value, rel: &Pointer) -> Value {
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
    pub(super) fn unsupported(&self, map: &Map<String, Value>) -> Option<(&'static str, String)> {
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

    pub(super) fn object(&mut self, map: &Map<String, Value>, rel: &Pointer) -> Value {
        if map.contains_key("$componentRef") {
            // Not a reference inside a schema: the validator warns about it
            // (`component-reference-inside-schema`); the member allows any value.
            let mut out = Map::new();
            if let Some(doc) = doc_of(map) {
                out.insert("description".into(), Value::String(doc));
            }
            return Value::Object(out);
        }
        if let Some(extension) = map.get(RUST_TYPE) {
            if let Some(native) = self.rust_type(map, extension, rel) {
                return native;
            }
        }
        if let Some((keyword, why)) = self.unsupported(map) {
            return self.degrade(map, rel, keyword, &why);
        }
        let reference = match map.get("$ref") {
            None => None,
            Some(Value::String(r)) => {
                if let Some(native) = self.reference_to_rust_type(map, r, rel) {
                    return native;
                }
                match self.resolve(r, rel) {
                    Ok(name) => Some(name),
                    Err(why) => return self.degrade(map, rel, "$ref", &why),
                }
            }
            Some(_) => return self.degrade(map, rel, "$ref", "`$ref` is not a string"),
        };

        let mut out = Map::new();
        let keys = self.assertions(map, rel, &mut out);
        if reference.is_none() {
            if let Some((format, _)) = own::mapped_format(map, &out, self.options.own.formats()) {
                return self.format_type(map, &out, format, rel);
            }
        }
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
            self.mark_title(map, rel, &mut out);
        }
        Value::Object(out)
    }

    /// Leaves the [`TITLE_MARK`] of a subschema below the root (the caller marks the
    /// root).
    fn mark_title(&self, map: &Map<String, Value>, rel: &Pointer, out: &mut Map<String, Value>) {
        if rel.as_str().is_empty() {
            return;
        }
        if let Some(title) = title_of(map) {
            out.insert(TITLE_MARK.into(), Value::String(title));
        }
    }

    /// The documentation of a subschema below the root, as a prepared map.
    fn documented(&self, map: &Map<String, Value>, rel: &Pointer) -> Map<String, Value> {
        let mut out = Map::new();
        if !rel.as_str().is_empty() {
            if let Some(doc) = doc_of(map) {
                out.insert("description".into(), Value::String(doc));
            }
        }
        out
    }

    /// A schema whose `format` the settings map: exactly `{type, format}` (and its
    /// documentation), which typify's conversion table makes the user's type. A
    /// `default` is not kept: the type is the user's, whose values the generator
    /// cannot write.
    fn format_type(
        &mut self,
        map: &Map<String, Value>,
        out: &Map<String, Value>,
        format: &str,
        rel: &Pointer,
    ) -> Value {
        let mut node = self.documented(map, rel);
        if let Some(kind) = out.get("type") {
            node.insert("type".into(), kind.clone());
        }
        node.insert("format".into(), Value::String(format.to_owned()));
        if let Some(path) = self.options.own.formats().get(format) {
            self.own_uses.push(OwnUse {
                path: path.clone(),
                what: format!("format `{format}`"),
                pointer: self.absolute(rel),
            });
        }
        Value::Object(node)
    }

    /// The schema of an honoured `x-rust-type` (the extension alone, its parameters
    /// prepared, and the documentation), or `None` with a warning when the settings
    /// do not honour it (the schema is then prepared as usual, the extension dropped).
    /// At the root, the whole schema is the type: noted, and prepared as usual.
    fn rust_type(
        &mut self,
        map: &Map<String, Value>,
        extension: &Value,
        rel: &Pointer,
    ) -> Option<Value> {
        match own::evaluate(extension, self.options.own.crates()) {
            Verdict::Ignored(why) => {
                if let Some(why) = why {
                    self.warn(&rel.key(RUST_TYPE), "x-rust-type-ignored", why);
                }
                None
            }
            Verdict::Honoured {
                mut extension,
                parameters,
                path,
            } => {
                if parameters.is_empty() {
                    self.own_uses.push(OwnUse {
                        path: path.clone(),
                        what: "`x-rust-type`".to_owned(),
                        pointer: self.absolute(rel),
                    });
                }
                if rel.as_str().is_empty() {
                    if parameters.is_empty() {
                        self.root_rust_type = Some(path);
                    } else {
                        self.warn(
                            &rel.key(RUST_TYPE),
                            "x-rust-type-ignored",
                            "an `x-rust-type` with `parameters` cannot stand for a whole tool schema; the type is generated from the schema".to_owned(),
                        );
                    }
                    return None;
                }
                let at = rel.key(RUST_TYPE).key("parameters");
                let parameters: Vec<Value> = parameters
                    .iter()
                    .enumerate()
                    .map(|(i, p)| self.schema(p, &at.index(i)))
                    .collect();
                extension.insert("parameters".into(), Value::Array(parameters));
                let mut node = self.documented(map, rel);
                node.insert(RUST_TYPE.into(), Value::Object(extension));
                Some(Value::Object(node))
            }
        }
    }

    /// A `$ref` (with annotations only) to a subschema with an honoured `x-rust-type`
    /// is that type, written in place: typify would wrap a definition of it in a
    /// newtype named after the definition.
    fn reference_to_rust_type(
        &mut self,
        map: &Map<String, Value>,
        reference: &str,
        rel: &Pointer,
    ) -> Option<Value> {
        let target = self.target_of(reference, rel).ok()?;
        if target.as_str().is_empty() {
            return None;
        }
        let original = self.original;
        let node = original.pointer(target.as_str())?.as_object()?;
        let only_annotations = map
            .keys()
            .all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()));
        if !only_annotations {
            return None;
        }
        let verdict = own::evaluate(node.get(RUST_TYPE)?, self.options.own.crates());
        if !matches!(verdict, Verdict::Honoured { .. }) {
            return None;
        }
        let mut native = self.object(node, &target);
        if let (Some(native), Some(doc)) = (native.as_object_mut(), doc_of(map)) {
            native.insert("description".into(), Value::String(doc));
        }
        Some(native)
    }

    /// String enum values, with placeholders where typify's variant names would collide.
    pub(super) fn enum_values(&mut self, values: &[Value]) -> Vec<Value> {
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
    pub(super) fn default_for(
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
    pub(super) fn additional(&mut self, value: &Value, rel: &Pointer) -> Value {
        match value {
            Value::Bool(b) => Value::Bool(*b),
            other => self.schema(other, rel),
        }
    }

    pub(super) fn list(&mut self, items: &[Value], rel: &Pointer) -> Vec<Value> {
        items
            .iter()
            .enumerate()
            .map(|(i, s)| self.schema(s, &rel.index(i)))
            .collect()
    }

    /// Resolves a `$ref` found in the subschema at `rel` to a definition name.
    pub(super) fn resolve(&mut self, reference: &str, rel: &Pointer) -> Result<String, String> {
        let target = self.target_of(reference, rel)?;
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

    /// The subschema a `$ref` found at `rel` points at, relative to the root.
    fn target_of(&self, reference: &str, rel: &Pointer) -> Result<Pointer, String> {
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
        Ok(target)
    }

    /// A definition that is only a `$ref` to itself, directly or through other such
    /// aliases (`A: {$ref: B}`, `B: {allOf: [{$ref: A}]}`), has no structure for typify
    /// to build and would make it recurse forever: each such definition becomes `{}`.
    pub(super) fn break_alias_cycles(&mut self, prepared: &mut PreparedSchema) {
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
