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
use crate::example_order::{self, label, steps, targets, AFTER};
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
                        "{} names {reference:?}, which is no example of this description: write `EXAMPLE` for an example of the same {}, or `NAME/EXAMPLE` with NAME a tool's or prompt's name, a resource's URI or name, or a resource template's URI template or name",
                        display_path(&item_at),
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::rules::EXTENSIONS;
    use crate::validate::testing::{codes, doc, found};

    fn tools(list_examples: serde_json::Value) -> serde_json::Value {
        let schema = json!({"type": "object"});
        let result = json!({"content": [{"type": "text", "text": "ok"}]});
        doc(
            &["2025-06-18", "2025-11-25"],
            json!({"tools": [
                {"name": "create_branch", "inputSchema": schema,
                 "examples": {"feature": {"input": {}, "result": result}}},
                {"name": "list_branches", "inputSchema": schema,
                 "annotations": {"readOnlyHint": true},
                 "examples": list_examples},
            ]}),
        )
    }

    #[test]
    fn references_that_name_examples_are_clean() {
        let result = json!({"content": [{"type": "text", "text": "ok"}]});
        let d = tools(json!({
            "before": {"input": {}, "result": result},
            "after": {"input": {}, "result": result,
                      "x-mcpdesc-after": ["create_branch/feature", "before"]},
        }));
        assert_eq!(codes(&d), Vec::<&str>::new());
    }

    #[test]
    fn unknown_references_and_other_values_are_errors() {
        let result = json!({"content": [{"type": "text", "text": "ok"}]});
        let d = tools(json!({
            "a": {"input": {}, "result": result,
                  "x-mcpdesc-after": ["create_branch/featur", "feature", 7]},
            "b": {"input": {}, "result": result, "x-mcpdesc-after": "a"},
        }));
        assert_eq!(
            found(&d, "example-after-unknown"),
            [
                (
                    EXTENSIONS,
                    "/tools/1/examples/a/x-mcpdesc-after/0".to_owned()
                ),
                (
                    EXTENSIONS,
                    "/tools/1/examples/a/x-mcpdesc-after/1".to_owned()
                ),
            ]
        );
        assert_eq!(
            found(&d, "example-after-not-references"),
            [
                (
                    EXTENSIONS,
                    "/tools/1/examples/a/x-mcpdesc-after/2".to_owned()
                ),
                (EXTENSIONS, "/tools/1/examples/b/x-mcpdesc-after".to_owned()),
            ]
        );
    }

    #[test]
    fn cycles_are_errors_naming_their_examples() {
        let result = json!({"content": [{"type": "text", "text": "ok"}]});
        let d = tools(json!({
            "a": {"input": {}, "result": result, "x-mcpdesc-after": ["b"]},
            "b": {"input": {}, "result": result, "x-mcpdesc-after": ["list_branches/a"]},
        }));
        // One diagnostic, though the cycle is there in both versions.
        assert_eq!(
            found(&d, "example-after-cycle"),
            [(EXTENSIONS, "/tools/1/examples/a/x-mcpdesc-after".to_owned())]
        );
        let all = crate::validate::testing::run(&d);
        let cycle = all
            .iter()
            .find(|d| d.code == "example-after-cycle")
            .unwrap();
        assert!(
            cycle
                .message
                .contains("list_branches/a runs after list_branches/b runs after list_branches/a"),
            "{}",
            cycle.message
        );
    }
}
