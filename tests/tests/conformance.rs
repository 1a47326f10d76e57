//! The reference validator's fixture corpus (`../shared/conformance/fixtures-0.8.0-rc.1`):
//! every file must get the verdict of the folder it is in.
//!
//! - `expected-valid`: no errors and no warnings;
//! - `expected-warning`: no errors, at least one warning;
//! - `expected-invalid`: at least one error.
//!
//! Prints a per-file table and fails on any mismatch.

use std::path::{Path, PathBuf};

use mcpdesc_codegen::{Description, Limits};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/conformance")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn fixture_verdicts_match_their_folders() {
    let root = shared().join("fixtures-0.8.0-rc.1");
    let mut table = String::new();
    let mut mismatches = Vec::new();
    let mut total = 0;
    for folder in ["expected-valid", "expected-warning", "expected-invalid"] {
        for file in files(&root.join(folder)) {
            total += 1;
            let desc = Description::from_path(&file, &Limits::default()).unwrap();
            let errors = desc.errors().count();
            let warnings = desc.warnings().count();
            let verdict = match (errors, warnings) {
                (0, 0) => "expected-valid",
                (0, _) => "expected-warning",
                _ => "expected-invalid",
            };
            // A document without errors must also convert into the typed model.
            let model_ok = errors > 0 || desc.document().is_some();
            let ok = verdict == folder && model_ok;
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            table.push_str(&format!(
                "{:<4} {:<17} {:<62} errors={errors} warnings={warnings}\n",
                if ok { "ok" } else { "FAIL" },
                folder,
                name
            ));
            if !ok {
                mismatches.push(format!(
                    "{folder}/{name}: got {verdict}{}\n{}",
                    if model_ok {
                        ""
                    } else {
                        " (typed model failed)"
                    },
                    desc.render_diagnostics()
                ));
            }
        }
    }
    println!("{table}");
    println!("agreement: {}/{total}", total - mismatches.len());
    assert!(
        mismatches.is_empty(),
        "{} of {total} fixtures disagree:\n\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}
