//! Calling the selected tools with inputs generated from their `inputSchema`
//! ([`crate::generate`]): a valid input must not get a JSON-RPC error, an invalid one
//! must get `isError` or -32602, and every result keeps the result rules.

use serde_json::{json, Value};

use crate::expected::Declared;
use crate::finding::{Finding, Primitive, Severity};
use crate::generate::Generator;
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
                            fail(
                                "invalid-input-accepted",
                                format!(
                                    "the input breaks the inputSchema ({}) but the call succeeded; input {input}",
                                    case.broken.as_deref().unwrap_or("one constraint")
                                ),
                            );
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
        }
    }
}
