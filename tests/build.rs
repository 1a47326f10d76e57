//! Code generated at build time for the tests:
//!
//! - the `build.rs` front end at work: `tests/builder.rs` includes what the [`Builder`]
//!   writes for `drift/v1.mcpdesc.json`;
//! - `chess_rust_drift.rs`: the chess example's generated code with one hand edit on the
//!   Rust side only (`AnalyzeGameInput::depth` made a string), which
//!   `tests/rust_drift.rs` uses to show how the generated example tests report it.
//!
//! [`Builder`]: mcpdesc_codegen::Builder

use std::path::PathBuf;

use mcpdesc_codegen::{Description, Limits, Settings};

fn main() {
    mcpdesc_codegen::Builder::new("drift/v1.mcpdesc.json")
        .tests(false)
        .file_name("drift_v1")
        .compile_or_exit();
    chess_rust_drift();
}

/// Generates the chess code with its example tests, then edits it so that the tests are
/// plain `pub(crate)` functions (a test may call them and look at the panic) and the
/// type of `depth` no longer matches the schema's integer.
fn chess_rust_drift() {
    let source = "../examples/chess/chess.mcpdesc.json";
    println!("cargo::rerun-if-changed={source}");
    let desc =
        Description::from_path(source.as_ref(), &Limits::default()).expect("chess description");
    let generated = mcpdesc_codegen::generate(&desc, &Settings::new()).expect("chess generates");
    let mut code = generated.code;
    for (from, to) in [
        (
            "pub depth: ::std::option::Option<::std::num::NonZeroU64>,",
            "pub depth: ::std::option::Option<::std::string::String>,",
        ),
        (
            "#[cfg(test)]\nmod example_tests {",
            "pub(crate) mod example_tests {",
        ),
    ] {
        assert!(code.contains(from), "the chess code no longer has {from:?}");
        code = code.replacen(from, to, 1);
    }
    let tests_at = code.find("pub(crate) mod example_tests {").unwrap();
    let (head, tests) = code.split_at(tests_at);
    let tests = tests
        .replace("    #[test]\n", "")
        .replace("    fn ", "    pub(crate) fn ");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("chess_rust_drift.rs");
    std::fs::write(out, format!("{head}{tests}")).unwrap();
}
