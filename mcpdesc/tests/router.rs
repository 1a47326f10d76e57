//! Router behaviour over a fixture whose tools have different protocol scopes.

mod common;

use futures::executor::block_on;
use mcpdesc::{Context, ProtocolError, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};
use ProtocolVersion::*;

fn call(
    router: &Router,
    name: &str,
    args: Option<Value>,
    v: ProtocolVersion,
) -> Result<ToolResult, ProtocolError> {
    block_on(router.call_tool(name, args, Context::new(v)))
}

fn text(result: &ToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| match c {
            mcpdesc::Content::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn names(router: &Router, v: ProtocolVersion) -> Vec<String> {
    router
        .list_tools(v)
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_fixture_registers_cleanly() {
    let router = common::router();
    assert!(router.errors().is_empty(), "{:?}", router.errors());
}

#[test]
fn projection_per_version_follows_the_scopes() {
    let router = common::router();
    assert_eq!(names(&router, V2024_11_05), ["get_player_rating", "search"]);
    assert_eq!(names(&router, V2025_03_26), ["get_player_rating", "search"]);
    assert_eq!(
        names(&router, V2025_06_18),
        ["analyze_game", "get_player_rating", "search"]
    );
    assert_eq!(
        names(&router, V2025_11_25),
        ["analyze_game", "get_player_rating", "search"]
    );
    assert_eq!(
        names(&router, V2026_07_28),
        ["analyze_game", "get_player_rating", "search"]
    );

    // The two `search` variants are disjoint: each version sees exactly one.
    let old = &router.list_tools(V2025_06_18)[2];
    assert_eq!(old["description"], "Search games (legacy arguments)");
    let new = &router.list_tools(V2025_11_25)[2];
    assert_eq!(new["description"], "Search games");
}

#[test]
fn mcpdesc_only_members_are_removed() {
    let router = common::router();
    for v in ProtocolVersion::ALL {
        for tool in router.list_tools(*v) {
            for key in tool.as_object().unwrap().keys() {
                assert!(
                    [
                        "name",
                        "title",
                        "description",
                        "inputSchema",
                        "outputSchema",
                        "annotations"
                    ]
                    .contains(&key.as_str()),
                    "{v}: unexpected member `{key}` in {tool}"
                );
            }
        }
    }
    let analyze = &router.list_tools(V2025_06_18)[0];
    assert_eq!(
        analyze,
        &json!({
            "name": "analyze_game",
            "title": "Analyze Chess Game",
            "description": "Analyze a chess game from PGN notation",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "pgn": {"type": "string", "minLength": 1},
                    "depth": {"type": "integer", "minimum": 1, "maximum": 40}
                },
                "required": ["pgn"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "object",
                "properties": {"evaluation": {"type": "number"}, "best_move": {"type": "string"}},
                "required": ["evaluation"]
            },
            "annotations": {"readOnlyHint": true, "destructiveHint": false}
        })
    );
    // Annotations do not exist in 2024-11-05.
    assert!(router.list_tools(V2024_11_05)[0]
        .get("annotations")
        .is_none());
}

#[test]
fn native_shape_warnings_are_repaired_in_the_listing_only() {
    let router = common::router();
    let natives = router.native_tools(V2025_11_25);
    let search = natives.iter().find(|n| n.tool["name"] == "search").unwrap();
    assert_eq!(search.tool["inputSchema"]["type"], "object");
    assert_eq!(search.repairs.len(), 1, "{:?}", search.repairs);
    assert_eq!(search.repairs[0].pointer, "/inputSchema");
    assert!(natives
        .iter()
        .filter(|n| n.tool["name"] != "search")
        .all(|n| n.repairs.is_empty()));

    // Validation still uses the original schema: the `$ref` target requires `query`.
    let result = call(&router, "search", Some(json!({})), V2025_11_25).unwrap();
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("query"), "{}", text(&result));
    let ok = call(
        &router,
        "search",
        Some(json!({"query": "najdorf"})),
        V2026_07_28,
    )
    .unwrap();
    assert_eq!(
        ok.structured_content,
        Some(json!({"query": "najdorf", "hits": 0}))
    );
}

#[test]
fn invalid_arguments_name_each_failing_pointer() {
    let router = common::router();
    let result = call(
        &router,
        "analyze_game",
        Some(json!({"pgn": "", "depth": 99, "colour": "white"})),
        V2025_11_25,
    )
    .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert!(result.structured_content.is_none());
    let message = text(&result);
    assert!(
        message.starts_with("Invalid arguments for tool `analyze_game`:\n- "),
        "{message}"
    );
    let lines: Vec<&str> = message.lines().skip(1).collect();
    assert_eq!(lines.len(), 3, "{message}");
    assert!(
        lines.iter().any(|l| l.starts_with("- `/pgn`: ")),
        "{message}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("- `/depth`: ") && l.contains("40")),
        "{message}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("- `/`: ") && l.contains("colour")),
        "{message}"
    );
}

#[test]
fn missing_arguments_are_an_empty_object() {
    let router = common::router();
    let result = call(&router, "get_player_rating", None, V2025_03_26).unwrap();
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("`/`: \"player_id\" is a required property"),
        "{}",
        text(&result)
    );

    let not_an_object = call(&router, "get_player_rating", Some(json!([1])), V2025_03_26).unwrap();
    assert_eq!(
        text(&not_an_object),
        "Invalid arguments for tool `get_player_rating`: the arguments must be a JSON object, not an array"
    );
}

