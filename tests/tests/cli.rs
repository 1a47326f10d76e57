//! The `mcpdesc validate` contract: exit codes, the human format and the JSON format, on
//! the repository's own cases (`tests/conformance/`).

use std::path::{Path, PathBuf};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// A case of `tests/conformance/`.
fn case(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("conformance")
        .join(path)
}

fn run(args: &[&str]) -> (u8, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["mcpdesc"];
    argv.extend_from_slice(args);
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn valid_files_exit_zero() {
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let (code, out, _) = run(&["validate", chess.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("chess.mcpdesc.json: valid (0 errors, 0 warnings)"),
        "{out}"
    );
}

#[test]
fn warnings_still_exit_zero() {
    let f = case("expected-warning/legacy-protocol-version.json");
    let (code, out, _) = run(&["validate", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("warning["), "{out}");
}

#[test]
fn invalid_file_exits_one_with_rustc_style_output() {
    let f = case("expected-invalid/invalid-tool-schema.json");
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let (code, out, _) = run(&["validate", chess.to_str().unwrap(), f.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error[json-schema.tool-schema.valid]: tools[0].inputSchema is not a valid JSON Schema 2020-12 schema"), "{out}");
    // The location line and the source line with a caret.
    assert!(out.contains("invalid-tool-schema.json:27:9"), "{out}");
    assert!(out.contains(r#""required": "title""#), "{out}");
    assert!(
        out.contains("= pointer: /tools/0/inputSchema/required (code: invalid-tool-schema)"),
        "{out}"
    );
}

#[test]
fn json_format_is_one_array_with_the_contract_fields() {
    // An mcpdesc 0.8.0 document: `mcpdesc` reports each file's own version.
    let bad = case("expected-invalid/closed-interactions-0.8.json");
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let (code, out, _) = run(&[
        "validate",
        "--format",
        "json",
        chess.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let report: serde_json::Value = serde_json::from_str(&out).expect("stdout is one JSON value");
    let files = report.as_array().expect("an array");
    assert_eq!(files.len(), 2);
    assert_eq!(files[0]["valid"], true);
    assert_eq!(files[0]["mcpdesc"], "0.9.0");
    assert_eq!(files[0]["diagnostics"], serde_json::json!([]));
    assert_eq!(files[1]["valid"], false);
    assert_eq!(files[1]["mcpdesc"], "0.8.0");
    let d = &files[1]["diagnostics"][0];
    let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["severity", "rule", "code", "pointer", "line", "column", "message"]
    );
    assert_eq!(d["severity"], "error");
    assert_eq!(d["rule"], "mcp.input-response.closed");
    assert_eq!(
        d["pointer"],
        "/tools/0/interactionExamples/with-meta/steps/0/response/_meta"
    );
    assert!(d["line"].as_u64().unwrap() > 0 && d["column"].as_u64().unwrap() > 0);
}

#[test]
fn missing_file_and_bad_usage_exit_two() {
    let (code, _, err) = run(&["validate", "/nonexistent/x.mcpdesc.json"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot read /nonexistent/x.mcpdesc.json"),
        "{err}"
    );
    let (code, _, err) = run(&["validate"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = run(&["validate", "--format", "xml", "a.json"]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["frobnicate"]);
    assert_eq!(code, 2);
}
