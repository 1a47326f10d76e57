//! Witnesses of breaking input changes: a concrete tool input the old `inputSchema`
//! accepts and the new one rejects.
//!
//! A witness starts from an input the old schema accepts: the input of one of the old
//! tool's examples when there is one, else a small instance generated from the old
//! schema (required members only, values respecting the bounds). The change's
//! [`Mutation`] is then applied where the change is (the instance path), creating the
//! members on the way, and each candidate is checked with `jsonschema` against both
//! schemas, in their dialects. Only a candidate the old schema accepts and the new one
//! rejects is ever returned; when none qualifies there is no witness (never a guess).
//! Schemas that cannot be compiled offline (external `$ref`) get no witness.

use serde_json::{Map, Value};

use mcpdesc_description::validate::dialect::{compile, Dialect};

mod refs;
mod samples;

use refs::{deref, items_schema};

pub(crate) use samples::{
    length_beyond, non_multiples, numbers_beyond, pattern_candidates, sample, values_outside,
};

/// One step of an instance path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// An object member (`properties`).
    Prop(String),
    /// Any item of an array (`items`).
    Item,
    /// The item at an index (`prefixItems`).
    Index(usize),
    /// A member the object does not declare (`additionalProperties`).
    Undeclared,
}

/// How the old input is changed into a candidate.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Mutation {
    /// Replace the value at the path by each of these.
    Set(Vec<Value>),
    /// Leave this member out of the object at the path.
    Omit(String),
    /// Add this member (or, when empty, an undeclared one) to the object at the path.
    Add(String),
    /// Give the array at the path this many items.
    ArrayLength(usize),
    /// Make the array at the path hold the same item twice.
    DuplicateItems,
}

/// Shows an instance path the way messages do: `address.zip`, `tags[]`, `(root)`.
pub(crate) fn display(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Prop(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Seg::Item => out.push_str("[]"),
            Seg::Index(i) => out.push_str(&format!("[{i}]")),
            Seg::Undeclared => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push('*');
            }
        }
    }
    if out.is_empty() {
        out.push_str("(root)");
    }
    out
}

/// Both schemas compiled for instance validation.
struct Pair {
    old: jsonschema::Validator,
    new: jsonschema::Validator,
}

impl Pair {
    fn new(old: &Value, new: &Value) -> Option<Pair> {
        Some(Pair {
            old: compile(old, Dialect::of(old)).ok()?,
            new: compile(new, Dialect::of(new)).ok()?,
        })
    }

    fn witnesses(&self, candidate: &Value) -> bool {
        self.old.is_valid(candidate) && !self.new.is_valid(candidate)
    }
}

/// Finds witnesses for the changes of one pair of schemas: compiles both once and keeps
/// the inputs the old schema accepts (example inputs first, then a generated one).
pub(crate) struct Finder<'s> {
    old: &'s Value,
    new: &'s Value,
    pair: Option<Pair>,
    bases: Vec<Value>,
}

impl<'s> Finder<'s> {
    /// A finder for `old` → `new`; `examples` are the old tool's example inputs.
    pub(crate) fn new(old: &'s Value, new: &'s Value, examples: &[Value]) -> Finder<'s> {
        let pair = Pair::new(old, new);
        let mut bases = Vec::new();
        if let Some(pair) = &pair {
            bases.extend(examples.iter().filter(|e| pair.old.is_valid(e)).cloned());
            let generated = sample(old, old, 0);
            if pair.old.is_valid(&generated) {
                bases.push(generated);
            }
        }
        Finder {
            old,
            new,
            pair,
            bases,
        }
    }

    /// A verified witness for the change at `path`, or `None`.
    pub(crate) fn find(&self, path: &[Seg], mutation: &Mutation) -> Option<Value> {
        let pair = self.pair.as_ref()?;
        self.bases.iter().find_map(|base| {
            candidates(base, self.old, self.new, path, mutation)
                .into_iter()
                .find(|c| pair.witnesses(c))
        })
    }

    /// The first old example input the new schema rejects.
    pub(crate) fn rejected_example(&self, examples: &[Value]) -> Option<Value> {
        let pair = self.pair.as_ref()?;
        examples.iter().find(|e| pair.witnesses(e)).cloned()
    }
}

