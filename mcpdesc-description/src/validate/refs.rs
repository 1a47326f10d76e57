//! `$componentRef` resolution: whole-value substitution of Reference Objects before any
//! contextual rule runs (spec §9.2, §9.3 and digest §3).
//!
//! References are resolved only at the places the format allows them, inside the same
//! document, never through the network or the file system. Each failure is reported at
//! the use site, distinguishing a malformed reference, a missing target, a wrong
//! namespace and a cycle.

use std::collections::HashMap;

use serde_json::Value;

use super::cx::display_path;
use crate::diagnostic::{Diagnostic, Severity};
use crate::pointer::Pointer;
use crate::rules;

/// The component namespaces, as they appear under `#/components/`.
pub const NAMESPACES: [&str; 5] = [
    "schemas",
    "toolExamples",
    "resourceExamples",
    "resourceTemplateExamples",
    "promptExamples",
];

/// One substituted Reference Object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    /// Where the Reference Object stood.
    pub use_site: Pointer,
    /// The component whose value replaced it (the end of the chain).
    pub target: Pointer,
    /// The component's name (the last segment of `target`).
    pub name: String,
}

/// The document with every resolvable reference substituted.
#[derive(Debug, Clone, Default)]
pub struct Resolution {
    /// The substituted document.
    pub value: Value,
    /// What was substituted where, in document order.
    pub substitutions: Vec<Substitution>,
    /// Use site → target, for locating diagnostics in O(depth) per pointer.
    index: HashMap<Pointer, Pointer>,
}

impl Resolution {
    /// The substitution made exactly at `use_site`, if any.
    pub fn at(&self, use_site: &Pointer) -> Option<&Substitution> {
        self.substitutions.iter().find(|s| &s.use_site == use_site)
    }

    /// Maps a pointer into the substituted document back to the place in the source
    /// text where that value is written (inside the referenced component).
    ///
    /// Each step looks up the pointer's ancestors (deepest first) among the use sites,
    /// so the cost is the pointer's depth per hop, not the number of substitutions.
    pub fn source_pointer(&self, pointer: &Pointer) -> Pointer {
        let mut current = pointer.clone();
        // A hop always lands inside `#/components`, whose own references were resolved
        // to their final targets, so a handful of hops is the most there can be; the
        // bound only guards against a malformed index.
        for _ in 0..=self.substitutions.len().min(16) {
            let mut ancestor = Some(current.clone());
            let mut next = None;
            while let Some(a) = ancestor {
                if let Some(target) = self.index.get(&a).filter(|t| **t != a) {
                    next = current.rebase(&a, target);
                    break;
                }
                ancestor = a.parent();
            }
            match next {
                Some(n) if n != current => current = n,
                _ => break,
            }
        }
        current
    }
}

/// A parsed `#/components/<namespace>/<name>`.
struct Target<'a> {
    namespace: &'a str,
    name: &'a str,
}

fn parse_reference(text: &str) -> Option<Target<'_>> {
    let rest = text.strip_prefix("#/components/")?;
    let (namespace, name) = rest.split_once('/')?;
    let name_ok = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    (NAMESPACES.contains(&namespace) && name_ok).then_some(Target { namespace, name })
}

/// Whether a value is a Reference Object (an object with a `$componentRef` member).
pub fn is_reference(value: &Value) -> bool {
    value.get("$componentRef").is_some()
}

struct Resolver<'d> {
    doc: &'d Value,
    diagnostics: Vec<Diagnostic>,
    /// Components already resolved: pointer → final target, or `None` when broken.
    components: HashMap<Pointer, Option<Pointer>>,
}

impl<'d> Resolver<'d> {
    fn error(&mut self, code: &'static str, at: &Pointer, message: String) {
        self.diagnostics.push(Diagnostic::new(
            Severity::Error,
            rules::COMPONENTS_REFERENCES,
            code,
            at,
            message,
        ));
    }

