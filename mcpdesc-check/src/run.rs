//! The check itself: listings, then the selected examples (`sequence.rs`, `replay.rs`), then the
//! generated inputs (`generated.rs`), over one [`Session`]. Every request has a
//! timeout; once the server stops answering (it exited, closed the connection, wrote
//! garbage) the check stops calling and says so in a `server-exited` finding.

use mcpdesc::client::{RequestError, Session};
use mcpdesc::ProtocolVersion;
use mcpdesc_description::Description;
use serde_json::{json, Value};

use crate::config::Config;
use crate::expected::{Declared, Expected};
use crate::finding::{Finding, Primitive, Severity};
use crate::listing;
use crate::report::{Call, Report};

/// JSON-RPC "Invalid params", the answer an invalid input may get.
pub(crate) const INVALID_PARAMS: i64 = -32602;

/// One check in progress: the session, what was found so far, whether the server is
/// still there.
pub(crate) struct Checker<'a> {
    pub(crate) session: &'a Session,
    pub(crate) config: &'a Config,
    pub(crate) version: ProtocolVersion,
    pub(crate) report: Report,
    /// Set once the server stopped answering: nothing more is sent.
    pub(crate) dead: bool,
}

/// How a call ended.
pub(crate) enum Answer {
    /// A result, as sent.
    Result(Value),
    /// A JSON-RPC error: code and message.
    Error(i64, String),
    /// No answer, with the finding kind: `no-answer` (timeout, transport),
    /// `unauthorized` (HTTP 401), `forbidden` (HTTP 403); the check goes on.
    Lost(&'static str, String),
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
    // Reads first, before any example may change the server's state, honouring the
    // examples' `x-mcpdesc-after` hints (sequence.rs, report::EXAMPLE_ORDER).
    checker.examples(desc, &expected, &listed).await;
    checker.generated(&expected.tools, &listed).await;
    checker.generated_prompts(&expected.prompts, &listed).await;
    checker
        .generated_templates(&expected.templates, &listed)
        .await;
    if !checker.dead && !session.is_alive() {
        checker.server_gone("after the last request");
    }
    checker.report
}

/// The ids each listing had (only what was listed is called).
#[derive(Default)]
pub(crate) struct Listed {
    pub(crate) tools: Vec<String>,
    pub(crate) prompts: Vec<String>,
    pub(crate) resources: Vec<String>,
    pub(crate) templates: Vec<String>,
}

impl Checker<'_> {
    pub(crate) fn push(&mut self, finding: Finding) {
        self.report.findings.push(finding);
    }

    pub(crate) fn server_gone(&mut self, when: &str) {
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
    pub(crate) async fn listings(&mut self, expected: &Expected) -> Listed {
        let mut listed = Listed::default();
        let plan: [(Primitive, &str, &[Declared], &str); 4] = [
            (Primitive::Tool, "tools/list", &expected.tools, "name"),
            (Primitive::Prompt, "prompts/list", &expected.prompts, "name"),
            (
                Primitive::Resource,
                "resources/list",
                &expected.resources,
                "uri",
            ),
            (
                Primitive::ResourceTemplate,
                "resources/templates/list",
                &expected.templates,
                "uriTemplate",
            ),
        ];
        for (primitive, method, declared, id) in plan {
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
    pub(crate) fn request_failed(&mut self, method: &str, e: &RequestError) {
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
    pub(crate) fn unknown_selections(&mut self, expected: &Expected) {
        let known = |name: &str, example: Option<&str>| expected.knows(name, example);
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
    pub(crate) async fn call(
        &mut self,
        method: &'static str,
        target: &str,
        label: &str,
        params: Value,
    ) -> Option<Answer> {
        if self.dead {
            return None;
        }
        let answer = match self.send(method, &params).await {
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
            Err(e @ RequestError::Unauthorized { .. }) => Answer::Lost(
                "unauthorized",
                format!("{e}; pass credentials with --header 'Authorization: Bearer …'"),
            ),
            Err(e @ RequestError::Forbidden { .. }) => Answer::Lost("forbidden", e.to_string()),
            Err(e) => Answer::Lost("no-answer", e.to_string()),
        };
        let outcome = match &answer {
            Answer::Result(r) if r.get("isError") == Some(&Value::Bool(true)) => {
                "isError".to_owned()
            }
            Answer::Result(_) => "result".to_owned(),
            Answer::Error(code, _) => format!("error {code}"),
            Answer::Lost("unauthorized", _) => "HTTP 401".to_owned(),
            Answer::Lost("forbidden", _) => "HTTP 403".to_owned(),
            Answer::Lost(_, why) if why.contains("no answer within") => "timeout".to_owned(),
            Answer::Lost(..) => "no answer".to_owned(),
        };
        self.record(method, target, label, &params, &outcome);
        if !self.session.is_alive() {
            self.server_gone(&format!("after `{method}` of `{target}` ({label})"));
        }
        Some(answer)
    }

    /// The answer to `method`. A task-augmented `tools/call` (params with `task`)
    /// is followed by `tasks/result`, which waits for the task and answers what the
    /// plain call would have; its related-task `_meta` entry, which ties it to the
    /// task and is not the tool's, is removed. A server that answers the call itself
    /// (no `task` in its answer) is taken at its word.
    async fn send(&self, method: &'static str, params: &Value) -> Result<Value, RequestError> {
        let timeout = self.config.call_timeout;
        let answer = self
            .session
            .request_within(method, Some(params.clone()), timeout)
            .await?;
        if method != "tools/call" || params.get("task").is_none() {
            return Ok(answer);
        }
        let Some(id) = answer.pointer("/task/taskId").and_then(Value::as_str) else {
            return Ok(answer);
        };
        let mut result = self
            .session
            .request_within("tasks/result", Some(json!({"taskId": id})), timeout)
            .await?;
        if let Some(meta) = result.get_mut("_meta").and_then(Value::as_object_mut) {
            meta.remove("io.modelcontextprotocol/related-task");
            if meta.is_empty() {
                result.as_object_mut().map(|r| r.remove("_meta"));
            }
        }
        Ok(result)
    }

    pub(crate) fn record(
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
}
