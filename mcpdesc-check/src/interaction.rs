//! Replaying Tool Interaction Examples (MCP Description §9.4): the tool is called with
//! the example's input and the server's client-input requests are answered from the
//! example's steps, in order, by a [`ScriptedClient`]:
//!
//! - before MCP 2026-07-28 the server sends `elicitation/create`,
//!   `sampling/createMessage` and `roots/list` during the call; the session answers
//!   them through [`Session::answer_client_input`] (it declared the capabilities the
//!   steps need, [`client_capabilities`]);
//! - in MCP 2026-07-28 the call ends with input-required results; each of their
//!   `inputRequests` is answered (in the order the server wrote them) and the tool is
//!   called again with `inputResponses` and the `requestState`, round after round.
//!
//! A request of another kind than the next step, a differing elicitation `mode`,
//! `message`, `requestedSchema` or `url`, differing sampling params, a request after
//! the last step or a step never requested is an `interaction-differs` failure naming
//! the step; the terminal result follows the Tool Example rules (`example-differs`, a
//! failure under `--strict`).

use std::sync::Arc;

use mcpdesc::implementation::Compare;
use mcpdesc::testing::ScriptedClient;
use mcpdesc::ProtocolVersion;
use mcpdesc_description::Description;
use serde_json::{json, Map, Value};

use crate::expected::{Declared, Expected};
use crate::finding::{Finding, Primitive, Severity};
use crate::run::{Answer, Checker};
use crate::select::Selection;

impl Checker<'_> {
    /// Replays one interaction example of `tool`.
    pub(crate) async fn interaction_example(
        &mut self,
        tool: &Declared,
        name: &str,
        example: &Value,
    ) {
        let what = format!("tool `{}`, interaction example `{name}`", tool.id);
        let steps = example.get("steps").cloned().unwrap_or(Value::Null);
        let client = match ScriptedClient::new(&what, "", &steps) {
            Ok(client) => Arc::new(client),
            Err(message) => {
                return self.push(
                    Finding::new(
                        "skipped",
                        Severity::Skipped,
                        Primitive::Tool,
                        &tool.id,
                        message,
                    )
                    .with_example(name),
                )
            }
        };
        let input = example.get("input").cloned().unwrap_or_else(|| json!({}));
        let answer = if self.version >= ProtocolVersion::V2026_07_28 {
            self.rounds(tool, name, &input, &client, steps_len(&steps))
                .await
        } else {
            self.session.answer_client_input(Some(client.clone()));
            let params = json!({"name": tool.id, "arguments": input});
            let answer = self.call("tools/call", &tool.id, name, params).await;
            self.session.answer_client_input(None);
            answer
        };
        let Some(answer) = answer else {
            return;
        };
        let at = |f: Finding| f.with_example(name);
        if let Err(message) = client.finish() {
            // The result of a call whose steps went wrong says little more than how
            // the call ended.
            let ended = match &answer {
                Answer::Result(r) if r.get("isError") == Some(&Value::Bool(true)) => {
                    format!("; the call ended with the tool error {}", r["content"])
                }
                Answer::Result(_) => String::new(),
                Answer::Error(code, text) => format!("; the call ended with error {code} ({text})"),
                Answer::Lost(_, why) => format!("; {why}"),
            };
            return self.push(at(Finding::new(
                "interaction-differs",
                Severity::Failure,
                Primitive::Tool,
                &tool.id,
                format!("{message}{ended}"),
            )));
        }
        let want = example.get("result");
        let same: Vec<Value> = want.into_iter().cloned().collect();
        let shape = Compare::of_example(example) == Some(Compare::Shape);
        self.tool_outcome(tool, name, &input, answer, want, &same, shape);
    }

    /// The input-required rounds of MCP 2026-07-28: calls until a result that is not
    /// `input_required`, answering each round's requests with `client`; at most one
    /// round per step, plus the last.
    async fn rounds(
        &mut self,
        tool: &Declared,
        name: &str,
        input: &Value,
        client: &Arc<ScriptedClient>,
        steps: usize,
    ) -> Option<Answer> {
        let mut params = json!({"name": tool.id, "arguments": input});
        for round in 0..=steps {
            let label = if round == 0 {
                name.to_owned()
            } else {
                format!("{name} (round {})", round + 1)
            };
            let answer = self
                .call("tools/call", &tool.id, &label, params.clone())
                .await?;
            let Answer::Result(result) = &answer else {
                return Some(answer);
            };
            if result.get("resultType").and_then(Value::as_str) != Some("input_required") {
                return Some(answer);
            }
            let requests = result
                .get("inputRequests")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let mut responses = Map::new();
            for (key, request) in requests {
                match client.answer_input_request(&request).await {
                    Ok(response) => {
                        responses.insert(key, response);
                    }
                    // The scripted client keeps the failure for `finish`.
                    Err(_) => return Some(answer),
                }
            }
            params["inputResponses"] = Value::Object(responses);
            match result.get("requestState") {
                Some(state) => params["requestState"] = state.clone(),
                None => {
                    if let Some(p) = params.as_object_mut() {
                        p.remove("requestState");
                    }
                }
            }
        }
        Some(Answer::Lost(
            "no-answer",
            format!(
                "the server still asked for input after {} rounds (the example has {steps} steps)",
                steps + 1
            ),
        ))
    }
}

