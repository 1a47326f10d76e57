//! Calling the selected tools with inputs generated from their `inputSchema`
//! ([`crate::generate`]): a valid input must not get a JSON-RPC error, an invalid one
//! must get `isError` or -32602, and every result keeps the result rules. A tool none
//! of whose valid inputs succeeded gets a `success-never-exercised` warning: a green
//! report would otherwise say nothing about its results.

use serde_json::{json, Value};

use crate::expected::Declared;
use crate::finding::{Finding, Primitive, Severity};
use crate::generate::{Case, Generator};
use crate::results;
use crate::rng::Rng;
use crate::run::{Answer, Checker, Listed, INVALID_PARAMS};

impl Checker<'_> {
    /// Calls each selected tool with `--cases` generated inputs.
    pub(crate) async fn generated(&mut self, tools: &[Declared], listed: &Listed) {
        for tool in tools {
            if !self.config.generate.primitive(&tool.id, tool.read_only())
                || !listed.tools.contains(&tool.id)
                || self.dead
            {
                continue;
            }
            let schema = tool
                .declaration
                .get("inputSchema")
                .cloned()
                .unwrap_or_else(|| json!({"type": "object"}));
            let cases = Generator::new(&schema, Rng::new(self.config.seed, &tool.id))
                .and_then(|mut g| g.cases(self.config.cases));
            let cases = match cases {
                Ok(cases) => cases,
                Err(unsupported) => {
                    self.push(Finding::new(
                        "skipped",
                        Severity::Skipped,
                        Primitive::Tool,
                        &tool.id,
                        format!("no inputs generated: {}", unsupported.0),
                    ));
                    continue;
                }
            };
            let declaration = Value::Object(tool.declaration.clone());
            // Valid inputs sent, and those that succeeded (a result without `isError`).
            let (mut valid_sent, mut succeeded) = (0usize, 0usize);
            for (i, case) in cases.into_iter().enumerate() {
                let label = format!(
                    "generated #{} ({})",
                    i + 1,
                    if case.valid { "valid" } else { "invalid" }
                );
                let params = tool.tool_call_params(self.version, case.input.clone());
                let Some(answer) = self.call("tools/call", &tool.id, &label, params).await else {
                    return;
                };
                let input = &case.input;
                if case.valid {
                    valid_sent += 1;
                    if matches!(&answer, Answer::Result(r) if r.get("isError") != Some(&Value::Bool(true)))
                    {
                        succeeded += 1;
                    }
                }
                let mut fail = |kind: &'static str, message: String| {
                    self.report.findings.push(
                        Finding::new(kind, Severity::Failure, Primitive::Tool, &tool.id, message)
                            .with_example(label.clone()),
                    );
                };
                match (answer, case.valid) {
                    (Answer::Result(result), valid) => {
                        let is_error = result.get("isError") == Some(&Value::Bool(true));
                        if !valid && !is_error {
                            fail("invalid-input-accepted", accepted(&case));
                        }
                        for (kind, message) in results::tool_result(&result, Some(&declaration), self.version) {
                            fail(kind, format!("{message}; input {input}"));
                        }
                    }
                    (Answer::Error(code, message), true) => fail(
                        "valid-input-rejected",
                        format!("JSON-RPC error {code} ({message}) for an input valid against the inputSchema (a tool error would be `isError`); input {input}"),
                    ),
                    (Answer::Error(code, message), false) if code != INVALID_PARAMS => fail(
                        "invalid-input-error",
                        format!(
                            "JSON-RPC error {code} ({message}) for an invalid input ({}): expected `isError` or -32602; input {input}",
                            case.broken.as_deref().unwrap_or("one constraint")
                        ),
                    ),
                    (Answer::Error(..), false) => {}
                    (Answer::Lost(kind, why), _) => fail(kind, format!("{why}; input {input}")),
                }
            }
            if valid_sent > 0 && succeeded == 0 && !self.dead {
                self.push(Finding::new(
                    "success-never-exercised",
                    Severity::Warning,
                    Primitive::Tool,
                    &tool.id,
                    format!(
                        "none of the {valid_sent} generated valid inputs succeeded (each got a tool error or a JSON-RPC error): the success path was never exercised, so its results were never checked; select an example of a success (--examples) or look at what the server needs beyond its inputSchema"
                    ),
                ));
            }
        }
    }
}

/// The message of an invalid input that succeeded: the argument, the value sent, what
/// it breaks, whether a lax parser coerces it, and the whole input.
fn accepted(case: &Case) -> String {
    let argument = case.argument.as_deref().unwrap_or("/");
    let argument = argument.strip_prefix('/').filter(|a| !a.is_empty());
    let sent = match (&case.value, argument) {
        (Some(value), Some(argument)) => format!("argument `{argument}` = {value}"),
        (None, Some(argument)) => format!("argument `{argument}` left out"),
        (Some(value), None) => format!("the arguments = {value}"),
        (None, None) => "the arguments".to_owned(),
    };
    let what = case
        .broken
        .as_deref()
        .and_then(|b| b.split_once(": ").map(|(_, what)| what))
        .unwrap_or("one constraint");
    let lax = if case.coercible {
        ", a value a lax parser coerces into a valid one: the server does not enforce its inputSchema"
    } else {
        ""
    };
    format!(
        "{sent} breaks the inputSchema ({what}{lax}) but the call succeeded; input {}",
        case.input
    )
}