#[test]
fn arguments_that_pass_the_schema_but_not_the_type_are_a_tool_error() {
    let router = common::router();
    let result = call(
        &router,
        "search",
        Some(json!({"query": "x", "limit": "ten"})),
        V2025_11_25,
    )
    .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).starts_with("Invalid arguments: invalid type: string \"ten\""),
        "{}",
        text(&result)
    );
}

#[test]
fn unknown_and_out_of_scope_tools_are_protocol_errors() {
    let router = common::router();
    let unknown = call(&router, "resign", None, V2025_11_25).unwrap_err();
    assert_eq!(unknown.code, -32602);
    assert_eq!(unknown.message, "Unknown tool: `resign`");

    let outside = call(
        &router,
        "analyze_game",
        Some(json!({"pgn": "1. e4"})),
        V2025_03_26,
    )
    .unwrap_err();
    assert_eq!(outside.code, -32602);
    assert_eq!(
        outside.message,
        "Tool `analyze_game` is not available in MCP protocol version 2025-03-26 (it is declared for 2025-06-18, 2025-11-25, 2026-07-28)"
    );
}

#[test]
fn panics_are_contained_and_the_router_keeps_serving() {
    let router = common::router();
    let panicked = call(
        &router,
        "analyze_game",
        Some(json!({"pgn": "PANIC"})),
        V2025_06_18,
    )
    .unwrap();
    assert_eq!(panicked.is_error, Some(true));
    assert_eq!(
        text(&panicked),
        "Tool `analyze_game` failed: its handler panicked"
    );

    let sync = call(
        &router,
        "get_player_rating",
        Some(json!({"player_id": "SYNC-PANIC"})),
        V2025_06_18,
    )
    .unwrap();
    assert_eq!(
        text(&sync),
        "Tool `get_player_rating` failed: its handler panicked"
    );

    let after = call(
        &router,
        "analyze_game",
        Some(json!({"pgn": "1. e4"})),
        V2025_06_18,
    )
    .unwrap();
    assert_eq!(after.is_error, None);
    assert_eq!(after.structured_content.unwrap()["evaluation"], 0.3);
}

#[test]
fn tool_errors_become_error_results() {
    let router = common::router();
    let failed = call(
        &router,
        "analyze_game",
        Some(json!({"pgn": "FAIL"})),
        V2025_06_18,
    )
    .unwrap();
    assert_eq!(failed, ToolResult::error("the PGN has no moves"));
}

