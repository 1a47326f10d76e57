//! Prompts, resources, resource templates and completions in the router: listing per
//! version, dispatch, the JSON-RPC errors of bad requests, panics, capabilities, and the
//! example mock's policy for them.

use futures::executor::block_on;
use mcpdesc::mock::{ExampleBook, Selection, Specs, Target};
use mcpdesc::testing::RequestExample;
use mcpdesc::{
    CompletionRequest, CompletionResult, CompletionTarget, Context, PromptMessage, PromptResult,
    PromptSpec, ProtocolError, ProtocolVersion, RequestError, ResourceResult, ResourceSpec,
    ResourceTemplateSpec, Router, ServerInfo,
};
use serde_json::{json, Map, Value};
use ProtocolVersion::*;

const BRIEF_NEW: PromptSpec = PromptSpec::new(
    "brief",
    &[V2026_07_28],
    r#"{"name": "brief", "title": "Brief", "protocolVersions": ["2026-07-28"],
        "arguments": [{"name": "city", "required": true, "title": "City"}, {"name": "audience"}],
        "tags": ["x"]}"#,
);
const BRIEF_OLD: PromptSpec = PromptSpec::new(
    "brief",
    &[V2025_03_26, V2025_11_25],
    r#"{"name": "brief", "arguments": [{"name": "city", "required": true}]}"#,
);
const BOARD: ResourceSpec = ResourceSpec::new(
    "chess://leaderboard",
    &[],
    r#"{"uri": "chess://leaderboard", "name": "leaderboard", "mimeType": "application/json", "x-k": 1}"#,
);
const GAME: ResourceTemplateSpec = ResourceTemplateSpec::new(
    "chess://games/{game_id}",
    &[],
    r#"{"uriTemplate": "chess://games/{game_id}", "name": "game", "title": "Game"}"#,
);
const SEARCH: ResourceTemplateSpec = ResourceTemplateSpec::new(
    "search://{+base}{?q}",
    &[],
    r#"{"uriTemplate": "search://{+base}{?q}", "name": "search"}"#,
);

fn info() -> ServerInfo {
    ServerInfo {
        protocol_versions: &[V2025_03_26, V2025_11_25, V2026_07_28],
        ..ServerInfo::new("demo", "1.0.0")
    }
}

fn router() -> Router {
    router_for(info())
}

fn router_for(info: ServerInfo) -> Router {
    Router::new(info)
        .prompt(BRIEF_NEW, |args, _cx| {
            Box::pin(async move {
                let city = args["city"].as_str().unwrap_or_default().to_owned();
                if city == "panic" {
                    panic!("the handler broke");
                }
                Ok(PromptResult::new(vec![PromptMessage::user(format!(
                    "Brief {city}"
                ))]))
            })
        })
        .prompt(BRIEF_OLD, |_args, _cx| {
            Box::pin(async { Ok(PromptResult::new(vec![PromptMessage::user("old")])) })
        })
        .resource(BOARD, |uri, _cx| {
            Box::pin(async move { Ok(ResourceResult::text(uri, "application/json", "[]")) })
        })
        .resource_template(GAME, |uri, variables, _cx| {
            Box::pin(async move {
                let id = variables["game_id"].as_str().unwrap_or_default().to_owned();
                if id == "missing" {
                    return Err(RequestError::resource_not_found(&uri));
                }
                Ok(ResourceResult::text(uri, "text/plain", id))
            })
        })
        .resource_template(SEARCH, |uri, variables, _cx| {
            Box::pin(async move {
                Ok(ResourceResult::text(
                    uri,
                    "text/plain",
                    variables.as_str().unwrap_or("?"),
                ))
            })
        })
        .completion(
            CompletionTarget::prompt("brief"),
            &[V2026_07_28],
            |request, _cx| {
                Box::pin(async move {
                    let prefix = request.value.to_lowercase();
                    let values: Vec<String> = ["Paris", "Prague", "Berlin"]
                        .iter()
                        .filter(|c| c.to_lowercase().starts_with(&prefix))
                        .map(|c| c.to_string())
                        .collect();
                    Ok(CompletionResult::new(values))
                })
            },
        )
}

