//! Recursive comparison of two JSON Schemas (a tool's old and new `inputSchema`, or
//! `outputSchema`), node by node through `properties`, `items`, `prefixItems` and
//! `additionalProperties`, following local `$ref`s (into `$defs`, `definitions` or any
//! other place of the same schema) with a guard against cycles.
//!
//! Keywords are sorted into three groups:
//!
//! - classified: `type`, `enum`/`const`, numeric, string, array and object bounds,
//!   `pattern`, `format`, `properties`/`required`, `additionalProperties`, and the
//!   `deprecated` annotation of input properties;
//! - ignored annotations: `title`, `description`, `default`, `examples`, `$comment`,
//!   `readOnly`, `writeOnly`, `$id`, `$anchor`, `$defs`/`definitions` (compared where
//!   referenced) and `x-*` other than `x-mcp-header`;
//! - everything else (`allOf`, `anyOf`, `oneOf`, `not`, conditionals, dependencies,
//!   `$schema`, `x-mcp-header`, ...): any difference is one `*.schema.changed` warning
//!   naming the keywords.
//!
//! Breaking input changes come with a witness when one can be found ([`super::witness`]).
//! When the input schema changed in ways no rule calls breaking, the old examples'
//! inputs are checked against the new schema as a safety net (`input.example-rejected`).

use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

use super::change::Subject;
use super::found::Found;
use super::rules::{self, Rule};
use super::types::Types;
use super::values::{brief, json_equal};
use super::witness::{self, Mutation, Seg};
use mcpdesc_description::pointer::Pointer;

mod arrays;
mod objects;
mod scalars;

/// Which schema of a tool is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// `inputSchema`: what clients send.
    Input,
    /// `outputSchema`: what servers return.
    Output,
}

impl Direction {
    fn noun(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
        }
    }

    fn pick(self, input: &'static Rule, output: &'static Rule) -> &'static Rule {
        match self {
            Direction::Input => input,
            Direction::Output => output,
        }
    }
}

/// How deep into the instance the comparison goes (far beyond real tool schemas; the
/// loader already bounds document nesting).
const MAX_DEPTH: usize = 128;

/// Keywords that never change what a schema accepts.
const ANNOTATIONS: [&str; 12] = [
    "title",
    "description",
    "default",
    "examples",
    "$comment",
    "readOnly",
    "writeOnly",
    "$id",
    "$anchor",
    "$defs",
    "definitions",
    "contentMediaType",
];

/// Keywords this module classifies.
const CLASSIFIED: [&str; 22] = [
    "type",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
];

/// Compares two schemas of tool `tool`. `old` and `new` are the schemas with their
/// pointers in the (substituted) documents; `examples` are inputs of the old tool's
/// examples.
pub(crate) fn compare(
    dir: Direction,
    tool: &str,
    old: (&Value, Pointer),
    new: (&Value, Pointer),
    examples: &[Value],
) -> Vec<Found> {
    let mut cx = Cx {
        dir,
        tool,
        old_root: (old.0, old.1.clone()),
        new_root: (new.0, new.1.clone()),
        visited: HashSet::new(),
        found: Vec::new(),
    };
    let a = cx.node(old.0, old.1.clone(), true);
    let b = cx.node(new.0, new.1.clone(), false);
    cx.compare(&a, &b, &mut Vec::new());

    let mut out = Vec::new();
    if dir == Direction::Output || cx.found.is_empty() {
        out.extend(cx.found.into_iter().map(|(found, ..)| found));
        return out;
    }
    // Both schemas are compiled once for every witness of this tool.
    let finder = witness::Finder::new(old.0, new.0, examples);
    let mut breaking_input = false;
    for (mut found, mutation, path) in cx.found {
        if found.rule.client == rules::Level::Breaking {
            breaking_input = true;
            if let Some(m) = mutation {
                found.witness = finder.find(&path, &m);
            }
        }
        out.push(found);
    }
    // Safety net: a change no rule calls breaking may still reject real inputs.
    if !breaking_input {
        if let Some(rejected) = finder.rejected_example(examples) {
            out.push(
                Found::new(
                    &rules::INPUT_EXAMPLE_REJECTED,
                    Subject::Tool,
                    tool,
                    format!("the new inputSchema of tool {tool:?} rejects an input of one of its old examples"),
                )
                .at(Some(old.1.clone()), Some(new.1.clone())),
            );
            if let Some(last) = out.last_mut() {
                last.witness = Some(rejected);
            }
        }
    }
    out
}

