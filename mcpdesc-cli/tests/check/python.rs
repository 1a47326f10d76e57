//! `check --generate` against a server nobody here wrote: one on the official Python
//! MCP SDK (`tests/python/lax_server.py`, described by `tests/python/lax.mcpdesc.json`,
//! run by `check` over stdio). Its `repeat` parses arguments as the SDK does by default
//! (pydantic's lax mode: `"3"` becomes `3`, `"yes"` becomes `true`), which the check
//! must report, naming the tool, the argument and the value; its `label` is strict and
//! has a `pattern`, so generated valid inputs succeed and nothing is reported; its
//! `fail` always fails.
//!
//! Without the SDK the test prints a notice and passes (`MCPDESC_REQUIRE_TOOLS=1`
//! fails instead).

use serde_json::Value;

use crate::harness;
use crate::support::{check, root};

/// `check lax.mcpdesc.json OPTIONS --format json -- python lax_server.py`, or `None`
/// without the SDK.
fn check_lax(test: &str, options: &[&str]) -> Option<(u8, Value)> {
    let python = harness::prereq::python_sdk(test)?;
    let dir = root().join("tests/python");
    let desc = dir.join("lax.mcpdesc.json");
    let server = dir.join("lax_server.py");
    let mut args = vec![desc.to_str().unwrap()];
    args.extend_from_slice(options);
    args.extend(["--format", "json", "--timeout", "60", "--"]);
    args.extend([python.to_str().unwrap(), server.to_str().unwrap()]);
    let (code, out, err) = check(&args);
    let report = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("not a JSON report ({e}): {out}\nstderr: {err}"));
    Some((code, report))
}

/// The findings of a report about `tool` of `kind`.
fn findings<'a>(report: &'a Value, tool: &str, kind: &str) -> Vec<&'a Value> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["tool"] == tool && f["kind"] == kind)
        .collect()
}

#[test]
fn a_lax_python_sdk_server_is_found_out() {
    const TEST: &str = "mcpdesc-cli/check::a_lax_python_sdk_server_is_found_out";
    let Some((code, report)) = check_lax(
        TEST,
        &["--generate", "repeat,label", "--cases", "40", "--seed", "3"],
    ) else {
        return;
    };
    assert_eq!(code, 1, "{report:#}");
    let accepted = findings(&report, "repeat", "invalid-input-accepted");
    let messages: Vec<&str> = accepted
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(
        accepted.iter().all(|f| f["severity"] == "failure"),
        "{accepted:#?}"
    );
    // A numeric string for the integer `times`, named with its value.
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("argument `times` = \"")
                && m.contains("a numeric string for an integer")
                && m.contains("lax parser")),
        "{messages:#?}"
    );
    // A string for the boolean `loud`.
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("argument `loud` = \"") && m.contains("for a boolean")),
        "{messages:#?}"
    );
    // What pydantic refuses even in lax mode is not reported: a fraction for an
    // integer, a number for a string, a bound crossed.
    for refused in [
        "a float with a fraction",
        "a number for a string",
        "`minimum`",
        "`maximum`",
    ] {
        assert!(
            !messages.iter().any(|m| m.contains(refused)),
            "{refused}: {messages:#?}"
        );
    }
    // The strict tool with a `pattern`: generated (no longer skipped), its valid
    // inputs succeed, its invalid ones are refused, nothing is reported.
    let label_findings: Vec<&Value> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["tool"] == "label")
        .collect();
    assert!(label_findings.is_empty(), "{label_findings:#?}");
    let label_calls: Vec<&Value> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["target"] == "label")
        .collect();
    assert_eq!(label_calls.len(), 40);
    let valid_ok = label_calls
        .iter()
        .filter(|c| c["example"].as_str().unwrap().ends_with("(valid)"))
        .inspect(|c| assert_eq!(c["outcome"], "result", "{c:#}"))
        .count();
    assert_eq!(valid_ok, 20);
    // Pattern-breaking values were sent, and refused.
    assert!(
        label_calls.iter().any(|c| {
            c["example"].as_str().unwrap().ends_with("(invalid)")
                && c["params"]["arguments"]["code"]
                    .as_str()
                    .is_some_and(|code| !code.is_empty() && !code.contains('-'))
                && c["outcome"] == "isError"
        }),
        "{label_calls:#?}"
    );
}

/// A tool whose every generated valid input fails gets a warning that its success
/// path was never exercised (not a failure: the server answered as MCP asks); a tool
/// whose valid inputs succeed does not.
#[test]
fn a_tool_that_always_fails_is_not_a_silent_green() {
    const TEST: &str = "mcpdesc-cli/check::a_tool_that_always_fails_is_not_a_silent_green";
    let Some((code, report)) = check_lax(TEST, &["--generate", "fail,label", "--cases", "6"])
    else {
        return;
    };
    assert_eq!(code, 0, "{report:#}");
    let warned = findings(&report, "fail", "success-never-exercised");
    assert_eq!(warned.len(), 1, "{report:#}");
    assert_eq!(warned[0]["severity"], "warning");
    let message = warned[0]["message"].as_str().unwrap();
    assert!(
        message.contains("none of the 3 generated valid inputs succeeded")
            && message.contains("success path was never exercised"),
        "{message}"
    );
    assert!(findings(&report, "label", "success-never-exercised").is_empty());
    assert_eq!(report["counts"]["warnings"], 1, "{report:#}");
}
