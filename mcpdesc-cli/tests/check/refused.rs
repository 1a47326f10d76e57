//! What the check refuses or skips: usage errors (exit 2), schema parts the generator
//! does not serve, selections naming nothing.

use serde_json::json;

use crate::support::{check, check_mock, chess, drifted, tempdir, tool};

#[test]
fn usage_errors_exit_2() {
    let chess = chess();
    let chess = chess.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![chess], "no server"),
        (
            vec![chess, "--url", "http://127.0.0.1:9/mcp", "--", "x"],
            "not both",
        ),
        (vec![chess, "--examples", "a,,b", "--", "x"], "empty item"),
        (
            vec![chess, "--protocol-version", "2024-11-05", "--", "x"],
            "does not describe MCP 2024-11-05",
        ),
        (
            vec![
                chess,
                "--header",
                "nocolon",
                "--url",
                "http://127.0.0.1:9/mcp",
            ],
            "Name: value",
        ),
        (vec![chess, "--timeout", "0", "--", "x"], "--timeout"),
        (vec![chess, "--timeout", "1e300", "--", "x"], "--timeout"),
        (vec![chess, "--timeout", "NaN", "--", "x"], "--timeout"),
        (
            vec!["/nonexistent/x.mcpdesc.json", "--", "x"],
            "cannot read",
        ),
    ];
    for (args, says) in cases {
        let (code, out, err) = check(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // An invalid description: its diagnostics, nothing checked.
    let dir = tempdir("invalid");
    let bad = dir.join("bad.mcpdesc.json");
    std::fs::write(&bad, r#"{"mcpdesc": "0.9.0", "info": {}}"#).unwrap();
    let (code, _, err) = check(&[bad.to_str().unwrap(), "--", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("is invalid; nothing checked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A schema part the generator does not serve is a `skipped` finding (exit 0), and so
/// is a selection naming something of another version than the negotiated one; a
/// selection naming nothing of any version is a usage error (exit 2: a typo would
/// call nothing and pass).
#[test]
fn what_cannot_be_generated_or_selected_is_skipped() {
    let chess = chess();
    let (code, out, err) = check(&[
        chess.to_str().unwrap(),
        "--examples",
        "nope",
        "--generate",
        "nope2,analyze_game",
        "--",
        "x",
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("--examples names `nope`, --generate names `nope2`, which")
            && err.contains("does not declare in any protocol version")
            && err.contains("nothing checked"),
        "{err}"
    );
    let dir = tempdir("skipped");
    let patterned = drifted(&dir, "pattern", |d| {
        // A look-ahead: ECMA-262, but not what the generator parses.
        tool(d, "analyze_game")["inputSchema"]["properties"]["pgn"]["pattern"] = json!("^(?!x)");
        // An example of the 2025-06-18 variant only (the check negotiates 2025-11-25).
        let old = d["tools"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|t| t["protocolVersions"] == json!(["2025-06-18"]))
            .unwrap();
        let examples = old["examples"].as_object_mut().unwrap();
        let example = examples.shift_remove("empty-pgn").unwrap();
        examples.insert("old-only".into(), example);
    });
    let (code, report) = check_mock(
        &patterned,
        &[
            "--generate",
            "analyze_game",
            "--cases",
            "2",
            "--examples",
            "analyze_game/old-only",
        ],
        &patterned,
    );
    assert_eq!(code, 0, "{report:#}");
    let findings: Vec<(&str, &str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap(),
                f["severity"].as_str().unwrap(),
                f["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(findings.len(), 2, "{report:#}");
    assert_eq!(findings[0].0, "selection-unknown");
    assert!(
        findings[0]
            .2
            .contains("--examples names `analyze_game/old-only`"),
        "{report:#}"
    );
    assert_eq!((findings[1].0, findings[1].1), ("skipped", "skipped"));
    assert!(findings[1].2.contains("(at /properties/pgn)"), "{report:#}");
    assert_eq!(report["calls"], json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}