/// A schema node with a local `$ref` resolved: its own keywords, then those of the
/// referenced schema (the node's own win, as siblings of `$ref` do in 2020-12).
struct Node<'v> {
    /// The node's keywords, in lookup order: own first.
    layers: Vec<(&'v Map<String, Value>, Pointer)>,
    /// `true` and `false` schemas.
    boolean: Option<bool>,
    /// Pointer of the node itself.
    at: Pointer,
}

impl<'v> Node<'v> {
    fn get(&self, key: &str) -> Option<(&'v Value, Pointer)> {
        self.layers
            .iter()
            .find_map(|(map, at)| map.get(key).map(|v| (v, at.key(key))))
    }

    fn value(&self, key: &str) -> Option<&'v Value> {
        self.get(key).map(|(v, _)| v)
    }

    /// The pointer of `key` if present, else of the node.
    fn at_or_node(&self, key: &str) -> Pointer {
        self.get(key).map_or_else(|| self.at.clone(), |(_, at)| at)
    }

    fn keys(&self) -> BTreeSet<&'v str> {
        self.layers
            .iter()
            .flat_map(|(m, _)| m.keys().map(String::as_str))
            .filter(|k| *k != "$ref")
            .collect()
    }

    /// The identity used by the cycle guard: the innermost resolved schema.
    fn identity(&self) -> String {
        self.layers
            .last()
            .map_or_else(|| self.at.to_string(), |(_, at)| at.to_string())
    }
}