    /// Follows the reference at `use_site` to the component it finally denotes.
    /// Reports problems at the use site; returns the target pointer when resolvable.
    fn follow(&mut self, use_site: &Pointer, value: &Value, expected: &str) -> Option<Pointer> {
        let at = use_site.key("$componentRef");
        let path = display_path(use_site);
        let Some(text) = value.get("$componentRef").and_then(Value::as_str) else {
            self.error(
                "malformed-component-reference",
                &at,
                format!("{path}.$componentRef must be a string of the form #/components/<namespace>/<name>"),
            );
            return None;
        };
        let Some(target) = parse_reference(text) else {
            self.error(
                "malformed-component-reference",
                &at,
                format!(
                    "{path}.$componentRef {text:?} is not a local component reference; it must be #/components/<namespace>/<name> with namespace one of {} and a name matching ^[A-Za-z0-9._-]+$ (remote, relative and other pointers are not allowed)",
                    NAMESPACES.join(", ")
                ),
            );
            return None;
        };
        if let Some(siblings) = value.as_object().filter(|m| m.len() > 1) {
            let extra: Vec<&str> = siblings
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "$componentRef")
                .collect();
            self.error(
                "component-reference-siblings",
                use_site,
                format!(
                    "{path} is a Reference Object and must contain only $componentRef, but also has {}",
                    extra.join(", ")
                ),
            );
        }
        if target.namespace != expected {
            self.error(
                "wrong-component-reference-namespace",
                &at,
                format!(
                    "{path}.$componentRef must target #/components/{expected}, not #/components/{}",
                    target.namespace
                ),
            );
            return None;
        }
        let target_ptr = Pointer::root()
            .key("components")
            .key(target.namespace)
            .key(target.name);
        let Some(target_value) = self
            .doc
            .get("components")
            .and_then(|c| c.get(target.namespace))
            .and_then(|ns| ns.get(target.name))
        else {
            self.error(
                "missing-component-reference-target",
                &at,
                format!("{path}.$componentRef targets missing component \"{text}\""),
            );
            return None;
        };
        if !is_reference(target_value) {
            return Some(target_ptr);
        }
        // The target is itself a reference: its own resolution (done once, reported
        // at the component) decides. A broken chain was reported there already.
        self.component(&target_ptr, target_value, target.namespace)
    }

    /// Resolves one component value that is itself a Reference Object, detecting cycles.
    fn component(&mut self, at: &Pointer, value: &Value, namespace: &str) -> Option<Pointer> {
        if let Some(done) = self.components.get(at) {
            return done.clone();
        }
        // Walk the chain iteratively, remembering the path to detect cycles.
        let mut chain: Vec<Pointer> = vec![at.clone()];
        let mut current_value = value;
        let mut current_ptr = at.clone();
        let result = loop {
            let Some(text) = current_value.get("$componentRef").and_then(Value::as_str) else {
                break self.follow(&current_ptr, current_value, namespace);
            };
            let Some(target) = parse_reference(text) else {
                break self.follow(&current_ptr, current_value, namespace);
            };
            let next_ptr = Pointer::root()
                .key("components")
                .key(target.namespace)
                .key(target.name);
            if let Some(pos) = chain.iter().position(|p| p == &next_ptr) {
                let names: Vec<String> = chain[pos..]
                    .iter()
                    .chain(std::iter::once(&next_ptr))
                    .map(|p| p.segments().last().unwrap_or_default())
                    .collect();
                self.error(
                    "component-reference-cycle",
                    &at.key("$componentRef"),
                    format!(
                        "{}.$componentRef forms a cycle through {}",
                        display_path(at),
                        names.join(" -> ")
                    ),
                );
                break None;
            }
            let Some(next_value) = self
                .doc
                .get("components")
                .and_then(|c| c.get(target.namespace))
                .and_then(|ns| ns.get(target.name))
            else {
                break self.follow(&current_ptr, current_value, namespace);
            };
            if target.namespace != namespace || !is_reference(next_value) {
                break self.follow(&current_ptr, current_value, namespace);
            }
            chain.push(next_ptr.clone());
            current_ptr = next_ptr;
            current_value = next_value;
        };
        for p in &chain {
            self.components.entry(p.clone()).or_insert(result.clone());
        }
        result
    }
}

/// The places where the format allows a Reference Object, with the namespace each
/// must target.
fn use_sites(doc: &Value) -> Vec<(Pointer, &'static str)> {
    let mut sites = Vec::new();
    let elicitations = |sites: &mut Vec<(Pointer, &'static str)>, decl: &Value, at: &Pointer| {
        if let Some(list) = decl.get("elicitations").and_then(Value::as_array) {
            for (j, e) in list.iter().enumerate() {
                if e.get("requestedSchema").is_some() {
                    sites.push((
                        at.key("elicitations").index(j).key("requestedSchema"),
                        "schemas",
                    ));
                }
            }
        }
    };
    let examples = |sites: &mut Vec<(Pointer, &'static str)>, decl: &Value, at: &Pointer, ns| {
        if let Some(map) = decl.get("examples").and_then(Value::as_object) {
            for name in map.keys() {
                sites.push((at.key("examples").key(name), ns));
            }
        }
    };
    for (list, example_ns) in [
        ("tools", "toolExamples"),
        ("resources", "resourceExamples"),
        ("resourceTemplates", "resourceTemplateExamples"),
        ("prompts", "promptExamples"),
    ] {
        let Some(items) = doc.get(list).and_then(Value::as_array) else {
            continue;
        };
        for (i, decl) in items.iter().enumerate() {
            let at = Pointer::root().key(list).index(i);
            if list == "tools" {
                for member in ["inputSchema", "outputSchema"] {
                    if decl.get(member).is_some() {
                        sites.push((at.key(member), "schemas"));
                    }
                }
            }
            examples(&mut sites, decl, &at, example_ns);
            elicitations(&mut sites, decl, &at);
        }
    }
    sites
}

