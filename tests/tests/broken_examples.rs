//! A deliberately broken copy of the chess description, with an example edited so that
//! it no longer matches the tool's schema, is refused at validation: `mcpdesc generate`
//! exits 1, writes no code and prints the rule, the example's JSON pointer and the
//! `file:line:col` of the edited value; the library refuses it the same way. (The case
//! where only the Rust side changed is `rust_drift.rs`.)

use std::path::{Path, PathBuf};

use mcpdesc_codegen::{Description, GenerateError, Limits, Settings};

fn chess() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/chess/chess.mcpdesc.json");
    std::fs::read_to_string(path).unwrap()
}

/// Writes `text` to a fresh temporary file named `name`.
fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdesc-broken-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The copy with the first `from` replaced by `to`, and the 1-based line of the edit.
fn broken(from: &str, to: &str) -> (String, usize) {
    let text = chess();
    let at = text
        .find(from)
        .unwrap_or_else(|| panic!("chess has no {from:?}"));
    let line = text[..at].matches('\n').count() + 1;
    (text.replacen(from, to, 1), line)
}

fn generate(path: &Path) -> (u8, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let argv = ["mcpdesc", "generate", path.to_str().unwrap()];
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn assert_refused(name: &str, (from, to): (&str, &str), rule: &str, pointer: &str) {
    let (text, line) = broken(from, to);
    let path = write(name, &text);
    let (code, out, err) = generate(&path);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "no code for an invalid description");
    for part in [
        format!("error[{rule}]"),
        format!("pointer: {pointer} (code: tool-example-schema-mismatch)"),
        format!("{}:{line}:", path.display()),
        "nothing generated".to_owned(),
    ] {
        assert!(err.contains(&part), "{part:?} missing from:\n{err}");
    }

    let desc = Description::from_path(&path, &Limits::default()).unwrap();
    match mcpdesc_codegen::generate(&desc, &Settings::new()) {
        Err(GenerateError::Invalid { errors }) => {
            assert!(errors.iter().any(|d| d.pointer == pointer), "{errors:#?}");
        }
        other => panic!(
            "expected GenerateError::Invalid, got {:?}",
            other.map(|g| g.code.len())
        ),
    }
}

#[test]
fn an_example_input_that_no_longer_fits_is_refused_with_its_pointer() {
    assert_refused(
        "input.mcpdesc.json",
        (r#""depth": 8"#, r#""depth": "eight""#),
        "mcpdesc.tool.example.schema-conformance",
        "/tools/0/examples/scholars-mate/input/depth",
    );
}

#[test]
fn an_example_output_that_no_longer_fits_is_refused_with_its_pointer() {
    assert_refused(
        "output.mcpdesc.json",
        (r#""best_move": "Qxf7#","#, r#""best_move": 7,"#),
        "mcp.tool.structured-content.output-schema",
        "/tools/0/examples/scholars-mate/result/structuredContent/best_move",
    );
}
