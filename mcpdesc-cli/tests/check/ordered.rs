//! The order of replayed examples against a server with state (issue 39): a
//! `create_branch` example written before a read of the branch list must not make a
//! correct server fail that read, and a read that shows what the create made says so
//! with `x-mcpdesc-after`.
//!
//! The server is a `sh` script that keeps its branches in a variable: `create_branch`
//! adds one, `list_branches` answers them all, whatever the arguments. Its `tools/list`
//! is the description's projection, so only the examples can differ.

use std::path::Path;

use mcpdesc_codegen::{Description, Limits};
use serde_json::{json, Value};

use crate::support::{check, root, tempdir};

/// The branch server: one JSON-RPC message a line, `initialize`, `tools/list` (the
/// `TOOLS` variable) and the two tools; other requests get -32601.
const SERVER: &str = r#"
branches=main
reply() { printf '{"jsonrpc":"2.0","id":%s,"result":%s}\n' "$id" "$1"; }
while IFS= read -r line; do
  id=$(printf '%s\n' "$line" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')
  case "$line" in
    *'"method":"initialize"'*)
      reply '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"branches","version":"1.0.0"}}';;
    *'"method":"tools/list"'*) reply "{\"tools\":$TOOLS}";;
    *'"name":"create_branch"'*)
      branch=$(printf '%s\n' "$line" | sed -n 's/.*"branch":"\([a-z-]*\)".*/\1/p')
      branches="$branches $branch"
      reply "{\"content\":[{\"type\":\"text\",\"text\":\"created $branch\"}]}";;
    *'"name":"list_branches"'*) reply "{\"content\":[{\"type\":\"text\",\"text\":\"$branches\"}]}";;
    *'"id":'*) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no such method"}}\n' "$id";;
  esac
done
"#;

fn fixture() -> std::path::PathBuf {
    root().join("mcpdesc-cli/tests/fixtures/branches.mcpdesc.json")
}

/// `check DESCRIPTION --examples all --strict` against the branch server: exit code
/// and JSON report.
fn check_branches(description: &Path) -> (u8, Value) {
    let desc = Description::from_path(&fixture(), &Limits::default()).unwrap();
    assert!(desc.is_valid(), "{}", desc.render_diagnostics());
    let expected = mcpdesc_check::Expected::of(&desc, mcpdesc::ProtocolVersion::V2025_11_25);
    let tools: Vec<&Value> = expected.tools.iter().map(|t| &t.native).collect();
    let tools = format!("TOOLS={}", serde_json::to_string(&tools).unwrap());
    let (code, out, err) = check(&[
        description.to_str().unwrap(),
        "--examples",
        "all",
        "--strict",
        "--format",
        "json",
        "--timeout",
        "20",
        "--",
        "env",
        &tools,
        "sh",
        "-c",
        SERVER,
    ]);
    let report = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("not a JSON report ({e}): {out}\nstderr: {err}"));
    (code, report)
}

/// `target/example` of each call, in order.
fn calls(report: &Value) -> Vec<String> {
    report["calls"]
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
        .collect()
}

/// The `tool/example` of each `example-differs` finding.
fn differing(report: &Value) -> Vec<String> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "example-differs")
        .map(|f| {
            format!(
                "{}/{}",
                f["tool"].as_str().unwrap(),
                f["example"].as_str().unwrap()
            )
        })
        .collect()
}

/// A copy of the fixture with the `x-mcpdesc-after` of `list_branches`' examples set
/// as `hints` say (removed for `None`).
fn hinted(dir: &Path, name: &str, hints: &[(&str, Option<Value>)]) -> std::path::PathBuf {
    let mut desc: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture()).unwrap()).unwrap();
    for (example, after) in hints {
        let example = &mut desc["tools"][1]["examples"][*example];
        match after {
            Some(after) => example["x-mcpdesc-after"] = after.clone(),
            None => {
                example
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("x-mcpdesc-after");
            }
        }
    }
    let path = dir.join(format!("{name}.mcpdesc.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&desc).unwrap()).unwrap();
    path
}

#[test]
fn reads_run_before_writes_and_hinted_reads_after_what_they_show() {
    // Reads first: the fresh list before the create written above it; the read that
    // shows the new branch right after the create. A correct server passes --strict.
    let (code, report) = check_branches(&fixture());
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(
        calls(&report),
        [
            "list_branches/fresh",
            "create_branch/feature",
            "list_branches/with-feature",
        ],
        "{report:#}"
    );
    assert!(
        report["findings"].as_array().unwrap().is_empty(),
        "{report:#}"
    );
    assert_eq!(report["exampleOrder"], mcpdesc_check::EXAMPLE_ORDER);

    let dir = tempdir("ordered");
    // The order before issue 39 (tools in document order, the create first), forced
    // with a hint: the same server fails the fresh read. So the server does keep state,
    // and the order is what makes the check above pass.
    let old = hinted(
        &dir,
        "old-order",
        &[("fresh", Some(json!(["create_branch/feature"])))],
    );
    let (code, report) = check_branches(&old);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(differing(&report), ["list_branches/fresh"], "{report:#}");

    // Without its hint, the read of the new branch runs before the create, with the
    // other reads, and fails.
    let unhinted = hinted(&dir, "unhinted", &[("with-feature", None)]);
    let (code, report) = check_branches(&unhinted);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(
        calls(&report),
        [
            "list_branches/fresh",
            "list_branches/with-feature",
            "create_branch/feature",
        ]
    );
    assert_eq!(
        differing(&report),
        ["list_branches/with-feature"],
        "{report:#}"
    );

    // A hint that names no example is refused before anything is called.
    let typo = hinted(
        &dir,
        "typo",
        &[("with-feature", Some(json!(["create_branch/featur"])))],
    );
    let (code, out, err) = check(&[typo.to_str().unwrap(), "--examples", "all", "--", "true"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("error[mcpdesc.extensions]"), "{err}");
    assert!(err.contains("example-after-unknown"), "{err}");
    assert!(
        err.contains("/tools/1/examples/with-feature/x-mcpdesc-after/0"),
        "{err}"
    );
    assert!(err.contains("nothing checked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
