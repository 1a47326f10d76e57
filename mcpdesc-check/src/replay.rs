//! Replaying one example: a Tool Example, a prompt, resource, resource template or
//! completion example, its result checked against the result rules and compared with
//! the example's (a warning, a failure under `--strict`). Which examples run, and in
//! what order, is `sequence.rs`'s.

use mcpdesc::implementation::Compare;
use mcpdesc::testing::canonical;
use serde_json::{json, Value};

use crate::expected::Declared;
use crate::finding::{Finding, Primitive, Severity};
use crate::results;
use crate::run::{Answer, Checker};

impl Checker<'_> {
    /// The severity of a difference from an example: a warning, a failure under
    /// `--strict`.
    pub(crate) fn example_severity(&self) -> Severity {
        if self.config.strict {
            Severity::Failure
        } else {
            Severity::Warning
        }
    }

    /// Replays one Tool Example of `tool`.
    pub(crate) async fn tool_example(&mut self, tool: &Declared, name: &str, example: &Value) {
        let input = example.get("input").cloned().unwrap_or_else(|| json!({}));
        let params = tool.tool_call_params(self.version, input.clone());
        let Some(answer) = self.call("tools/call", &tool.id, name, params).await else {
            return;
        };
        let same = same_request(tool, "examples", example, &|e| {
            e.get("input").cloned().unwrap_or_else(|| json!({}))
        });
        self.tool_outcome(
            tool,
            name,
            &input,
            answer,
            example.get("result"),
            &same,
            shape(example),
        );
    }

    /// The findings of a replayed Tool Example or interaction example of `tool`: the
    /// result rules, then the differences from `want` (none when the result matches
    /// one of `same`, the results of the examples with the same request).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn tool_outcome(
        &mut self,
        tool: &Declared,
        name: &str,
        input: &Value,
        answer: Answer,
        want: Option<&Value>,
        same: &[Value],
        shape: bool,
    ) {
        let at = |f: Finding| f.with_example(name);
        let declaration = Value::Object(tool.declaration.clone());
        match answer {
            Answer::Result(result) => {
                for (kind, message) in
                    results::tool_result(&result, Some(&declaration), self.version)
                {
                    self.push(at(Finding::new(
                        kind,
                        Severity::Failure,
                        Primitive::Tool,
                        &tool.id,
                        format!("{message} (input {input})"),
                    )));
                }
                if let Some(want) = want {
                    let version = self.version;
                    let diffs = unless_any(want, same, &result, &|w, r| {
                        if shape {
                            results::shape_differences("tools/call", w, r)
                        } else {
                            results::tool_differences(w, r, version)
                        }
                    });
                    if !diffs.is_empty() {
                        let severity = self.example_severity();
                        self.push(at(Finding::new(
                            "example-differs",
                            severity,
                            Primitive::Tool,
                            &tool.id,
                            format!(
                                "the result differs from the example's:\n  - {}",
                                diffs.join("\n  - ")
                            ),
                        )));
                    }
                }
            }
            Answer::Error(code, message) => {
                let valid = tool.declaration.get("inputSchema").is_none_or(|s| {
                    mcpdesc::testing::validate_if_compilable(s, input, "", "").is_ok()
                });
                let severity = if valid {
                    Severity::Failure
                } else {
                    self.example_severity()
                };
                self.push(at(Finding::new(
                    "example-error",
                    severity,
                    Primitive::Tool,
                    &tool.id,
                    format!("JSON-RPC error {code} ({message}) for the example input {input}"),
                )));
            }
            Answer::Lost(kind, why) => self.push(at(Finding::new(
                kind,
                Severity::Failure,
                Primitive::Tool,
                &tool.id,
                format!("{why} (input {input})"),
            ))),
        }
    }

    /// Replays one prompt example of `prompt`.
    pub(crate) async fn prompt_example(&mut self, prompt: &Declared, name: &str, example: &Value) {
        let arguments = example
            .get("arguments")
            .cloned()
            .unwrap_or_else(|| json!({}));
        let params = json!({"name": prompt.id, "arguments": arguments});
        let Some(answer) = self.call("prompts/get", &prompt.id, name, params).await else {
            return;
        };
        let problems = match &answer {
            Answer::Result(result) => results::prompt_result(result, self.version),
            _ => Vec::new(),
        };
        let same = same_request(prompt, "examples", example, &|e| {
            e.get("arguments").cloned().unwrap_or_else(|| json!({}))
        });
        let own = example.get("result").cloned().unwrap_or(Value::Null);
        let diffs = |result: &Value| {
            unless_any(
                &own,
                &same,
                result,
                &compared(example, "prompts/get", &results::prompt_differences),
            )
        };
        self.request_outcome(
            Primitive::Prompt,
            &prompt.id,
            name,
            &format!("arguments {arguments}"),
            answer,
            problems,
            &diffs,
        );
    }

    /// Replays one example of a resource or (`primitive`) resource template.
    pub(crate) async fn resource_example(
        &mut self,
        primitive: Primitive,
        declared: &Declared,
        name: &str,
        example: &Value,
    ) {
        let uri = match primitive {
            Primitive::Resource => declared.id.clone(),
            _ => example
                .get("uri")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
        };
        let Some(answer) = self
            .call("resources/read", &declared.id, name, json!({"uri": uri}))
            .await
        else {
            return;
        };
        let problems = match &answer {
            Answer::Result(result) => results::resource_result(result),
            _ => Vec::new(),
        };
        // Every read of a static resource is the same request.
        let same = same_request(declared, "examples", example, &|e| match primitive {
            Primitive::Resource => Value::Null,
            _ => e.get("uri").cloned().unwrap_or(Value::Null),
        });
        let own = example.get("result").cloned().unwrap_or(Value::Null);
        let diffs = |result: &Value| {
            unless_any(
                &own,
                &same,
                result,
                &compared(example, "resources/read", &results::resource_differences),
            )
        };
        self.request_outcome(
            primitive,
            &declared.id,
            name,
            &format!("uri {uri}"),
            answer,
            problems,
            &diffs,
        );
    }

    /// Replays one completion example of a prompt or (`primitive`) resource template.
    pub(crate) async fn completion_example(
        &mut self,
        primitive: Primitive,
        declared: &Declared,
        name: &str,
        example: &Value,
    ) {
        let reference = match primitive {
            Primitive::Prompt => json!({"type": "ref/prompt", "name": declared.id}),
            _ => json!({"type": "ref/resource", "uri": declared.id}),
        };
        let mut params = json!({"ref": reference, "argument": example.get("argument").cloned().unwrap_or(Value::Null)});
        if let Some(context) = example.get("context") {
            params["context"] = context.clone();
        }
        let Some(answer) = self
            .call("completion/complete", &declared.id, name, params.clone())
            .await
        else {
            return;
        };
        let problems = match &answer {
            Answer::Result(result)
                if !result
                    .get("completion")
                    .and_then(|c| c.get("values"))
                    .is_some_and(Value::is_array) =>
            {
                vec![(
                    "result-malformed",
                    "the result has no `completion.values` array".to_owned(),
                )]
            }
            _ => Vec::new(),
        };
        let same = same_request(declared, "completionExamples", example, &|e| {
            json!([e.get("argument"), e.get("context")])
        });
        let own = example.get("result").cloned().unwrap_or(Value::Null);
        let diffs = |result: &Value| {
            unless_any(
                &own,
                &same,
                result,
                &compared(
                    example,
                    "completion/complete",
                    &results::completion_differences,
                ),
            )
        };
        self.request_outcome(
            primitive,
            &declared.id,
            name,
            &format!("params {params}"),
            answer,
            problems,
            &diffs,
        );
    }

    /// The findings of a replayed prompt, resource or completion example.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn request_outcome(
        &mut self,
        primitive: Primitive,
        id: &str,
        example: &str,
        input: &str,
        answer: Answer,
        problems: Vec<results::Problem>,
        diffs: &dyn Fn(&Value) -> Vec<String>,
    ) {
        match answer {
            Answer::Result(result) => {
                for (kind, message) in problems {
                    self.push(
                        Finding::new(
                            kind,
                            Severity::Failure,
                            primitive,
                            id,
                            format!("{message} ({input})"),
                        )
                        .with_example(example),
                    );
                }
                let diffs = diffs(&result);
                if !diffs.is_empty() {
                    let severity = self.example_severity();
                    self.push(
                        Finding::new(
                            "example-differs",
                            severity,
                            primitive,
                            id,
                            format!(
                                "the result differs from the example's:\n  - {}",
                                diffs.join("\n  - ")
                            ),
                        )
                        .with_example(example),
                    );
                }
            }
            Answer::Error(code, message) => self.push(
                Finding::new(
                    "example-error",
                    Severity::Failure,
                    primitive,
                    id,
                    format!("JSON-RPC error {code} ({message}) for the example's {input}"),
                )
                .with_example(example),
            ),
            Answer::Lost(kind, why) => self.push(
                Finding::new(
                    kind,
                    Severity::Failure,
                    primitive,
                    id,
                    format!("{why} ({input})"),
                )
                .with_example(example),
            ),
        }
    }
}

