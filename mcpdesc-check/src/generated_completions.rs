//! Generated `completion/complete` requests for the prompts and resource templates
//! `--generate` selects: `--cases` requests, each completing one of the primitive's
//! arguments (a prompt's arguments, a template's variables, in turn) from a short
//! random prefix (empty, one or two characters). A result must have a
//! `completion.values` array of at most 100 strings (MCP's limit), a numeric
//! `completion.total` no smaller than the values' count when it has one, and a boolean
//! `completion.hasMore` when it has one.
//!
//! **Decisions.** MCP declares no completable arguments, only the `completions`
//! capability for the server as a whole, so only a primitive whose description shows
//! completions (it has `completionExamples`) gets generated completion requests: a
//! server that completes nothing would otherwise be asked for what it never promised.
//! A JSON-RPC error is not reported (a server may refuse to complete an argument it
//! has no values for), as for generated prompt arguments and template variables.

use serde_json::{json, Value};

use crate::expected::Declared;
use crate::finding::{Finding, Primitive, Severity};
use crate::generated_prompts::word;
use crate::rng::Rng;
use crate::run::{Answer, Checker};

/// MCP's limit on `completion.values`.
const MAX_VALUES: usize = 100;

impl Checker<'_> {
    /// Sends `--cases` generated `completion/complete` requests for `declared` (a
    /// prompt or template, `reference` its `ref`), completing `arguments` in turn.
    /// Nothing when it has no completion examples or no arguments.
    pub(crate) async fn generated_completions(
        &mut self,
        primitive: Primitive,
        declared: &Declared,
        reference: Value,
        arguments: &[String],
    ) {
        if arguments.is_empty() || declared.examples("completionExamples").is_empty() || self.dead {
            return;
        }
        let kind = match primitive {
            Primitive::Prompt => "prompt",
            _ => "template",
        };
        let mut rng = Rng::new(
            self.config.seed,
            &format!("completion:{kind}:{}", declared.id),
        );
        for i in 0..self.config.cases {
            let name = &arguments[i % arguments.len()];
            let prefix: String = word(&mut rng).chars().take(rng.below(3)).collect();
            let params = json!({
                "ref": reference,
                "argument": {"name": name, "value": prefix},
            });
            let label = format!("generated completion #{}", i + 1);
            let Some(answer) = self
                .call("completion/complete", &declared.id, &label, params)
                .await
            else {
                return;
            };
            let problems = match answer {
                Answer::Result(result) => completion_problems(&result),
                Answer::Error(..) => Vec::new(),
                Answer::Lost(kind, why) => vec![(kind, why)],
            };
            for (kind, message) in problems {
                self.push(
                    Finding::new(
                        kind,
                        Severity::Failure,
                        primitive,
                        &declared.id,
                        format!("{message} (argument `{name}`, value {prefix:?})"),
                    )
                    .with_example(label.clone()),
                );
            }
        }
    }
}

/// The problems of a `completion/complete` result.
fn completion_problems(result: &Value) -> Vec<(&'static str, String)> {
    let completion = result.get("completion");
    let Some(values) = completion
        .and_then(|c| c.get("values"))
        .and_then(Value::as_array)
    else {
        return vec![(
            "result-malformed",
            "the result has no `completion.values` array".to_owned(),
        )];
    };
    let mut problems = Vec::new();
    if let Some(bad) = values.iter().find(|v| !v.is_string()) {
        problems.push((
            "result-malformed",
            format!("`completion.values` holds a value that is not a string: {bad}"),
        ));
    }
    if values.len() > MAX_VALUES {
        problems.push((
            "result-malformed",
            format!(
                "`completion.values` has {} values; MCP allows at most {MAX_VALUES}",
                values.len()
            ),
        ));
    }
    match completion.and_then(|c| c.get("total")) {
        None => {}
        Some(total) if total.as_u64().is_some_and(|t| t >= values.len() as u64) => {}
        Some(total) => problems.push((
            "result-malformed",
            format!(
                "`completion.total` {total} is not a count of at least the {} values given",
                values.len()
            ),
        )),
    }
    if completion
        .and_then(|c| c.get("hasMore"))
        .is_some_and(|h| !h.is_boolean())
    {
        problems.push((
            "result-malformed",
            "`completion.hasMore` is not a boolean".to_owned(),
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_results_keep_mcp_limits() {
        assert!(completion_problems(
            &json!({"completion": {"values": ["a"], "total": 1, "hasMore": false}})
        )
        .is_empty());
        assert!(completion_problems(&json!({"completion": {"values": []}})).is_empty());
        let many: Vec<String> = (0..101).map(|i| i.to_string()).collect();
        let problems = |v: Value| -> Vec<String> {
            completion_problems(&v)
                .into_iter()
                .map(|(_, m)| m)
                .collect()
        };
        assert_eq!(problems(json!({"completion": {"values": many}})).len(), 1);
        assert_eq!(problems(json!({"completion": {"values": [1]}})).len(), 1);
        assert_eq!(
            problems(json!({"completion": {"values": ["a", "b"], "total": 1}})).len(),
            1
        );
        assert_eq!(
            problems(json!({"completion": {"values": [], "hasMore": "no"}})).len(),
            1
        );
        assert_eq!(problems(json!({"values": []})).len(), 1);
    }
}
