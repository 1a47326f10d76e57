//! Prompts, resources, templates and completions, each with its own requirement.

use hyper::StatusCode;
use mcpdesc::http::HttpServer;
use mcpdesc::{Router, ServerInfo};
use serde_json::json;

use crate::games::{tokens, GAMES_SECURITY};
use crate::support::{start, VERSIONS};
use crate::wire::Client;

/// Prompts, resources, templates and completions: each checked with its own
/// requirement (a completion with its prompt's or template's).
fn primitives_router() -> Router {
    use mcpdesc::{
        CompletionResult, CompletionTarget, PromptMessage, PromptResult, PromptSpec,
        ResourceResult, ResourceSpec, ResourceTemplateSpec,
    };
    const BRIEF: PromptSpec = PromptSpec::new(
        "brief",
        &[],
        r#"{"name": "brief", "arguments": [{"name": "game", "required": false}], "security": [{"games-oauth": ["games:write"]}]}"#,
    );
    const LATEST: ResourceSpec = ResourceSpec::new(
        "games://latest",
        &[],
        r#"{"uri": "games://latest", "name": "latest"}"#,
    );
    const SECRET: ResourceSpec = ResourceSpec::new(
        "games://secret",
        &[],
        r#"{"uri": "games://secret", "name": "secret", "security": [{"games-oauth": ["games:write"]}]}"#,
    );
    const GAME: ResourceTemplateSpec = ResourceTemplateSpec::new(
        "games://games/{id}",
        &[],
        r#"{"uriTemplate": "games://games/{id}", "name": "game", "security": [{"games-oauth": ["games:write"]}]}"#,
    );
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("games", "1.0.0")
    };
    Router::new(info)
        .security(Some(GAMES_SECURITY))
        .prompt(BRIEF, |_, cx| {
            let who = cx
                .principal()
                .map_or("anonymous".to_owned(), |p| p.subject().to_owned());
            Box::pin(async move { Ok(PromptResult::new(vec![PromptMessage::user(who)])) })
        })
        .resource(LATEST, |uri, _| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "latest")) })
        })
        .resource(SECRET, |uri, _| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "secret")) })
        })
        .resource_template(GAME, |uri, _, _| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "text/plain", "game")) })
        })
        .completion(CompletionTarget::prompt("brief"), &[], |_, _| {
            Box::pin(async { Ok(CompletionResult::new(vec!["g1".to_owned()])) })
        })
        .authenticator(tokens())
}

#[tokio::test]
async fn prompts_resources_templates_and_completions_have_their_requirements() {
    let addr = start(HttpServer::new(primitives_router())).await;
    let mut reader = Client::bearer(addr, "reader-token");
    assert_eq!(reader.initialize().await.status, StatusCode::OK);
    let mut writer = Client::bearer(addr, "both-token");
    assert_eq!(writer.initialize().await.status, StatusCode::OK);
    let requests = [
        (
            "prompt",
            json!({"method": "prompts/get", "params": {"name": "brief", "arguments": {}}}),
        ),
        (
            "secret resource",
            json!({"method": "resources/read", "params": {"uri": "games://secret"}}),
        ),
        (
            "template",
            json!({"method": "resources/read", "params": {"uri": "games://games/7"}}),
        ),
        (
            "completion",
            json!({"method": "completion/complete", "params": {
            "ref": {"type": "ref/prompt", "name": "brief"}, "argument": {"name": "game", "value": "g"}}}),
        ),
    ];
    for (i, (what, request)) in requests.iter().enumerate() {
        let mut request = request.clone();
        request["jsonrpc"] = json!("2.0");
        request["id"] = json!(i);
        let refused = reader.post(request.clone()).await;
        assert_eq!(refused.status, StatusCode::FORBIDDEN, "{what}: {refused:?}");
        assert!(
            refused.challenges()[0].contains(r#"scope="games:write""#),
            "{what}"
        );
        let answer = writer.post(request).await.answer(i as i64);
        assert!(answer.get("result").is_some(), "{what}: {answer}");
    }
    // The resource without its own security inherits the root's read scope.
    let latest = json!({"jsonrpc": "2.0", "id": 9, "method": "resources/read", "params": {"uri": "games://latest"}});
    assert!(reader.post(latest).await.answer(9).get("result").is_some());
    let prompt =
        json!({"jsonrpc": "2.0", "id": 10, "method": "prompts/get", "params": {"name": "brief"}});
    assert_eq!(
        writer.post(prompt).await.answer(10)["result"]["messages"][0]["content"]["text"],
        "both"
    );
}
