//! `mcpdesc serve-mock` end to end with the official TypeScript MCP client
//! (`@modelcontextprotocol/sdk`, pinned in `tests/e2e/`): for the chess example and each
//! real-world description, the client starts `mcpdesc serve-mock FILE` over stdio,
//! initializes (MCP 2025-11-25, the SDK's newest), compares `tools/list` with the mock
//! router's projection, calls every tool with each example input and checks that the
//! whole result equals the example's, and checks that arguments no example has get a
//! tool error and an unknown tool a JSON-RPC error.
//!
//! The test installs the client with `npm ci` when `node_modules` is missing; without
//! Node.js it fails, it is never skipped. A session that does not end within two
//! minutes is killed and reported (a hang guard, not a performance check).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcpdesc::ProtocolVersion;
use mcpdesc_cli::serve_mock::mock_router;
use mcpdesc_codegen::{Description, Limits};
use serde_json::{json, Value};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn e2e_dir() -> PathBuf {
    root().join("tests/e2e")
}

/// Installs the pinned client when it is missing (`.ci/run` installs it first).
fn ensure_client() {
    let dir = e2e_dir();
    if dir
        .join("node_modules/@modelcontextprotocol/sdk/package.json")
        .exists()
    {
        return;
    }
    let status = Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&dir)
        .status()
        .expect("npm (Node.js 20) is needed for the end-to-end test");
    assert!(status.success(), "npm ci failed in {}", dir.display());
}

/// The client's plan for one description: every Tool Example of every tool, expecting
/// exactly the example's result.
fn plan(path: &Path) -> Value {
    let desc = Description::from_path(path, &Limits::default()).unwrap();
    let router = mock_router(&desc, None, &[]).unwrap();
    let doc = &desc.validation.as_ref().unwrap().resolution.value;
    let mut calls = Vec::new();
    let mut first_tool = None;
    for tool in doc["tools"].as_array().into_iter().flatten() {
        first_tool.get_or_insert_with(|| tool["name"].clone());
        for (label, example) in tool["examples"].as_object().into_iter().flatten() {
            let result = &example["result"];
            let kinds: Vec<&Value> = result["content"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| &c["type"])
                .collect();
            calls.push(json!({
                "label": label,
                "tool": tool["name"],
                "arguments": example["input"],
                "expectError": result["isError"].as_bool().unwrap_or(false),
                "expectKinds": kinds,
                "outputSchema": Value::Null,
                "expectStructured": Value::Null,
                "expectResult": result,
            }));
        }
    }
    assert!(!calls.is_empty(), "{} has no Tool Examples", path.display());
    // rmcp 3.11's `Tool` has no `execution` member, so `execution.taskSupport` does not
    // reach the client through the adapter (a documented limit of `McpServer`).
    let mut expected = router.list_tools(ProtocolVersion::V2025_11_25);
    for tool in &mut expected {
        if let Some(map) = tool.as_object_mut() {
            map.remove("execution");
        }
    }
    json!({
        "command": env!("CARGO_BIN_EXE_mcpdesc"),
        "args": ["serve-mock", path],
        "serverName": doc["info"]["name"],
        "expectedTools": expected,
        "calls": calls,
        "invalidCalls": [
            {"label": "arguments no example has", "tool": first_tool,
             "arguments": {"mcpdesc-e2e-no-such-argument": 1}}
        ],
        "unknownTool": "mcpdesc_e2e_no_such_tool"
    })
}

/// Runs the client on `plan`; returns its stdout and stderr, or panics on failure.
fn run_client(name: &str, plan: &Value) -> String {
    let dir = std::env::temp_dir().join(format!("mcpdesc-mock-e2e-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan_path = dir.join("plan.json");
    std::fs::write(&plan_path, serde_json::to_string_pretty(plan).unwrap()).unwrap();
    // Files, not pipes: a server process that outlived the client would hold a pipe open
    // and make reading it wait forever.
    let stdout_path = dir.join("stdout");
    let stderr_path = dir.join("stderr");
    let mut child = Command::new("node")
        .arg(e2e_dir().join("client.mjs"))
        .arg(&plan_path)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("node (Node.js 20) is needed for the end-to-end test");
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
        None => panic!("{name}: the client did not finish within 2 minutes:\n{stdout}\n{stderr}"),
        Some(s) if !s.success() => {
            panic!("{name}: the TypeScript client reported failures:\n{stdout}\n{stderr}")
        }
        Some(_) => stdout,
    }
}

#[test]
fn typescript_client_gets_the_example_results_from_serve_mock() {
    ensure_client();
    let mut files = vec![root().join("examples/chess/chess.mcpdesc.json")];
    for entry in std::fs::read_dir(root().join("../shared/conformance/real-world")).unwrap() {
        files.push(entry.unwrap().path());
    }
    files.sort();
    for path in &files {
        let plan = plan(path);
        let calls = plan["calls"].as_array().unwrap().len();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let stdout = run_client(&name, &plan);
        assert!(stdout.contains(" passed, 0 failed"), "{name}: {stdout}");
        // Each example call produced its checks, including the whole-result comparison.
        let compared = stdout
            .lines()
            .filter(|l| l.starts_with("ok ") && l.ends_with("result equals the example result"))
            .count();
        assert_eq!(compared, calls, "{name}: {stdout}");
    }
}
