//! The order in which a description's examples run against one live server, shared by
//! everything that replays them in sequence (`mcpdesc check --examples`) and by the
//! validator, which rejects hints that cannot be honoured.
//!
//! # The order
//!
//! In each protocol version, the examples form one sequence:
//!
//! 1. **Reads first**: every example that only reads: prompt, resource and resource
//!    template examples, completion examples, and the examples of tools annotated
//!    `readOnlyHint: true`. Annotations are advisory; the order trusts the description
//!    as `--examples read-only` does.
//! 2. **Then the other tools' examples**, Tool Examples and Tool Interaction Examples
//!    alike (a tool without `readOnlyHint: true` may change the server's state).
//! 3. **Destructive tools last**: the examples of tools that state
//!    `destructiveHint: true` (and are not read-only), so that a delete does not run
//!    before an update of the item it deletes. MCP's default `destructiveHint` (true)
//!    would make every unannotated tool destructive and order nothing, so only a
//!    stated hint counts.
//!
//! Within a group, description order: prompts, resources, resource templates, tools,
//! each in document order; within a declaration its `examples`, then its
//! `interactionExamples`, then its `completionExamples`, each map in name order.
//!
//! # The hint: `x-mcpdesc-after`
//!
//! An example whose result shows what an earlier example did (a read of a list after a
//! create, the reference memory server's `read_graph` after `create_entities`) says so
//! with the specification extension [`AFTER`] on the example object:
//!
//! ```json
//! "read_graph": { "examples": { "after-create": {
//!   "x-mcpdesc-after": ["create_entities/recorded-0"],
//!   "input": {}, "result": { "content": [] } } } }
//! ```
//!
//! Each item is an example reference: `EXAMPLE`, an example of the same declaration, or
//! `NAME/EXAMPLE`, an example of the declaration known by `NAME` (a tool's or prompt's
//! name, a resource's URI or name, a resource template's URI template or name; split at
//! the last `/`, since example names hold none). A reference names every example of
//! that name in that declaration's example maps. The example then runs after those
//! (when they run at all: a hint never selects an example), and as early as that
//! allows: a read that must follow a write runs right after it, before the next write.
//! Formally the order is the stable topological order of the hints, taking at each step
//! the runnable example of the lowest group, then the earliest in description order.
//!
//! `mcpdesc validate` reports an item that is not a string, a reference that names no
//! example of the document, and hints that form a cycle in a protocol version (rule
//! [`EXTENSIONS`](crate::rules::EXTENSIONS); see `validate/example_order.rs`).

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use serde_json::Value;

use crate::pointer::Pointer;
use crate::protocol::{ProtocolVersion, VersionSet};
use crate::view;

/// The extension member of an example that names the examples it runs after.
pub const AFTER: &str = "x-mcpdesc-after";

/// The kind of declaration an example belongs to, in the order the kinds are visited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A prompt (`prompts`).
    Prompt,
    /// A static resource (`resources`).
    Resource,
    /// A resource template (`resourceTemplates`).
    ResourceTemplate,
    /// A tool (`tools`).
    Tool,
}

impl Kind {
    /// Every kind, in the order of the sequence.
    pub const ALL: [Kind; 4] = [
        Kind::Prompt,
        Kind::Resource,
        Kind::ResourceTemplate,
        Kind::Tool,
    ];

    /// The root array of its declarations.
    pub fn array(self) -> &'static str {
        match self {
            Kind::Prompt => "prompts",
            Kind::Resource => "resources",
            Kind::ResourceTemplate => "resourceTemplates",
            Kind::Tool => "tools",
        }
    }

    /// The members of a declaration that identify it: its identity in listings first
    /// (`name`, `uri`, `uriTemplate`), then its `name` for resources and templates.
    fn identities(self) -> &'static [&'static str] {
        match self {
            Kind::Prompt | Kind::Tool => &["name"],
            Kind::Resource => &["uri", "name"],
            Kind::ResourceTemplate => &["uriTemplate", "name"],
        }
    }
}

/// What an example does to the server, its group in the order (lowest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Effect {
    /// Only reads: prompts, resources, templates, completions, read-only tools.
    Read,
    /// A tool that is not annotated read-only.
    Write,
    /// A tool that states `destructiveHint: true` and is not read-only.
    Destructive,
}

