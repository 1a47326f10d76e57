//! The handler adapter: its JSON-RPC refusal when the HTTP layer cannot know the
//! session's version, credentials removed before rmcp, composed handlers guarded.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};

use crate::support::{start, tool, who, VERSIONS};
use crate::wire::Client;

const VARIANT_SECURITY: &str = r#"{
    "securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": "https://auth.example.com/token", "scopes": {"w": ""}}}}}
}"#;

#[tokio::test]
async fn the_adapter_refuses_when_http_cannot_know_the_version() {
    // `variant` is public in 2025-06-18 and needs scope `w` in 2025-11-25.
    const OLD: ToolSpec = ToolSpec::new(
        "variant",
        &[ProtocolVersion::V2025_06_18],
        r#"{"name": "variant", "protocolVersions": ["2025-06-18"], "inputSchema": {"type": "object"}}"#,
    );
    const NEW: ToolSpec = ToolSpec::new(
        "variant",
        &[ProtocolVersion::V2025_11_25],
        r#"{"name": "variant", "protocolVersions": ["2025-11-25"], "inputSchema": {"type": "object"}, "security": [{"oauth": ["w"]}]}"#,
    );
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = {
        let runs = runs.clone();
        move |_: Value,
              _: mcpdesc::Context|
              -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>> {
            runs.fetch_add(1, Ordering::SeqCst);
            Box::pin(async { Ok(ToolResult::text("ran")) })
        }
    };
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("variants", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(VARIANT_SECURITY))
        .tool(OLD, counted.clone())
        .tool(NEW, counted)
        .authenticator(StaticTokens::new().token("plain", Principal::new("p")));
    let addr = start(HttpServer::new(router)).await;

    // The session speaks 2025-11-25; the request claims 2025-06-18 in its header.
    let mut liar = Client::bearer(addr, "plain");
    assert_eq!(liar.initialize().await.status, StatusCode::OK);
    liar.version_header = "2025-06-18".into();
    let answer = liar.call_tool(1, "variant").await.answer(1);
    assert_eq!(answer["error"]["code"], mcpdesc::auth::FORBIDDEN_CODE);
    assert_eq!(
        answer["error"]["data"],
        json!({"status": 403, "error": "insufficient_scope", "scope": "w"})
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);

    // With the truthful header the HTTP layer answers 403 itself.
    liar.version_header = "2025-11-25".into();
    assert_eq!(
        liar.call_tool(2, "variant").await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

/// A hand-written handler that delegates to the generated server and records what
/// the HTTP request looked like when it reached rmcp.
#[derive(Clone)]
struct Inspecting {
    inner: mcpdesc::McpServer,
    seen: Arc<std::sync::Mutex<Vec<String>>>,
}

impl mcpdesc::rmcp::ServerHandler for Inspecting {
    fn get_info(&self) -> mcpdesc::rmcp::model::ServerConfig {
        mcpdesc::rmcp::ServerHandler::get_info(&self.inner)
    }

    async fn call_tool(
        &self,
        request: mcpdesc::rmcp::model::CallToolRequestParams,
        cx: mcpdesc::rmcp::service::RequestContext<mcpdesc::rmcp::RoleServer>,
    ) -> Result<mcpdesc::rmcp::model::CallToolResponse, mcpdesc::rmcp::ErrorData> {
        let parts = cx.extensions.get::<http::request::Parts>().unwrap();
        let mut seen: Vec<String> = parts.headers.keys().map(|k| k.to_string()).collect();
        seen.push(parts.uri.to_string());
        seen.extend(
            parts
                .headers
                .get("cookie")
                .map(|c| c.to_str().unwrap().to_owned()),
        );
        *self.seen.lock().unwrap() = seen;
        mcpdesc::rmcp::ServerHandler::call_tool(&self.inner, request, cx).await
    }
}

#[tokio::test]
async fn credentials_are_removed_before_rmcp_and_composed_handlers_are_guarded() {
    const SECURITY: &str = r#"{
        "securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"},
            "query-key": {"type": "apiKey", "in": "query", "name": "api_key"},
            "cookie-key": {"type": "apiKey", "in": "cookie", "name": "sid"}
        },
        "security": [{"bearer": [], "query-key": [], "cookie-key": []}]
    }"#;
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("strip", "1.0.0")
    };
    let router = Router::new(info)
        .security(Some(SECURITY))
        .tool(tool("inherits", None), who())
        .authenticator(StaticTokens::new().token("t-1", Principal::new("holder")));
    let server = mcpdesc::McpServer::new(router);
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let factory = {
        let (server, seen) = (server.clone(), seen.clone());
        move || Inspecting {
            inner: server.new_session(),
            seen: seen.clone(),
        }
    };
    let guarded = start(
        HttpServer::with_handler(factory.clone())
            .restore_tool_members(server.tool_listings().clone())
            .enforce_security_of(&server),
    )
    .await;
    let mut client = Client::bearer(guarded, "t-1")
        .header("cookie", "theme=dark; sid=t-1")
        .path("/mcp?api_key=t-1&lang=en");
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    assert_eq!(client.tool_text(1, "inherits").await, "holder");
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.iter().any(|s| s == "authorization"), "{seen:?}");
    assert!(seen.contains(&"/mcp?lang=en".to_owned()), "{seen:?}");
    assert!(seen.contains(&"theme=dark".to_owned()), "{seen:?}");
    assert!(!seen.iter().any(|s| s.contains("t-1")), "{seen:?}");

    // Without `enforce_security_of`, the delegated calls still check, with no
    // credentials: the protected tool is refused by the adapter.
    let unguarded = start(
        HttpServer::with_handler(factory).restore_tool_members(server.tool_listings().clone()),
    )
    .await;
    let mut client = Client::bearer(unguarded, "t-1");
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let answer = client.call_tool(1, "inherits").await.answer(1);
    assert_eq!(
        answer["error"]["code"],
        mcpdesc::auth::FORBIDDEN_CODE,
        "{answer}"
    );
    assert_eq!(answer["error"]["data"]["status"], 401);
}
