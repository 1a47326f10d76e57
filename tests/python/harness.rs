//! Runs the Python MCP SDK clients of this folder (`examples.py`, `interaction.py`,
//! `without_capability.py`) on a plan, for the tests of several crates (each includes
//! this file with `#[path]`).
//!
//! A test first asks `prereq::python_sdk` (`tests/prereq.rs`) for the interpreter of
//! the official Python MCP SDK (`mcp` 2.3.0, pinned in `requirements.txt`):
//! `$MCPDESC_PYTHON` or this folder's `.venv` (made by `.ci/setup.d/25-python-sdk.sh`);
//! without it the test prints a notice and passes, or fails under
//! `MCPDESC_REQUIRE_TOOLS=1` (as in CI). A client that does not finish within two
//! minutes is killed and reported (a hang guard, not a performance check).

#![allow(dead_code)] // Each including test uses part of it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// This folder, found from the including crate's manifest directory.
fn python_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/python"))
        .find(|dir| dir.join("mcpcheck.py").is_file())
        .expect("tests/python/mcpcheck.py above the crate")
}

/// Runs `script` (a file of this folder) with `python` on `plan` and returns its
/// stdout; panics with stdout and stderr when it reports a failure (exit status not 0,
/// or no `N passed, 0 failed` line) or does not finish within two minutes.
pub fn run(python: &Path, script: &str, name: &str, plan: &serde_json::Value) -> String {
    let dir = std::env::temp_dir().join(format!("mcpdesc-python-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan_path = dir.join("plan.json");
    std::fs::write(&plan_path, serde_json::to_string_pretty(plan).unwrap()).unwrap();
    // Files, not pipes: a server process the client started and that outlived it
    // would hold a pipe open and make reading it wait forever.
    let (stdout_path, stderr_path) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = Command::new(python)
        .arg(python_dir().join(script))
        .arg(&plan_path)
        .current_dir(python_dir())
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("{name}: cannot start {}: {e}", python.display()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = std::fs::read_to_string(&stdout_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&stderr_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    println!("== {name}\n{stdout}");
    match status {
        None => {
            panic!("{name}: the Python client did not finish within 2 minutes:\n{stdout}\n{stderr}")
        }
        Some(s) if !s.success() => {
            panic!("{name}: the Python client reported failures ({s}):\n{stdout}\n{stderr}")
        }
        Some(_) => {
            assert!(stdout.contains(" passed, 0 failed"), "{name}: {stdout}");
            stdout
        }
    }
}

/// The `ok` lines of a client's output that end with `check`.
pub fn passed(stdout: &str, check: &str) -> usize {
    stdout
        .lines()
        .filter(|l| l.starts_with("ok ") && l.ends_with(check))
        .count()
}
