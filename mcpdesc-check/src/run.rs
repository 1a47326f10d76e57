//! The check itself: listings, then the selected examples, then the generated inputs,
//! over one [`Session`]. Every request has a timeout; once the server stops answering
//! (it exited, closed the connection, wrote garbage) the check stops calling and says
//! so in a `server-exited` finding.

use std::time::Duration;

use mcpdesc::client::{RequestError, Session};
use mcpdesc::testing::canonical;
use mcpdesc::ProtocolVersion;
use mcpdesc_codegen::Description;
use serde_json::{json, Value};

use crate::expected::{Declared, Expected};
use crate::finding::{Finding, Primitive, Severity};
use crate::generate::Generator;
use crate::report::{Call, Report};
use crate::results;
use crate::rng::Rng;
use crate::{listing, Config};

/// JSON-RPC "Invalid params", the answer an invalid input may get.
const INVALID_PARAMS: i64 = -32602;

struct Checker<'a> {
    session: &'a Session,
    config: &'a Config,
    version: ProtocolVersion,
    report: Report,
    /// Set once the server stopped answering: nothing more is sent.
    dead: bool,
}

/// How a call ended.
enum Answer {
    Result(Value),
    /// A JSON-RPC error: code and message.
    Error(i64, String),
    /// No answer (timeout, transport); the check goes on.
    Lost(String),
}

/// Runs the check of `desc` (valid) against the server of `session`.
pub async fn check(desc: &Description, session: &Session, config: &Config) -> Report {
    let version = session.protocol_version();
    let mut checker = Checker {
        session,
        config,
        version,
        report: Report {
            description: desc.name.clone(),
            server: session.server().to_owned(),
            protocol_version: version.as_str().to_owned(),
            seed: config.seed,
            strict: config.strict,
            findings: Vec::new(),
            calls: Vec::new(),
        },
        dead: false,
    };
    let expected = Expected::of(desc, version);
    let listed = checker.listings(&expected).await;
    checker.unknown_selections(&expected);
    checker.tool_examples(&expected.tools, &listed).await;
    checker.prompt_examples(&expected.prompts, &listed).await;
    checker
        .resource_examples(&expected.resources, &expected.templates, &listed)
        .await;
    checker.generated(&expected.tools, &listed).await;
    if !checker.dead && !session.is_alive() {
        checker.server_gone("after the last request");
    }
    checker.report
}

/// The ids each listing had (only what was listed is called).
#[derive(Default)]
struct Listed {
    tools: Vec<String>,
    prompts: Vec<String>,
    resources: Vec<String>,
    templates: Vec<String>,
}

