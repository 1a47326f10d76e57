//! The JSON report's documented shape.

use serde_json::json;

use crate::support::{check_mock, chess, drifted, tempdir};

#[test]
fn the_json_report_has_its_documented_shape() {
    let dir = tempdir("json");
    let served = drifted(&dir, "removed", |d| {
        d["tools"]
            .as_array_mut()
            .unwrap()
            .retain(|t| t["name"] != "record_game_result");
    });
    let (code, report) = check_mock(
        &chess(),
        &["--generate", "analyze_game", "--cases", "4", "--seed", "9"],
        &served,
    );
    assert_eq!(code, 1);
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "description",
            "server",
            "protocolVersion",
            "seed",
            "strict",
            "exampleOrder",
            "findings",
            "calls",
            "counts"
        ]
    );
    assert_eq!(report["seed"], 9);
    assert_eq!(report["protocolVersion"], "2025-11-25");
    assert_eq!(
        report["findings"][0],
        json!({
            "kind": "missing",
            "severity": "failure",
            "primitive": "tool",
            "tool": "record_game_result",
            "message": "the description declares it, but `tools/list` does not list it"
        })
    );
    assert_eq!(
        report["counts"],
        json!({"failures": 1, "warnings": 1, "skipped": 0, "calls": 4})
    );
    // The mock answers inputs no example shows with a tool error: the warning that
    // the success path of the generated inputs was never exercised.
    assert_eq!(report["findings"][1]["kind"], "success-never-exercised");
    assert_eq!(report["findings"][1]["severity"], "warning");
    assert_eq!(report["findings"][1]["tool"], "analyze_game");
    let calls = report["calls"].as_array().unwrap();
    assert_eq!(calls[0]["method"], "tools/call");
    assert_eq!(calls[0]["example"], "generated #1 (valid)");
    assert_eq!(calls[1]["example"], "generated #2 (invalid)");
    assert_eq!(calls[1]["params"]["name"], "analyze_game");
    // The same seed gives the same inputs; another seed others.
    let (_, again) = check_mock(
        &chess(),
        &["--generate", "analyze_game", "--cases", "4", "--seed", "9"],
        &served,
    );
    assert_eq!(again["calls"], report["calls"]);
    let (_, other) = check_mock(
        &chess(),
        &["--generate", "analyze_game", "--cases", "4", "--seed", "10"],
        &served,
    );
    assert_ne!(other["calls"], report["calls"]);
    let _ = std::fs::remove_dir_all(&dir);
}