impl Effect {
    /// The effect of calling a tool with these `annotations` (absent: a write).
    pub fn of_tool(annotations: Option<&Value>) -> Effect {
        let hint = |name: &str| {
            annotations
                .and_then(|a| a.get(name))
                .and_then(Value::as_bool)
        };
        match (hint("readOnlyHint"), hint("destructiveHint")) {
            (Some(true), _) => Effect::Read,
            (_, Some(true)) => Effect::Destructive,
            _ => Effect::Write,
        }
    }
}

/// One example of the sequence.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The kind of its declaration.
    pub kind: Kind,
    /// The declaration's index in its root array.
    pub index: usize,
    /// The names the declaration is known by: its identity in listings first.
    pub names: Vec<String>,
    /// The example map: `examples`, `interactionExamples` or `completionExamples`.
    pub member: &'static str,
    /// The example's name in that map.
    pub name: String,
    /// Its group.
    pub effect: Effect,
    /// The string items of its [`AFTER`] member, as written.
    pub after: Vec<String>,
    /// Where the example is in the (resolved) document.
    pub at: Pointer,
}

impl Step {
    /// Whether `reference` (an [`AFTER`] item written on `from`) names this example.
    fn named_by(&self, from: &Step, reference: &str) -> bool {
        match reference.rsplit_once('/') {
            Some((owner, name)) => self.name == name && self.names.iter().any(|n| n == owner),
            None => self.name == reference && self.kind == from.kind && self.index == from.index,
        }
    }
}