/// The candidates for one base input.
fn candidates(
    base: &Value,
    old: &Value,
    new: &Value,
    path: &[Seg],
    mutation: &Mutation,
) -> Vec<Value> {
    let mut instance = base.clone();
    let Some((target, schema)) = descend(&mut instance, old, path) else {
        return Vec::new();
    };
    let originals: Vec<Value> = match mutation {
        Mutation::Set(values) => values.clone(),
        Mutation::Omit(name) => {
            let mut v = target.clone();
            match v.as_object_mut() {
                Some(m) => {
                    m.shift_remove(name);
                    vec![v]
                }
                None => Vec::new(),
            }
        }
        Mutation::Add(name) => {
            let Some(m) = target.as_object() else {
                return Vec::new();
            };
            let name = if name.is_empty() {
                fresh_name(m, schema, new, path)
            } else {
                name.clone()
            };
            let declared = schema
                .get("properties")
                .and_then(|p| p.get(&name))
                .or_else(|| schema.get("additionalProperties").filter(|a| a.is_object()));
            let mut values = Vec::new();
            if let Some(s) = declared {
                values.push(sample(old, s, 0));
            }
            values.extend([
                Value::Null,
                Value::from("x"),
                Value::from(0),
                Value::Bool(true),
            ]);
            values
                .into_iter()
                .map(|v| {
                    let mut m = m.clone();
                    m.insert(name.clone(), v);
                    Value::Object(m)
                })
                .collect()
        }
        Mutation::ArrayLength(n) => {
            let item = items_schema(old, schema);
            let mut items = target.as_array().cloned().unwrap_or_default();
            items.truncate(*n);
            while items.len() < *n {
                items.push(sample(old, item, 0));
            }
            vec![Value::Array(items)]
        }
        Mutation::DuplicateItems => {
            let item = target
                .as_array()
                .and_then(|a| a.first().cloned())
                .unwrap_or_else(|| sample(old, items_schema(old, schema), 0));
            vec![Value::Array(vec![item.clone(), item])]
        }
    };
    originals
        .into_iter()
        .map(|replacement| {
            let mut candidate = base.clone();
            if let Some((slot, _)) = descend(&mut candidate, old, path) {
                *slot = replacement;
            }
            candidate
        })
        .collect()
}

/// A member name neither schema declares (for an undeclared property).
fn fresh_name(
    existing: &Map<String, Value>,
    old: &Value,
    new_root: &Value,
    path: &[Seg],
) -> String {
    let new_schema = schema_at(new_root, path);
    let declared = |n: &str| {
        existing.contains_key(n)
            || old.get("properties").and_then(|p| p.get(n)).is_some()
            || new_schema
                .and_then(|s| s.get("properties"))
                .and_then(|p| p.get(n))
                .is_some()
    };
    (0..)
        .map(|i| {
            if i == 0 {
                "undeclared".to_owned()
            } else {
                format!("undeclared_{i}")
            }
        })
        .find(|n| !declared(n))
        .unwrap_or_default()
}

