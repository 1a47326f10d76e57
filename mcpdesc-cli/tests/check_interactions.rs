//! `mcpdesc check` plays Tool Interaction Examples against `mcpdesc serve-mock`: every
//! in-repo description with interaction examples (and, with the shared corpus,
//! `tests/prereq.rs`, every shared valid fixture that has some) passes `--examples all
//! --strict` in each protocol version it declares from 2025-06-18 on, nothing
//! skipped; a server whose steps or result drifted (serve-mock of a mutated copy)
//! fails naming the tool, the example and the step.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

#[path = "../../tests/e2e/harness.rs"]
mod harness;

const MCPDESC: &str = env!("CARGO_BIN_EXE_mcpdesc");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `mcpdesc check DESCRIPTION --examples all --strict --protocol-version V --format
/// json -- mcpdesc serve-mock SERVED`: exit code and the JSON report.
fn check(description: &Path, version: &str, served: &Path) -> (u8, Value) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = [
        "mcpdesc",
        "check",
        description.to_str().unwrap(),
        "--examples",
        "all",
        "--strict",
        "--protocol-version",
        version,
        "--format",
        "json",
        "--timeout",
        "20",
        "--",
        MCPDESC,
        "serve-mock",
        served.to_str().unwrap(),
    ];
    let code = mcpdesc_cli::run(args, &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    let report = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!(
            "not a JSON report ({e}): {out}\nstderr: {}",
            String::from_utf8_lossy(&err)
        )
    });
    (code, report)
}

/// The descriptions with interaction examples: in-repo ones, and the shared corpus's
/// valid fixtures when present.
fn descriptions() -> Vec<PathBuf> {
    let mut files = vec![
        root().join("examples/chess/chess.mcpdesc.json"),
        root().join("tests/fixtures/generator/implementation.mcpdesc.json"),
        root().join("tests/conformance/expected-valid/interaction-examples.json"),
    ];
    const TEST: &str =
        "mcpdesc-cli/check_interactions::every_interaction_example_passes_against_the_mock";
    if let Some(shared) = harness::prereq::shared_conformance(TEST) {
        let mut found = Vec::new();
        for fixtures in std::fs::read_dir(&shared).unwrap() {
            let valid = fixtures.unwrap().path().join("expected-valid");
            let Ok(entries) = std::fs::read_dir(&valid) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                if path.extension().is_some_and(|e| e == "json")
                    && text.contains("\"interactionExamples\"")
                {
                    found.push(path);
                }
            }
        }
        assert!(
            !found.is_empty(),
            "no shared fixture has interaction examples"
        );
        found.sort();
        files.extend(found);
    }
    files
}

