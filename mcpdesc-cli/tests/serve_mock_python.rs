//! `mcpdesc serve-mock` (this crate's binary) over stdio with the official Python MCP
//! SDK (`mcp` 2.3.0, pinned in `tests/python/requirements.txt`; its clients are
//! `tests/python/*.py`, run by `tests/python/harness.rs`): the SDK starts
//! `mcpdesc serve-mock FILE` and
//!
//! - plays interaction examples, answering the mock's elicitation from its callback
//!   after checking the request against the example's step, and gets the example's
//!   result: the chess description's `record_game_result` `short-decisive-game` (the
//!   SDK's default negotiation falls back to 2025-11-25: the chess description does not
//!   declare 2026-07-28), and `resign` of `tests/fixtures/python/versions.mcpdesc.json`
//!   in 2026-07-28 (the SDK's default; an input-required round) and 2025-11-25
//!   (`mode="legacy"`; an `elicitation/create` request);
//! - without the elicitation capability, calls `resign`, whose `clientRequirements`
//!   name `elicitation.form`: refused with `-32021` in 2026-07-28 and `-32602` in
//!   2025-11-25, each with `data.requiredCapabilities`; with the capability, served.
//!
//! The same over streamable HTTP to the mock's router, and the variants of each
//! version, are `tests/tests/python_sdk.rs`. Without the SDK the tests print a notice
//! and pass (`MCPDESC_REQUIRE_TOOLS=1`, set by `.ci/run`, fails instead).

use std::path::{Path, PathBuf};

use mcpdesc::ProtocolVersion;
use mcpdesc_codegen::{Description, Limits};
use serde_json::{json, Value};

#[path = "../../tests/prereq.rs"]
mod prereq;

#[path = "../../tests/python/harness.rs"]
mod python;

const MCPDESC: &str = env!("CARGO_BIN_EXE_mcpdesc");

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// The resolved document of a description of the repository.
fn resolved(path: &Path) -> Value {
    let desc = Description::from_path(path, &Limits::default()).unwrap();
    desc.validation.as_ref().unwrap().resolution.value.clone()
}

/// `plan` with the SDK starting `mcpdesc serve-mock FILE` over stdio, in `mode`.
fn over_stdio(mut plan: Value, file: &Path, mode: &str) -> Value {
    plan["command"] = json!(MCPDESC);
    plan["args"] = json!(["serve-mock", file]);
    plan["mode"] = json!(mode);
    plan
}

#[test]
fn the_python_client_plays_interaction_examples_against_serve_mock_over_stdio() {
    let Some(python) = prereq::python_sdk(
        "mcpdesc-cli/serve_mock_python::the_python_client_plays_interaction_examples_against_serve_mock_over_stdio",
    ) else {
        return;
    };
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let versions = repo("tests/fixtures/python/versions.mcpdesc.json");
    let (chess_doc, versions_doc) = (resolved(&chess), resolved(&versions));
    let plans = [
        (
            "serve-mock-chess-python",
            over_stdio(
                python::interaction_plan(
                    &chess_doc,
                    "record_game_result",
                    "short-decisive-game",
                    ProtocolVersion::V2025_11_25,
                ),
                &chess,
                "auto",
            ),
        ),
        (
            "serve-mock-resign-2026-python",
            over_stdio(
                python::interaction_plan(
                    &versions_doc,
                    "resign",
                    "confirmed",
                    ProtocolVersion::V2026_07_28,
                ),
                &versions,
                python::mode(ProtocolVersion::V2026_07_28),
            ),
        ),
        (
            "serve-mock-resign-2025-python",
            over_stdio(
                python::interaction_plan(
                    &versions_doc,
                    "resign",
                    "confirmed",
                    ProtocolVersion::V2025_11_25,
                ),
                &versions,
                python::mode(ProtocolVersion::V2025_11_25),
            ),
        ),
    ];
    for (name, plan) in plans {
        let tool = plan["tool"].as_str().unwrap().to_owned();
        let stdout = python::run(&python, "interaction.py", name, &plan);
        for check in [
            "step 0: elicitation requestedSchema".to_owned(),
            "all 1 step(s) requested, in order".to_owned(),
            format!("{tool}: the final result equals the example result"),
        ] {
            assert_eq!(python::passed(&stdout, &check), 1, "{check}: {stdout}");
        }
    }
}

#[test]
fn the_python_client_without_elicitation_is_refused_by_serve_mock_over_stdio() {
    let Some(python) = prereq::python_sdk(
        "mcpdesc-cli/serve_mock_python::the_python_client_without_elicitation_is_refused_by_serve_mock_over_stdio",
    ) else {
        return;
    };
    let versions = repo("tests/fixtures/python/versions.mcpdesc.json");
    let doc = resolved(&versions);
    for (version, code) in [
        (ProtocolVersion::V2026_07_28, -32021),
        (ProtocolVersion::V2025_11_25, -32602),
    ] {
        let resign = python::tool(&doc, "resign", version);
        let example = &resign["examples"]["unconfirmed"];
        let plan = over_stdio(
            json!({
                "protocolVersion": version.as_str(),
                "tool": "resign",
                "arguments": example["input"],
                "expectRefusal": {
                    "code": code,
                    "data": {"requiredCapabilities": resign["clientRequirements"]},
                    "message": "tool `resign` requires the client capability elicitation.form",
                },
                "expectResult": python::expected_result(&example["result"], version),
            }),
            &versions,
            python::mode(version),
        );
        let name = format!("serve-mock-refused-{version}");
        let stdout = python::run(&python, "without_capability.py", &name, &plan);
        for check in [
            format!("resign without elicitation: JSON-RPC error {code}"),
            "resign without elicitation: error data".to_owned(),
            "resign with elicitation declared: served".to_owned(),
        ] {
            assert_eq!(python::passed(&stdout, &check), 1, "{check}: {stdout}");
        }
    }
}
