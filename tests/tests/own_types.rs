//! A crate with its own types in the generated code, checked from outside: a copy of
//! `examples/own-types` (its `build.rs` maps the `Issue` component, the `IssueState`
//! enum and the `uuid` and `date-time` formats to the crate's types; `list_issues` has
//! an identical `Issue` in its `$defs`, `search_issues` inline) is built and tested by a
//! child `cargo`, offline, with the workspace's `Cargo.lock`:
//!
//! - as it is, its generated example tests pass (every example's input and result goes
//!   through the crate's types, and the tracker answers each example's call with its
//!   result);
//! - once its `Issue` cannot hold an example (`labels` made a list of numbers), exactly
//!   the tests of the examples with a label fail, each naming its tool and example and
//!   the JSON pointer of the label, and the others still pass.
//!
//! The child builds share the scratch target directory of `cli_init.rs`, so the
//! dependencies compile once.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The target directory the child builds share (the one of `cli_init.rs`).
fn scratch_target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("init-target")
}

/// A copy of `examples/own-types` at `dir`, standalone (its own workspace, path
/// dependencies on this checkout, the workspace's lock file), with `model.rs` edited
/// by `edit`.
fn copy_example(dir: &Path, edit: impl Fn(String) -> String) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let example = repo().join("examples/own-types");
    for file in ["issues.mcpdesc.json", "build.rs", "src/lib.rs"] {
        std::fs::copy(example.join(file), dir.join(file)).unwrap();
    }
    let model = std::fs::read_to_string(example.join("src/model.rs")).unwrap();
    std::fs::write(dir.join("src/model.rs"), edit(model)).unwrap();
    let repo = std::fs::canonicalize(repo()).unwrap();
    let path = |krate: &str| format!("{:?}", repo.join(krate).to_string_lossy());
    let manifest = format!(
        "[package]\n\
         name = \"own-types\"\n\
         version = \"0.1.0\"\n\
         edition = \"2021\"\n\
         publish = false\n\
         \n\
         [workspace]\n\
         \n\
         [dependencies]\n\
         mcpdesc = {{ path = {mcpdesc} }}\n\
         serde = {{ version = \"=1.0.228\", features = [\"derive\"] }}\n\
         serde_json = \"=1.0.154\"\n\
         uuid = {{ version = \"=1.29.3\", default-features = false, features = [\"std\", \"serde\"] }}\n\
         chrono = {{ version = \"=0.4.45\", default-features = false, features = [\"std\", \"serde\"] }}\n\
         \n\
         [build-dependencies]\n\
         mcpdesc-codegen = {{ path = {codegen} }}\n",
        mcpdesc = path("mcpdesc"),
        codegen = path("mcpdesc-codegen"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

/// `cargo test --offline` in `dir`: (success, stdout, stderr).
fn cargo_test(dir: &Path) -> (bool, String, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args(["test", "--offline"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", scratch_target())
        // The parent's build settings are not the child's.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The generated tests of the example crate: one per Tool Example.
const TESTS: [&str; 7] = [
    "convert_time_example_paris",
    "get_current_time_example_utc",
    "get_issue_example_login",
    "list_issues_example_all",
    "list_issues_example_closed",
    "search_issues_example_safari",
    "update_issue_example_close",
];

#[test]
fn the_own_types_crate_passes_its_example_tests_until_a_type_cannot_hold_an_example() {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("own-types");

    let dir = root.join("as-is");
    copy_example(&dir, |model| model);
    let (ok, out, err) = cargo_test(&dir);
    assert!(ok, "the example crate's tests fail:\n{out}\n{err}");
    for test in TESTS {
        assert!(
            out.contains(&format!("{test} ... ok")),
            "no passing `{test}`:\n{out}"
        );
    }

    let dir = root.join("labels-as-numbers");
    copy_example(&dir, |model| {
        let edited = model.replace("pub labels: Vec<String>,", "pub labels: Vec<u8>,");
        assert_ne!(
            edited, model,
            "model.rs no longer has `labels: Vec<String>`"
        );
        edited
    });
    let (ok, out, err) = cargo_test(&dir);
    assert!(
        !ok,
        "a type that cannot hold the examples passes:\n{out}\n{err}"
    );
    // The examples with a label fail, each naming itself and the label's pointer.
    for (test, message) in [
        (
            "get_issue_example_login",
            "tool `get_issue`, example `login` (/tools/0/examples/login/result/structuredContent/labels/0): does not deserialize into `own_types::model::Issue`",
        ),
        (
            "list_issues_example_all",
            "tool `list_issues`, example `all` (/tools/1/examples/all/result/structuredContent/issues/0/labels/0): does not deserialize into",
        ),
        (
            "search_issues_example_safari",
            "tool `search_issues`, example `safari` (/tools/2/examples/safari/result/structuredContent/items/0/labels/0): does not deserialize into",
        ),
    ] {
        assert!(out.contains(&format!("{test} ... FAILED")), "`{test}` does not fail:\n{out}");
        assert!(out.contains(message), "no failure reads {message:?}:\n{out}");
    }
    // The others still hold their examples (an issue without labels, times).
    for test in [
        "list_issues_example_closed",
        "update_issue_example_close",
        "get_current_time_example_utc",
        "convert_time_example_paris",
    ] {
        assert!(
            out.contains(&format!("{test} ... ok")),
            "`{test}` fails:\n{out}"
        );
    }
    assert!(out.contains("4 passed; 3 failed"), "{out}");
}