/// The protocol versions a description declares from 2025-06-18 on (client input
/// needs elicitation, which older versions lack).
fn versions(desc: &Value) -> Vec<String> {
    desc["protocolVersions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .filter(|v| v.as_str() >= "2025-06-18")
        .collect()
}

/// The (tool, example) pairs of every interaction example of tools in `version`.
fn interactions(desc: &Value, version: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for tool in desc["tools"].as_array().into_iter().flatten() {
        let scoped = tool["protocolVersions"]
            .as_array()
            .is_none_or(|vs| vs.iter().any(|v| v == version));
        if !scoped {
            continue;
        }
        for name in tool["interactionExamples"]
            .as_object()
            .into_iter()
            .flat_map(|m| m.keys())
        {
            pairs.push((tool["name"].as_str().unwrap().to_owned(), name.clone()));
        }
    }
    pairs
}

#[test]
fn every_interaction_example_passes_against_the_mock() {
    let mut played = 0;
    for file in descriptions() {
        let desc = read(&file);
        for version in versions(&desc) {
            let expected = interactions(&desc, &version);
            if expected.is_empty() {
                continue;
            }
            let (code, report) = check(&file, &version, &file);
            let at = format!("{} in MCP {version}", file.display());
            assert_eq!(code, 0, "{at}: {report:#}");
            assert_eq!(report["counts"]["failures"], 0, "{at}: {report:#}");
            assert_eq!(report["counts"]["skipped"], 0, "{at}: {report:#}");
            let calls = report["calls"].as_array().unwrap();
            for (tool, example) in expected {
                assert!(
                    calls
                        .iter()
                        .any(|c| c["target"] == tool.as_str() && c["example"] == example.as_str()),
                    "{at}: {tool}/{example} not called: {report:#}"
                );
                played += 1;
            }
        }
    }
    assert!(
        played >= 4,
        "only {played} interaction examples were played"
    );
}

/// A copy of `file` with `mutate` applied to the first interaction example
/// (`tool`, `example`).
fn drifted(
    file: &Path,
    version: &str,
    name: &str,
    mutate: impl FnOnce(&mut Value),
) -> (PathBuf, String, String) {
    let mut desc = read(file);
    let (tool, example) = interactions(&desc, version).remove(0);
    let tools = desc["tools"].as_array_mut().unwrap();
    let declaration = tools
        .iter_mut()
        .find(|t| {
            t["name"] == tool.as_str()
                && t["protocolVersions"]
                    .as_array()
                    .is_none_or(|vs| vs.iter().any(|v| v == version))
        })
        .unwrap();
    mutate(&mut declaration["interactionExamples"][&example]);
    let dir =
        std::env::temp_dir().join(format!("mcpdesc-check-interactions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}-{version}.mcpdesc.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&desc).unwrap()).unwrap();
    (path, tool, example)
}

/// The failures of a report: (kind, tool, example, message).
fn failures(report: &Value) -> Vec<(String, String, String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "failure")
        .map(|f| {
            let text = |k: &str| f[k].as_str().unwrap_or("").to_owned();
            (text("kind"), text("tool"), text("example"), text("message"))
        })
        .collect()
}

#[test]
fn a_server_whose_interaction_drifted_fails_naming_the_example_and_step() {
    // remove_book/confirmed (2025-11-25): roots, sampling, elicitation;
    // remove_book/signed-in (2026-07-28): one URL-mode elicitation.
    let file = root().join("tests/conformance/expected-valid/interaction-examples.json");
    type Mutation = fn(&mut Value);
    let cases: [(&str, &str, Mutation, &str, &str); 5] = [
        (
            "2025-11-25",
            "message",
            |e| e["steps"][2]["request"]["message"] = json!("Something else?"),
            "interaction-differs",
            "step 2 does not match the tool's elicitation request: message",
        ),
        (
            "2025-11-25",
            "order",
            |e| e["steps"].as_array_mut().unwrap().swap(0, 1),
            "interaction-differs",
            "step 0 does not match the tool's sampling request: the step is a `roots` step",
        ),
        (
            "2025-11-25",
            "fewer-steps",
            |e| drop(e["steps"].as_array_mut().unwrap().pop()),
            "interaction-differs",
            "step 2 (elicitation) was never requested",
        ),
        (
            "2026-07-28",
            "message",
            |e| e["steps"][0]["request"]["message"] = json!("Sign in elsewhere."),
            "interaction-differs",
            "step 0 does not match the tool's elicitation request: message",
        ),
        (
            "2026-07-28",
            "result",
            |e| e["result"]["content"][0]["text"] = json!("drifted"),
            "example-differs",
            "the result differs from the example's",
        ),
    ];
    for (version, name, mutate, kind, says) in cases {
        let (served, tool, example) = drifted(&file, version, name, mutate);
        let (code, report) = check(&file, version, &served);
        let at = format!("{name} in MCP {version}");
        assert_eq!(code, 1, "{at}: {report:#}");
        let found = failures(&report);
        assert!(
            found
                .iter()
                .any(|(k, t, e, m)| k == kind && *t == tool && *e == example && m.contains(says)),
            "{at}: expected {kind} on {tool}/{example} saying `{says}`: {found:#?}"
        );
    }
}
