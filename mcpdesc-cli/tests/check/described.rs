//! Servers true to their description pass: the mock of every described server
//! (strictly), nothing called unless selected, each protocol version with its own
//! tools, prompts, resources and completions replayed, tasks, the order of the
//! examples.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::harness;
use crate::support::{check, check_mock, chess, root, tempdir, MCPDESC};

#[test]
fn the_mock_of_every_described_server_passes_strictly() {
    const TEST: &str = "mcpdesc-cli/check::the_mock_of_every_described_server_passes_strictly";
    let mut files = vec![chess()];
    if let Some(shared) = harness::prereq::shared_conformance(TEST) {
        let mut real_world: Vec<PathBuf> = std::fs::read_dir(shared.join("real-world"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        real_world.sort();
        assert!(!real_world.is_empty());
        files.extend(real_world);
    }
    for file in files {
        let (code, report) = check_mock(
            &file,
            &[
                "--examples",
                "all",
                "--generate",
                "all",
                "--cases",
                "6",
                "--strict",
            ],
            &file,
        );
        assert_eq!(code, 0, "{}: {report:#}", file.display());
        assert_eq!(report["counts"]["failures"], 0);
        assert_eq!(report["strict"], true);
        let calls = report["calls"].as_array().unwrap();
        // Every Tool Example was called, and generated inputs both valid and invalid.
        let desc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for tool in desc["tools"].as_array().unwrap() {
            let name = tool["name"].as_str().unwrap();
            for example in tool["examples"]
                .as_object()
                .into_iter()
                .flat_map(|m| m.keys())
            {
                assert!(
                    calls
                        .iter()
                        .any(|c| c["target"] == name && c["example"] == example.as_str()),
                    "{}: {name}/{example} not called",
                    file.display()
                );
            }
            let generated = |kind: &str| {
                calls.iter().any(|c| {
                    c["target"] == name
                        && c["example"]
                            .as_str()
                            .unwrap()
                            .ends_with(&format!("({kind})"))
                })
            };
            let skipped = report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["tool"] == name && f["kind"] == "skipped");
            assert!(generated("valid") || skipped, "{}: {name}", file.display());
        }
    }
}

#[test]
fn by_default_nothing_is_called() {
    let (code, report) = check_mock(&chess(), &[], &chess());
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["calls"], json!([]));
    assert_eq!(report["counts"]["calls"], 0);
    // The human report says so.
    let chess = chess();
    let (code, out, _) = check(&[
        chess.to_str().unwrap(),
        "--",
        MCPDESC,
        "serve-mock",
        chess.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("called: nothing"), "{out}");
    assert!(
        out.contains("(MCP 2025-11-25): 0 failures, 0 warnings, 0 skipped"),
        "{out}"
    );
}

/// Each protocol version gets the tools of its scope: a described tool of another
/// version is neither expected nor called, and the version can be chosen.
#[test]
fn each_protocol_version_is_checked_with_its_own_tools() {
    let eras = root().join("tests/fixtures/client/eras.mcpdesc.json");
    for (version, tool) in [("2025-11-25", "echo_2025"), ("2026-07-28", "echo_2026")] {
        let (code, report) = check_mock(
            &eras,
            &[
                "--protocol-version",
                version,
                "--examples",
                "all",
                "--strict",
            ],
            &eras,
        );
        assert_eq!(code, 0, "{version}: {report:#}");
        assert_eq!(report["protocolVersion"], version);
        let targets: Vec<&str> = report["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["target"].as_str().unwrap())
            .collect();
        assert_eq!(targets, [tool], "{version}");
    }
    // Without --protocol-version the newest described version is negotiated.
    let (code, report) = check_mock(&eras, &[], &eras);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["protocolVersion"], "2026-07-28");
}

/// A static resource with two examples can only answer one of them: reading it
/// matches when the result is any example's. Prompts, templates and completions are
/// replayed the same way; each call is listed.
#[test]
fn prompts_resources_and_completions_are_replayed() {
    let fixture = root().join("tests/fixtures/generator/primitives.mcpdesc.json");
    let (code, report) = check_mock(&fixture, &["--examples", "all", "--strict"], &fixture);
    assert_eq!(code, 0, "{report:#}");
    let methods: std::collections::BTreeSet<&str> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods.into_iter().collect::<Vec<_>>(),
        [
            "completion/complete",
            "prompts/get",
            "resources/read",
            "tools/call"
        ]
    );
    // A prompt whose served messages drifted fails under --strict, naming the prompt.
    let dir = tempdir("prompt");
    let mut desc: Value = serde_json::from_str(&std::fs::read_to_string(chess()).unwrap()).unwrap();
    desc["prompts"][0]["examples"]["ruy-lopez-white"]["result"]["messages"][0]["content"]["text"] =
        json!("Something else");
    let served = dir.join("prompt.mcpdesc.json");
    std::fs::write(&served, desc.to_string()).unwrap();
    let (code, report) = check_mock(
        &chess(),
        &["--examples", "opening_study", "--strict"],
        &served,
    );
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["findings"][0]["primitive"], "prompt");
    assert_eq!(report["findings"][0]["tool"], "opening_study");
    assert_eq!(report["findings"][0]["example"], "ruy-lopez-white");
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("/messages/0"),
        "{report:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tool whose 2025-11-25 declaration requires a task (its plain call is refused with
