//! How replayed results are compared with their examples: `"x-mcpdesc-compare":
//! "shape"` (a clock's text can never equal its example's) as the generated tests
//! honour it, and the MCP 2026-07-28 cache hints `ttlMs`/`cacheScope` of a read.
//! The server is `serve-mock` of a copy whose example results differ from the
//! checked description's.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::support::{check_mock, tempdir};

/// A 2026-07-28 description with a clock tool and a resource with cache hints;
/// `now`'s text, the clock's `x-mcpdesc-compare`, and the read's hints as given.
fn clock(dir: &Path, name: &str, now: &str, compare: Option<&str>, ttl: u64) -> PathBuf {
    let mut example = json!({
        "input": {},
        "result": {"resultType": "complete", "content": [{"type": "text", "text": now}]}
    });
    if let Some(compare) = compare {
        example["x-mcpdesc-compare"] = json!(compare);
    }
    let desc = json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "clock", "version": "1.0.0"},
        "protocolVersions": ["2026-07-28"],
        "transports": [{"type": "stdio", "command": "clock"}],
        "capabilities": [{"tools": {}, "resources": {}}],
        "tools": [{
            "name": "now",
            "description": "The time.",
            "inputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": true},
            "examples": {"noon": example}
        }],
        "resources": [{
            "uri": "clock://zones",
            "name": "zones",
            "mimeType": "text/plain",
            "examples": {"all": {"result": {
                "resultType": "complete",
                "ttlMs": ttl,
                "cacheScope": "public",
                "contents": [{"uri": "clock://zones", "mimeType": "text/plain", "text": "UTC"}]
            }}}
        }]
    });
    let path = dir.join(format!("{name}.mcpdesc.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&desc).unwrap()).unwrap();
    path
}

fn differs(report: &Value) -> Vec<(String, String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "example-differs")
        .map(|f| {
            (
                f["tool"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn shape_examples_compare_by_shape_and_cache_hints_are_compared() {
    let dir = tempdir("compared");
    let strict = ["--examples", "all", "--strict"];
    // The server's clock says 13:00, its hints say 60 s.
    let served = clock(&dir, "served", "13:00", None, 60_000);

    // A shape example passes --strict whatever the time; the hints are compared.
    let shaped = clock(&dir, "shaped", "12:00", Some("shape"), 60_000);
    let (code, report) = check_mock(&shaped, &strict, &served);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["protocolVersion"], "2026-07-28", "{report:#}");
    assert!(differs(&report).is_empty(), "{report:#}");

    // Without it the text differs: a failure under --strict.
    let exact = clock(&dir, "exact", "12:00", None, 60_000);
    let (code, report) = check_mock(&exact, &strict, &served);
    assert_eq!(code, 1, "{report:#}");
    let found = differs(&report);
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(
        (found[0].0.as_str(), found[0].1.as_str()),
        ("now", "failure")
    );

    // A shape that differs is still found: a tool error where a result was shown.
    let error_served = {
        let path = clock(&dir, "error-served", "13:00", None, 60_000);
        let mut desc: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        desc["tools"][0]["examples"]["noon"]["result"]["isError"] = json!(true);
        std::fs::write(&path, serde_json::to_string(&desc).unwrap()).unwrap();
        path
    };
    let (code, report) = check_mock(&shaped, &strict, &error_served);
    assert_eq!(code, 1, "{report:#}");
    let found = differs(&report);
    assert!(
        found.len() == 1
            && found[0]
                .2
                .contains("the shape (x-mcpdesc-compare: shape) differs at /isError"),
        "{report:#}"
    );

    // Cache hints that differ from the example's are a difference of the read.
    let other_ttl = clock(&dir, "other-ttl", "12:00", Some("shape"), 1_000);
    let (code, report) = check_mock(&other_ttl, &["--examples", "all"], &served);
    assert_eq!(code, 0, "{report:#}");
    let found = differs(&report);
    assert_eq!(found.len(), 1, "{report:#}");
    assert_eq!(found[0].0, "clock://zones");
    assert!(
        found[0].2.contains("ttlMs: expected 1000, got 60000"),
        "{report:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Selected prompts get generated `prompts/get` requests: valid ones (the required
/// `eco`, sometimes `color`) and ones without `eco`; a server that answers the latter
/// gets a warning. The served copy's prompt takes `eco` as optional and has an
/// example without arguments, which the mock answers.
///
/// (`chess.mcpdesc.json`'s `opening_study` has the arguments `eco`, required, and
/// `color`.)
#[test]
fn prompts_get_generated_requests() {
    let dir = tempdir("prompts");
    let chess = crate::support::chess();
    let (code, report) = check_mock(
        &chess,
        &["--generate", "opening_study", "--cases", "4"],
        &chess,
    );
    assert_eq!(code, 0, "{report:#}");
    // The prompt's requests, then (it has completion examples) its completions.
    let calls: Vec<&Value> = report["calls"].as_array().unwrap().iter().collect();
    assert_eq!(calls.len(), 8, "{report:#}");
    let (gets, completions) = calls.split_at(4);
    assert_completions(completions, &["eco", "color"], "opening_study");
    for (i, call) in gets.iter().enumerate() {
        assert_eq!(call["method"], "prompts/get");
        let has_eco = call["params"]["arguments"].get("eco").is_some();
        assert_eq!(has_eco, i % 2 == 0, "{call:#}");
    }
    // Both copies without `color`, so that the request without `eco` has no argument.
    let eco_only = |prompt: &mut Value| {
        prompt["arguments"].as_array_mut().unwrap().truncate(1);
        let members = prompt.as_object_mut().unwrap();
        members.shift_remove("completionExamples");
        members.shift_remove("examples");
    };
    let strict = crate::support::drifted(&dir, "strict-prompt", |d| eco_only(&mut d["prompts"][0]));
    let lax = crate::support::drifted(&dir, "lax-prompt", |d| {
        let prompt = &mut d["prompts"][0];
        eco_only(prompt);
        prompt["arguments"][0]["required"] = json!(false);
        prompt["examples"]["bare"] = json!({
            "arguments": {},
            "result": {"messages": [{"role": "user", "content": {"type": "text", "text": "Study any opening."}}]}
        });
    });
    let (_, report) = check_mock(
        &strict,
        &["--generate", "opening_study", "--cases", "2"],
        &lax,
    );
    let accepted: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "prompt-arguments-accepted")
        .collect();
    assert_eq!(accepted.len(), 1, "{report:#}");
    assert_eq!(accepted[0]["severity"], "warning");
    assert_eq!(accepted[0]["primitive"], "prompt");
    assert!(
        accepted[0]["message"]
            .as_str()
            .unwrap()
            .contains("the required argument `eco` was left out"),
        "{report:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A selected resource template gets generated `resources/read` requests: URIs built
/// from the template with a random word for its variable, the same for the same
/// seed, selected by the template's name or its URI template.
///
/// (`chess.mcpdesc.json`'s template `opening` is `chess://openings/{eco}`.)
#[test]
fn resource_templates_get_generated_reads() {
    let chess = crate::support::chess();
    let reads = |selection: &str| {
        let (code, report) = check_mock(
            &chess,
            &["--generate", selection, "--cases", "3", "--seed", "5"],
            &chess,
        );
        assert_eq!(code, 0, "{report:#}");
        assert_eq!(report["counts"]["failures"], 0, "{report:#}");
        let calls = report["calls"].as_array().unwrap();
        // Three reads, then (the template has completion examples) three completions.
        assert_eq!(calls.len(), 6, "{report:#}");
        let completions: Vec<&Value> = calls[3..].iter().collect();
        assert_completions(&completions, &["eco"], "chess://openings/{eco}");
        calls[..3]
            .iter()
            .map(|call| {
                assert_eq!(call["method"], "resources/read", "{call:#}");
                assert_eq!(call["target"], "chess://openings/{eco}", "{call:#}");
                let uri = call["params"]["uri"].as_str().unwrap().to_owned();
                let eco = uri.strip_prefix("chess://openings/").unwrap();
                assert!(
                    !eco.is_empty() && eco.bytes().all(|b| b.is_ascii_alphanumeric()),
                    "{uri}"
                );
                uri
            })
            .collect::<Vec<_>>()
    };
    let by_name = reads("opening");
    assert_eq!(by_name, reads("chess://openings/{eco}"));
    // Random, not one fixed value.
    assert!(by_name.iter().any(|u| u != &by_name[0]), "{by_name:?}");
    // The mock knows no generated value (-32002, not reported); a served copy whose
    // example reads the first generated URI answers it with a result, which keeps the
    // resource result rules (no findings), and the other reads still count as sent.
    let dir = tempdir("template-reads");
    let first = by_name[0].clone();
    let served = crate::support::drifted(&dir, "known-opening", |d| {
        let example = &mut d["resourceTemplates"][0]["examples"]["ruy-lopez"];
        example["uri"] = json!(first);
        example["result"]["contents"][0]["uri"] = json!(first);
    });
    let (code, report) = check_mock(
        &chess,
        &["--generate", "opening", "--cases", "3", "--seed", "5"],
        &served,
    );
    assert_eq!(code, 0, "{report:#}");
    let outcomes: Vec<&str> = report["calls"].as_array().unwrap()[..3]
        .iter()
        .map(|c| c["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes[0], "result", "{report:#}");
    assert!(
        outcomes[1..].iter().all(|o| o.starts_with("error")),
        "{report:#}"
    );
    assert_eq!(report["findings"], json!([]), "{report:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Generated `completion/complete` requests: each completes the next of `arguments`
/// (in turn) of `target` from a prefix of at most two letters or digits, and got a
/// result or a JSON-RPC error (neither a finding here: the callers check there are
/// none).
fn assert_completions(calls: &[&Value], arguments: &[&str], target: &str) {
    assert!(!calls.is_empty());
    for (i, call) in calls.iter().enumerate() {
        assert_eq!(call["method"], "completion/complete", "{call:#}");
        assert_eq!(call["target"], target, "{call:#}");
        let argument = &call["params"]["argument"];
        assert_eq!(argument["name"], arguments[i % arguments.len()], "{call:#}");
        let value = argument["value"].as_str().unwrap();
        assert!(
            value.len() <= 2 && value.bytes().all(|b| b.is_ascii_alphanumeric()),
            "{call:#}"
        );
        let reference = &call["params"]["ref"];
        assert!(
            reference["name"] == target || reference["uri"] == target,
            "{call:#}"
        );
    }
}
