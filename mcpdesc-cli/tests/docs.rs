//! The `mcpdesc docs` contract: the page on stdout or in `-o OUT`, the description's
//! diagnostics on stderr (errors refuse, warnings are shown), exit codes 0/1/2 as
//! `generate` has them.

use std::path::{Path, PathBuf};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn run(args: &[&str]) -> (u8, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["mcpdesc", "docs"];
    argv.extend_from_slice(args);
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn page_on_stdout_or_in_a_file() {
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let (code, out, err) = run(&[chess.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("<!DOCTYPE html>"), "{out}");
    assert!(out.contains("id=\"tool-analyze_game\""));
    assert!(err.is_empty(), "{err}");

    let dir = std::env::temp_dir().join(format!("mcpdesc-docs-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("chess.html");
    let (code, stdout, err) = run(&[chess.to_str().unwrap(), "-o", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), out);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn invalid_description_is_refused_with_located_diagnostics() {
    let bad = repo("tests/conformance/expected-invalid/invalid-tool-schema.json");
    let (code, out, err) = run(&[bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("= pointer: /tools/0/inputSchema"), "{err}");
    assert!(err.contains("is invalid"), "{err}");
}

#[test]
fn warnings_are_shown_and_the_page_written() {
    let hostile = repo("mcpdesc-docs/tests/fixtures/hostile.mcpdesc.json");
    let (code, out, err) = run(&[hostile.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning"), "{err}");
    assert!(out.contains("</html>"));
}

#[test]
fn protocol_version_chooses_one_view() {
    let scoped = repo("tests/diff/protocol-scoped-variants/new.mcpdesc.json");
    let (code, all, _) = run(&[scoped.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(all.contains("id=\"version-switch\""));
    let (code, one, err) = run(&[scoped.to_str().unwrap(), "--protocol-version", "2025-11-25"]);
    assert_eq!(code, 0, "{err}");
    assert!(!one.contains("id=\"version-switch\""));
    assert!(one.contains("MCP 2025-11-25") && !one.contains("MCP 2026-07-28"));
    // A version the description does not describe.
    let (code, _, err) = run(&[scoped.to_str().unwrap(), "--protocol-version", "2024-11-05"]);
    assert_eq!(code, 1);
    assert!(err.contains("does not describe MCP 2024-11-05"), "{err}");
}

#[test]
fn usage_and_io_errors_exit_two() {
    let (code, _, err) = run(&["/nonexistent/x.mcpdesc.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
    let (code, _, _) = run(&[]);
    assert_eq!(code, 2);
    let chess = repo("examples/chess/chess.mcpdesc.json");
    let (code, _, _) = run(&[chess.to_str().unwrap(), "--protocol-version", "1999"]);
    assert_eq!(code, 2);
    let (code, _, err) = run(&[chess.to_str().unwrap(), "-o", "/nonexistent/dir/x.html"]);
    assert_eq!(code, 2, "{err}");
}
