//! The official MCP conformance suite (`@modelcontextprotocol/conformance`
//! 0.2.0-alpha.12) against this server over streamable HTTP: the active server
//! scenarios, and the pending `json-schema-2020-12` and `server-sse-polling`, with
//! the runtime's default HTTP settings. Any failed check (or warning) fails the test.
//!
//! The suite and the Node.js 22 it needs are pinned in `tests/conformance-suite/`
//! (`npm ci` there, as `.ci/setup.d/30-conformance.sh` does); without them the test
//! skips with a notice (a failure in CI).

#[path = "../../../tests/prereq.rs"]
mod prereq;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The scenarios the active suite does not run that this server passes too.
const PENDING: [&str; 2] = ["json-schema-2020-12", "server-sse-polling"];

fn suite_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance-suite");
    // Short paths: prereq names a scratch folder after the probe's command line.
    dir.canonicalize().unwrap_or(dir)
}

/// Node.js 22 and the suite's entry point, or `None` (with a notice).
fn suite(test: &str) -> Option<(PathBuf, PathBuf)> {
    let dir = suite_dir();
    let entry = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    let pinned = dir.join("node_modules/node/bin/node");
    let from_env = std::env::var("MCPDESC_CONFORMANCE_NODE").unwrap_or_default();
    let pinned = pinned.to_string_lossy().into_owned();
    let mut candidates = vec![pinned.as_str()];
    if !from_env.is_empty() {
        candidates.insert(0, from_env.as_str());
    }
    // The probe runs the suite itself: it needs the install and a Node.js it runs on.
    let entry_text = entry.to_string_lossy().into_owned();
    let node = prereq::program(
        test,
        &candidates,
        &[entry_text.as_str(), "--version"],
        "run `npm ci` in tests/conformance-suite, or .ci/setup.d/30-conformance.sh",
    )?;
    Some((node, entry))
}

/// The checks of every scenario the run saved under `out`: (scenario, checks).
fn results(out: &Path) -> Vec<(String, Vec<Value>)> {
    let mut results = Vec::new();
    for entry in std::fs::read_dir(out).expect("the suite saved its results") {
        let dir = entry.unwrap().path();
        let text = std::fs::read_to_string(dir.join("checks.json"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let checks: Vec<Value> = serde_json::from_str(&text).unwrap();
        // `server-<scenario>-<timestamp>`, the timestamp `YYYY-MM-DDTHH-MM-SS-mmmZ`
        // (its time can hold `-20` too, so it is cut by its shape, not by a search).
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let scenario = name
            .strip_prefix("server-")
            .and_then(without_timestamp)
            .unwrap_or(&name)
            .to_owned();
        results.push((scenario, checks));
    }
    results.sort_by(|a, b| a.0.cmp(&b.0));
    results
}

/// `rest` without its trailing `-YYYY-MM-DDTHH-MM-SS-mmmZ`.
fn without_timestamp(rest: &str) -> Option<&str> {
    const SHAPE: &str = "-0000-00-00T00-00-00-000Z";
    let cut = rest.len().checked_sub(SHAPE.len())?;
    let stamp = rest.get(cut..)?;
    let fits = stamp.bytes().zip(SHAPE.bytes()).all(|(c, shape)| {
        if shape == b'0' {
            c.is_ascii_digit()
        } else {
            c == shape
        }
    });
    fits.then(|| &rest[..cut])
}

fn run_suite(node: &Path, entry: &Path, url: &str, out: &Path, scenario: Option<&str>) {
    let mut command = Command::new(node);
    command
        .arg(entry)
        .args(["server", "--url", url, "-o"])
        .arg(out)
        .current_dir(suite_dir());
    if let Some(scenario) = scenario {
        command.args(["--scenario", scenario]);
    }
    let output = command.output().expect("the suite runs");
    assert!(
        output.status.success(),
        "the suite failed ({:?}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn every_server_scenario_passes() {
    let Some((node, entry)) = suite("every_server_scenario_passes") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // The runtime's default HTTP settings: no allowed origin is configured.
    let server = runtime
        .block_on(conformance_server::http_server().bind("127.0.0.1:0"))
        .unwrap();
    let url = server.url();
    let shutdown = server.shutdown_token();
    runtime.spawn(server.run());

    let out = std::env::temp_dir().join(format!("mcpdesc-conformance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    run_suite(&node, &entry, &url, &out, None);
    for scenario in PENDING {
        run_suite(&node, &entry, &url, &out, Some(scenario));
    }
    shutdown.cancel();

    let results = results(&out);
    let _ = std::fs::remove_dir_all(&out);
    let mut problems = Vec::new();
    for (scenario, checks) in &results {
        for check in checks {
            let status = check["status"].as_str().unwrap_or("?");
            if status == "FAILURE" || status == "WARNING" {
                problems.push(format!(
                    "{scenario}: {status} {}: {}",
                    check["id"],
                    check["errorMessage"].as_str().unwrap_or_default()
                ));
            }
        }
    }
    let names: Vec<&str> = results.iter().map(|(s, _)| s.as_str()).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // 31 active scenarios in 0.2.0-alpha.12, and the two pending ones.
    assert_eq!(results.len(), 33, "{names:?}");
    for scenario in ["resources-subscribe", "resources-unsubscribe"]
        .into_iter()
        .chain(PENDING)
    {
        assert!(
            names.contains(&scenario),
            "{scenario} did not run: {names:?}"
        );
    }
}

/// A result folder's scenario, whatever its timestamp holds (`-20` in the time once
/// made `resources-unsubscribe` look missing).
#[test]
fn result_folders_name_their_scenario() {
    assert_eq!(
        without_timestamp("resources-unsubscribe-2026-12-06T08-09-20-123Z"),
        Some("resources-unsubscribe")
    );
    assert_eq!(
        without_timestamp("ping-2026-12-06T07-38-19-159Z"),
        Some("ping")
    );
    assert_eq!(without_timestamp("ping"), None);
}
