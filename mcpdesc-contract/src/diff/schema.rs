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

use super::rules::{self, Rule};
use super::types::Types;
use super::witness::{self, Mutation, Seg};
use super::{brief, json_equal, Found, Subject};
use mcpdesc_description::pointer::Pointer;

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

    fn enums(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let values = |n: &Node<'v>| -> Option<(Vec<Value>, Pointer)> {
            if let Some((v, at)) = n.get("const") {
                return Some((vec![v.clone()], at));
            }
            let (v, at) = n.get("enum")?;
            Some((v.as_array()?.clone(), at))
        };
        let d = self.dir;
        match (values(a), values(b)) {
            (Some((ea, pa)), Some((eb, pb))) => {
                let removed: Vec<Value> = ea
                    .iter()
                    .filter(|v| !eb.iter().any(|w| json_equal(v, w)))
                    .cloned()
                    .collect();
                let added: Vec<Value> = eb
                    .iter()
                    .filter(|v| !ea.iter().any(|w| json_equal(v, w)))
                    .cloned()
                    .collect();
                if !removed.is_empty() {
                    self.push(
                        d.pick(
                            &rules::INPUT_ENUM_VALUE_REMOVED,
                            &rules::OUTPUT_ENUM_VALUE_REMOVED,
                        ),
                        path,
                        pa.clone(),
                        pb.clone(),
                        format!(
                            "enum value{} {} removed",
                            plural_s(removed.len()),
                            list(&removed)
                        ),
                        Some(Mutation::Set(removed)),
                    );
                }
                if !added.is_empty() {
                    self.push(
                        d.pick(
                            &rules::INPUT_ENUM_VALUE_ADDED,
                            &rules::OUTPUT_ENUM_VALUE_ADDED,
                        ),
                        path,
                        pa,
                        pb,
                        format!("enum value{} {} added", plural_s(added.len()), list(&added)),
                        None,
                    );
                }
            }
            (None, Some((eb, pb))) => {
                let candidates = witness::values_outside(&eb, types(a));
                self.push(
                    d.pick(&rules::INPUT_ENUM_ADDED, &rules::OUTPUT_ENUM_ADDED),
                    path,
                    a.at.clone(),
                    pb,
                    format!("now restricted to {}", list(&eb)),
                    Some(Mutation::Set(candidates)),
                );
            }
            (Some((ea, pa)), None) => self.push(
                d.pick(&rules::INPUT_ENUM_REMOVED, &rules::OUTPUT_ENUM_REMOVED),
                path,
                pa,
                b.at.clone(),
                format!("no longer restricted to {}", list(&ea)),
                None,
            ),
            (None, None) => {}
        }
    }

    fn numbers(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let d = self.dir;
        let tight = d.pick(
            &rules::INPUT_NUMERIC_TIGHTENED,
            &rules::OUTPUT_NUMERIC_TIGHTENED,
        );
        let loose = d.pick(
            &rules::INPUT_NUMERIC_LOOSENED,
            &rules::OUTPUT_NUMERIC_LOOSENED,
        );
        let integer = types(a).only_integers();
        for (lower, inclusive, exclusive) in [
            (true, "minimum", "exclusiveMinimum"),
            (false, "maximum", "exclusiveMaximum"),
        ] {
            let (ba, bb) = (
                bound(a, inclusive, exclusive),
                bound(b, inclusive, exclusive),
            );
            if ba == bb {
                continue;
            }
            let at = |n: &Node<'v>| {
                n.get(exclusive)
                    .or_else(|| n.get(inclusive))
                    .map_or_else(|| n.at.clone(), |(_, p)| p)
            };
            let stricter = stricter_bound(lower, ba, bb);
            let looser = stricter_bound(lower, bb, ba);
            let name = if lower { "lower bound" } else { "upper bound" };
            if stricter {
                let candidates = witness::numbers_beyond(lower, ba, bb, integer);
                self.push(
                    tight,
                    path,
                    at(a),
                    at(b),
                    format!(
                        "{name} tightened from {} to {}",
                        show_bound(lower, ba),
                        show_bound(lower, bb)
                    ),
                    Some(Mutation::Set(candidates)),
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    at(a),
                    at(b),
                    format!(
                        "{name} loosened from {} to {}",
                        show_bound(lower, ba),
                        show_bound(lower, bb)
                    ),
                    None,
                );
            }
        }
        let (ma, mb) = (number(a, "multipleOf"), number(b, "multipleOf"));
        if ma != mb {
            let divides = |big: f64, small: f64| (big / small).fract().abs() < 1e-9;
            let stricter = match (ma, mb) {
                (None, Some(_)) => true,
                (Some(x), Some(y)) => !divides(y, x),
                _ => false,
            };
            let looser = match (ma, mb) {
                (Some(_), None) => true,
                (Some(x), Some(y)) => !divides(x, y),
                _ => false,
            };
            let show = |m: Option<f64>| m.map_or("none".to_owned(), |m| m.to_string());
            if stricter {
                let candidates = witness::non_multiples(ma, mb.unwrap_or(1.0), integer);
                self.push(
                    tight,
                    path,
                    a.at_or_node("multipleOf"),
                    b.at_or_node("multipleOf"),
                    format!("multipleOf changed from {} to {}", show(ma), show(mb)),
                    Some(Mutation::Set(candidates)),
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    a.at_or_node("multipleOf"),
                    b.at_or_node("multipleOf"),
                    format!("multipleOf changed from {} to {}", show(ma), show(mb)),
                    None,
                );
            }
        }
    }

    fn strings(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let d = self.dir;
        let tight = d.pick(
            &rules::INPUT_STRING_TIGHTENED,
            &rules::OUTPUT_STRING_TIGHTENED,
        );
        let loose = d.pick(
            &rules::INPUT_STRING_LOOSENED,
            &rules::OUTPUT_STRING_LOOSENED,
        );
        for (key, lower) in [("minLength", true), ("maxLength", false)] {
            let (x, y) = (number(a, key), number(b, key));
            if x == y {
                continue;
            }
            let (stricter, looser) = compare_limits(lower, x, y);
            let message = format!("{key} changed from {} to {}", show(x), show(y));
            if stricter {
                let len = witness::length_beyond(lower, x, y);
                self.push(
                    tight,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message.clone(),
                    len.map(|n| Mutation::Set(vec![Value::String("a".repeat(n))])),
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message,
                    None,
                );
            }
        }
        let (pa, pb) = (a.value("pattern"), b.value("pattern"));
        match (pa, pb) {
            (None, Some(p)) => self.push(
                tight,
                path,
                a.at.clone(),
                b.at_or_node("pattern"),
                format!("pattern {} added", brief(p)),
                Some(Mutation::Set(witness::pattern_candidates())),
            ),
            (Some(p), None) => self.push(
                loose,
                path,
                a.at_or_node("pattern"),
                b.at.clone(),
                format!("pattern {} removed", brief(p)),
                None,
            ),
            (Some(x), Some(y)) if x != y => self.push(
                d.pick(
                    &rules::INPUT_PATTERN_CHANGED,
                    &rules::OUTPUT_PATTERN_CHANGED,
                ),
                path,
                a.at_or_node("pattern"),
                b.at_or_node("pattern"),
                format!("pattern changed from {} to {}", brief(x), brief(y)),
                None,
            ),
            _ => {}
        }
        let (fa, fb) = (a.value("format"), b.value("format"));
        if fa != fb {
            let show = |f: Option<&Value>| f.map_or("none".to_owned(), brief);
            self.push(
                d.pick(&rules::INPUT_FORMAT_CHANGED, &rules::OUTPUT_FORMAT_CHANGED),
                path,
                a.at_or_node("format"),
                b.at_or_node("format"),
                format!("format changed from {} to {}", show(fa), show(fb)),
                None,
            );
        }
    }

    fn arrays(&mut self, a: &Node<'v>, b: &Node<'v>, path: &mut Vec<Seg>) {
        let d = self.dir;
        let tight = d.pick(
            &rules::INPUT_ARRAY_TIGHTENED,
            &rules::OUTPUT_ARRAY_TIGHTENED,
        );
        let loose = d.pick(&rules::INPUT_ARRAY_LOOSENED, &rules::OUTPUT_ARRAY_LOOSENED);
        for (key, lower) in [("minItems", true), ("maxItems", false)] {
            let (x, y) = (number(a, key), number(b, key));
            if x == y {
                continue;
            }
            let (stricter, looser) = compare_limits(lower, x, y);
            let message = format!("{key} changed from {} to {}", show(x), show(y));
            if stricter {
                let len = witness::length_beyond(lower, x, y);
                self.push(
                    tight,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message.clone(),
                    len.map(Mutation::ArrayLength),
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message,
                    None,
                );
            }
        }
        let unique = |n: &Node<'v>| n.value("uniqueItems") == Some(&Value::Bool(true));
        match (unique(a), unique(b)) {
            (false, true) => self.push(
                tight,
                path,
                a.at.clone(),
                b.at_or_node("uniqueItems"),
                "items must now be unique".to_owned(),
                Some(Mutation::DuplicateItems),
            ),
            (true, false) => self.push(
                loose,
                path,
                a.at_or_node("uniqueItems"),
                b.at.clone(),
                "items no longer need to be unique".to_owned(),
                None,
            ),
            _ => {}
        }
        // `items` as one schema (tuple forms are compared index by index).
        match (a.get("items"), b.get("items")) {
            (Some((ia, pa)), Some((ib, pb))) if !ia.is_array() && !ib.is_array() => {
                let na = self.node(ia, pa, true);
                let nb = self.node(ib, pb, false);
                path.push(Seg::Item);
                self.compare(&na, &nb, path);
                path.pop();
            }
            (None, Some((ib, pb))) if !ib.is_array() => {
                let na = Node {
                    layers: vec![(empty(), a.at.clone())],
                    boolean: None,
                    at: a.at.clone(),
                };
                let nb = self.node(ib, pb, false);
                path.push(Seg::Item);
                self.compare(&na, &nb, path);
                path.pop();
            }
            (Some((ia, pa)), None) if !ia.is_array() => {
                let na = self.node(ia, pa, true);
                let nb = Node {
                    layers: vec![(empty(), b.at.clone())],
                    boolean: None,
                    at: b.at.clone(),
                };
                path.push(Seg::Item);
                self.compare(&na, &nb, path);
                path.pop();
            }
            _ => {}
        }
        if let (Some((Value::Array(xa), pa)), Some((Value::Array(xb), pb))) =
            (a.get("prefixItems"), b.get("prefixItems"))
        {
            for (i, (x, y)) in xa.iter().zip(xb).enumerate() {
                let na = self.node(x, pa.index(i), true);
                let nb = self.node(y, pb.index(i), false);
                path.push(Seg::Index(i));
                self.compare(&na, &nb, path);
                path.pop();
            }
        }
    }

    fn objects(&mut self, a: &Node<'v>, b: &Node<'v>, path: &mut Vec<Seg>) {
        let d = self.dir;
        let props = |n: &Node<'v>| -> Vec<(&'v String, &'v Value, Pointer)> {
            match n.get("properties") {
                Some((Value::Object(m), at)) => m.iter().map(|(k, v)| (k, v, at.key(k))).collect(),
                _ => Vec::new(),
            }
        };
        let required = |n: &Node<'v>| -> BTreeSet<&'v str> {
            n.value("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect()
        };
        let (pa, pb) = (props(a), props(b));
        let (ra, rb) = (required(a), required(b));
        let prop = |list: &[(&'v String, &'v Value, Pointer)], name: &str| {
            list.iter()
                .find(|(k, ..)| k.as_str() == name)
                .map(|(_, v, at)| (*v, at.clone()))
        };

        // Properties in both: recurse, then their required flag.
        for (name, va, at_a) in &pa {
            let Some((vb, at_b)) = prop(&pb, name) else {
                continue;
            };
            let na = self.node(va, at_a.clone(), true);
            let nb = self.node(vb, at_b.clone(), false);
            path.push(Seg::Prop((*name).clone()));
            self.compare(&na, &nb, path);
            path.pop();
        }
        // Names that became required (declared before or not) and optional.
        for name in rb.difference(&ra) {
            let old_declared = prop(&pa, name).is_some();
            let new_at = prop(&pb, name).map_or_else(|| b.at_or_node("required"), |(_, at)| at);
            let (rule, what) = match (old_declared, d) {
                (true, Direction::Input) => {
                    (&rules::INPUT_PROPERTY_BECAME_REQUIRED, "became required")
                }
                (true, Direction::Output) => {
                    (&rules::OUTPUT_PROPERTY_BECAME_REQUIRED, "became required")
                }
                (false, Direction::Input) => (
                    &rules::INPUT_PROPERTY_ADDED_REQUIRED,
                    "was added as required",
                ),
                (false, Direction::Output) => (
                    &rules::OUTPUT_PROPERTY_ADDED_REQUIRED,
                    "was added as required",
                ),
            };
            let old_at = prop(&pa, name).map_or_else(|| a.at.clone(), |(_, at)| at);
            self.push_member(
                rule,
                path,
                name,
                old_at,
                new_at,
                what,
                Some(Mutation::Omit((*name).to_owned())),
            );
        }
        for name in ra.difference(&rb) {
            if prop(&pb, name).is_none() && prop(&pa, name).is_some() {
                continue; // reported as removed below
            }
            let rule = d.pick(
                &rules::INPUT_PROPERTY_BECAME_OPTIONAL,
                &rules::OUTPUT_PROPERTY_BECAME_OPTIONAL,
            );
            let old_at = prop(&pa, name).map_or_else(|| a.at_or_node("required"), |(_, at)| at);
            let new_at = prop(&pb, name).map_or_else(|| b.at.clone(), |(_, at)| at);
            self.push_member(rule, path, name, old_at, new_at, "became optional", None);
        }
        // Optional properties added.
        for (name, _, at_b) in &pb {
            if prop(&pa, name).is_some() || rb.contains(name.as_str()) {
                continue;
            }
            let rule = d.pick(
                &rules::INPUT_PROPERTY_ADDED_OPTIONAL,
                &rules::OUTPUT_PROPERTY_ADDED_OPTIONAL,
            );
            self.push_member(
                rule,
                path,
                name,
                a.at_or_node("properties"),
                at_b.clone(),
                "was added as optional",
                None,
            );
        }
        // Properties removed.
        for (name, _, at_a) in &pa {
            if prop(&pb, name).is_some() {
                continue;
            }
            let was_required = ra.contains(name.as_str());
            let (rule, what, mutation) = match d {
                Direction::Input if accepts_undeclared(b, name) => (
                    &rules::INPUT_PROPERTY_REMOVED_ACCEPTED,
                    "was removed; the new schema still accepts it as an undeclared property",
                    None,
                ),
                Direction::Input => (
                    &rules::INPUT_PROPERTY_REMOVED,
                    "was removed and the new schema rejects it",
                    Some(Mutation::Add((*name).clone())),
                ),
                Direction::Output if was_required => (
                    &rules::OUTPUT_PROPERTY_REMOVED_REQUIRED,
                    "was removed (it was required)",
                    None,
                ),
                Direction::Output => (
                    &rules::OUTPUT_PROPERTY_REMOVED_OPTIONAL,
                    "was removed",
                    None,
                ),
            };
            self.push_member(
                rule,
                path,
                name,
                at_a.clone(),
                b.at_or_node("properties"),
                what,
                mutation,
            );
        }
        self.additional(a, b, path);
        let tight = d.pick(
            &rules::INPUT_OBJECT_TIGHTENED,
            &rules::OUTPUT_OBJECT_TIGHTENED,
        );
        let loose = d.pick(
            &rules::INPUT_OBJECT_LOOSENED,
            &rules::OUTPUT_OBJECT_LOOSENED,
        );
        for (key, lower) in [("minProperties", true), ("maxProperties", false)] {
            let (x, y) = (number(a, key), number(b, key));
            if x == y {
                continue;
            }
            let (stricter, looser) = compare_limits(lower, x, y);
            let message = format!("{key} changed from {} to {}", show(x), show(y));
            if stricter {
                self.push(
                    tight,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message.clone(),
                    None,
                );
            }
            if looser {
                self.push(
                    loose,
                    path,
                    a.at_or_node(key),
                    b.at_or_node(key),
                    message,
                    None,
                );
            }
        }
    }

    fn additional(&mut self, a: &Node<'v>, b: &Node<'v>, path: &mut Vec<Seg>) {
        let d = self.dir;
        let tight = d.pick(
            &rules::INPUT_ADDITIONAL_TIGHTENED,
            &rules::OUTPUT_ADDITIONAL_TIGHTENED,
        );
        let loose = d.pick(
            &rules::INPUT_ADDITIONAL_LOOSENED,
            &rules::OUTPUT_ADDITIONAL_LOOSENED,
        );
        let (xa, xb) = (a.get("additionalProperties"), b.get("additionalProperties"));
        let open = |x: &Option<(&Value, Pointer)>| match x {
            None => Some(true),
            Some((Value::Bool(v), _)) => Some(*v),
            Some((Value::Object(m), _)) if m.is_empty() => Some(true),
            _ => None,
        };
        let at = |n: &Node<'v>| n.at_or_node("additionalProperties");
        match (open(&xa), open(&xb)) {
            (Some(x), Some(y)) if x == y => {}
            (Some(true), _) => self.push(
                tight,
                path,
                at(a),
                at(b),
                "accepts fewer undeclared properties (additionalProperties)".to_owned(),
                Some(Mutation::Add(String::new())),
            ),
            (_, Some(true)) => self.push(
                loose,
                path,
                at(a),
                at(b),
                "accepts any undeclared property now (additionalProperties)".to_owned(),
                None,
            ),
            (None, Some(false)) => self.push(
                tight,
                path,
                at(a),
                at(b),
                "no longer accepts undeclared properties (additionalProperties: false)".to_owned(),
                Some(Mutation::Add(String::new())),
            ),
            (Some(false), None) => self.push(
                loose,
                path,
                at(a),
                at(b),
                "accepts undeclared properties of a schema now".to_owned(),
                None,
            ),
            (None, None) => {
                if let (Some((va, pa)), Some((vb, pb))) = (xa, xb) {
                    let na = self.node(va, pa, true);
                    let nb = self.node(vb, pb, false);
                    path.push(Seg::Undeclared);
                    self.compare(&na, &nb, path);
                    path.pop();
                }
            }
            _ => {}
        }
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

/// Whether the object schema `n` accepts a property `name` it does not declare.
fn accepts_undeclared(n: &Node<'_>, name: &str) -> bool {
    if n.value("additionalProperties") == Some(&Value::Bool(false))
        || n.value("unevaluatedProperties") == Some(&Value::Bool(false))
    {
        // A pattern may still admit it.
        return n
            .value("patternProperties")
            .and_then(Value::as_object)
            .is_some_and(|m| {
                m.keys()
                    .any(|p| regex::Regex::new(p).is_ok_and(|re| re.is_match(name)))
            });
    }
    true
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

/// A numeric bound: value and whether it is exclusive.
type Bound = Option<(f64, bool)>;

/// The effective lower or upper bound from the inclusive and exclusive keywords
/// (draft-04 boolean `exclusiveMinimum` is read as making `minimum` exclusive).
fn bound(n: &Node<'_>, inclusive: &str, exclusive: &str) -> Bound {
    let inc = number(n, inclusive);
    match n.value(exclusive) {
        Some(Value::Number(x)) => {
            let x = x.as_f64()?;
            match inc {
                Some(i)
                    if (inclusive == "minimum" && i > x) || (inclusive == "maximum" && i < x) =>
                {
                    Some((i, false))
                }
                _ => Some((x, true)),
            }
        }
        Some(Value::Bool(true)) => inc.map(|i| (i, true)),
        _ => inc.map(|i| (i, false)),
    }
}

/// Whether `b` excludes values `a` allows (for a lower bound when `lower`).
fn stricter_bound(lower: bool, a: Bound, b: Bound) -> bool {
    match (a, b) {
        (_, None) => false,
        (None, Some(_)) => true,
        (Some((x, ex)), Some((y, ey))) => {
            if lower {
                y > x || (y == x && ey && !ex)
            } else {
                y < x || (y == x && ey && !ex)
            }
        }
    }
}

fn show_bound(lower: bool, b: Bound) -> String {
    match b {
        None => "none".to_owned(),
        Some((x, false)) => format!("{} {x}", if lower { ">=" } else { "<=" }),
        Some((x, true)) => format!("{} {x}", if lower { ">" } else { "<" }),
    }
}

/// For a pair of limits (a lower one like `minLength` when `lower`): whether the new one
/// is stricter, and whether it is looser.
fn compare_limits(lower: bool, a: Option<f64>, b: Option<f64>) -> (bool, bool) {
    match (a, b) {
        (None, Some(_)) => (true, false),
        (Some(_), None) => (false, true),
        (Some(x), Some(y)) if lower => (y > x, y < x),
        (Some(x), Some(y)) => (y < x, y > x),
        (None, None) => (false, false),
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
