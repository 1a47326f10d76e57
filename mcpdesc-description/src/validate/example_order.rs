//! The `x-mcpdesc-after` hints of examples ([`crate::example_order`]), rule
//! `mcpdesc.extensions`: every item is a string naming an example of the document, and
//! the hints of the examples served in one protocol version form no cycle, so that an
//! order honouring them exists in every version. All three are errors: a hint that
//! cannot be honoured would make a replay's order, and so its verdict, depend on luck.
//!
//! A reference to an example that exists in the document but not in some version (its
//! declaration is scoped elsewhere) is not reported: in that version the hint has
//! nothing to wait for, as when the example is not selected.

use super::cx::{display_path, Cx};
use crate::example_order::{self, label, steps, targets, Step, AFTER};
use crate::pointer::Pointer;
use crate::rules;

/// Runs the checks of the hints over the resolved document.
pub fn check(cx: &mut Cx<'_>) {
    let doc = cx.doc;
    let all = steps(doc, None);
    let mut hinted = false;
    for (i, step) in all.iter().enumerate() {
        let Some(after) = doc
            .pointer(step.at.as_str())
            .and_then(|example| example.get(AFTER))
        else {
            continue;
        };
        hinted = true;
        let at = step.at.key(AFTER);
        let Some(items) = after.as_array() else {
            cx.error(
                rules::EXTENSIONS,
                "example-after-not-references",
                &at,
                format!(
                    "{} must be an array of example references (`EXAMPLE` or `NAME/EXAMPLE`)",
                    display_path(&at)
                ),
            );
            continue;
        };
        for (position, item) in items.iter().enumerate() {
            let item_at = at.index(position);
            match item.as_str() {
                None => cx.error(
                    rules::EXTENSIONS,
                    "example-after-not-references",
                    &item_at,
                    format!(
                        "{} must be a string naming an example (`EXAMPLE` or `NAME/EXAMPLE`)",
                        display_path(&item_at)
                    ),
                ),
                Some(reference) if targets(&all, i, reference).is_empty() => cx.error(
                    rules::EXTENSIONS,
                    "example-after-unknown",
                    &item_at,
                    format!(
                        "{} names {reference:?}, which is no example of this description{}: write `EXAMPLE` for an example of the same {}, or `NAME/EXAMPLE` with NAME a tool's or prompt's name, a resource's URI or name, or a resource template's URI template or name",
                        display_path(&item_at),
                        nearest(&all, i, reference)
                            .map_or(String::new(), |n| format!(" (did you mean {n:?}?)")),
                        step.kind.array().trim_end_matches('s'),
                    ),
                ),
                Some(_) => {}
            }
        }
    }
    if !hinted {
        return;
    }
    // One diagnostic per cycle, with the versions it is found in.
    let mut cycles: Vec<(Vec<String>, Pointer, Vec<String>)> = Vec::new();
    let versions: Vec<_> = cx.root.iter().map(Some).collect();
    for version in if versions.is_empty() {
        vec![None]
    } else {
        versions
    } {
        let served = steps(doc, version);
        let Err(example_order::Cycle(cycle)) = example_order::order(&served, &|_| true) else {
            continue;
        };
        let names: Vec<String> = cycle.iter().map(|&i| label(&served[i])).collect();
        let version = version.map(|v| v.as_str().to_owned());
        match cycles.iter_mut().find(|(known, _, _)| *known == names) {
            Some((_, _, found_in)) => found_in.extend(version),
            None => cycles.push((
                names,
                served[cycle[0]].at.key(AFTER),
                version.into_iter().collect(),
            )),
        }
    }
    for (names, at, versions) in cycles {
        let within = if versions.is_empty() {
            String::new()
        } else {
            format!(" in MCP {}", versions.join(", "))
        };
        cx.error(
            rules::EXTENSIONS,
            "example-after-cycle",
            &at,
            format!(
                "{} is part of a cycle of x-mcpdesc-after hints{within}: {} runs after {}; no order can honour them, remove one",
                display_path(&at),
                names.join(" runs after "),
                names[0],
            ),
        );
    }
}

/// The reference closest to `reference` (at most 2 edits away) among those that name
/// an example, written as `NAME/EXAMPLE`, or `EXAMPLE` for one of the same declaration
/// as `all[from]`.
fn nearest(all: &[Step], from: usize, reference: &str) -> Option<String> {
    let same = |s: &Step| s.kind == all[from].kind && s.index == all[from].index;
    all.iter()
        .flat_map(|s| {
            let local = same(s).then(|| s.name.clone());
            s.names
                .iter()
                .map(move |n| format!("{n}/{}", s.name))
                .chain(local)
        })
        .map(|candidate| {
            (
                strsim::damerau_levenshtein(reference, &candidate),
                candidate,
            )
        })
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
#[path = "tests/example_order.rs"]
mod tests;
