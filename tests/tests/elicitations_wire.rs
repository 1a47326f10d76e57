//! Typed elicitations of prompts, resources and resource templates on the wire
//! (`fixtures/generator/elicitations.mcpdesc.json`): handlers that ask through
//! `elicitations::prompts::review::confirm::ask(&cx)` and the resource and template
//! equivalents, served by `McpServer` over an in-memory pipe to an `mcpdesc` client
//! session whose client input is answered by a scripted client
//! (`mcpdesc::testing::ScriptedClient`, as `mcpdesc check` answers interaction
//! examples):
//!
//! - MCP 2025-11-25: the server sends `elicitation/create` during `prompts/get` and
//!   `resources/read`; the scripted client checks message and schema, answers, and the
//!   handler's result is built from the typed content.
//! - MCP 2026-07-28: `prompts/get` and `resources/read` answer with input-required
//!   results; the client retries with `inputResponses` and the `requestState`, and the
//!   handler, replayed, completes. A state is refused on another request.

use std::sync::Arc;
use std::time::Duration;

use mcpdesc::testing::ScriptedClient;
use mcpdesc::{
    Context, Elicited, McpServer, PromptMessage, PromptResult, ProtocolVersion, RequestError,
    ResourceResult, ToolError, ToolResult,
};
use serde_json::{json, Value};

mod contract {
    mcpdesc::mcpdesc!(
        path = "fixtures/generator/elicitations.mcpdesc.json",
        tests = false
    );
}

use contract::elicitations::{prompts, resource_templates, resources};

/// The server: every handler asks through the typed declaration of its primitive.
struct Reviews;

impl contract::Review for Reviews {
    async fn review(
        &self,
        input: contract::types::ReviewInput,
        cx: Context,
    ) -> Result<ToolResult, ToolError> {
        // The tool's own `confirm`, beside the prompt's of the same names.
        match contract::elicitations::review::confirm::ask(&cx).await? {
            Elicited::Accept(form) if form.confirm => {
                Ok(ToolResult::text(format!("reviewed {}", input.game)))
            }
            _ => Err(ToolError::new("not reviewed")),
        }
    }
}

impl contract::Prompts2 for Reviews {
    async fn prompts_2(
        &self,
        _input: contract::types::Prompts2Input,
        _cx: Context,
    ) -> Result<ToolResult, ToolError> {
        Ok(ToolResult::text("review"))
    }
}

impl contract::ReviewPrompt for Reviews {
    async fn get_review(
        &self,
        arguments: contract::types::ReviewArguments,
        cx: Context,
    ) -> Result<PromptResult, RequestError> {
        let text = match prompts::review::confirm::ask(&cx).await? {
            Elicited::Accept(form) => format!(
                "Review {} for {} (depth {}).",
                arguments.game,
                form.side,
                form.depth.unwrap_or(1)
            ),
            Elicited::Decline | Elicited::Cancel => {
                format!("Review {} for both sides.", arguments.game)
            }
        };
        Ok(PromptResult::new(vec![PromptMessage::user(text)]))
    }
}

impl contract::SecretResource for Reviews {
    async fn read_secret(&self, cx: Context) -> Result<ResourceResult, RequestError> {
        match resources::secret::unlock::ask(&cx).await? {
            Elicited::Accept(form) => Ok(ResourceResult::text(
                contract::resources::secret::URI,
                "text/plain",
                format!(
                    "unlocked with a passphrase of {} characters",
                    form.passphrase.len()
                ),
            )),
            _ => Err(RequestError::invalid_params("the secret stays locked")),
        }
    }
}

impl contract::NoteTemplate for Reviews {
    async fn read_note(
        &self,
        uri: String,
        variables: contract::types::NoteVariables,
        cx: Context,
    ) -> Result<ResourceResult, RequestError> {
        let text = match resource_templates::note::confirm_read::ask(&cx).await? {
            Elicited::Accept(form) if form.confirm => format!("note {}", variables.id),
            _ => "not read".to_owned(),
        };
        Ok(ResourceResult::text(uri, "text/plain", text))
    }
}

/// The steps of one form elicitation with this message and schema (a declaration's),
/// answered with `response`.
fn step(message: &str, schema: &str, response: Value) -> Value {
    let schema: Value = serde_json::from_str(schema).unwrap();
    json!([{
        "type": "elicitation",
        "request": {"mode": "form", "message": message, "requestedSchema": schema},
        "response": response
    }])
}

/// The three requests, each with its step and the result text it must give.
fn cases() -> Vec<(&'static str, Value, Value, &'static str)> {
    use prompts::review::confirm as side;
    use resource_templates::note::confirm_read as read;
    use resources::secret::unlock;
    vec![
        (
            "prompts/get",
            json!({"name": "review", "arguments": {"game": "g1"}}),
            step(
                side::MESSAGE,
                side::REQUESTED_SCHEMA,
                json!({"action": "accept", "content": {"side": "black", "depth": 3}}),
            ),
            "Review g1 for black (depth 3).",
        ),
        (
            "resources/read",
            json!({"uri": "notes://secret"}),
            step(
                unlock::MESSAGE,
                unlock::REQUESTED_SCHEMA,
                json!({"action": "accept", "content": {"passphrase": "correct horse"}}),
            ),
            "unlocked with a passphrase of 13 characters",
        ),
        (
            "resources/read",
            json!({"uri": "notes://n7"}),
            step(
                read::MESSAGE,
                read::REQUESTED_SCHEMA,
                json!({"action": "accept", "content": {"confirm": true}}),
            ),
            "note n7",
        ),
    ]
}