fn get(
    router: &Router,
    name: &str,
    args: Value,
    v: ProtocolVersion,
) -> Result<Value, ProtocolError> {
    let args: Option<Map<String, Value>> = serde_json::from_value(args).unwrap();
    block_on(router.get_prompt(name, args, Context::new(v))).map(|r| r.to_wire(v))
}

fn read(router: &Router, uri: &str, v: ProtocolVersion) -> Result<Value, ProtocolError> {
    block_on(router.read_resource(uri, Context::new(v))).map(|r| r.to_wire(v))
}

#[test]
fn registers_cleanly() {
    let router = router();
    assert!(router.errors().is_empty(), "{:?}", router.errors());
}

#[test]
fn listings_are_projected_per_version() {
    let router = router();
    assert_eq!(
        router.list_prompts(V2026_07_28),
        [json!({"name": "brief", "title": "Brief",
                "arguments": [{"name": "city", "required": true, "title": "City"}, {"name": "audience"}]})]
    );
    assert_eq!(
        router.list_prompts(V2025_11_25),
        [json!({"name": "brief", "arguments": [{"name": "city", "required": true}]})]
    );
    assert_eq!(
        router.list_resources(V2025_03_26),
        [
            json!({"uri": "chess://leaderboard", "name": "leaderboard", "mimeType": "application/json"})
        ]
    );
    assert_eq!(
        router.list_resource_templates(V2025_03_26)[0],
        json!({"uriTemplate": "chess://games/{game_id}", "name": "game"})
    );
    assert_eq!(
        router.list_resource_templates(V2025_11_25)[0]["title"],
        "Game"
    );
}

#[test]
fn prompts_get_checks_its_arguments() {
    let router = router();
    assert_eq!(
        get(&router, "brief", json!({"city": "Paris"}), V2026_07_28).unwrap()["messages"][0]
            ["content"]["text"],
        "Brief Paris"
    );
    // The variant of the negotiated version answers.
    assert_eq!(
        get(&router, "brief", json!({"city": "Paris"}), V2025_11_25).unwrap()["messages"][0]
            ["content"]["text"],
        "old"
    );
    let missing = get(&router, "brief", json!({"audience": "x"}), V2026_07_28).unwrap_err();
    assert_eq!(missing.code, -32602);
    assert!(
        missing
            .message
            .contains("required argument `city` is missing"),
        "{}",
        missing.message
    );
    let not_string = get(&router, "brief", json!({"city": 5}), V2026_07_28).unwrap_err();
    assert_eq!(not_string.code, -32602);
    assert!(
        not_string.message.contains("`city` is not a string"),
        "{}",
        not_string.message
    );
    let unknown = get(&router, "nope", json!({}), V2026_07_28).unwrap_err();
    assert_eq!(
        (unknown.code, unknown.message.as_str()),
        (-32602, "Unknown prompt: `nope` (available: `brief`)")
    );
}

#[test]
fn a_panicking_handler_is_an_internal_error_and_the_router_keeps_serving() {
    let router = router();
    let err = get(&router, "brief", json!({"city": "panic"}), V2026_07_28).unwrap_err();
    assert_eq!(err.code, -32603);
    assert_eq!(err.message, "Prompt `brief` failed: its handler panicked");
    assert!(get(&router, "brief", json!({"city": "Paris"}), V2026_07_28).is_ok());
}

#[test]
fn resources_read_routes_to_resources_then_templates() {
    let router = router();
    assert_eq!(
        read(&router, "chess://leaderboard", V2025_11_25).unwrap(),
        json!({"contents": [{"uri": "chess://leaderboard", "mimeType": "application/json", "text": "[]"}]})
    );
    assert_eq!(
        read(&router, "chess://games/a%20b", V2025_11_25).unwrap()["contents"][0]["text"],
        "a b"
    );
    // Beyond level 1: the variables as one raw string.
    assert_eq!(
        read(&router, "search://docs/api?q=mcp", V2025_11_25).unwrap()["contents"][0]["text"],
        "docs/api?q=mcp"
    );
    // 2026-07-28 wire shape: result type and cache hints.
    let latest = read(&router, "chess://leaderboard", V2026_07_28).unwrap();
    assert_eq!(
        (
            &latest["resultType"],
            &latest["ttlMs"],
            &latest["cacheScope"]
        ),
        (&json!("complete"), &json!(0), &json!("private"))
    );
}

