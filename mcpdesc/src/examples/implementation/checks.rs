//! The implementation tests: each example replayed against a fresh server through
//! the router, in the versions the module docs give, and compared ([`Compare`]).

use std::future::Future;
use std::sync::Arc;

use serde_json::Value;

use super::compare::{
    compare_request_result, compare_tool_result, protocol_error, Compare, Kind, Site,
};
use crate::examples::data::{
    latest, parse_json, Example, InteractionExample, RequestExample, ToolCase,
};
use crate::examples::scripted::ScriptedClient;
use crate::examples::testing::requests::completion_request;
use crate::protocol::completions::CompletionTarget;
use crate::protocol::result::ToolResult;
use crate::protocol::version::ProtocolVersion;
use crate::server::context::Context;
use crate::server::input_rounds::InputRounds;
use crate::server::router::Router;

/// Runs `future` to completion on the current thread: on a fresh single-threaded tokio
/// runtime when the runtime crate has tokio (features `client` or `http`) and no tokio
/// runtime is running on this thread, so that handlers may use tokio's timers and
/// tasks; otherwise with `futures`' executor.
pub fn run<F: Future>(future: F) -> F::Output {
    #[cfg(any(feature = "client", feature = "http"))]
    if tokio::runtime::Handle::try_current().is_err() {
        if let Ok(rt) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            return rt.block_on(future);
        }
    }
    futures::executor::block_on(future)
}

/// The test of one Tool Example against an implementation: `router` (built from a fresh
/// test server) is called with the example's `input` in the latest version of the
/// tool's scope, and its result compared with the example's (module docs).
pub fn check_example(
    router: &Router,
    tool: &ToolCase,
    example: &Example,
    compare: Compare,
) -> Result<(), String> {
    let what = format!("tool `{}`, example `{}`", tool.tool, example.name);
    let input = parse_json(example.input, &what)?;
    let expected = parse_json(example.result, &what)?;
    let version = latest(tool.scope);
    let actual = run(router.call_tool(tool.tool, Some(input), Context::new(version)))
        .map_err(|e| protocol_error(&what, version, e))?;
    let at = Site::new(&what, example.pointer, version);
    compare_tool_result(&at, tool, compare, &expected, &actual.to_wire(version))
}

/// The test of one Tool Interaction Example against an implementation, in each
/// version of the tool's scope: for each, `router` builds a fresh server (one call per
/// server: a stateful implementation answers a repeated call differently), which is
/// called with the example's `input`, a [`ScriptedClient`] of the example's steps
/// answering the implementation's client requests as a live client would: during the
/// call before MCP 2026-07-28, through input-required rounds in 2026-07-28 (the handler
/// replayed with the answers and `requestState`, as `McpServer` does). In each version
/// every step must be requested, in order, and the terminal result compared
/// (module docs); the first failure is returned, naming the version.
pub fn check_interaction_example(
    router: impl Fn() -> Router,
    tool: &ToolCase,
    example: &InteractionExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!(
        "tool `{}`, interaction example `{}`",
        tool.tool, example.name
    );
    let input = parse_json(example.input, &what)?;
    let steps = parse_json(example.steps, &what)?;
    let expected = parse_json(example.result, &what)?;
    for &version in tool.scope {
        let router = router();
        // The scripted client's messages name the version too.
        let in_version = format!("{what} (MCP {version})");
        let client = Arc::new(ScriptedClient::new(&in_version, example.pointer, &steps)?);
        let actual = if version >= ProtocolVersion::V2026_07_28 {
            run(input_rounds(
                &router, tool.tool, &input, version, &client, &what,
            ))?
        } else {
            let cx = Context::with_peer(version, client.clone());
            run(router.call_tool(tool.tool, Some(input.clone()), cx))
                .map_err(|e| protocol_error(&what, version, e))?
        };
        client.finish()?;
        let at = Site::new(&what, example.pointer, version);
        compare_tool_result(&at, tool, compare, &expected, &actual.to_wire(version))?;
    }
    Ok(())
}