/// -32601) is called as a task: the task-augmented `tools/call`, then `tasks/result`,
/// whose answer is compared with the example; the other tools are called plainly.
#[test]
fn required_tools_are_called_as_tasks() {
    let fixture = root().join("mcpdesc-cli/tests/fixtures/tasks.mcpdesc.json");
    let options = [
        "--examples",
        "all",
        "--generate",
        "all",
        "--cases",
        "4",
        "--strict",
    ];
    let (code, report) = check_mock(&fixture, &options, &fixture);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["counts"]["failures"], 0, "{report:#}");
    let calls = report["calls"].as_array().unwrap();
    let tool_calls = || calls.iter().filter(|c| c["method"] == "tools/call");
    let (archive, others): (Vec<&Value>, Vec<&Value>) =
        tool_calls().partition(|c| c["target"] == "archive");
    assert!(archive.len() >= 3, "{calls:#?}");
    assert!(
        archive.iter().all(|c| c["params"]["task"] == json!({})),
        "{archive:#?}"
    );
    assert!(
        others.iter().all(|c| c["params"].get("task").is_none()),
        "{others:#?}"
    );
    let outcome = |example: &str| {
        archive
            .iter()
            .find(|c| c["example"] == example)
            .map(|c| c["outcome"].clone())
    };
    assert_eq!(outcome("logs"), Some(json!("result")));
    assert_eq!(outcome("missing"), Some(json!("isError")));
}

/// `--examples all` replays read-only tools first, then the others, destructive ones
/// last, and the report says so.
#[test]
fn examples_run_reads_first_destructive_last() {
    let fixture = root().join("mcpdesc-cli/tests/fixtures/notes-order.mcpdesc.json");
    let (code, report) = check_mock(&fixture, &["--examples", "all", "--strict"], &fixture);
    assert_eq!(code, 0, "{report:#}");
    let order: Vec<String> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}/{}",
                c["target"].as_str().unwrap(),
                c["example"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        order,
        [
            "get_note/first",
            "get_note/second",
            "tag_note/first",
            "delete_note/first"
        ]
    );
    assert_eq!(report["exampleOrder"], mcpdesc_check::EXAMPLE_ORDER);
    let (_, out, _) = check(&[
        fixture.to_str().unwrap(),
        "--examples",
        "all",
        "--",
        MCPDESC,
        "serve-mock",
        fixture.to_str().unwrap(),
    ]);
    assert!(
        out.contains(
            "examples in order: reads first (prompts, resources, templates, completions, read-only tools)"
        ),
        "{out}"
    );
}
