//! Object keywords: `properties`, `required`, `additionalProperties`,
//! `minProperties`, `maxProperties`, and the properties compared recursively.

use std::collections::BTreeSet;

use serde_json::Value;

use super::scalars::compare_limits;
use super::{number, show, Cx, Direction, Node};
use crate::diff::rules;
use crate::diff::witness::{Mutation, Seg};
use mcpdesc_description::pointer::Pointer;

/// The declared properties (name, schema, pointer) and the required names of an
/// object schema node.
struct Members<'v> {
    props: Vec<(&'v String, &'v Value, Pointer)>,
    required: BTreeSet<&'v str>,
}

impl<'v> Members<'v> {
    fn of(n: &Node<'v>) -> Self {
        let props = match n.get("properties") {
            Some((Value::Object(m), at)) => m.iter().map(|(k, v)| (k, v, at.key(k))).collect(),
            _ => Vec::new(),
        };
        let required = n
            .value("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        Members { props, required }
    }

    /// The schema and pointer of property `name`.
    fn prop(&self, name: &str) -> Option<(&'v Value, Pointer)> {
        self.props
            .iter()
            .find(|(k, ..)| k.as_str() == name)
            .map(|(_, v, at)| (*v, at.clone()))
    }
}

impl<'v> Cx<'v, '_> {
    pub(super) fn objects(&mut self, a: &Node<'v>, b: &Node<'v>, path: &mut Vec<Seg>) {
        let (ma, mb) = (Members::of(a), Members::of(b));
        self.common_properties(&ma, &mb, path);
        self.required_changes(a, b, &ma, &mb, path);
        self.added_properties(a, &ma, &mb, path);
        self.removed_properties(b, &ma, &mb, path);
        self.additional(a, b, path);
        self.property_counts(a, b, path);
    }

    /// Properties declared on both sides, compared recursively.
    fn common_properties(&mut self, ma: &Members<'v>, mb: &Members<'v>, path: &mut Vec<Seg>) {
        for (name, va, at_a) in &ma.props {
            let Some((vb, at_b)) = mb.prop(name) else {
                continue;
            };
            let na = self.node(va, at_a.clone(), true);
            let nb = self.node(vb, at_b.clone(), false);
            path.push(Seg::Prop((*name).clone()));
            self.compare(&na, &nb, path);
            path.pop();
        }
    }

    /// Names that became required (declared before or not) and names that became
    /// optional.
    fn required_changes(
        &mut self,
        a: &Node<'v>,
        b: &Node<'v>,
        ma: &Members<'v>,
        mb: &Members<'v>,
        path: &[Seg],
    ) {
        let d = self.dir;
        for name in mb.required.difference(&ma.required) {
            let old_declared = ma.prop(name).is_some();
            let new_at = mb
                .prop(name)
                .map_or_else(|| b.at_or_node("required"), |(_, at)| at);
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
            let old_at = ma.prop(name).map_or_else(|| a.at.clone(), |(_, at)| at);
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
        for name in ma.required.difference(&mb.required) {
            if mb.prop(name).is_none() && ma.prop(name).is_some() {
                continue; // reported as removed below
            }
            let rule = d.pick(
                &rules::INPUT_PROPERTY_BECAME_OPTIONAL,
                &rules::OUTPUT_PROPERTY_BECAME_OPTIONAL,
            );
            let old_at = ma
                .prop(name)
                .map_or_else(|| a.at_or_node("required"), |(_, at)| at);
            let new_at = mb.prop(name).map_or_else(|| b.at.clone(), |(_, at)| at);
            self.push_member(rule, path, name, old_at, new_at, "became optional", None);
        }
    }

    /// Optional properties added.
    fn added_properties(&mut self, a: &Node<'v>, ma: &Members<'v>, mb: &Members<'v>, path: &[Seg]) {
        let d = self.dir;
        for (name, _, at_b) in &mb.props {
            if ma.prop(name).is_some() || mb.required.contains(name.as_str()) {
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
    }

    /// Properties removed, and whether the new schema still accepts them.
    fn removed_properties(
        &mut self,
        b: &Node<'v>,
        ma: &Members<'v>,
        mb: &Members<'v>,
        path: &[Seg],
    ) {
        let d = self.dir;
        for (name, _, at_a) in &ma.props {
            if mb.prop(name).is_some() {
                continue;
            }
            let was_required = ma.required.contains(name.as_str());
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
    }

    /// `minProperties` and `maxProperties`.
    fn property_counts(&mut self, a: &Node<'v>, b: &Node<'v>, path: &[Seg]) {
        let d = self.dir;
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

    pub(super) fn additional(&mut self, a: &Node<'v>, b: &Node<'v>, path: &mut Vec<Seg>) {
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
}

/// Whether the object schema `n` accepts a property `name` it does not declare.
pub(super) fn accepts_undeclared(n: &Node<'_>, name: &str) -> bool {
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