#[test]
fn typed_output_is_structured_content_plus_its_json_text() {
    let router = common::router();
    let result = call(
        &router,
        "analyze_game",
        Some(json!({"pgn": "1. e4", "depth": 4})),
        V2025_11_25,
    )
    .unwrap();
    let expected = json!({"evaluation": 0.3, "best_move": "Nf3 (depth 4)"});
    assert_eq!(result.structured_content.as_ref(), Some(&expected));
    assert_eq!(text(&result), expected.to_string());
}

#[test]
fn result_shape_per_version() {
    let router = common::router();
    for v in ProtocolVersion::ALL {
        let result = call(
            &router,
            "get_player_rating",
            Some(json!({"player_id": "magnus"})),
            *v,
        )
        .unwrap();
        let wire = result.to_wire(*v);
        let mut expected = json!({"content": [{"type": "text", "text": format!("magnus is rated 1500 (MCP {v})")}]});
        if *v == V2026_07_28 {
            expected = json!({"resultType": "complete", "content": expected["content"]});
        }
        assert_eq!(wire, expected, "{v}");
    }
    let structured = call(&router, "search", Some(json!({"q": "x"})), V2025_03_26).unwrap();
    assert!(structured
        .to_wire(V2025_03_26)
        .get("structuredContent")
        .is_none());
    assert!(structured
        .to_wire(V2025_06_18)
        .get("structuredContent")
        .is_some());
}

#[test]
fn output_schema_violations_are_caught() {
    let router = common::router().validate_output(true);
    let result = call(
        &router,
        "analyze_game",
        Some(json!({"pgn": "BAD"})),
        V2025_11_25,
    )
    .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert!(result.structured_content.is_none());
    let message = text(&result);
    assert!(
        message.starts_with("Tool `analyze_game` returned structuredContent that does not match its outputSchema:\n- `/evaluation`: "),
        "{message}"
    );

    // Without the check the output goes out as the handler made it.
    let unchecked = common::router().validate_output(false);
    let result = call(
        &unchecked,
        "analyze_game",
        Some(json!({"pgn": "BAD"})),
        V2025_11_25,
    )
    .unwrap();
    assert_eq!(
        result.structured_content.unwrap()["evaluation"],
        "not a number"
    );
}

#[test]
fn output_checking_defaults_to_debug_builds() {
    assert_eq!(common::router().validates_output(), cfg!(debug_assertions));
}

#[test]
fn a_missing_structured_content_is_caught() {
    const SPEC: ToolSpec = ToolSpec::new(
        "lazy",
        &[],
        r#"{"name": "lazy", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}"#,
    );
    let router = Router::new(ServerInfo::new("s", "1"))
        .validate_output(true)
        .tool(SPEC, |_, _| {
            Box::pin(async { Ok(ToolResult::text("no structure")) })
        });
    let result = call(&router, "lazy", None, V2025_06_18).unwrap();
    assert_eq!(
        result,
        ToolResult::error("Tool `lazy` declares an outputSchema but returned no structuredContent")
    );
}

