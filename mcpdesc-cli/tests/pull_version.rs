//! `mcpdesc pull --protocol-version V`: a server that speaks several versions is
//! described as a client of V sees it. `mcpdesc serve-mock` of the Python SDK
//! versions fixture (MCP 2025-11-25 and 2026-07-28, `analyze_game` different in each)
//! and, with the official Python MCP SDK (`tests/prereq.rs`; a notice and a pass
//! without it, a failure under `MCPDESC_REQUIRE_TOOLS=1`), a server on it
//! (`tests/python/lax_server.py`), which speaks both too. A version the server does
//! not speak fails the pull (exit 2, nothing written).

use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "../../tests/e2e/harness.rs"]
mod harness;

const MCPDESC: &str = env!("CARGO_BIN_EXE_mcpdesc");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `mcpdesc pull ARGS...` in process: exit code, stdout, stderr.
fn pull(args: &[&str]) -> (u8, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = ["mcpdesc", "pull"].into_iter().chain(args.iter().copied());
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// The pulled description (stdout, JSON) of `server` offering only `version` (or
/// every version).
fn pulled(version: Option<&str>, server: &[&str]) -> Value {
    let mut args = Vec::new();
    if let Some(version) = version {
        args.extend(["--protocol-version", version]);
    }
    args.push("--");
    args.extend_from_slice(server);
    let (code, out, err) = pull(&args);
    assert_eq!(code, 0, "{version:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

fn tool<'a>(desc: &'a Value, name: &str) -> &'a Value {
    desc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}: {desc:#}"))
}

#[test]
fn the_version_asked_for_is_the_one_described() {
    let fixture = root().join("tests/fixtures/python/versions.mcpdesc.json");
    let mock = [MCPDESC, "serve-mock", fixture.to_str().unwrap()];
    let newest = pulled(None, &mock);
    assert_eq!(
        newest["protocolVersions"],
        serde_json::json!(["2026-07-28"])
    );
    assert!(tool(&newest, "analyze_game")["inputSchema"]["properties"]["depth"].is_object());
    let older = pulled(Some("2025-11-25"), &mock);
    assert_eq!(older["protocolVersions"], serde_json::json!(["2025-11-25"]));
    // The 2025-11-25 variant: no `depth`.
    assert!(
        tool(&older, "analyze_game")["inputSchema"]["properties"]
            .get("depth")
            .is_none(),
        "{older:#}"
    );
    // A version the server does not speak: nothing written.
    let (code, out, err) = pull(
        &["--protocol-version", "2025-06-18", "--"]
            .into_iter()
            .chain(mock)
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("nothing was written"), "{err}");
    // Not a protocol version at all: a usage error.
    let (code, _, err) = pull(&["--protocol-version", "2025-13-01", "--", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown protocol version"), "{err}");
}

#[test]
fn a_python_sdk_server_is_pulled_in_the_version_asked_for() {
    const TEST: &str =
        "mcpdesc-cli/pull_version::a_python_sdk_server_is_pulled_in_the_version_asked_for";
    let Some(python) = harness::prereq::python_sdk(TEST) else {
        return;
    };
    let server = root().join("tests/python/lax_server.py");
    let command = [python.to_str().unwrap(), server.to_str().unwrap()];
    let older = pulled(Some("2025-11-25"), &command);
    assert_eq!(older["protocolVersions"], serde_json::json!(["2025-11-25"]));
    let newest = pulled(None, &command);
    assert_eq!(
        newest["protocolVersions"],
        serde_json::json!(["2026-07-28"])
    );
    for desc in [&older, &newest] {
        assert_eq!(
            tool(desc, "repeat")["inputSchema"]["properties"]["times"]["type"],
            "integer"
        );
    }
}