/// A call in MCP 2026-07-28 as `McpServer` serves it: each round runs the handler with
/// an [`InputRounds`] peer; while it asks for input, `client` answers the requests and
/// the call is made again with the answers and the state. At most one round per step,
/// plus the last.
async fn input_rounds(
    router: &Router,
    tool: &str,
    input: &Value,
    version: ProtocolVersion,
    client: &ScriptedClient,
    what: &str,
) -> Result<ToolResult, String> {
    // Everything a step may ask for is declared: requirements are not what is tested.
    let capabilities = serde_json::json!({"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}, "context": {}}, "roots": {}});
    let mut state: Option<String> = None;
    let mut responses = std::collections::BTreeMap::new();
    for _ in 0..=client.steps() {
        let rounds = Arc::new(
            InputRounds::resume(
                tool,
                Some(input),
                state.as_deref(),
                std::mem::take(&mut responses),
                Some(capabilities.clone()),
            )
            .map_err(|e| format!("{what} (MCP {version}): {e}"))?,
        );
        let cx = Context::with_peer(version, rounds.clone());
        let result = router
            .call_tool(tool, Some(input.clone()), cx)
            .await
            .map_err(|e| protocol_error(what, version, e))?;
        let Some(required) = rounds.input_required() else {
            return Ok(result);
        };
        for (key, request) in required.requests {
            match client.answer_input_request(&request).await {
                Ok(answer) => {
                    responses.insert(key, answer);
                }
                // The scripted client keeps the failure; `finish` reports it.
                Err(_) => return Ok(result),
            }
        }
        state = Some(required.request_state);
    }
    Err(format!(
        "{what} (MCP {version}): the implementation still asked for input after {} rounds",
        client.steps() + 1
    ))
}

/// The test of one Prompt Example against an implementation: `prompts/get` with the
/// example's arguments in the latest version of `scope`.
pub fn check_prompt_example(
    router: &Router,
    prompt: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!("prompt `{prompt}`, example `{}`", example.name);
    let arguments = parse_json(example.request, &what)?;
    let version = latest(scope);
    let cx = Context::new(version);
    let actual = run(router.get_prompt(prompt, arguments.as_object().cloned(), cx))
        .map_err(|e| protocol_error(&what, version, e))?;
    compare_request_result(
        &Site::new(&what, example.pointer, version),
        Kind::Prompt,
        compare,
        example,
        &actual.to_wire(version),
    )
}

/// The test of one Resource Example against an implementation: `resources/read` of
/// `uri` in the latest version of `scope`.
pub fn check_resource_example(
    router: &Router,
    uri: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!("resource `{uri}`, example `{}`", example.name);
    read(router, &what, uri, scope, example, compare)
}

/// The test of one Resource Template Example against an implementation:
/// `resources/read` of the example's `uri` in the latest version of `scope`.
pub fn check_template_example(
    router: &Router,
    uri_template: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!(
        "resource template `{uri_template}`, example `{}`",
        example.name
    );
    let uri = parse_json(example.request, &what)?;
    let uri = uri
        .as_str()
        .ok_or_else(|| format!("{what} ({}/uri): not a string", example.pointer))?;
    read(router, &what, uri, scope, example, compare)
}

/// The test of one completion example against an implementation: `completion/complete`
/// for `target` with the example's argument and context in the latest version of
/// `scope`.
pub fn check_completion_example(
    router: &Router,
    target: &CompletionTarget,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let what = format!(
        "{} `{}`, completion example `{}`",
        target.kind(),
        target.id(),
        example.name
    );
    let request = completion_request(&parse_json(example.request, &what)?);
    let version = latest(scope);
    let actual = run(router.complete(target, request, Context::new(version)))
        .map_err(|e| protocol_error(&what, version, e))?;
    compare_request_result(
        &Site::new(&what, example.pointer, version),
        Kind::Completion,
        compare,
        example,
        &actual.to_wire(version),
    )
}

fn read(
    router: &Router,
    what: &str,
    uri: &str,
    scope: &[ProtocolVersion],
    example: &RequestExample,
    compare: Compare,
) -> Result<(), String> {
    let version = latest(scope);
    let actual = run(router.read_resource(uri, Context::new(version)))
        .map_err(|e| protocol_error(what, version, e))?;
    compare_request_result(
        &Site::new(what, example.pointer, version),
        Kind::Resource,
        compare,
        example,
        &actual.to_wire(version),
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A router with the tool `confirm` (2025-06-18 to 2026-07-28), whose handler asks
    /// for a confirmation, except in `skip_in` (a wrong implementation).
    fn confirming(skip_in: Option<ProtocolVersion>) -> Router {
        use crate::protocol::error::ToolError;
        use crate::server::client_requests::ElicitAction;
        use crate::server::router::{ServerInfo, ToolSpec};
        let info = ServerInfo {
            name: "confirm".into(),
            version: "1".into(),
            protocol_versions: ProtocolVersion::ALL,
            ..Default::default()
        };
        Router::new(info).tool(
            ToolSpec::new("confirm", SCOPE, CONFIRM_DECLARATION),
            move |_args, cx| {
                Box::pin(async move {
                    if Some(cx.protocol_version()) != skip_in {
                        let answer = cx
                            .elicit_form("Sure?", json!({"type": "object"}))
                            .await
                            .map_err(|e| ToolError::new(e.to_string()))?;
                        if answer.action != ElicitAction::Accept {
                            return Err(ToolError::new("not confirmed"));
                        }
                    }
                    Ok(ToolResult::text("done"))
                })
            },
        )
    }

    const SCOPE: &[ProtocolVersion] = &[
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];
    const CONFIRM_DECLARATION: &str = r#"{"name": "confirm", "inputSchema": {"type": "object"}}"#;
    const CONFIRM: ToolCase = ToolCase {
        tool: "confirm",
        declaration: CONFIRM_DECLARATION,
        scope: SCOPE,
    };
    const CONFIRMED: InteractionExample = InteractionExample {
        name: "yes",
        pointer: "/tools/0/interactionExamples/yes",
        input: "{}",
        steps: r#"[{"type": "elicitation", "request": {"mode": "form", "message": "Sure?", "requestedSchema": {"type": "object"}}, "response": {"action": "accept", "content": {}}}]"#,
        result: r#"{"content": [{"type": "text", "text": "done"}]}"#,
    };

    #[test]
    fn interaction_examples_run_in_each_version_on_a_fresh_server() {
        let built = std::sync::atomic::AtomicUsize::new(0);
        let fresh = || {
            built.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            confirming(None)
        };
        check_interaction_example(fresh, &CONFIRM, &CONFIRMED, Compare::Exact).unwrap();
        assert_eq!(built.into_inner(), SCOPE.len());
    }

    #[test]
    fn an_interaction_failure_in_an_earlier_version_names_that_version() {
        // Right in the latest version (what the check used to run alone), wrong before.
        for wrong in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
            let err = check_interaction_example(
                || confirming(Some(wrong)),
                &CONFIRM,
                &CONFIRMED,
                Compare::Exact,
            )
            .unwrap_err();
            assert_eq!(
                err,
                format!("tool `confirm`, interaction example `yes` (MCP {wrong}) (/tools/0/interactionExamples/yes/steps/0): step 0 (elicitation) was never requested; the tool made 0 of 1 requests")
            );
        }
        // Wrong in 2026-07-28 only: the input-required rounds are checked too.
        let err = check_interaction_example(
            || confirming(Some(ProtocolVersion::V2026_07_28)),
            &CONFIRM,
            &CONFIRMED,
            Compare::Exact,
        )
        .unwrap_err();
        assert!(err.contains("(MCP 2026-07-28)"), "{err}");
    }
}