#[test]
fn bad_specs_are_reported_not_registered() {
    const ONLY_NEW: &[ProtocolVersion] = &[V2025_11_25, V2026_07_28];
    let ok = |_: Value,
              _: Context|
     -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>> {
        Box::pin(async { Ok(ToolResult::text("ok")) })
    };
    let info = ServerInfo {
        protocol_versions: ONLY_NEW,
        ..ServerInfo::new("s", "1")
    };
    let router = Router::new(info)
        .tool(ToolSpec::new("a", &[], "{not json"), ok)
        .tool(
            ToolSpec::new("b", &[], r#"{"name": "c", "inputSchema": {}}"#),
            ok,
        )
        .tool(
            ToolSpec::new("d", &[V2025_06_18], r#"{"name": "d", "inputSchema": {}}"#),
            ok,
        )
        .tool(ToolSpec::new("e", &[], r#"{"name": "e"}"#), ok)
        .tool(
            ToolSpec::new(
                "f",
                &[],
                r#"{"name": "f", "inputSchema": {"$ref": "https://example.invalid/s.json"}}"#,
            ),
            ok,
        )
        .tool(
            ToolSpec::new("g", &[], r#"{"name": "g", "inputSchema": {}}"#),
            ok,
        )
        .tool(
            ToolSpec::new("g", &[V2026_07_28], r#"{"name": "g", "inputSchema": {}}"#),
            ok,
        )
        .tool(
            ToolSpec::new(
                "h",
                &[V2026_07_28],
                r#"{"name": "h", "protocolVersions": ["2025-11-25"], "inputSchema": {}}"#,
            ),
            ok,
        );
    let tools: Vec<&str> = router.errors().iter().map(|e| e.name.as_str()).collect();
    assert_eq!(tools, ["a", "b", "d", "e", "f", "g", "h"]);
    let messages: Vec<String> = router.errors().iter().map(ToString::to_string).collect();
    assert!(
        messages[0].starts_with("tool `a`: the declaration is not valid JSON"),
        "{messages:?}"
    );
    assert_eq!(
        messages[1],
        "tool `b`: the declaration's `name` is \"c\", not \"b\""
    );
    assert_eq!(
        messages[2],
        "tool `d`: its scope (2025-06-18) is not within the server's protocol versions (2025-11-25, 2026-07-28)"
    );
    assert_eq!(
        messages[3],
        "tool `e`: the declaration has no `inputSchema`"
    );
    assert!(
        messages[4].starts_with("tool `f`: its `inputSchema` does not compile"),
        "{messages:?}"
    );
    assert_eq!(
        messages[5],
        "tool `g`: its scope (2026-07-28) overlaps another declaration of the same name (2025-11-25, 2026-07-28)"
    );
    assert!(
        messages[6].contains("differ from the spec's scope"),
        "{messages:?}"
    );

    // The first `g` works; a tool that failed to register is an internal error.
    assert_eq!(names(&router, V2026_07_28), ["g"]);
    assert_eq!(
        call(&router, "g", None, V2025_11_25).unwrap(),
        ToolResult::text("ok")
    );
    let broken = call(&router, "f", None, V2025_11_25).unwrap_err();
    assert_eq!(broken.code, -32603);
    assert!(
        broken
            .message
            .starts_with("Tool `f` could not be registered: "),
        "{}",
        broken.message
    );
}

#[test]
fn a_2026_tool_may_have_a_non_object_output() {
    const ONLY_2026: &[ProtocolVersion] = &[V2026_07_28];
    const COUNT: ToolSpec = ToolSpec::new(
        "count",
        ONLY_2026,
        r#"{"name": "count", "inputSchema": {"type": "object"}, "outputSchema": {"type": "integer", "minimum": 0}}"#,
    );
    const ANYTHING: ToolSpec = ToolSpec::new(
        "anything",
        ONLY_2026,
        r#"{"name": "anything", "inputSchema": {"type": "object"}, "outputSchema": true}"#,
    );
    let router = Router::new(ServerInfo::new("s", "1"))
        .validate_output(true)
        .tool(COUNT, |args, _| {
            Box::pin(async move { ToolResult::from_output(&args["n"]) })
        })
        .tool(ANYTHING, |_, _| {
            Box::pin(async { ToolResult::from_output(&"free text") })
        });
    assert!(router.errors().is_empty(), "{:?}", router.errors());

    let ok = call(&router, "count", Some(json!({"n": 42})), V2026_07_28).unwrap();
    assert_eq!(
        ok.to_wire(V2026_07_28),
        json!({"resultType": "complete", "content": [{"type": "text", "text": "42"}], "structuredContent": 42})
    );
    let bad = call(&router, "count", Some(json!({"n": -1})), V2026_07_28).unwrap();
    assert!(
        text(&bad).contains("- `/`: -1 is less than the minimum of 0"),
        "{}",
        text(&bad)
    );
    let any = call(&router, "anything", None, V2026_07_28).unwrap();
    assert_eq!(any.structured_content, Some(json!("free text")));
    assert_eq!(router.list_tools(V2026_07_28)[1]["outputSchema"], true);
}
