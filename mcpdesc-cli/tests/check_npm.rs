//! `mcpdesc check` against real servers in another language: the npm reference servers
//! pinned in `tests/e2e/package.json`, with the shared real-world descriptions they
//! were recorded from (and, for `server-memory`'s examples, the repository's copy with
//! an `x-mcpdesc-after` hint, `examples/memory-server-macro/memory.mcpdesc.yaml`). Needs Node.js and the shared corpus (`tests/prereq.rs`: a
//! notice and a pass without them, a failure in CI). Each test prints its
//! `--format json` report on stderr.
//!
//! Left out of the generated calls, on purpose (see `docs/check.md`, "What it found
//! on the npm reference servers"): `server-everything`'s
//! `trigger-long-running-operation` (its `duration` has no maximum and defaults to
//! 10 s: slow, and reported as `no-answer` under a short `--timeout`) and `gzip-file-as-resource` (it downloads a URL, by default one
//! on the internet, which tests must not reach; `GZIP_ALLOWED_DOMAINS` is also set to
//! a domain that does not exist).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

#[path = "../../tests/e2e/harness.rs"]
mod harness;

use harness::prereq;

/// `mcpdesc check` with `args`: the exit code and the JSON report (printed on the
/// process's stderr, past libtest's capture, so that CI logs show what was found).
fn check(test: &str, args: &[&str]) -> (u8, Value) {
    let mut argv = vec!["mcpdesc", "check", "--format", "json"];
    argv.extend_from_slice(args);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    let _ = writeln!(
        std::io::stderr(),
        "{test}: mcpdesc check exited {code}; report:\n{out}"
    );
    let report = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {out}\nstderr: {}",
            String::from_utf8_lossy(&err)
        )
    });
    (code, report)
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdesc-check-npm-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn server_memory_keeps_its_description() {
    const TEST: &str = "mcpdesc-cli/check_npm::server_memory_keeps_its_description";
    let Some(shared) = prereq::shared_conformance(TEST) else {
        return;
    };
    let Some(package) = prereq::npm_package(TEST, "@modelcontextprotocol/server-memory") else {
        return;
    };
    let description = shared.join("real-world/memory.mcpdesc.json");
    let description = description.to_str().unwrap();
    let dir = tempdir("memory");
    let memory = format!("MEMORY_FILE_PATH={}", dir.join("memory.jsonl").display());
    let index = package.join("dist/index.js");
    let server = ["--", "env", &memory, "node", index.to_str().unwrap()];

    // The examples against a throw-away memory file. `read_graph` is read-only, so it
    // runs first, before `create_entities`; but its recorded result shows the entity
    // that `create_entities`' example created: the recorded description fails...
    let mut args = vec![description, "--examples", "all", "--strict"];
    args.extend(server);
    let (code, report) = check(TEST, &args);
    assert_eq!(code, 1, "{report:#}");
    let differs: Vec<(&str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["kind"].as_str().unwrap(), f["example"].as_str().unwrap()))
        .collect();
    assert_eq!(differs, [("example-differs", "recorded-1")], "{report:#}");
    // ... and the repository's copy of it, which says so with `x-mcpdesc-after`, passes
    // (against a fresh memory file).
    let _ = std::fs::remove_file(dir.join("memory.jsonl"));
    let hinted = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/memory-server-macro/memory.mcpdesc.yaml");
    let mut args = vec![hinted.to_str().unwrap(), "--examples", "all", "--strict"];
    args.extend(server);
    let (code, report) = check(TEST, &args);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["protocolVersion"], "2025-11-25");
    let calls: Vec<(&str, &str)> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["target"].as_str().unwrap(),
                c["example"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        calls,
        [
            ("create_entities", "recorded-0"),
            ("read_graph", "recorded-1")
        ],
        "{report:#}"
    );

    // Generated inputs on every tool: valid ones get results (or tool errors), invalid
    // ones tool errors or -32602.
    let mut args = vec![
        description,
        "--generate",
        "all",
        "--cases",
        "6",
        "--timeout",
        "20",
    ];
    args.extend(server);
    let (code, report) = check(TEST, &args);
    assert_eq!(code, 0, "{report:#}");
    let invalid = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["example"].as_str().unwrap().ends_with("(invalid)"))
        .count();
    assert!(invalid > 0, "{report:#}");

    // A description the server does not keep: one tool left out (the server lists
    // it: undeclared), another's input field renamed (its schema differs).
    let mut drifted: Value =
        serde_json::from_str(&std::fs::read_to_string(description).unwrap()).unwrap();
    let tools = drifted["tools"].as_array_mut().unwrap();
    let removed = tools.remove(tools.len() - 1)["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let renamed = tools[0]["name"].as_str().unwrap().to_owned();
    let properties = tools[0]["inputSchema"]["properties"]
        .as_object_mut()
        .unwrap();
    let field = properties.keys().next().unwrap().clone();
    let schema = properties.shift_remove(&field).unwrap();
    properties.insert(format!("{field}_renamed"), schema);
    if let Some(required) = tools[0]["inputSchema"]["required"].as_array_mut() {
        for name in required.iter_mut().filter(|n| **n == field.as_str()) {
            *name = Value::String(format!("{field}_renamed"));
        }
    }
    // Its examples used the old field; the listing alone is checked.
    tools[0].as_object_mut().unwrap().shift_remove("examples");
    let path = dir.join("drifted.mcpdesc.json");
    std::fs::write(&path, drifted.to_string()).unwrap();
    let mut args = vec![path.to_str().unwrap()];
    args.extend(server);
    let (code, report) = check(TEST, &args);
    assert_eq!(code, 1, "{report:#}");
    let failures: Vec<(&str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["kind"].as_str().unwrap(), f["tool"].as_str().unwrap()))
        .collect();
    assert_eq!(
        failures,
        [
            ("input-schema-differs", renamed.as_str()),
            ("undeclared", removed.as_str())
        ],
        "{report:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn server_everything_keeps_its_description() {
    const TEST: &str = "mcpdesc-cli/check_npm::server_everything_keeps_its_description";
    let Some(shared) = prereq::shared_conformance(TEST) else {
        return;
    };
    let Some(package) = prereq::npm_package(TEST, "@modelcontextprotocol/server-everything") else {
        return;
    };
    let description = shared.join("real-world/everything.mcpdesc.json");
    let desc: Value =
        serde_json::from_str(&std::fs::read_to_string(&description).unwrap()).unwrap();
    let left_out = ["trigger-long-running-operation", "gzip-file-as-resource"];
    let tools: Vec<&str> = desc["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .filter(|name| !left_out.contains(name))
        .collect();
    assert!(tools.len() > 5, "{tools:?}");
    let selection = tools.join(",");
    let index = package.join("dist/index.js");
    let args = [
        description.to_str().unwrap(),
        "--examples",
        "all",
        "--strict",
        "--generate",
        &selection,
        "--cases",
        "4",
        "--timeout",
        "20",
        "--",
        "env",
        "GZIP_ALLOWED_DOMAINS=mcpdesc.invalid",
        "node",
        index.to_str().unwrap(),
        "stdio",
    ];
    let (code, report) = check(TEST, &args);
    assert_eq!(code, 0, "{report:#}");
    let called: std::collections::BTreeSet<&str> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["target"].as_str())
        .collect();
    for tool in &tools {
        assert!(called.contains(tool), "{tool} was not called: {report:#}");
    }
    for tool in left_out {
        assert!(!called.contains(tool), "{tool} was called");
    }
}
