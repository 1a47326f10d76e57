//! The server reproduces every Tool Example of the description when called through the
//! generated router: same `isError`, same `structuredContent`, same content blocks.
//!
//! The examples were written to match this implementation; they remain illustrations of
//! the contract, and this test is what keeps the two in step.

use futures::executor::block_on;
use mcpdesc::{Context, ProtocolVersion};
use serde_json::Value;

fn description() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../chess/chess.mcpdesc.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_example_is_reproduced_in_declaration_order() {
    let doc = description();
    // One server for all calls: `get_player_rating` sees a fresh player because the
    // rating example runs before the recording example.
    let router = chess_server::router();
    let mut checked = 0;
    for tool in doc["tools"].as_array().unwrap() {
        let name = tool["name"].as_str().unwrap();
        // Each protocol-scoped variant of `analyze_game` in its own version.
        let version = tool["protocolVersions"][0]
            .as_str()
            .map_or(ProtocolVersion::V2025_11_25, |v| v.parse().unwrap());
        for (example, body) in tool["examples"].as_object().unwrap() {
            let cx = Context::new(version);
            let got = block_on(router.call_tool(name, Some(body["input"].clone()), cx))
                .unwrap_or_else(|e| panic!("{name}/{example}: protocol error {e}"));
            let got = serde_json::to_value(&got).unwrap();
            let want = &body["result"];
            assert_eq!(
                got["isError"].as_bool().unwrap_or(false),
                want["isError"].as_bool().unwrap_or(false),
                "{name}/{example}: {got}"
            );
            assert_eq!(
                got.get("structuredContent"),
                want.get("structuredContent"),
                "{name}/{example}"
            );
            assert_eq!(got["content"], want["content"], "{name}/{example}");
            checked += 1;
        }
    }
    // Two examples of each `analyze_game` variant, one of each other tool.
    assert_eq!(checked, 6);
}

/// The same promise through the generated opt-in contract check, which is what a user
/// writes: every example named explicitly, rating before recording (one server).
#[test]
fn the_generated_contract_check_passes() {
    chess_server::contract::check_against_examples(
        chess_server::ChessServer::new(),
        &[
            ("analyze_game", "scholars-mate"),
            ("analyze_game", "empty-pgn"),
            ("get_player_rating", "new-player-blitz"),
            ("record_game_result", "white-wins"),
        ],
    )
    .unwrap_or_else(|diff| panic!("{diff}"));
}

/// The description's prompt, resource, resource template and completion examples are
/// reproduced exactly by the server, in every protocol version of their scope: the
/// same checks the generated example tests run against the mock, here against the
/// real implementation.
#[test]
fn every_prompt_resource_and_completion_example_is_reproduced() {
    use chess_server::contract::{
        prompt_examples, prompts, resource_examples, resource_template_examples,
        resource_templates, resources, types,
    };
    use mcpdesc::testing;
    use mcpdesc::CompletionTarget;

    let router = chess_server::router();
    let mut checked = 0;
    let mut check = |outcome: Result<(), String>| {
        outcome.unwrap_or_else(|e| panic!("{e}"));
        checked += 1;
    };
    for e in prompt_examples::opening_study::ALL.examples {
        check(
            testing::check_prompt_example::<types::OpeningStudyArguments>(
                &router,
                prompts::opening_study::NAME,
                prompts::opening_study::SPEC.scope,
                e,
            ),
        );
    }
    let prompt = CompletionTarget::prompt(prompts::opening_study::NAME);
    for e in prompt_examples::opening_study::ALL.completion_examples {
        check(testing::check_completion_example(
            &router,
            &prompt,
            prompts::opening_study::SPEC.scope,
            e,
        ));
    }
    for e in resource_examples::rating_pools::ALL.examples {
        check(testing::check_resource_example(
            &router,
            resources::rating_pools::URI,
            resources::rating_pools::SPEC.scope,
            e,
        ));
    }
    for e in resource_template_examples::opening::ALL.examples {
        check(testing::check_template_example::<types::OpeningVariables>(
            &router,
            resource_templates::opening::URI_TEMPLATE,
            resource_templates::opening::SPEC.scope,
            e,
        ));
    }
    let template = CompletionTarget::resource_template(resource_templates::opening::URI_TEMPLATE);
    for e in resource_template_examples::opening::ALL.completion_examples {
        check(testing::check_completion_example(
            &router,
            &template,
            resource_templates::opening::SPEC.scope,
            e,
        ));
    }
    assert_eq!(checked, 6);
}

/// The generated contract check names prompts, resources, templates and completions as
/// `--select` does.
#[test]
fn the_contract_check_covers_the_other_primitives() {
    chess_server::contract::check_against_examples(
        chess_server::ChessServer::new(),
        &[
            ("prompt:opening_study", "ruy-lopez-white"),
            ("completion:prompt:opening_study", "eco-b"),
            ("completion:prompt:opening_study", "color-b"),
            ("resource:chess://rating-pools", "all-pools"),
            ("template:chess://openings/{eco}", "ruy-lopez"),
            ("completion:template:chess://openings/{eco}", "eco-c"),
        ],
    )
    .unwrap_or_else(|diff| panic!("{diff}"));
}

/// Bad requests get the JSON-RPC error of their version, and the server keeps serving.
#[test]
fn bad_requests_are_protocol_errors() {
    use mcpdesc::{CompletionRequest, CompletionTarget};
    use serde_json::json;

    let router = chess_server::router();
    let v = ProtocolVersion::V2025_11_25;
    let args = |value: Value| value.as_object().cloned();
    let missing = block_on(router.get_prompt("opening_study", args(json!({})), Context::new(v)));
    assert_eq!(missing.unwrap_err().code, -32602);
    let unknown_eco = block_on(router.get_prompt(
        "opening_study",
        args(json!({"eco": "Z99"})),
        Context::new(v),
    ));
    let unknown_eco = unknown_eco.unwrap_err();
    assert_eq!(unknown_eco.code, -32602);
    assert!(
        unknown_eco.message.contains("\"Z99\""),
        "{}",
        unknown_eco.message
    );
    let bad_color = block_on(router.get_prompt(
        "opening_study",
        args(json!({"eco": "C60", "color": "green"})),
        Context::new(v),
    ));
    assert_eq!(bad_color.unwrap_err().code, -32602);
    assert_eq!(
        block_on(router.get_prompt("no_such_prompt", None, Context::new(v)))
            .unwrap_err()
            .code,
        -32602
    );

    let not_found =
        block_on(router.read_resource("chess://openings/Z99", Context::new(v))).unwrap_err();
    assert_eq!(
        (not_found.code, not_found.data.clone()),
        (-32002, Some(json!({"uri": "chess://openings/Z99"})))
    );
    let unknown = block_on(router.read_resource("chess://nowhere", Context::new(v))).unwrap_err();
    assert_eq!(unknown.code, -32002);
    let malformed =
        block_on(router.read_resource("chess://openings/%E2%28", Context::new(v))).unwrap_err();
    assert_eq!(malformed.code, -32602);

    let target = CompletionTarget::prompt("opening_study");
    let wrong = block_on(router.complete(
        &target,
        CompletionRequest::new("depth", "1"),
        Context::new(v),
    ));
    assert_eq!(wrong.unwrap_err().code, -32602);
    // Still serving.
    let ok = block_on(router.read_resource("chess://openings/B20", Context::new(v))).unwrap();
    assert_eq!(ok.contents.len(), 1);
}
