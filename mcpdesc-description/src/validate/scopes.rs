//! The top-level declarations with their effective protocol scopes ([`Scoped`], computed
//! once by [`Cx::new`]), and the disjointness rule for declarations that share an
//! identity (digest §2.2, §2.3; spec §9.5).

use serde_json::Value;

pub use super::cx::Scoped;
use super::cx::{display_path, Cx};
use crate::rules;

/// The root arrays that hold primitive declarations, in document order of checking.
pub const PRIMITIVE_ARRAYS: [&str; 4] = ["tools", "resources", "resourceTemplates", "prompts"];

/// Every primitive declaration (tools, resources, resource templates, prompts) with its
/// effective scope, paired with the name of its root array.
///
/// The scopes come from the context (computed once); the list is a copy so callers can
/// report diagnostics while walking it.
pub fn primitives<'d>(cx: &Cx<'d>) -> Vec<(&'static str, Scoped<'d>)> {
    let lists = [
        &cx.tools,
        &cx.resources,
        &cx.resource_templates,
        &cx.prompts,
    ];
    PRIMITIVE_ARRAYS
        .into_iter()
        .zip(lists)
        .flat_map(|(kind, list)| list.iter().map(move |d| (kind, d.clone())))
        .collect()
}

/// Reports declarations of one root array that share an identity (`identity` member: `name`,
/// `uri` or `uriTemplate`) and overlapping effective scopes.
///
/// Declarations are grouped by identity first, so the work is linear in the number of
/// declarations plus the (small) size of each group.
pub fn check_disjoint(cx: &mut Cx<'_>, identity: &str, decls: &[Scoped<'_>]) {
    let mut groups: std::collections::BTreeMap<&str, Vec<&Scoped<'_>>> = Default::default();
    for d in decls {
        if let Some(id) = d.value.get(identity).and_then(Value::as_str) {
            groups.entry(id).or_default().push(d);
        }
    }
    for (id, group) in groups {
        // At most five versions exist, so a group with more than five members always
        // overlaps; comparing each member with the union of earlier ones is enough.
        let mut seen: Vec<&Scoped<'_>> = Vec::new();
        for d in group {
            for earlier in &seen {
                let common = d.scope.intersect(earlier.scope);
                if !common.is_empty() {
                    cx.error(
                        rules::PROTOCOL_SCOPE_CONSISTENCY,
                        "primitive-scope-overlap",
                        &d.at,
                        format!(
                            "{} with identifier {id:?} overlaps {} for {common}; declarations with the same {identity} must have pairwise-disjoint protocolVersions",
                            display_path(&d.at),
                            display_path(&earlier.at),
                        ),
                    );
                    break;
                }
            }
            seen.push(d);
        }
    }
}