struct Cx<'v, 't> {
    dir: Direction,
    tool: &'t str,
    old_root: (&'v Value, Pointer),
    new_root: (&'v Value, Pointer),
    visited: HashSet<(String, String)>,
    /// Findings with the witness mutation and the instance path they apply to.
    found: Vec<(Found, Option<Mutation>, Vec<Seg>)>,
}

/// An empty object, the schema that accepts everything.
static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

fn empty() -> &'static Map<String, Value> {
    EMPTY.get_or_init(Map::new)
}

impl<'v> Cx<'v, '_> {
    /// Resolves `value` (at `at`) into a node, following local `$ref`s within the same
    /// schema (at most 32 hops).
    fn node(&self, value: &'v Value, at: Pointer, old: bool) -> Node<'v> {
        let (root, root_at) = if old { &self.old_root } else { &self.new_root };
        let mut node = Node {
            layers: Vec::new(),
            boolean: None,
            at: at.clone(),
        };
        let mut current = value;
        let mut current_at = at;
        for _ in 0..32 {
            match current {
                Value::Bool(b) => {
                    node.boolean.get_or_insert(*b);
                    break;
                }
                Value::Object(map) => {
                    node.layers.push((map, current_at.clone()));
                    let Some(target) = map.get("$ref").and_then(Value::as_str) else {
                        break;
                    };
                    let Some(fragment) = target.strip_prefix('#') else {
                        break;
                    };
                    let Some(next) = root.pointer(fragment) else {
                        break;
                    };
                    current = next;
                    current_at = Pointer::parse(&format!("{}{fragment}", root_at.as_str()))
                        .unwrap_or_else(|| root_at.clone());
                }
                _ => break,
            }
        }
        node
    }

    /// Records a change of the node at `path`.
    fn push(
        &mut self,
        rule: &'static Rule,
        path: &[Seg],
        old: Pointer,
        new: Pointer,
        message: String,
        mutation: Option<Mutation>,
    ) {
        let (dir, tool) = (self.dir.noun(), self.tool);
        let text = if path.is_empty() {
            format!("tool {tool:?} {dir}: {message}")
        } else {
            format!("tool {tool:?} {dir} {}: {message}", witness::display(path))
        };
        self.record(rule, path, witness::display(path), old, new, text, mutation);
    }

    /// Records a change of the member `name` of the object at `path` (the mutation
    /// applies to the object).
    #[allow(clippy::too_many_arguments)]
    fn push_member(
        &mut self,
        rule: &'static Rule,
        path: &[Seg],
        name: &str,
        old: Pointer,
        new: Pointer,
        what: &str,
        mutation: Option<Mutation>,
    ) {
        let mut member = path.to_vec();
        member.push(Seg::Prop(name.to_owned()));
        let shown = witness::display(&member);
        let text = format!(
            "tool {:?} {} property {shown} {what}",
            self.tool,
            self.dir.noun()
        );
        self.record(rule, path, shown, old, new, text, mutation);
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        rule: &'static Rule,
        path: &[Seg],
        shown: String,
        old: Pointer,
        new: Pointer,
        text: String,
        mutation: Option<Mutation>,
    ) {
        let found = Found::new(rule, Subject::Tool, self.tool, text)
            .path(shown)
            .at(Some(old), Some(new));
        self.found.push((found, mutation, path.to_vec()));
    }

    fn compare(&mut self, a: &Node<'v>, b: &Node<'v>, path: &mut Vec<Seg>) {
        // Each pair of schema nodes is compared once (recursive `$ref`s terminate), and
        // the recursion depth is bounded whatever the schema.
        if path.len() > MAX_DEPTH || !self.visited.insert((a.identity(), b.identity())) {
            return;
        }
        let (mut ta, mut tb) = (types(a), types(b));
        if path.is_empty() && self.dir == Direction::Input {
            // Tool arguments are always a JSON object: only that part of the root
            // type can change what a client may send.
            ta = ta.intersect(Types::OBJECT);
            tb = tb.intersect(Types::OBJECT);
        }
        if ta != tb && !self.types(a, b, ta, tb, path) {
            return;
        }
        self.enums(a, b, path);
        self.numbers(a, b, path);
        self.strings(a, b, path);
        self.arrays(a, b, path);
        self.objects(a, b, path);
        if self.dir == Direction::Input {
            let deprecated = |n: &Node<'_>| n.value("deprecated") == Some(&Value::Bool(true));
            if !deprecated(a) && deprecated(b) && !path.is_empty() {
                self.push(
                    &rules::INPUT_PROPERTY_DEPRECATED,
                    path,
                    a.at.clone(),
                    b.at_or_node("deprecated"),
                    "is now deprecated".to_owned(),
                    None,
                );
            }
        }
        self.unclassified(a, b, path);
    }

    /// Reports a type change; `false` when the types no longer overlap (comparing the
    /// other keywords would only repeat the same change).
    fn types(&mut self, a: &Node<'v>, b: &Node<'v>, ta: Types, tb: Types, path: &[Seg]) -> bool {
        let d = self.dir;
        let (rule, what) = if tb.subset_of(ta) {
            (
                d.pick(&rules::INPUT_TYPE_NARROWED, &rules::OUTPUT_TYPE_NARROWED),
                "narrowed",
            )
        } else if ta.subset_of(tb) {
            (
                d.pick(&rules::INPUT_TYPE_WIDENED, &rules::OUTPUT_TYPE_WIDENED),
                "widened",
            )
        } else {
            (
                d.pick(&rules::INPUT_TYPE_CHANGED, &rules::OUTPUT_TYPE_CHANGED),
                "changed",
            )
        };
        let mutation = Mutation::Set(ta.samples_outside(tb));
        self.push(
            rule,
            path,
            a.at_or_node("type"),
            b.at_or_node("type"),
            format!("type {what} from {ta} to {tb}"),
            Some(mutation),
        );
        ta.overlaps(tb)
    }

    /// Keywords of neither group: any difference is one unclassified change.
    fn unclassified(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let keys: BTreeSet<&str> = a.keys().union(&b.keys()).copied().collect();
        let changed: Vec<&str> = keys
            .into_iter()
            .filter(|k| !ANNOTATIONS.contains(k) && !CLASSIFIED.contains(k) && *k != "deprecated")
            .filter(|k| !k.starts_with("x-") || *k == "x-mcp-header")
            .filter(|k| match (a.value(k), b.value(k)) {
                (Some(x), Some(y)) => !json_equal(x, y),
                (None, None) => false,
                _ => true,
            })
            .collect();
        if changed.is_empty() {
            return;
        }
        let d = self.dir;
        self.push(
            d.pick(&rules::INPUT_SCHEMA_CHANGED, &rules::OUTPUT_SCHEMA_CHANGED),
            path,
            a.at.clone(),
            b.at.clone(),
            format!(
                "{} changed in a way the diff does not classify",
                changed.join(", ")
            ),
            None,
        );
    }
}

/// The types a node accepts: `type`, narrowed by the values of `enum` or `const` when
/// there are any (`{"const": "a"}` accepts strings only), and nothing for `false`.
fn types(n: &Node<'_>) -> Types {
    if n.boolean == Some(false) {
        return Types::NOTHING;
    }
    let declared = Types::from_keyword(n.value("type"));
    let values: Option<Vec<&Value>> = match (n.value("const"), n.value("enum")) {
        (Some(c), _) => Some(vec![c]),
        (None, Some(Value::Array(list))) => Some(list.iter().collect()),
        _ => None,
    };
    match values {
        Some(values) => values
            .into_iter()
            .map(Types::of_value)
            .fold(Types::NOTHING, Types::union)
            .intersect(declared),
        None => declared,
    }
}

fn number(n: &Node<'_>, key: &str) -> Option<f64> {
    n.value(key).and_then(Value::as_f64)
}

fn show(x: Option<f64>) -> String {
    x.map_or("none".to_owned(), |x| x.to_string())
}

fn list(values: &[Value]) -> String {
    values.iter().map(brief).collect::<Vec<_>>().join(", ")
}

fn plural_s(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