#[test]
fn bad_uris_get_the_errors_of_their_version() {
    let router = router();
    let malformed = read(&router, "chess://games/%zz", V2025_11_25).unwrap_err();
    assert_eq!(malformed.code, -32602);
    assert!(
        malformed
            .message
            .contains("resource template `chess://games/{game_id}`"),
        "{}",
        malformed.message
    );

    let missing = read(&router, "chess://players/7", V2025_11_25).unwrap_err();
    assert_eq!(missing.code, -32002);
    assert_eq!(missing.data, Some(json!({"uri": "chess://players/7"})));
    assert!(
        missing
            .message
            .starts_with("Resource not found: `chess://players/7`: it is neither"),
        "{}",
        missing.message
    );
    // MCP 2026-07-28 uses -32602 for a missing resource.
    assert_eq!(
        read(&router, "chess://players/7", V2026_07_28)
            .unwrap_err()
            .code,
        -32602
    );
    // A handler's own not-found follows the version too.
    assert_eq!(
        read(&router, "chess://games/missing", V2025_11_25)
            .unwrap_err()
            .code,
        -32002
    );
    assert_eq!(
        read(&router, "chess://games/missing", V2026_07_28)
            .unwrap_err()
            .code,
        -32602
    );
}

#[test]
fn completions() {
    let router = router();
    let complete = |target: CompletionTarget, request: CompletionRequest, v| {
        block_on(router.complete(&target, request, Context::new(v))).map(|r| r.to_wire(v))
    };
    assert_eq!(
        complete(
            CompletionTarget::prompt("brief"),
            CompletionRequest::new("city", "p"),
            V2026_07_28
        )
        .unwrap(),
        json!({"resultType": "complete", "completion": {"values": ["Paris", "Prague"]}})
    );
    // No handler for the 2025 variant: no values.
    assert_eq!(
        complete(
            CompletionTarget::prompt("brief"),
            CompletionRequest::new("city", "p"),
            V2025_11_25
        )
        .unwrap(),
        json!({"completion": {"values": []}})
    );
    // A template named by a concrete URI of it.
    assert_eq!(
        complete(
            CompletionTarget::resource_template("chess://games/x"),
            CompletionRequest::new("game_id", "x"),
            V2025_11_25
        )
        .unwrap(),
        json!({"completion": {"values": []}})
    );
    let unknown_argument = complete(
        CompletionTarget::prompt("brief"),
        CompletionRequest::new("country", "f"),
        V2026_07_28,
    )
    .unwrap_err();
    assert_eq!(unknown_argument.code, -32602);
    assert!(
        unknown_argument
            .message
            .contains("`country` is not an argument of the prompt `brief`"),
        "{}",
        unknown_argument.message
    );
    let unknown_template = complete(
        CompletionTarget::resource_template("x://{y}"),
        CompletionRequest::new("y", ""),
        V2025_11_25,
    )
    .unwrap_err();
    assert_eq!(unknown_template.code, -32602);
}

fn router_with(capabilities: &'static str) -> Router {
    router_for(ServerInfo {
        capabilities: Some(capabilities),
        ..info()
    })
}