/// The text of a `prompts/get` or `resources/read` result.
fn text_of(method: &str, result: &Value) -> String {
    let at = match method {
        "prompts/get" => "/messages/0/content/text",
        _ => "/contents/0/text",
    };
    result
        .pointer(at)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{method}: no text in {result}"))
        .to_owned()
}

/// A client session over an in-memory pipe to the served router, speaking `version`
/// and declaring form elicitation.
async fn session(version: ProtocolVersion) -> mcpdesc::client::Session {
    let (server_io, client_io) = tokio::io::duplex(256 * 1024);
    tokio::spawn(async move {
        use mcpdesc::rmcp::ServiceExt;
        let running = McpServer::new(contract::router(Reviews))
            .into_service()
            .serve(server_io)
            .await?;
        running.waiting().await?;
        Ok::<_, Box<dyn std::error::Error + Send + Sync>>(())
    });
    let (read, write) = tokio::io::split(client_io);
    mcpdesc::client::Options::new()
        .protocol_versions(&[version])
        .client_capabilities(json!({"elicitation": {"form": {}}}))
        .io(read, write)
        .await
        .expect("the session connects")
}

async fn with_timeout<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(Duration::from_secs(30), future)
        .await
        .expect("the exchange finishes within 30 s")
}

#[tokio::test]
async fn in_2025_11_25_prompt_and_resource_handlers_send_elicitation_create() {
    with_timeout(async {
        let session = session(ProtocolVersion::V2025_11_25).await;
        for (method, params, steps, expected) in cases() {
            let what = format!("{method} {params}");
            let client = Arc::new(ScriptedClient::new(&what, "", &steps).unwrap());
            session.answer_client_input(Some(client.clone()));
            let result = session.request(method, Some(params.clone())).await.unwrap();
            client.finish().unwrap();
            assert_eq!(text_of(method, &result), expected, "{what}: {result}");
        }
        // A declined form: the prompt handler's own answer.
        let declined = step(
            prompts::review::confirm::MESSAGE,
            prompts::review::confirm::REQUESTED_SCHEMA,
            json!({"action": "decline"}),
        );
        let client = Arc::new(ScriptedClient::new("declined", "", &declined).unwrap());
        session.answer_client_input(Some(client.clone()));
        let result = session
            .get_prompt("review", json!({"game": "g2"}))
            .await
            .unwrap();
        client.finish().unwrap();
        assert_eq!(text_of("prompts/get", &result), "Review g2 for both sides.");
        session.close().await;
    })
    .await;
}

/// One request in MCP 2026-07-28, answering each input-required round with `client`;
/// every round's answer (the last is the result).
async fn rounds(
    session: &mcpdesc::client::Session,
    method: &str,
    mut params: Value,
    client: &ScriptedClient,
) -> Vec<Value> {
    let mut answers = Vec::new();
    for _ in 0..3 {
        let answer = session.request(method, Some(params.clone())).await.unwrap();
        answers.push(answer.clone());
        if answer["resultType"] != "input_required" {
            return answers;
        }
        let mut responses = serde_json::Map::new();
        for (key, request) in answer["inputRequests"].as_object().unwrap() {
            let response = client.answer_input_request(request).await.unwrap();
            responses.insert(key.clone(), response);
        }
        params["inputResponses"] = Value::Object(responses);
        params["requestState"] = answer["requestState"].clone();
    }
    panic!("{method}: still input-required after 3 rounds: {answers:?}");
}

#[tokio::test]
async fn in_2026_07_28_prompts_get_and_resources_read_go_through_input_required_rounds() {
    with_timeout(async {
        let session = session(ProtocolVersion::V2026_07_28).await;
        assert_eq!(session.protocol_version(), ProtocolVersion::V2026_07_28);
        for (method, params, steps, expected) in cases() {
            let what = format!("{method} {params}");
            let client = ScriptedClient::new(&what, "", &steps).unwrap();
            let answers = rounds(&session, method, params.clone(), &client).await;
            client.finish().unwrap();
            assert_eq!(answers.len(), 2, "{what}: one round, then the result");
            let first = &answers[0];
            assert_eq!(
                first["inputRequests"]["input-0"]["method"], "elicitation/create",
                "{what}: {first}"
            );
            let last = &answers[1];
            assert_eq!(last["resultType"], "complete", "{what}: {last}");
            assert_eq!(text_of(method, last), expected, "{what}: {last}");
        }

        // The state of one prompt's round is refused on another request.
        let first = session
            .get_prompt("review", json!({"game": "g1"}))
            .await
            .unwrap();
        assert_eq!(first["resultType"], "input_required", "{first}");
        let replayed = session
            .request(
                "resources/read",
                Some(json!({
                    "uri": "notes://n7",
                    "requestState": first["requestState"],
                    "inputResponses": {"input-0": {"action": "accept", "content": {"confirm": true}}}
                })),
            )
            .await
            .unwrap_err();
        let message = replayed.to_string();
        assert!(
            message.contains("belongs to another call"),
            "{message}"
        );
        session.close().await;
    })
    .await;
}