impl Checker<'_> {
    fn push(&mut self, finding: Finding) {
        self.report.findings.push(finding);
    }

    fn server_gone(&mut self, when: &str) {
        self.dead = true;
        let exit = self
            .session
            .exit_status()
            .map_or(String::new(), |s| format!(" ({s})"));
        let tail = self.session.stderr_tail();
        let tail = if tail.trim().is_empty() {
            String::new()
        } else {
            format!("; its stderr ended with:\n{tail}")
        };
        self.push(Finding::server(
            "server-exited",
            Severity::Failure,
            format!("the server stopped answering {when}{exit}{tail}"),
        ));
    }

    /// Compares every listing the description needs; returns what each listed.
    async fn listings(&mut self, expected: &Expected) -> Listed {
        let mut listed = Listed::default();
        let plan: [(Primitive, &str, &[Declared], &str, &str); 4] = [
            (
                Primitive::Tool,
                "tools/list",
                &expected.tools,
                "tools",
                "name",
            ),
            (
                Primitive::Prompt,
                "prompts/list",
                &expected.prompts,
                "prompts",
                "name",
            ),
            (
                Primitive::Resource,
                "resources/list",
                &expected.resources,
                "resources",
                "uri",
            ),
            (
                Primitive::ResourceTemplate,
                "resources/templates/list",
                &expected.templates,
                "resourceTemplates",
                "uriTemplate",
            ),
        ];
        for (primitive, method, declared, _, id) in plan {
            // Tools are always listed; the other primitives when the description
            // declares some (a server need not implement their methods otherwise).
            if self.dead || (primitive != Primitive::Tool && declared.is_empty()) {
                continue;
            }
            let answer = match primitive {
                Primitive::Tool => self.session.list_tools().await,
                Primitive::Prompt => self.session.list_prompts().await,
                Primitive::Resource => self.session.list_resources().await,
                _ => self.session.list_resource_templates().await,
            };
            let items = match answer {
                Ok(listing) => listing.items,
                // A server without tools may not implement `tools/list`.
                Err(RequestError::Protocol { .. }) if declared.is_empty() => continue,
                Err(e) => {
                    self.request_failed(method, &e);
                    continue;
                }
            };
            self.report
                .findings
                .extend(listing::compare(primitive, method, declared, &items, id));
            let ids = items
                .iter()
                .filter_map(|i| i.get(id).and_then(Value::as_str).map(str::to_owned))
                .collect();
            match primitive {
                Primitive::Tool => listed.tools = ids,
                Primitive::Prompt => listed.prompts = ids,
                Primitive::Resource => listed.resources = ids,
                _ => listed.templates = ids,
            }
        }
        listed
    }

    /// A listing request that got no usable answer.
    fn request_failed(&mut self, method: &str, e: &RequestError) {
        match e {
            RequestError::Disconnected { .. } => self.server_gone(&format!("to `{method}`")),
            RequestError::InvalidResult { message, .. } => self.push(Finding::server(
                "listing-malformed",
                Severity::Failure,
                format!("`{method}`: {message}"),
            )),
            other => self.push(Finding::server(
                "listing-failed",
                Severity::Failure,
                other.to_string(),
            )),
        }
    }

    /// Selections that name nothing the description declares are reported, so that a
    /// typo does not pass as "nothing to call".
    fn unknown_selections(&mut self, expected: &Expected) {
        let all = || {
            expected
                .tools
                .iter()
                .chain(&expected.prompts)
                .chain(&expected.resources)
                .chain(&expected.templates)
        };
        let known = |name: &str, example: Option<&str>| {
            all()
                .filter(|d| d.id == name || d.text("name") == Some(name))
                .any(|d| {
                    example.is_none_or(|e| {
                        ["examples", "interactionExamples", "completionExamples"]
                            .iter()
                            .any(|member| d.examples(member).iter().any(|(n, _)| *n == e))
                    })
                })
        };
        for (option, selection) in [
            ("--examples", &self.config.examples),
            ("--generate", &self.config.generate),
        ] {
            for item in selection.unknown(&known) {
                self.report.findings.push(Finding::server(
                    "selection-unknown",
                    Severity::Skipped,
                    format!(
                        "{option} names `{item}`, which the description does not declare in MCP {}",
                        self.version.as_str()
                    ),
                ));
            }
        }
    }

    /// Sends one request that runs server code, records it and classifies the answer.
    async fn call(
        &mut self,
        method: &'static str,
        target: &str,
        label: &str,
        params: Value,
    ) -> Option<Answer> {
        if self.dead {
            return None;
        }
        let answer = match self
            .session
            .request_within(method, Some(params.clone()), self.config.call_timeout)
            .await
        {
            Ok(result) => Answer::Result(result),
            Err(RequestError::Protocol { error, .. }) => {
                Answer::Error(i64::from(error.code), error.message.clone())
            }
            Err(RequestError::Disconnected { cause, .. }) => {
                self.record(
                    method,
                    target,
                    label,
                    &params,
                    "no answer (the server stopped)",
                );
                self.server_gone(&format!(
                    "during `{method}` of `{target}` ({label}): {cause}"
                ));
                return None;
            }
            Err(e) => Answer::Lost(e.to_string()),
        };
        let outcome = match &answer {
            Answer::Result(r) if r.get("isError") == Some(&Value::Bool(true)) => {
                "isError".to_owned()
            }
            Answer::Result(_) => "result".to_owned(),
            Answer::Error(code, _) => format!("error {code}"),
            Answer::Lost(why) if why.contains("no answer within") => "timeout".to_owned(),
            Answer::Lost(_) => "no answer".to_owned(),
        };
        self.record(method, target, label, &params, &outcome);
        if !self.session.is_alive() {
            self.server_gone(&format!("after `{method}` of `{target}` ({label})"));
        }
        Some(answer)
    }

    fn record(
        &mut self,
        method: &'static str,
        target: &str,
        label: &str,
        params: &Value,
        outcome: &str,
    ) {
        self.report.calls.push(Call {
            method,
            target: target.to_owned(),
            example: label.to_owned(),
            params: params.clone(),
            outcome: outcome.to_owned(),
        });
    }

    /// The severity of a difference from an example: a warning, a failure under
    /// `--strict`.
    fn example_severity(&self) -> Severity {
        if self.config.strict {
            Severity::Failure
        } else {
            Severity::Warning
        }
    }

    async fn tool_examples(&mut self, tools: &[Declared], listed: &Listed) {
        for tool in tools {
            let selectable = |name: &str| {
                self.config
                    .examples
                    .example(&tool.id, name, tool.read_only())
            };
            let examples: Vec<(String, Value)> = tool
                .examples("examples")
                .into_iter()
                .filter(|(name, _)| selectable(name))
                .map(|(n, e)| (n.to_owned(), e.clone()))
                .collect();
            let interactions: Vec<String> = tool
                .examples("interactionExamples")
                .into_iter()
                .filter(|(name, _)| selectable(name))
                .map(|(n, _)| n.to_owned())
                .collect();
            if !listed.tools.contains(&tool.id) {
                continue;
            }
            for name in interactions {
                self.push(
                    Finding::new(
                        "interaction-not-replayed",
                        Severity::Skipped,
                        Primitive::Tool,
                        &tool.id,
                        "interaction examples need the client to answer the server's requests as their steps say; `check` replays Tool Examples only",
                    )
                    .with_example(name),
                );
            }
            for (name, example) in examples {
                self.tool_example(tool, &name, &example).await;
            }
        }
    }

    async fn tool_example(&mut self, tool: &Declared, name: &str, example: &Value) {
        let input = example.get("input").cloned().unwrap_or_else(|| json!({}));
        let params = json!({"name": tool.id, "arguments": input});
        let Some(answer) = self.call("tools/call", &tool.id, name, params).await else {
            return;
        };
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
                if let Some(want) = example.get("result") {
                    let version = self.version;
                    let same = same_request(tool, "examples", example, &|e| {
                        e.get("input").cloned().unwrap_or_else(|| json!({}))
                    });
                    let diffs = unless_any(want, &same, &result, &|w, r| {
                        results::tool_differences(w, r, version)
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
                    mcpdesc::testing::validate_if_compilable(s, &input, "", "").is_ok()
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
            Answer::Lost(why) => self.push(at(Finding::new(
                "no-answer",
                Severity::Failure,
                Primitive::Tool,
                &tool.id,
                format!("{why} (input {input})"),
            ))),
        }
    }

    async fn prompt_examples(&mut self, prompts: &[Declared], listed: &Listed) {
        for prompt in prompts {
            if !listed.prompts.contains(&prompt.id) {
                continue;
            }
            let examples: Vec<(String, Value)> = prompt
                .examples("examples")
                .into_iter()
                .filter(|(name, _)| self.config.examples.example(&prompt.id, name, true))
                .map(|(n, e)| (n.to_owned(), e.clone()))
                .collect();
            for (name, example) in examples {
                let arguments = example
                    .get("arguments")
                    .cloned()
                    .unwrap_or_else(|| json!({}));
                let params = json!({"name": prompt.id, "arguments": arguments});
                let Some(answer) = self.call("prompts/get", &prompt.id, &name, params).await else {
                    return;
                };
                let problems = match &answer {
                    Answer::Result(result) => results::prompt_result(result, self.version),
                    _ => Vec::new(),
                };
                let same = same_request(prompt, "examples", &example, &|e| {
                    e.get("arguments").cloned().unwrap_or_else(|| json!({}))
                });
                let own = example.get("result").cloned().unwrap_or(Value::Null);
                let diffs =
                    |result: &Value| unless_any(&own, &same, result, &results::prompt_differences);
                self.request_outcome(
                    Primitive::Prompt,
                    &prompt.id,
                    &name,
                    &format!("arguments {arguments}"),
                    answer,
                    problems,
                    &diffs,
                );
            }
        }
        // Completion examples of prompts.
        for prompt in prompts.iter().filter(|p| listed.prompts.contains(&p.id)) {
            let reference = json!({"type": "ref/prompt", "name": prompt.id});
            self.completion_examples(Primitive::Prompt, prompt, reference)
                .await;
        }
    }

    async fn resource_examples(
        &mut self,
        resources: &[Declared],
        templates: &[Declared],
        listed: &Listed,
    ) {
        for (primitive, list, seen) in [
            (Primitive::Resource, resources, &listed.resources),
            (Primitive::ResourceTemplate, templates, &listed.templates),
        ] {
            for declared in list {
                if !seen.contains(&declared.id) {
                    continue;
                }
                let names: Vec<&str> = [Some(declared.id.as_str()), declared.text("name")]
                    .into_iter()
                    .flatten()
                    .collect();
                let examples: Vec<(String, Value)> = declared
                    .examples("examples")
                    .into_iter()
                    .filter(|(name, _)| self.config.examples.example_any(&names, name, true))
                    .map(|(n, e)| (n.to_owned(), e.clone()))
                    .collect();
                for (name, example) in examples {
                    let uri = match primitive {
                        Primitive::Resource => declared.id.clone(),
                        _ => example
                            .get("uri")
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned(),
                    };
                    let Some(answer) = self
                        .call("resources/read", &declared.id, &name, json!({"uri": uri}))
                        .await
                    else {
                        return;
                    };
                    let problems = match &answer {
                        Answer::Result(result) => results::resource_result(result),
                        _ => Vec::new(),
                    };
                    // Every read of a static resource is the same request.
                    let same = same_request(declared, "examples", &example, &|e| match primitive {
                        Primitive::Resource => Value::Null,
                        _ => e.get("uri").cloned().unwrap_or(Value::Null),
                    });
                    let own = example.get("result").cloned().unwrap_or(Value::Null);
                    let diffs = |result: &Value| {
                        unless_any(&own, &same, result, &results::resource_differences)
                    };
                    self.request_outcome(
                        primitive,
                        &declared.id,
                        &name,
                        &format!("uri {uri}"),
                        answer,
                        problems,
                        &diffs,
                    );
                }
                if primitive == Primitive::ResourceTemplate {
                    let reference = json!({"type": "ref/resource", "uri": declared.id});
                    self.completion_examples(primitive, declared, reference)
                        .await;
                }
            }
        }
    }

    /// The `completionExamples` of a prompt or template that are selected.
    async fn completion_examples(
        &mut self,
        primitive: Primitive,
        declared: &Declared,
        reference: Value,
    ) {
        let names: Vec<&str> = [Some(declared.id.as_str()), declared.text("name")]
            .into_iter()
            .flatten()
            .collect();
        let examples: Vec<(String, Value)> = declared
            .examples("completionExamples")
            .into_iter()
            .filter(|(name, _)| self.config.examples.example_any(&names, name, true))
            .map(|(n, e)| (n.to_owned(), e.clone()))
            .collect();
        for (name, example) in examples {
            let mut params = json!({"ref": reference, "argument": example.get("argument").cloned().unwrap_or(Value::Null)});
            if let Some(context) = example.get("context") {
                params["context"] = context.clone();
            }
            let Some(answer) = self
                .call("completion/complete", &declared.id, &name, params.clone())
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
            let same = same_request(declared, "completionExamples", &example, &|e| {
                json!([e.get("argument"), e.get("context")])
            });
            let own = example.get("result").cloned().unwrap_or(Value::Null);
            let diffs =
                |result: &Value| unless_any(&own, &same, result, &results::completion_differences);
            self.request_outcome(
                primitive,
                &declared.id,
                &name,
                &format!("params {params}"),
                answer,
                problems,
                &diffs,
            );
        }
    }

    /// The findings of a replayed prompt, resource or completion example.
    #[allow(clippy::too_many_arguments)]
    fn request_outcome(
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
            Answer::Lost(why) => self.push(
                Finding::new(
                    "no-answer",
                    Severity::Failure,
                    primitive,
                    id,
                    format!("{why} ({input})"),
                )
                .with_example(example),
            ),
        }
    }

    async fn generated(&mut self, tools: &[Declared], listed: &Listed) {
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
                let params = json!({"name": tool.id, "arguments": case.input});
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
                    (Answer::Lost(why), _) => fail("no-answer", format!("{why}; input {input}")),
                }
            }
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

/// The request timeout a [`Config`] gets by default.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);
