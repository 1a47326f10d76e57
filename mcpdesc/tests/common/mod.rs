//! A router over `fixtures/scoped-tools.json`, registered the way generated code does.

#![allow(dead_code)]

use mcpdesc::{
    parse_arguments, Context, ProtocolVersion, Router, ServerInfo, ToolError, ToolResult, ToolSpec,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub const FIXTURE: &str = include_str!("../fixtures/scoped-tools.json");

/// The fixture's tool declarations with their effective scopes, leaked to `'static`
/// as generated constants would be.
pub fn specs() -> Vec<ToolSpec> {
    let document: Value = serde_json::from_str(FIXTURE).unwrap();
    let root: Vec<ProtocolVersion> =
        serde_json::from_value(document["protocolVersions"].clone()).unwrap();
    document["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| {
            let scope: Vec<ProtocolVersion> = match tool.get("protocolVersions") {
                Some(list) => serde_json::from_value(list.clone()).unwrap(),
                None => root.clone(),
            };
            ToolSpec::new(
                Box::leak(tool["name"].as_str().unwrap().to_owned().into_boxed_str()),
                Box::leak(scope.into_boxed_slice()),
                Box::leak(tool.to_string().into_boxed_str()),
            )
        })
        .collect()
}

pub fn info() -> ServerInfo {
    ServerInfo {
        name: "chess".into(),
        version: "1.2.3".into(),
        title: Some("Chess".into()),
        instructions: Some("Analyze games, then record results.".into()),
        protocol_versions: ProtocolVersion::ALL,
        ..Default::default()
    }
}

#[derive(Debug, Deserialize)]
pub struct AnalyzeGameInput {
    pub pgn: String,
    pub depth: Option<u32>,
}

#[derive(Debug, Serialize)]
pub struct AnalyzeGameOutput {
    pub evaluation: Value,
    pub best_move: Option<String>,
}

/// What the generated handler of `analyze_game` does, with hooks for the tests:
/// `pgn` "PANIC" panics inside the future, "BAD" returns output that breaks the
/// outputSchema, "FAIL" returns a tool error.
async fn analyze_game(
    input: AnalyzeGameInput,
    _cx: Context,
) -> Result<AnalyzeGameOutput, ToolError> {
    match input.pgn.as_str() {
        "PANIC" => panic!("analysis engine crashed"),
        "FAIL" => Err(ToolError::new("the PGN has no moves")),
        "BAD" => Ok(AnalyzeGameOutput {
            evaluation: json!("not a number"),
            best_move: None,
        }),
        _ => Ok(AnalyzeGameOutput {
            evaluation: json!(0.3),
            best_move: Some(format!("Nf3 (depth {})", input.depth.unwrap_or(10))),
        }),
    }
}

#[derive(Debug, Deserialize)]
pub struct PlayerInput {
    pub player_id: String,
}

#[derive(Debug, Deserialize)]
pub struct SearchInput {
    pub q: Option<String>,
    pub query: Option<String>,
    /// Not constrained by the schema (`"limit": true`), so a string passes validation
    /// and fails here.
    pub limit: Option<u32>,
}

/// The router over the fixture, with every handler.
pub fn router() -> Router {
    let mut router = Router::new(info());
    for spec in specs() {
        router = match spec.name {
            "analyze_game" => router.tool(spec, |args, cx| {
                Box::pin(async move {
                    let input: AnalyzeGameInput = parse_arguments(args)?;
                    let output = analyze_game(input, cx).await?;
                    ToolResult::from_output(&output)
                })
            }),
            "get_player_rating" => router.tool(spec, |args, cx| {
                // A panic before the future exists is contained too.
                if args["player_id"] == "SYNC-PANIC" {
                    panic!("handler setup failed");
                }
                Box::pin(async move {
                    let input: PlayerInput = parse_arguments(args)?;
                    Ok(ToolResult::text(format!(
                        "{} is rated 1500 (MCP {})",
                        input.player_id,
                        cx.protocol_version()
                    )))
                })
            }),
            "search" => router.tool(spec, |args, _cx| {
                Box::pin(async move {
                    let input: SearchInput = parse_arguments(args)?;
                    let query = input.query.or(input.q).unwrap_or_default();
                    Ok(ToolResult::structured(
                        json!({"query": query, "hits": input.limit.unwrap_or(0)}),
                    ))
                })
            }),
            other => panic!("unexpected tool {other} in the fixture"),
        };
    }
    router
}