/// The results of the examples in `member` of `declared` whose request (`request_of`)
/// equals the one of `example`, itself included: a server answers one request one
/// way, so a result that matches any of them matches.
fn same_request(
    declared: &Declared,
    member: &str,
    example: &Value,
    request_of: &dyn Fn(&Value) -> Value,
) -> Vec<Value> {
    let request = canonical(&request_of(example));
    declared
        .examples(member)
        .into_iter()
        .filter(|(_, e)| canonical(&request_of(e)) == request)
        .filter_map(|(_, e)| e.get("result").cloned())
        .collect()
}

/// The differences between `actual` and `own` (an example's result), or none when
/// `actual` matches one of `alternatives` (the results of the examples with the same
/// request).
/// Whether `example` asks for a shape comparison (`"x-mcpdesc-compare": "shape"`),
/// as the generated tests honour it.
pub(crate) fn shape(example: &Value) -> bool {
    Compare::of_example(example) == Some(Compare::Shape)
}

/// A comparison of an example's result (first) with the server's (second).
type Differences<'a> = Box<dyn Fn(&Value, &Value) -> Vec<String> + 'a>;

/// The comparison `example` chooses for results of `method`: `exact`, or the shape
/// one.
fn compared<'a>(
    example: &Value,
    method: &'a str,
    exact: &'a dyn Fn(&Value, &Value) -> Vec<String>,
) -> Differences<'a> {
    if shape(example) {
        Box::new(move |w, r| results::shape_differences(method, w, r))
    } else {
        Box::new(exact)
    }
}

fn unless_any(
    own: &Value,
    alternatives: &[Value],
    actual: &Value,
    diff: &dyn Fn(&Value, &Value) -> Vec<String>,
) -> Vec<String> {
    if alternatives.iter().any(|alt| diff(alt, actual).is_empty()) {
        return Vec::new();
    }
    diff(own, actual)
}
