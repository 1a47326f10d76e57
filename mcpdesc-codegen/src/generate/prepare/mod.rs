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
mod prepared;
mod preparer;
mod shapes;
#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use serde_json::Value;

use super::naming::NameAllocator;
use mcpdesc_description::diagnostic::Diagnostic;
use mcpdesc_description::pointer::Pointer;
use prepared::title_of;
pub use prepared::{
    schema_doc, strip_defaults, strip_marks, Options, OwnUse, PreparedSchema, TITLE_MARK,
};
use preparer::Preparer;

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