/// Resolves every Reference Object of `doc`.
///
/// Returns the substituted document and the problems found. An unresolvable reference
/// stays in place (later checks see a Reference Object and skip it).
pub fn resolve(doc: &Value) -> (Resolution, Vec<Diagnostic>) {
    let mut resolver = Resolver {
        doc,
        diagnostics: Vec::new(),
        components: HashMap::new(),
    };
    let mut resolution = Resolution {
        value: doc.clone(),
        substitutions: Vec::new(),
        index: HashMap::new(),
    };

    // Component values that are references themselves (chains), each once.
    if let Some(components) = doc.get("components").and_then(Value::as_object) {
        for namespace in NAMESPACES {
            let Some(map) = components.get(namespace).and_then(Value::as_object) else {
                continue;
            };
            for (name, value) in map {
                if !is_reference(value) {
                    continue;
                }
                let at = Pointer::root().key("components").key(namespace).key(name);
                if let Some(target) = resolver.component(&at, value, namespace) {
                    substitute(&mut resolution, doc, &at, target);
                }
            }
        }
    }

    for (site, namespace) in use_sites(doc) {
        let Some(value) = lookup(doc, &site) else {
            continue;
        };
        if !is_reference(value) {
            continue;
        }
        if let Some(target) = resolver.follow(&site, value, namespace) {
            substitute(&mut resolution, doc, &site, target);
        }
    }
    (resolution, resolver.diagnostics)
}

fn substitute(resolution: &mut Resolution, doc: &Value, site: &Pointer, target: Pointer) {
    let Some(replacement) = lookup(doc, &target).cloned() else {
        return;
    };
    if let Some(slot) = resolution.value.pointer_mut(site.as_str()) {
        *slot = replacement;
        let name = target.segments().last().unwrap_or_default();
        resolution.index.insert(site.clone(), target.clone());
        resolution.substitutions.push(Substitution {
            use_site: site.clone(),
            target,
            name,
        });
    }
}

fn lookup<'v>(doc: &'v Value, at: &Pointer) -> Option<&'v Value> {
    doc.pointer(at.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(diags: &[Diagnostic]) -> Vec<(&str, &str)> {
        diags.iter().map(|d| (d.code, d.pointer.as_str())).collect()
    }

    #[test]
    fn substitutes_schema_and_example_references() {
        let doc = json!({
            "components": {
                "schemas": {"In": {"type": "object"}, "Alias": {"$componentRef": "#/components/schemas/In"}},
                "toolExamples": {"basic": {"input": {}, "result": {"content": []}}}
            },
            "tools": [{"name": "t", "inputSchema": {"$componentRef": "#/components/schemas/Alias"},
                       "examples": {"b": {"$componentRef": "#/components/toolExamples/basic"}}}]
        });
        let (res, diags) = resolve(&doc);
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(
            res.value["tools"][0]["inputSchema"],
            json!({"type": "object"})
        );
        assert_eq!(res.value["tools"][0]["examples"]["b"]["input"], json!({}));
        let site = Pointer::parse("/tools/0/inputSchema").unwrap();
        assert_eq!(res.at(&site).unwrap().name, "In");
        let inner = Pointer::parse("/tools/0/examples/b/result/content").unwrap();
        assert_eq!(
            res.source_pointer(&inner).as_str(),
            "/components/toolExamples/basic/result/content"
        );
    }

    #[test]
    fn reports_each_failure_kind_at_the_use_site() {
        let doc = json!({
            "components": {
                "schemas": {"A": {"$componentRef": "#/components/schemas/B"}, "B": {"$componentRef": "#/components/schemas/A"}},
                "toolExamples": {"e": {"input": {}, "result": {"content": []}}}
            },
            "tools": [
                {"name": "missing", "inputSchema": {"$componentRef": "#/components/schemas/Nope"}},
                {"name": "wrong", "inputSchema": {"$componentRef": "#/components/toolExamples/e"}},
                {"name": "malformed", "inputSchema": {"$componentRef": "https://example.com/s.json"}},
                {"name": "cycle", "inputSchema": {"$componentRef": "#/components/schemas/A"}}
            ]
        });
        let (_, diags) = resolve(&doc);
        let got = codes(&diags);
        assert!(
            got.contains(&(
                "missing-component-reference-target",
                "/tools/0/inputSchema/$componentRef"
            )),
            "{got:?}"
        );
        assert!(
            got.contains(&(
                "wrong-component-reference-namespace",
                "/tools/1/inputSchema/$componentRef"
            )),
            "{got:?}"
        );
        assert!(
            got.contains(&(
                "malformed-component-reference",
                "/tools/2/inputSchema/$componentRef"
            )),
            "{got:?}"
        );
        assert!(
            got.contains(&(
                "component-reference-cycle",
                "/components/schemas/A/$componentRef"
            )),
            "{got:?}"
        );
        assert!(
            diags.iter().any(|d| d.message.contains("A -> B -> A")),
            "{diags:?}"
        );
    }
}