/// Walks `instance` along `path`, creating what is missing from the old schema, and
/// returns the value at the end with the (dereferenced) old schema that describes it.
fn descend<'i, 's>(
    instance: &'i mut Value,
    root: &'s Value,
    path: &[Seg],
) -> Option<(&'i mut Value, &'s Value)> {
    let mut value = instance;
    let mut schema = deref(root, root);
    for seg in path {
        match seg {
            Seg::Prop(name) => {
                let sub = deref(root, schema.get("properties")?.get(name)?);
                let map = value.as_object_mut()?;
                if !map.contains_key(name) {
                    map.insert(name.clone(), sample(root, sub, 0));
                }
                value = map.get_mut(name)?;
                schema = sub;
            }
            Seg::Item => {
                let sub = items_schema(root, schema);
                let list = value.as_array_mut()?;
                if list.is_empty() {
                    list.push(sample(root, sub, 0));
                }
                value = list.first_mut()?;
                schema = sub;
            }
            Seg::Index(i) => {
                let prefix = schema.get("prefixItems")?.as_array()?;
                let list = value.as_array_mut()?;
                while list.len() <= *i {
                    let s = prefix.get(list.len()).map_or(&Value::Bool(true), |s| s);
                    list.push(sample(root, deref(root, s), 0));
                }
                value = list.get_mut(*i)?;
                schema = deref(root, prefix.get(*i)?);
            }
            Seg::Undeclared => {
                let sub = deref(root, schema.get("additionalProperties")?);
                let map = value.as_object_mut()?;
                let name = (0..)
                    .map(|i| format!("extra_{i}"))
                    .find(|n| schema.get("properties").and_then(|p| p.get(n)).is_none())?;
                if !map.contains_key(&name) {
                    map.insert(name.clone(), sample(root, sub, 0));
                }
                value = map.get_mut(&name)?;
                schema = sub;
            }
        }
    }
    Some((value, schema))
}

/// The schema at an instance path (no creation), if it can be followed.
fn schema_at<'s>(root: &'s Value, path: &[Seg]) -> Option<&'s Value> {
    let mut schema = deref(root, root);
    for seg in path {
        schema = match seg {
            Seg::Prop(name) => deref(root, schema.get("properties")?.get(name)?),
            Seg::Item => items_schema(root, schema),
            Seg::Index(i) => deref(root, schema.get("prefixItems")?.get(*i)?),
            Seg::Undeclared => deref(root, schema.get("additionalProperties")?),
        };
    }
    Some(schema)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn samples_respect_bounds_and_requirements() {
        let schema = json!({
            "type": "object",
            "required": ["n", "s", "list", "ref"],
            "properties": {
                "n": {"type": "integer", "minimum": 3, "multipleOf": 2},
                "s": {"type": "string", "minLength": 3},
                "list": {"type": "array", "minItems": 2, "items": {"type": "number", "exclusiveMinimum": 0}},
                "ref": {"$ref": "#/$defs/Kind"},
                "optional": {"type": "string"}
            },
            "$defs": {"Kind": {"enum": ["a", "b"]}}
        });
        let v = sample(&schema, &schema, 0);
        assert_eq!(v, json!({"n": 4, "s": "xxx", "list": [1, 1], "ref": "a"}));
        let validator = compile(&schema, Dialect::Draft202012).unwrap();
        assert!(validator.is_valid(&v));
    }

    #[test]
    fn witnesses_are_verified_against_both_schemas() {
        let old = json!({"type": "object", "properties": {"kind": {"enum": ["a", "b"]}}});
        let new = json!({"type": "object", "properties": {"kind": {"enum": ["a"]}}});
        let path = [Seg::Prop("kind".into())];
        let finder = Finder::new(&old, &new, &[]);
        let w = finder.find(&path, &Mutation::Set(vec![json!("b")]));
        assert_eq!(w, Some(json!({"kind": "b"})));
        // A candidate both schemas accept is never a witness.
        let none = finder.find(&path, &Mutation::Set(vec![json!("a")]));
        assert_eq!(none, None);
        // Examples are preferred as the starting point.
        let example = json!({"kind": "a", "note": "kept"});
        let finder = Finder::new(&old, &new, &[example]);
        let w = finder.find(&path, &Mutation::Set(vec![json!("b")]));
        assert_eq!(w, Some(json!({"kind": "b", "note": "kept"})));
    }

    #[test]
    fn paths_read_like_code() {
        let path = [
            Seg::Prop("a".into()),
            Seg::Item,
            Seg::Prop("b".into()),
            Seg::Index(2),
            Seg::Undeclared,
        ];
        assert_eq!(display(&path), "a[].b[2].*");
        assert_eq!(display(&[]), "(root)");
    }
}