#[test]
fn capabilities_from_primitives_and_declaration() {
    let router = router();
    assert_eq!(
        router.capabilities(V2025_11_25),
        json!({"prompts": {}, "resources": {}})
    );
    assert_eq!(
        router.capabilities(V2026_07_28),
        json!({"prompts": {}, "resources": {}, "completions": {}})
    );
    let declared = router_with(
        r#"[{"protocolVersions": ["2025-11-25"], "tools": {"listChanged": true}, "prompts": {"listChanged": true},
             "resources": {"subscribe": true, "listChanged": true}, "logging": {}, "x-a": 1}]"#,
    );
    assert!(declared.errors().is_empty());
    assert_eq!(
        declared.capabilities(V2025_11_25),
        json!({"tools": {"listChanged": true}, "prompts": {"listChanged": true},
               "resources": {"subscribe": true, "listChanged": true}, "logging": {}})
    );
    // What is served is advertised even when the declaration leaves it out.
    let partial = router_with(r#"[{"logging": {}}]"#);
    assert_eq!(
        partial.capabilities(V2026_07_28),
        json!({"logging": {}, "prompts": {}, "resources": {}, "completions": {}})
    );
    // No declared object for 2026-07-28: the primitives decide.
    assert_eq!(
        declared.capabilities(V2026_07_28),
        json!({"prompts": {}, "resources": {}, "completions": {}})
    );
    let bad = Router::new(ServerInfo {
        capabilities: Some("{}"),
        ..info()
    });
    assert_eq!(bad.errors()[0].kind, "capabilities");
}