/// The examples of a `$componentRef`-resolved document, in description order: those of
/// the declarations served in `version`, or of every declaration when `None`.
pub fn steps(doc: &Value, version: Option<ProtocolVersion>) -> Vec<Step> {
    let root: VersionSet = doc
        .get("protocolVersions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter_map(ProtocolVersion::parse)
        .collect();
    let mut steps = Vec::new();
    for kind in Kind::ALL {
        let declarations = doc.get(kind.array()).and_then(Value::as_array);
        for (index, declaration) in declarations.into_iter().flatten().enumerate() {
            if let Some(version) = version {
                let declared: Option<Vec<String>> = declaration
                    .get("protocolVersions")
                    .and_then(|v| serde_json::from_value(v.clone()).ok());
                if !view::scope_in(declared.as_deref(), root).contains(version) {
                    continue;
                }
            }
            let names: Vec<String> = kind
                .identities()
                .iter()
                .filter_map(|m| declaration.get(*m).and_then(Value::as_str))
                .map(str::to_owned)
                .collect();
            let effect = match kind {
                Kind::Tool => Effect::of_tool(declaration.get("annotations")),
                _ => Effect::Read,
            };
            let at = Pointer::root().key(kind.array()).index(index);
            for member in ["examples", "interactionExamples", "completionExamples"] {
                let Some(map) = declaration.get(member).and_then(Value::as_object) else {
                    continue;
                };
                let mut named: Vec<(&String, &Value)> = map.iter().collect();
                named.sort_by(|a, b| a.0.cmp(b.0));
                for (name, example) in named {
                    steps.push(Step {
                        kind,
                        index,
                        names: names.clone(),
                        member,
                        name: name.clone(),
                        // Completions only read, whatever the declaration does.
                        effect: if member == "completionExamples" {
                            Effect::Read
                        } else {
                            effect
                        },
                        after: after_items(example),
                        at: at.key(member).key(name),
                    });
                }
            }
        }
    }
    steps
}

/// The string items of an example's [`AFTER`] member (others are the validator's to
/// report).
fn after_items(example: &Value) -> Vec<String> {
    example
        .get(AFTER)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// The steps that `reference`, written on `steps[from]`, names (none: unknown).
pub fn targets(steps: &[Step], from: usize, reference: &str) -> Vec<usize> {
    (0..steps.len())
        .filter(|&i| steps[i].named_by(&steps[from], reference))
        .collect()
}

/// Hints that form a cycle: the steps of one cycle, each running after the next and
/// the last after the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle(pub Vec<usize>);

/// The selected steps in run order (indices into `steps`; see the module docs).
///
/// A hint through steps that are not selected still holds: when `a` runs after `b` and
/// `b` after `c`, `a` runs after `c` even when `b` is left out. Fails with one cycle
/// (the one reached first from the earliest step on it) when the hints of the selected
/// steps have one.
pub fn order(steps: &[Step], selected: &dyn Fn(usize) -> bool) -> Result<Vec<usize>, Cycle> {
    let direct: Vec<BTreeSet<usize>> = (0..steps.len())
        .map(|i| {
            steps[i]
                .after
                .iter()
                .flat_map(|r| targets(steps, i, r))
                .collect()
        })
        .collect();
    // The selected steps each selected step waits for, through unselected ones.
    let waits: Vec<BTreeSet<usize>> = (0..steps.len())
        .map(|i| {
            if !selected(i) {
                return BTreeSet::new();
            }
            let mut found = BTreeSet::new();
            let mut seen = BTreeSet::new();
            let mut stack: Vec<usize> = direct[i].iter().copied().collect();
            while let Some(j) = stack.pop() {
                if !seen.insert(j) {
                    continue;
                }
                if selected(j) {
                    found.insert(j);
                } else {
                    stack.extend(direct[j].iter().copied());
                }
            }
            found
        })
        .collect();
    let mut waiters: Vec<Vec<usize>> = vec![Vec::new(); steps.len()];
    for (j, list) in waits.iter().enumerate() {
        for &i in list {
            waiters[i].push(j);
        }
    }
    let mut pending: Vec<usize> = waits.iter().map(BTreeSet::len).collect();
    let mut heap: BinaryHeap<Reverse<(Effect, usize)>> = (0..steps.len())
        .filter(|&i| selected(i) && pending[i] == 0)
        .map(|i| Reverse((steps[i].effect, i)))
        .collect();
    let mut out = Vec::new();
    while let Some(Reverse((_, i))) = heap.pop() {
        out.push(i);
        for &j in &waiters[i] {
            pending[j] -= 1;
            if pending[j] == 0 {
                heap.push(Reverse((steps[j].effect, j)));
            }
        }
    }
    let left: Vec<usize> = (0..steps.len())
        .filter(|&i| selected(i) && pending[i] > 0)
        .collect();
    let Some(&start) = left.first() else {
        return Ok(out);
    };
    // Every step left waits for another one left: walking from the earliest along the
    // earliest such wait comes back to a step already on the walk.
    let mut walk = vec![start];
    loop {
        let here = *walk.last().unwrap_or(&start);
        let Some(&next) = waits[here].iter().find(|j| pending[**j] > 0) else {
            return Err(Cycle(walk));
        };
        if let Some(at) = walk.iter().position(|&s| s == next) {
            return Err(Cycle(walk.split_off(at)));
        }
        walk.push(next);
    }
}

/// How a step is named in messages: `NAME/EXAMPLE` (its declaration's identity).
pub fn label(step: &Step) -> String {
    format!(
        "{}/{}",
        step.names.first().map_or("?", String::as_str),
        step.name
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// `create` (a write) and `list` (a read) tools, `list` with `examples`.
    fn branches(list_examples: Value) -> Value {
        json!({
            "protocolVersions": ["2025-06-18", "2025-11-25"],
            "tools": [
                {"name": "delete_branch", "annotations": {"destructiveHint": true},
                 "examples": {"old": {}}},
                {"name": "create_branch", "examples": {"feature": {}, "hotfix": {}}},
                {"name": "list_branches", "annotations": {"readOnlyHint": true},
                 "examples": list_examples},
            ],
            "prompts": [{"name": "review", "examples": {"one": {}}}],
        })
    }

    fn run(doc: &Value) -> Result<Vec<String>, Vec<String>> {
        let steps = steps(doc, None);
        let labels = |list: Vec<usize>| list.iter().map(|&i| label(&steps[i])).collect();
        order(&steps, &|_| true)
            .map(labels)
            .map_err(|c| labels(c.0))
    }

    #[test]
    fn reads_first_then_writes_then_destructive_in_description_order() {
        let doc = branches(json!({"before": {}, "all": {}}));
        assert_eq!(
            run(&doc).unwrap(),
            [
                "review/one",
                "list_branches/all",
                "list_branches/before",
                "create_branch/feature",
                "create_branch/hotfix",
                "delete_branch/old",
            ]
        );
    }

    #[test]
    fn a_hinted_read_runs_right_after_what_it_names() {
        let doc = branches(json!({
            "before": {},
            "after-feature": {"x-mcpdesc-after": ["create_branch/feature"]},
        }));
        assert_eq!(
            run(&doc).unwrap(),
            [
                "review/one",
                "list_branches/before",
                "create_branch/feature",
                "list_branches/after-feature",
                "create_branch/hotfix",
                "delete_branch/old",
            ]
        );
        // A bare name is an example of the same declaration; a hint through an
        // example left out still holds.
        let doc = branches(json!({
            "a": {"x-mcpdesc-after": ["b"]},
            "b": {"x-mcpdesc-after": ["create_branch/hotfix"]},
        }));
        let steps = steps(&doc, None);
        let b = steps
            .iter()
            .position(|s| label(s) == "list_branches/b")
            .unwrap();
        let got: Vec<String> = order(&steps, &|i| i != b)
            .unwrap()
            .iter()
            .map(|&i| label(&steps[i]))
            .collect();
        assert_eq!(
            got,
            [
                "review/one",
                "create_branch/feature",
                "create_branch/hotfix",
                "list_branches/a",
                "delete_branch/old",
            ]
        );
    }

    #[test]
    fn cycles_are_rejected_with_their_steps() {
        let doc =
            branches(json!({"a": {"x-mcpdesc-after": ["b"]}, "b": {"x-mcpdesc-after": ["a"]}}));
        assert_eq!(
            run(&doc).unwrap_err(),
            ["list_branches/a", "list_branches/b"]
        );
        let doc = branches(json!({"a": {"x-mcpdesc-after": ["a"]}}));
        assert_eq!(run(&doc).unwrap_err(), ["list_branches/a"]);
        // Left out of the selection, a cycle does not stop the others.
        let steps = steps(&doc, None);
        let a = steps.iter().position(|s| s.name == "a").unwrap();
        assert_eq!(order(&steps, &|i| i != a).unwrap().len(), steps.len() - 1);
    }

    #[test]
    fn the_order_is_deterministic_and_follows_the_version() {
        // The same order whatever the order of the hint's items and of the example
        // map's members in the document (kept by serde_json's `preserve_order`).
        let hints = |items: Value, first: &str| {
            let mut map = serde_json::Map::new();
            for name in [first, if first == "x" { "y" } else { "x" }] {
                let after = if name == "x" {
                    items.clone()
                } else {
                    json!([])
                };
                map.insert(name.to_owned(), json!({"x-mcpdesc-after": after}));
            }
            branches(Value::Object(map))
        };
        let order = run(&hints(
            json!(["create_branch/hotfix", "create_branch/feature"]),
            "x",
        ));
        let expected = [
            "review/one",
            "list_branches/y",
            "create_branch/feature",
            "create_branch/hotfix",
            "list_branches/x",
            "delete_branch/old",
        ];
        assert_eq!(order.unwrap(), expected);
        let swapped = run(&hints(
            json!(["create_branch/feature", "create_branch/hotfix"]),
            "y",
        ));
        assert_eq!(swapped.unwrap(), expected);
        let mut doc = branches(json!({"x": {"x-mcpdesc-after": ["create_branch/hotfix"]}}));
        // Only the declarations served in the version take part.
        doc["tools"][1]["protocolVersions"] = json!(["2025-11-25"]);
        let old = steps(&doc, ProtocolVersion::parse("2025-06-18"));
        assert!(old.iter().all(|s| s.names[0] != "create_branch"));
        assert_eq!(old.len(), 3);
        assert_eq!(steps(&doc, ProtocolVersion::parse("2025-11-25")).len(), 5);
        // References name examples by declaration and example name.
        let all = steps(&doc, None);
        let x = all.iter().position(|s| s.name == "x").unwrap();
        assert_eq!(targets(&all, x, "create_branch/hotfix").len(), 1);
        assert!(targets(&all, x, "hotfix").is_empty());
        assert!(targets(&all, x, "nope/hotfix").is_empty());
    }

    #[test]
    fn resources_are_named_by_uri_or_name() {
        let doc = json!({
            "resources": [{"uri": "mem://graph", "name": "graph", "examples": {"now": {}}}],
            "resourceTemplates": [{"uriTemplate": "mem://e/{id}", "name": "entity",
                "examples": {"one": {"x-mcpdesc-after": ["mem://graph/now", "graph/now"]}},
                "completionExamples": {"id": {}}}],
            "tools": [{"name": "add", "annotations": {"readOnlyHint": false},
                "examples": {"first": {}}}],
        });
        let all = steps(&doc, None);
        assert_eq!(all[2].effect, Effect::Read, "{:?}", all[2]);
        assert_eq!(targets(&all, 1, "mem://graph/now"), [0]);
        assert_eq!(targets(&all, 1, "graph/now"), [0]);
        assert_eq!(
            run(&doc).unwrap(),
            [
                "mem://graph/now",
                "mem://e/{id}/one",
                "mem://e/{id}/id",
                "add/first"
            ]
        );
    }
}
