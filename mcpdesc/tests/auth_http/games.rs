//! The issue's games server: root `oauth2` scope `games:read`, a tool that needs
//! `games:write`, static tokens with each set of scopes, handlers that count their
//! runs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::{Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::Value;

use crate::support::VERSIONS;

/// The issue's description: root `oauth2` scope `games:read`, a tool that needs
/// `games:write`.
pub(crate) const GAMES_SECURITY: &str = r#"{
    "securitySchemes": {"games-oauth": {"type": "oauth2", "flows": {"authorizationCode": {
        "authorizationUrl": "https://auth.games.example/authorize",
        "tokenUrl": "https://auth.games.example/token",
        "scopes": {"games:read": "Read games", "games:write": "Record games"}}}}},
    "security": [{"games-oauth": ["games:read"]}]
}"#;

pub(crate) const LIST_GAMES: ToolSpec = ToolSpec::new(
    "list_games",
    &[],
    r#"{"name": "list_games", "inputSchema": {"type": "object"}}"#,
);
pub(crate) const RECORD_GAME: ToolSpec = ToolSpec::new(
    "record_game",
    &[],
    r#"{"name": "record_game", "inputSchema": {"type": "object"}, "security": [{"games-oauth": ["games:write"]}]}"#,
);

#[derive(Default)]
pub(crate) struct Counters {
    pub(crate) list: AtomicUsize,
    pub(crate) record: AtomicUsize,
}

pub(crate) fn tokens() -> StaticTokens {
    StaticTokens::new()
        .token(
            "reader-token",
            Principal::new("reader").with_scopes(["games:read"]),
        )
        .token(
            "writer-token",
            Principal::new("writer").with_scopes(["games:write"]),
        )
        .token(
            "both-token",
            Principal::new("both").with_scopes(["games:read", "games:write"]),
        )
        .token("no-scope-token", Principal::new("nobody"))
}

/// A tool handler that counts its runs and answers with the caller.
pub(crate) fn counting(
    counter: impl Fn() -> &'static str + Send + Sync + 'static,
    counters: Arc<Counters>,
) -> impl Fn(
    Value,
    mcpdesc::Context,
) -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>>
       + Send
       + Sync
       + 'static {
    move |_args, cx| {
        let which = counter();
        match which {
            "list" => counters.list.fetch_add(1, Ordering::SeqCst),
            _ => counters.record.fetch_add(1, Ordering::SeqCst),
        };
        let who = match cx.principal() {
            Some(p) => format!(
                "{} [{}]",
                p.subject(),
                p.scopes().collect::<Vec<_>>().join(" ")
            ),
            None => "anonymous".to_owned(),
        };
        Box::pin(async move { Ok(ToolResult::text(who)) })
    }
}

pub(crate) fn games_router(counters: &Arc<Counters>) -> Router {
    let info = ServerInfo {
        protocol_versions: VERSIONS,
        ..ServerInfo::new("games", "1.0.0")
    };
    Router::new(info)
        .security(Some(GAMES_SECURITY))
        .tool(LIST_GAMES, counting(|| "list", counters.clone()))
        .tool(RECORD_GAME, counting(|| "record", counters.clone()))
        .authenticator(tokens())
}
