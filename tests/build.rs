//! Code generated at build time for the tests:
//!
//! - the `build.rs` front end at work: `tests/builder.rs` includes what the [`Builder`]
//!   writes for `drift/v1.mcpdesc.json`;
//! - `hostile.rs`: the code of every description of `hostile/`, one module each, which
//!   `tests/hostile.rs` compiles together with every warning denied;
//! - `random/`: the generator-level property test's random descriptions (`random.rs`),
//!   compiled together by `tests/random.rs` in the same way;
//! - `chess_rust_drift.rs`: the chess example's generated code with one hand edit on the
//!   Rust side only (`AnalyzeGameInput::depth` made a string), which
//!   `tests/rust_drift.rs` uses to show how the generated example tests report it;
//! - `notebook_right.rs` and `notebook_wrong.rs`: the notebook fixture through the
//!   [`Builder`] with a test server (`Builder::test_server`), against a right and a wrong
//!   implementation; in the wrong one the tests are made plain `pub(crate)` functions
//!   (as in `chess_rust_drift.rs`), so that `tests/implementation.rs` can call each and
//!   read its panic.
//!
//! [`Builder`]: mcpdesc_codegen::Builder

use std::path::PathBuf;

use mcpdesc_codegen::{Description, Limits, Settings, Side};

fn main() {
    mcpdesc_codegen::Builder::new("drift/v1.mcpdesc.json")
        .tests(false)
        .file_name("drift_v1")
        .compile_or_exit();
    chess_rust_drift();
    hostile();
    random::generate_all();
    notebook();
}

#[path = "build_random.rs"]
mod random;

/// The notebook fixture through the `Builder` with a test server: the right module's
/// tests stay tests; the wrong module's become callable functions.
fn notebook() {
    let fixture = "fixtures/generator/implementation.mcpdesc.json";
    mcpdesc_codegen::Builder::new(fixture)
        .test_server("crate::right_builder::Server::new()")
        .file_name("notebook_right")
        .compile_or_exit();
    let wrong = mcpdesc_codegen::Builder::new(fixture)
        .test_server("crate::wrong_builder::Server::new()")
        .file_name("notebook_wrong")
        .compile_or_exit();
    let code = std::fs::read_to_string(&wrong).unwrap();
    let from = "#[cfg(test)]\nmod example_tests {";
    assert!(code.contains(from), "the notebook code has no test module");
    let tests_at = code.find(from).unwrap();
    let (head, tests) = code.split_at(tests_at);
    let tests = tests
        .replacen(from, "pub(crate) mod example_tests {", 1)
        .replace("    #[test]\n", "")
        .replace("    fn ", "    pub(crate) fn ");
    mcpdesc_codegen::builder::write_if_changed(&wrong, format!("{head}{tests}").as_bytes())
        .unwrap();
}

/// Generates the chess code with its example tests, then edits it so that the tests are
/// plain `pub(crate)` functions (a test may call them and look at the panic) and the
/// type of `depth` no longer matches the schema's integer.
fn chess_rust_drift() {
    let source = "../examples/chess/chess.mcpdesc.json";
    println!("cargo::rerun-if-changed={source}");
    let desc =
        Description::from_path(source.as_ref(), &Limits::default()).expect("chess description");
    // Without builders: the edit changes the struct's field type, which its builder
    // would still convert from the schema's.
    let generated = mcpdesc_codegen::generate(&desc, &Settings::new().builders(false))
        .expect("chess generates");
    let mut code = generated.code;
    for (from, to) in [
        (
            "pub depth: ::std::option::Option<i64>,",
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

/// Generates every description of `hostile/` (a corpus of descriptions written to break
/// the generator: colliding names, keywords, escapes, schemas typify cannot take as they
/// are) into `$OUT_DIR/hostile/` (both sides, so the typed client meets them too), with
/// `hostile.rs` declaring one module per case. A description that does not generate
/// stops the build with its error.
fn hostile() {
    let dir = PathBuf::from("hostile");
    println!("cargo::rerun-if-changed=hostile");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap()).join("hostile");
    std::fs::create_dir_all(&out).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".mcpdesc.json"))
        .collect();
    files.sort();
    let mut modules = String::new();
    for file in files {
        let stem = file
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".mcpdesc.json")
            .to_owned();
        let module = stem.replace('-', "_").to_lowercase();
        let desc = Description::from_path(&file, &Limits::default()).expect("hostile case");
        let generated = mcpdesc_codegen::generate(&desc, &Settings::new().side(Side::Both))
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        std::fs::write(out.join(format!("{module}.rs")), generated.code).unwrap();
        modules.push_str(&format!(
            "/// `hostile/{stem}.mcpdesc.json`.\npub mod {module} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/hostile/{module}.rs\"));\n}}\n"
        ));
    }
    std::fs::write(out.join("mod.rs"), modules).unwrap();
}