fn steps_len(steps: &Value) -> usize {
    steps.as_array().map_or(0, Vec::len)
}

/// The client capabilities a check declares (MCP JSON): those the steps of the
/// interaction examples `examples` selects need (`elicitation.form`,
/// `elicitation.url`, `sampling`, `roots`), and the `clientRequirements` of the tools
/// `examples` or `generate` selects, in every protocol version the description
/// declares. Nothing more: a server may ask for what a client declared.
pub fn client_capabilities(
    desc: &Description,
    examples: &Selection,
    generate: &Selection,
) -> Value {
    let mut caps = Map::new();
    for version in crate::expected::described_versions(desc) {
        for tool in Expected::of(desc, version).tools {
            let ro = tool.read_only();
            let called = generate.primitive(&tool.id, ro)
                || tool
                    .examples("examples")
                    .iter()
                    .chain(&tool.examples("interactionExamples"))
                    .any(|(n, _)| examples.example(&tool.id, n, ro));
            if called {
                if let Some(Value::Object(required)) = tool.declaration.get("clientRequirements") {
                    merge(&mut caps, required);
                }
            }
            for (name, example) in tool.examples("interactionExamples") {
                if !examples.example(&tool.id, name, ro) {
                    continue;
                }
                let steps = example.get("steps").and_then(Value::as_array);
                for step in steps.into_iter().flatten() {
                    let need = match step.get("type").and_then(Value::as_str) {
                        Some("elicitation") => {
                            let mode = step
                                .pointer("/request/mode")
                                .and_then(Value::as_str)
                                .unwrap_or("form");
                            json!({"elicitation": {mode: {}}})
                        }
                        Some("sampling") => sampling_needs(step.get("request")),
                        Some("roots") => json!({"roots": {}}),
                        _ => continue,
                    };
                    if let Value::Object(need) = need {
                        merge(&mut caps, &need);
                    }
                }
            }
        }
    }
    Value::Object(caps)
}

/// The `sampling` capability a sampling step's request needs: `sampling.tools` for
/// `tools` or `toolChoice`, `sampling.context` for an `includeContext` other than
/// `none` (servers, rmcp among them, refuse to send these otherwise).
fn sampling_needs(request: Option<&Value>) -> Value {
    let mut sampling = Map::new();
    let has = |member: &str| request.and_then(|r| r.get(member)).is_some();
    if has("tools") || has("toolChoice") {
        sampling.insert("tools".to_owned(), json!({}));
    }
    let context = request
        .and_then(|r| r.get("includeContext"))
        .and_then(Value::as_str);
    if context.is_some_and(|c| c != "none") {
        sampling.insert("context".to_owned(), json!({}));
    }
    json!({ "sampling": sampling })
}

/// Merges capability objects member by member (objects recursively; other values
/// are kept from `into`).
fn merge(into: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (key, value) in from {
        match (into.get_mut(key), value) {
            (Some(Value::Object(a)), Value::Object(b)) => merge(a, b),
            (None, _) => {
                into.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capabilities_merge_member_by_member() {
        let mut caps = Map::new();
        for part in [
            json!({"elicitation": {"form": {}}}),
            json!({"elicitation": {"url": {}}, "roots": {"listChanged": true}}),
            json!({"roots": {}}),
        ] {
            merge(&mut caps, part.as_object().unwrap());
        }
        assert_eq!(
            Value::Object(caps),
            json!({"elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": true}})
        );
    }
}
