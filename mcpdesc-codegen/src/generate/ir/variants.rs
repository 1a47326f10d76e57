//! Protocol-scoped variants of one tool: which of them share one handler trait, and
//! which share one input or output type.

use std::collections::BTreeMap;

use serde_json::Value;

use super::tool::Role;
use crate::generate::naming::{self, NameAllocator, ToolNames};
use mcpdesc_description::pointer::Pointer;
use mcpdesc_description::protocol::VersionSet;
use mcpdesc_description::view;

/// Handler groups of protocol-scoped variants: per selected tool, the index of the
/// first variant of its group, or `None` when it is alone.
///
/// Variants of one tool whose handler signature is the same (the same input type and
/// the same output type after sharing, and equal `elicitations`) form one group: they
/// share one handler trait with the tool's own names (`AnalyzeGame`, `analyze_game`,
/// `AnalyzeGameInput`), since they differ only in what the router serves about them
/// (`description`, `annotations`, `execution`, `security`, examples...). A role's type
/// is the same when both schemas come from one shared component (`component(i, role)`
/// gives its pointer), or when neither does and the schemas are equal (what
/// [`same_variant_types`] then makes one type). `elicitations(i)` is the resolved
/// `elicitations` member.
pub(crate) fn handler_groups(
    selected: &[view::Selected<'_>],
    component: impl Fn(usize, Role) -> Option<Pointer>,
    elicitations: impl Fn(usize) -> Option<Value>,
) -> Vec<Option<usize>> {
    let key = |i: usize| {
        let tool = selected[i].tool;
        let role = |role: Role, schema: Option<&Value>| match (component(i, role), schema) {
            (Some(target), _) => Some(format!("component {target}")),
            (None, Some(schema)) => Some(format!("schema {schema}")),
            (None, None) => None,
        };
        (
            tool.name.clone(),
            role(Role::Input, Some(&tool.input_schema)),
            role(Role::Output, tool.output_schema.as_ref()),
            elicitations(i),
        )
    };
    let keys: Vec<_> = (0..selected.len())
        .map(|i| selected[i].variant.map(|_| key(i)))
        .collect();
    let mut groups = vec![None; selected.len()];
    for i in 0..selected.len() {
        let Some(mine) = &keys[i] else { continue };
        if groups[i].is_some() {
            continue;
        }
        let later: Vec<usize> = (i + 1..selected.len())
            .filter(|&k| groups[k].is_none() && keys[k].as_ref() == Some(mine))
            .collect();
        if later.is_empty() {
            continue;
        }
        groups[i] = Some(i);
        for k in later {
            groups[k] = Some(i);
        }
    }
    groups
}

/// How a tool schema takes part in the types of protocol-scoped variants.
pub(super) enum Same {
    /// The first of several variants with this schema: its type is named after the
    /// tool (`RunInput`, not `RunV20251125Input`) and documents their scopes together.
    First(VersionSet),
    /// Identical to the schema of the same role of the earlier variant `tools[i]`.
    Earlier(usize),
}

/// Variants of one tool whose input (or output) schemas are identical share one type
/// (unless a shared component type already serves them): the first gets the tool's
/// own type name instead of its variant name (`names` is updated), the others point
/// at it.
pub(super) fn same_variant_types(
    selected: &[view::Selected<'_>],
    shared_index: &BTreeMap<(usize, Role), usize>,
    groups: &[Option<usize>],
    names: &mut [ToolNames],
    types: &mut NameAllocator,
) -> BTreeMap<(usize, Role), Same> {
    let mut same = BTreeMap::new();
    let schema = |i: usize, role: Role| match role {
        Role::Input => Some(&selected[i].tool.input_schema),
        Role::Output => selected[i].tool.output_schema.as_ref(),
    };
    for role in [Role::Input, Role::Output] {
        for i in 0..selected.len() {
            let own = |k: usize| {
                selected[k].variant.is_some()
                    && !shared_index.contains_key(&(k, role))
                    && !same.contains_key(&(k, role))
            };
            let Some(first) = schema(i, role).filter(|_| own(i)) else {
                continue;
            };
            let later: Vec<usize> = (i + 1..selected.len())
                .filter(|&k| {
                    own(k)
                        && selected[k].tool.name == selected[i].tool.name
                        && schema(k, role) == Some(first)
                })
                .collect();
            if later.is_empty() {
                continue;
            }
            let scope = later
                .iter()
                .fold(selected[i].scope, |acc, &k| acc.union(selected[k].scope));
            let suffix = match role {
                Role::Input => "Input",
                Role::Output => "Output",
            };
            // A handler group among them already holds the tool's own type name.
            let head = std::iter::once(i)
                .chain(later.iter().copied())
                .find(|&k| groups[k] == Some(k));
            let name = match head {
                Some(head) => match role {
                    Role::Input => names[head].input_type.clone(),
                    Role::Output => names[head].output_type.clone(),
                },
                None => types.claim(&naming::type_name(
                    &naming::upper_camel(&selected[i].tool.name),
                    suffix,
                )),
            };
            match role {
                Role::Input => names[i].input_type = name,
                Role::Output => names[i].output_type = name,
            }
            same.insert((i, role), Same::First(scope));
            for k in later {
                same.insert((k, role), Same::Earlier(i));
            }
        }
    }
    same
}