#[test]
fn registration_errors() {
    let ok_prompt = |_: Map<String, Value>,
                     _: Context|
     -> mcpdesc::BoxFuture<'static, Result<PromptResult, RequestError>> {
        Box::pin(async { Ok(PromptResult::default()) })
    };
    let router = Router::new(info())
        .prompt(BRIEF_OLD, ok_prompt)
        .prompt(
            PromptSpec::new("brief", &[V2025_11_25], r#"{"name": "brief"}"#),
            ok_prompt,
        )
        .prompt(
            PromptSpec::new("x", &[V2024_11_05], r#"{"name": "x"}"#),
            ok_prompt,
        )
        .prompt(PromptSpec::new("y", &[], r#"{"name": "z"}"#), ok_prompt)
        .resource_template(
            ResourceTemplateSpec::new("x://{a", &[], r#"{"uriTemplate": "x://{a", "name": "bad"}"#),
            |_, _, _| Box::pin(async { Ok(ResourceResult::default()) }),
        )
        .completion(CompletionTarget::prompt("nope"), &[], |_, _| {
            Box::pin(async { Ok(CompletionResult::default()) })
        });
    let errors: Vec<String> = router.errors().iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 5, "{errors:?}");
    assert!(
        errors[0].starts_with("prompt `brief`: its scope (2025-11-25) overlaps"),
        "{errors:?}"
    );
    assert!(
        errors[1].contains("not within the server's protocol versions"),
        "{errors:?}"
    );
    assert!(
        errors[2].contains("the declaration's `name` is \"z\""),
        "{errors:?}"
    );
    assert!(
        errors[3].starts_with("resource template `x://{a`: not a valid RFC 6570"),
        "{errors:?}"
    );
    assert!(
        errors[4].starts_with("completion `prompt nope`"),
        "{errors:?}"
    );
}

const PROMPT_EXAMPLES: &[RequestExample] = &[
    RequestExample {
        name: "paris",
        pointer: "/prompts/0/examples/paris",
        request: r#"{"city": "Paris"}"#,
        result: r#"{"resultType": "complete", "messages": [{"role": "user", "content": {"type": "text", "text": "Paris"}}]}"#,
    },
    RequestExample {
        name: "prague",
        pointer: "/prompts/0/examples/prague",
        request: r#"{"city": "Prague"}"#,
        result: r#"{"resultType": "complete", "messages": [{"role": "user", "content": {"type": "text", "text": "Prague"}}]}"#,
    },
];
const COMPLETION_EXAMPLES: &[RequestExample] = &[RequestExample {
    name: "p",
    pointer: "/prompts/0/completionExamples/p",
    request: r#"{"argument": {"name": "city", "value": "p", "x-note": 1}, "context": {"arguments": {"audience": "eng"}}}"#,
    result: r#"{"resultType": "complete", "completion": {"values": ["Paris", "Prague"], "total": 2, "hasMore": false}}"#,
}];
const BOARD_EXAMPLES: &[RequestExample] = &[
    RequestExample {
        name: "a-top",
        pointer: "/resources/0/examples/a-top",
        request: r#""chess://leaderboard""#,
        result: r#"{"contents": [{"uri": "chess://leaderboard", "text": "top"}]}"#,
    },
    RequestExample {
        name: "b-empty",
        pointer: "/resources/0/examples/b-empty",
        request: r#""chess://leaderboard""#,
        result: r#"{"contents": [{"uri": "chess://leaderboard", "text": ""}]}"#,
    },
];
const GAME_EXAMPLES: &[RequestExample] = &[RequestExample {
    name: "one",
    pointer: "/resourceTemplates/0/examples/one",
    request: r#""chess://games/1""#,
    result: r#"{"contents": [{"uri": "chess://games/1", "text": "1-0"}], "_meta": {"k": 1}}"#,
}];

fn mock(selections: &[&str]) -> Router {
    let mut book = ExampleBook::new()
        .prompt(
            "brief",
            &[V2026_07_28],
            PROMPT_EXAMPLES,
            COMPLETION_EXAMPLES,
        )
        .resource("chess://leaderboard", &[], BOARD_EXAMPLES)
        .resource_template("chess://games/{game_id}", &[], GAME_EXAMPLES, &[]);
    for s in selections {
        book = book.apply(&s.parse::<Selection>().unwrap()).unwrap();
    }
    static PROMPTS: [PromptSpec; 1] = [BRIEF_NEW];
    static RESOURCES: [ResourceSpec; 1] = [BOARD];
    static TEMPLATES: [ResourceTemplateSpec; 1] = [GAME];
    let specs = Specs {
        prompts: &PROMPTS,
        resources: &RESOURCES,
        resource_templates: &TEMPLATES,
        ..Specs::default()
    };
    book.router(info(), &specs)
}

#[test]
fn the_mock_matches_requests_and_falls_back_with_errors() {
    let router = mock(&[]);
    assert!(router.errors().is_empty(), "{:?}", router.errors());
    let text = |v: Value| v["messages"][0]["content"]["text"].clone();
    assert_eq!(
        text(get(&router, "brief", json!({"city": "Prague"}), V2026_07_28).unwrap()),
        "Prague"
    );
    let miss = get(&router, "brief", json!({"city": "Rome"}), V2026_07_28).unwrap_err();
    assert_eq!(miss.code, -32602);
    assert!(
        miss.message
            .contains("available examples: `paris`, `prague`"),
        "{}",
        miss.message
    );

    // A resource: the first example in name order.
    assert_eq!(
        read(&router, "chess://leaderboard", V2026_07_28).unwrap()["contents"][0]["text"],
        "top"
    );
    // A template: the example with the same URI; the whole result, `_meta` included.
    assert_eq!(
        read(&router, "chess://games/1", V2025_11_25).unwrap(),
        json!({"contents": [{"uri": "chess://games/1", "text": "1-0"}], "_meta": {"k": 1}})
    );
    let miss = read(&router, "chess://games/2", V2025_11_25).unwrap_err();
    assert_eq!(miss.code, -32002);

    // Completions: argument and context must match.
    let request = CompletionRequest::new("city", "p").with_context("audience", "eng");
    let target = CompletionTarget::prompt("brief");
    let hit = block_on(router.complete(&target, request, Context::new(V2026_07_28))).unwrap();
    assert_eq!(hit.completion.values, ["Paris", "Prague"]);
    let miss = block_on(router.complete(
        &target,
        CompletionRequest::new("city", "p"),
        Context::new(V2026_07_28),
    ));
    assert_eq!(miss.unwrap_err().code, -32602);
    assert_eq!(
        router.capabilities(V2026_07_28),
        json!({"prompts": {}, "resources": {}, "completions": {}})
    );
}

#[test]
fn explicit_selection_wins() {
    let router = mock(&[
        "prompt:brief=paris",
        "resource:chess://leaderboard=b-empty",
        "completion:prompt:brief=p",
    ]);
    let text = get(&router, "brief", json!({"city": "Rome"}), V2026_07_28).unwrap()["messages"][0]
        ["content"]["text"]
        .clone();
    assert_eq!(text, "Paris");
    assert_eq!(
        read(&router, "chess://leaderboard", V2025_11_25).unwrap()["contents"][0]["text"],
        ""
    );
    let any = block_on(router.complete(
        &CompletionTarget::prompt("brief"),
        CompletionRequest::new("city", "zz"),
        Context::new(V2026_07_28),
    ));
    assert_eq!(any.unwrap().completion.values, ["Paris", "Prague"]);

    let err = ExampleBook::new()
        .prompt("brief", &[], PROMPT_EXAMPLES, &[])
        .select_target(Target::Prompt("brief".into()), "rome")
        .unwrap_err();
    assert_eq!(
        err,
        "prompt `brief` has no example `rome` (available: `paris`, `prague`)"
    );
}

/// The checks the generated example tests and the contract check run fail, with the
/// example's pointer, when the router answers differently from the example.
#[test]
fn the_example_checks_report_a_different_answer() {
    // The real handlers of `router()` answer "Brief Paris", not the example's "Paris".
    let router = router();
    let err = mcpdesc::testing::check_prompt_example::<Value>(
        &router,
        "brief",
        &[V2026_07_28],
        &PROMPT_EXAMPLES[0],
    )
    .unwrap_err();
    assert!(
        err.starts_with("prompt `brief`, example `paris`, MCP 2026-07-28: the result differs from the example's (/prompts/0/examples/paris/result)"),
        "{err}"
    );
    let err = mcpdesc::testing::check_template_example::<Value>(
        &router,
        "chess://games/{game_id}",
        &[V2025_11_25],
        &GAME_EXAMPLES[0],
    )
    .unwrap_err();
    assert!(err.contains("the result differs"), "{err}");
    // A URI that is not an expansion of the template is named as such.
    let stray = RequestExample {
        request: r#""chess://players/1""#,
        ..GAME_EXAMPLES[0]
    };
    let err = mcpdesc::testing::check_template_example::<Value>(
        &router,
        "chess://games/{game_id}",
        &[V2025_11_25],
        &stray,
    )
    .unwrap_err();
    assert!(err.contains("is not an expansion of the template"), "{err}");

    // The contract check compares the messages' roles and content kinds, and the
    // completion values (the handler suggests Paris and Prague for "p", as the example
    // does; an example that says Rome does not hold).
    const ROME: &[RequestExample] = &[RequestExample {
        name: "p",
        pointer: "/prompts/0/completionExamples/p",
        request: r#"{"argument": {"name": "city", "value": "p"}}"#,
        result: r#"{"resultType": "complete", "completion": {"values": ["Rome"]}}"#,
    }];
    let book = ExampleBook::new().prompt(
        "brief",
        &[V2026_07_28],
        PROMPT_EXAMPLES,
        COMPLETION_EXAMPLES,
    );
    assert!(mcpdesc::testing::check_against(&router, &book, &[("prompt:brief", "paris")]).is_ok());
    let agreeing =
        mcpdesc::testing::check_against(&router, &book, &[("completion:prompt:brief", "p")]);
    assert!(agreeing.is_ok(), "{agreeing:?}");
    let rome = ExampleBook::new().prompt("brief", &[V2026_07_28], PROMPT_EXAMPLES, ROME);
    let err = mcpdesc::testing::check_against(&router, &rome, &[("completion:prompt:brief", "p")])
        .unwrap_err();
    assert!(
        err.contains("the completions of prompt `brief`, example `p` (MCP 2026-07-28): the implementation's result differs"),
        "{err}"
    );
    let err =
        mcpdesc::testing::check_against(&router, &book, &[("prompt:brief", "rome")]).unwrap_err();
    assert!(
        err.contains("no example `rome` (available: `paris`, `prague`)"),
        "{err}"
    );
}
