//! `mcpdesc check --examples all --generate all` against this server, over stdio and
//! streamable HTTP: it keeps its description (no failure). The command runs in process
//! (`mcpdesc_cli::run`); the server is this package's binary.

use std::path::PathBuf;

use serde_json::Value;

#[path = "../../../tests/e2e/harness.rs"]
mod harness;

const SERVER: &str = env!("CARGO_BIN_EXE_chess-server");

fn description() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../chess/chess.mcpdesc.json")
        .to_string_lossy()
        .into_owned()
}

/// `mcpdesc check` with `args` after the description, `--format json`: the exit code
/// and the report.
fn check(args: &[&str]) -> (u8, Value) {
    let description = description();
    let mut argv = vec!["mcpdesc", "check", &description, "--format", "json"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    let report = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {out}\nstderr: {}",
            String::from_utf8_lossy(&err)
        )
    });
    (code, report)
}

/// Every Tool Example, prompt, resource, template and completion example is called,
/// and each tool gets valid and invalid generated inputs.
fn assert_everything_called(report: &Value) {
    let calls = report["calls"].as_array().unwrap();
    let called = |method: &str, target: &str, example: &str| {
        calls
            .iter()
            .any(|c| c["method"] == method && c["target"] == target && c["example"] == example)
    };
    for (method, target, example) in [
        ("tools/call", "analyze_game", "scholars-mate"),
        ("tools/call", "analyze_game", "empty-pgn"),
        ("tools/call", "get_player_rating", "new-player-blitz"),
        ("tools/call", "record_game_result", "white-wins"),
        ("prompts/get", "opening_study", "ruy-lopez-white"),
        ("completion/complete", "opening_study", "eco-b"),
        ("resources/read", "chess://rating-pools", "all-pools"),
        ("resources/read", "chess://openings/{eco}", "ruy-lopez"),
        ("completion/complete", "chess://openings/{eco}", "eco-c"),
        ("tools/call", "analyze_game", "generated #1 (valid)"),
        ("tools/call", "analyze_game", "generated #2 (invalid)"),
        ("tools/call", "record_game_result", "generated #4 (invalid)"),
    ] {
        assert!(
            called(method, target, example),
            "{method} {target} {example}: {report:#}"
        );
    }
    // Invalid inputs were refused by the router's argument validation: a tool error
    // for a tool, a JSON-RPC error (-32602, invalid params) for a prompt.
    for call in calls
        .iter()
        .filter(|c| c["example"].as_str().unwrap().ends_with("(invalid)"))
    {
        let expected = match call["method"].as_str().unwrap() {
            "tools/call" => "isError",
            _ => "error -32602",
        };
        assert_eq!(call["outcome"], expected, "{call}");
    }
}

#[test]
fn the_chess_server_keeps_its_description_over_stdio() {
    let (code, report) = check(&[
        "--examples",
        "all",
        "--generate",
        "all",
        "--cases",
        "8",
        "--",
        SERVER,
    ]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["counts"]["failures"], 0);
    assert_everything_called(&report);
}

#[test]
fn the_chess_server_keeps_its_description_over_http() {
    let server = harness::HttpServerProcess::start(SERVER, &["--http", "127.0.0.1:0"]);
    let (code, report) = check(&[
        "--url",
        &server.url,
        "--examples",
        "all",
        "--generate",
        "all",
        "--cases",
        "8",
    ]);
    assert_eq!(code, 0, "{report:#}");
    assert_everything_called(&report);
    // Both protocol versions the description declares.
    let (code, report) = check(&[
        "--url",
        &server.url,
        "--protocol-version",
        "2025-06-18",
        "--examples",
        "all",
    ]);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["protocolVersion"], "2025-06-18");
}
