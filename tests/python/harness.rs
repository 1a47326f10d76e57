//! Runs the Python MCP SDK clients of this folder (`examples.py`, `interaction.py`,
//! `without_capability.py`) on a plan, for the tests of several crates (each includes
//! this file with `#[path]`).
//!
//! A test first asks `prereq::python_sdk` (`tests/prereq.rs`) for the interpreter of
//! the official Python MCP SDK (`mcp` 2.3.0, pinned in `requirements.txt`):
//! `$MCPDESC_PYTHON` or this folder's `.venv` (made by `.ci/setup.d/25-python-sdk.sh`);
//! without it the test prints a notice and passes, or fails under
//! `MCPDESC_REQUIRE_TOOLS=1` (as in CI). A client that does not finish within two
//! minutes is killed and reported (a hang guard, not a performance check).

#![allow(dead_code)] // Each including test uses part of it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcpdesc::ProtocolVersion;
use serde_json::{json, Value};

/// This folder, found from the including crate's manifest directory.
fn python_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/python"))
        .find(|dir| dir.join("mcpcheck.py").is_file())
        .expect("tests/python/mcpcheck.py above the crate")
}

/// Runs `script` (a file of this folder) with `python` on `plan` and returns its
/// stdout; panics with stdout and stderr when it reports a failure (exit status not 0,
/// or no `N passed, 0 failed` line) or does not finish within two minutes.
pub fn run(python: &Path, script: &str, name: &str, plan: &serde_json::Value) -> String {
    let dir = std::env::temp_dir().join(format!("mcpdesc-python-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan_path = dir.join("plan.json");
    std::fs::write(&plan_path, serde_json::to_string_pretty(plan).unwrap()).unwrap();
    // Files, not pipes: a server process the client started and that outlived it
    // would hold a pipe open and make reading it wait forever.
    let (stdout_path, stderr_path) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(python)
        .arg(python_dir().join(script))
        .arg(&plan_path)
        .current_dir(python_dir())
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("{name}: cannot start {}: {e}", python.display()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    println!("== {name}\n{stdout}");
    match status {
        None => {
            panic!("{name}: the Python client did not finish within 2 minutes:\n{stdout}\n{stderr}")
        }
        Some(s) if !s.success() => {
            panic!("{name}: the Python client reported failures ({s}):\n{stdout}\n{stderr}")
        }
        Some(_) => {
            assert!(stdout.contains(" passed, 0 failed"), "{name}: {stdout}");
            stdout
        }
    }
}

/// The `ok` lines of a client's output that end with `check`.
pub fn passed(stdout: &str, check: &str) -> usize {
    stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with(check))
        .count()
}

/// The SDK's negotiation mode that reaches `version` with a server that speaks both
/// 2025-11-25 and 2026-07-28: `auto` (its default: `server/discover` at 2026-07-28)
/// for 2026-07-28, `legacy` (`initialize` at 2025-11-25) before.
pub fn mode(version: ProtocolVersion) -> &'static str {
    if version == ProtocolVersion::V2026_07_28 {
        "auto"
    } else {
        "legacy"
    }
}

/// The declarations of `array` (`"tools"`, `"prompts"`...) of a resolved description
/// that apply to `version`.
pub fn declared<'a>(doc: &'a Value, array: &str, version: ProtocolVersion) -> Vec<&'a Value> {
    doc[array]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| {
            d["protocolVersions"]
                .as_array()
                .is_none_or(|list| list.iter().any(|v| v == version.as_str()))
        })
        .collect()
}

/// The declaration of tool `name` for `version`.
pub fn tool<'a>(doc: &'a Value, name: &str, version: ProtocolVersion) -> &'a Value {
    let found: Vec<&Value> = declared(doc, "tools", version)
        .into_iter()
        .filter(|t| t["name"] == name)
        .collect();
    assert_eq!(found.len(), 1, "{name} in {version}");
    found[0]
}

/// An example's result as a server of `version` sends it: a completed result says so
/// (`resultType: "complete"`) from 2026-07-28 on, and earlier versions have no
/// `resultType` (the example of a tool declared for both versions carries it).
pub fn expected_result(result: &Value, version: ProtocolVersion) -> Value {
    let mut result = result.clone();
    let object = result.as_object_mut().expect("a result is an object");
    if version == ProtocolVersion::V2026_07_28 {
        object
            .entry("resultType")
            .or_insert_with(|| json!("complete"));
    } else {
        object.remove("resultType");
    }
    result
}

/// The plan of `interaction.py` (without its server) for interaction example `example`
/// of tool `tool_name` in `version`: its input, steps and result.
pub fn interaction_plan(
    doc: &Value,
    tool_name: &str,
    example: &str,
    version: ProtocolVersion,
) -> Value {
    let found = &tool(doc, tool_name, version)["interactionExamples"][example];
    assert!(
        found.is_object(),
        "{tool_name} has no interaction example {example}"
    );
    json!({
        "protocolVersion": version.as_str(),
        "tool": tool_name,
        "arguments": found["input"],
        "steps": found["steps"],
        "expectResult": expected_result(&found["result"], version),
    })
}
