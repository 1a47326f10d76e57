//! What a test needs beyond the repository: the shared conformance corpus and Node.js.
//!
//! A fresh clone has no `../shared` beside it and maybe no Node.js. A test that needs
//! either asks here first, with one call at its top:
//!
//! ```ignore
//! #[path = "../prereq.rs"] // relative to the including file
//! mod prereq;
//!
//! #[test]
//! fn fixture_verdicts() {
//!     let Some(conformance) = prereq::shared_conformance("fixture_verdicts") else {
//!         return;
//!     };
//!     // ... read conformance.join("fixtures-0.8.0-rc.1") ...
//! }
//! ```
//!
//! When a prerequisite is missing the test passes after printing one line on the
//! process's standard error, naming the test, what is missing and how to provide it. The
//! line goes to the stderr file handle, not through `eprintln!`: libtest captures the
//! `print!`/`eprint!` output of passing tests, so a notice printed that way would never
//! be seen. CI cannot skip silently: with `MCPDESC_REQUIRE_CORPUS=1` a missing corpus,
//! and with `MCPDESC_REQUIRE_NODE=1` a missing Node.js or npm package, is a panic with
//! the same message (`.ci/run` sets both).
//!
//! | helper | found at | enabled by |
//! |---|---|---|
//! | [`shared_conformance`] | `$MCPDESC_SHARED_DIR/conformance`, default `<repo>/../shared/conformance` | a checkout of the shared inputs beside the repository, or `MCPDESC_SHARED_DIR` |
//! | [`node`] | `node` and `npm` on `PATH` (Node.js 18 or newer) | installing Node.js |
//! | [`npm_package`] | `tests/e2e/node_modules/<package>`, pinned by `tests/e2e/package-lock.json` | Node.js; installed here with `npm ci` when missing |
//! | [`program`] | an external program (nginx, chromium, a Python interpreter with a package...) on `PATH` or at a path | installing it (`.ci/setup.d/` installs each one CI needs) |
//! | [`python_sdk`] | a Python interpreter that can `import mcp` (the official Python MCP SDK): `$MCPDESC_PYTHON`, else `<repo>/tests/python/.venv/bin/python` | `.ci/setup.d/25-python-sdk.sh` (makes that venv from `tests/python/requirements.txt`) |
//!
//! The file is included by path from the tests of several crates, so it depends on the
//! standard library only.

// Each including test binary uses a different part of this module.
#![allow(dead_code)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Makes a missing shared corpus a failure when set to `1`.
pub const REQUIRE_CORPUS: &str = "MCPDESC_REQUIRE_CORPUS";
/// Makes a missing Node.js (or npm package) a failure when set to `1`.
pub const REQUIRE_NODE: &str = "MCPDESC_REQUIRE_NODE";
/// Makes a missing external program ([`program`]) a failure when set to `1`.
pub const REQUIRE_TOOLS: &str = "MCPDESC_REQUIRE_TOOLS";
/// The Python interpreter with the official MCP SDK installed, instead of
/// `<repo>/tests/python/.venv/bin/python` ([`python_sdk`]).
pub const PYTHON: &str = "MCPDESC_PYTHON";
/// The folder holding the shared inputs (`conformance/` inside it), instead of
/// `<repo>/../shared`.
pub const SHARED_DIR: &str = "MCPDESC_SHARED_DIR";

/// The oldest Node.js major version the pinned packages support (their `engines`).
const NODE_MAJOR: u32 = 18;

/// The `conformance/` folder of the shared corpus, or `None` (with a notice) when it is
/// not there. Panics instead of skipping under `MCPDESC_REQUIRE_CORPUS=1`.
pub fn shared_conformance(test: &str) -> Option<PathBuf> {
    let (dir, from_variable) = match std::env::var_os(SHARED_DIR) {
        Some(dir) if !dir.is_empty() => (PathBuf::from(dir), true),
        _ => (beside_repo("shared"), false),
    };
    let conformance = dir.join("conformance");
    if conformance.is_dir() {
        return Some(normalize(&conformance));
    }
    let how = if from_variable {
        format!("{SHARED_DIR} points there")
    } else {
        format!("check the shared inputs out beside the repository, or set {SHARED_DIR}")
    };
    missing(
        REQUIRE_CORPUS,
        test,
        &format!("no shared corpus at {} ({how})", conformance.display()),
    );
    None
}

/// Whether Node.js and npm can be run: `false` (with a notice) when not. Panics instead
/// under `MCPDESC_REQUIRE_NODE=1`.
pub fn node(test: &str) -> bool {
    static FOUND: OnceLock<Result<(), String>> = OnceLock::new();
    match FOUND.get_or_init(find_node) {
        Ok(()) => true,
        Err(problem) => {
            missing(
                REQUIRE_NODE,
                test,
                &format!("{problem} (put Node.js {NODE_MAJOR}+ and npm on PATH)"),
            );
            false
        }
    }
}

/// The directory of `package` (for instance `@modelcontextprotocol/server-memory`)
/// under `tests/e2e/node_modules/`, installed first with `npm ci` from the committed
/// lockfile when it is missing. `None` (with a notice) without Node.js or when the
/// installation fails; a panic instead under `MCPDESC_REQUIRE_NODE=1`. A package that
/// `tests/e2e/package.json` does not list is a panic: it is a mistake in the test.
pub fn npm_package(test: &str, package: &str) -> Option<PathBuf> {
    let e2e = repo_root().join("tests/e2e");
    let manifest = std::fs::read_to_string(e2e.join("package.json"))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", e2e.join("package.json").display()));
    assert!(
        manifest.contains(&format!("\"{package}\"")),
        "{test}: {package} is not pinned in {}",
        e2e.join("package.json").display()
    );
    if !node(test) {
        return None;
    }
    let dir = e2e.join("node_modules").join(package);
    // Installed at the version the lockfile pins (a stale `node_modules` left from an
    // older pin is reinstalled).
    let installed = |dir: &Path| {
        let pinned = std::fs::read_to_string(e2e.join("package-lock.json"))
            .ok()
            .and_then(|lock| version_after(&lock, &format!("\"node_modules/{package}\"")));
        let found = std::fs::read_to_string(dir.join("package.json"))
            .ok()
            .and_then(|manifest| version_after(&manifest, "{"));
        found.is_some() && found == pinned
    };
    if installed(&dir) {
        return Some(dir);
    }
    // Tests of one binary run on parallel threads: one installation at a time, and the
    // others find its result.
    static INSTALL: Mutex<()> = Mutex::new(());
    let _guard = INSTALL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if installed(&dir) {
        return Some(dir);
    }
    let problem = match npm_ci(&e2e) {
        Ok(()) if installed(&dir) => return Some(dir),
        Ok(()) => format!("npm ci in {} did not install {package}", e2e.display()),
        Err(problem) => problem,
    };
    missing(
        REQUIRE_NODE,
        test,
        &format!("{package} could not be installed: {problem} (run `npm ci` in tests/e2e)"),
    );
    None
}

/// The path of an external program the test runs (`nginx`, `chromium`, ...), or `None`
/// (with a notice naming `how` to install it) when `candidates` has none that runs with
/// `probe` as its arguments. A candidate with a `/` is a path, else it is looked up on
/// `PATH`. Panics instead of skipping under `MCPDESC_REQUIRE_TOOLS=1`, which `.ci/run`
/// sets after its `.ci/setup.d/` scripts installed every program the tests need.
pub fn program(test: &str, candidates: &[&str], probe: &[&str], how: &str) -> Option<PathBuf> {
    for candidate in candidates {
        let path = if candidate.contains('/') {
            PathBuf::from(candidate)
        } else {
            match std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(candidate))
                    .find(|p| p.is_file())
            }) {
                Some(path) => path,
                None => continue,
            }
        };
        let shown = path.to_string_lossy().into_owned();
        if run(&shown, probe, Path::new("."), Duration::from_secs(60)).is_ok() {
            return Some(path);
        }
    }
    missing(
        REQUIRE_TOOLS,
        test,
        &format!("none of {} runs ({how})", candidates.join(", ")),
    );
    None
}

/// The Python interpreter of the official Python MCP SDK (`mcp` on PyPI, pinned in
/// `tests/python/requirements.txt`): `$MCPDESC_PYTHON` when set, else the repository's
/// venv `tests/python/.venv/bin/python`, if it can `import mcp`. `None` (with a notice
/// saying how to make the venv) when not; a panic instead under
/// `MCPDESC_REQUIRE_TOOLS=1`. Nothing is installed here: `.ci/setup.d/25-python-sdk.sh`
/// does that (with the network, once).
pub fn python_sdk(test: &str) -> Option<PathBuf> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        let python = match std::env::var_os(PYTHON) {
            Some(path) if !path.is_empty() => PathBuf::from(path),
            _ => repo_root().join("tests/python/.venv/bin/python"),
        };
        let shown = python.to_string_lossy().into_owned();
        if !python.is_file() {
            return Err(format!("no Python interpreter at {shown}"));
        }
        run(
            &shown,
            &["-c", "import mcp"],
            Path::new("."),
            Duration::from_secs(60),
        )
        .map(|_| python.clone())
        .map_err(|e| format!("the Python MCP SDK is not usable: {e}"))
    });
    match found {
        Ok(python) => Some(python.clone()),
        Err(problem) => {
            missing(
                REQUIRE_TOOLS,
                test,
                &format!(
                    "{problem} (run `bash .ci/setup.d/25-python-sdk.sh` to make \
                     tests/python/.venv, or set {PYTHON})"
                ),
            );
            None
        }
    }
}

/// The value of the first `"version": "..."` after `anchor` in a JSON text (a lockfile
/// entry or a package manifest; std only, so no JSON parser).
fn version_after(text: &str, anchor: &str) -> Option<String> {
    let rest = &text[text.find(anchor)? + anchor.len()..];
    let key = "\"version\"";
    let rest = rest[rest.find(key)? + key.len()..].trim_start();
    let rest = rest.strip_prefix(':')?.trim_start().strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_owned())
}

/// Prints the notice of a skipped test, or panics with it when `require` is set to 1.
fn missing(require: &str, test: &str, what: &str) {
    if std::env::var(require).is_ok_and(|v| v == "1") {
        panic!("{test}: {what}; failing because {require}=1");
    }
    // Straight to the file handle: libtest captures `eprintln!` of passing tests.
    let _ = writeln!(
        std::io::stderr().lock(),
        "note: skipped {test}: {what}; {require}=1 fails instead"
    );
}

/// The repository root: the first ancestor of the including crate that holds this file.
fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("tests/prereq.rs").is_file())
        .unwrap_or_else(|| panic!("no tests/prereq.rs above {}", manifest.display()))
        .to_path_buf()
}

/// `<repo>/../name`, written without `..` for readable messages.
fn beside_repo(name: &str) -> PathBuf {
    let root = normalize(&repo_root());
    match root.parent() {
        Some(parent) => parent.join(name),
        None => root.join("..").join(name),
    }
}

/// `dir` without `..` components when it exists, for readable messages.
fn normalize(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

/// Runs `node --version` and `npm --version`; the problem in words when either fails
/// or Node.js is older than [`NODE_MAJOR`].
fn find_node() -> Result<(), String> {
    let version = run(
        "node",
        &["--version"],
        Path::new("."),
        Duration::from_secs(30),
    )
    .map_err(|e| format!("Node.js is not usable: {e}"))?;
    let major = version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse::<u32>().ok());
    match major {
        Some(major) if major >= NODE_MAJOR => {}
        _ => return Err(format!("Node.js {} is too old", version.trim())),
    }
    run(
        "npm",
        &["--version"],
        Path::new("."),
        Duration::from_secs(60),
    )
    .map_err(|e| format!("npm is not usable: {e}"))?;
    Ok(())
}

/// `npm ci` in `dir` from the committed lockfile (ten minutes at most).
fn npm_ci(dir: &Path) -> Result<(), String> {
    let args = ["ci", "--no-audit", "--no-fund"];
    run("npm", &args, dir, Duration::from_secs(600)).map(drop)
}

/// Runs `program` with `args` in `dir` and returns its stdout; the problem in words when
/// it cannot start, fails, or runs longer than `limit` (then it is killed).
fn run(program: &str, args: &[&str], dir: &Path, limit: Duration) -> Result<String, String> {
    let shown = format!("`{program} {}`", args.join(" "));
    // Files, not pipes: nothing waits on a pipe that a grandchild holds open.
    // One flat folder name, whatever the program's path and arguments hold.
    let name: String = format!("{program}-{}", args.join("-"))
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // Bounded: a file name has at most 255 bytes, and a probe's path can be long.
    let name = &name[name.len().saturating_sub(80)..];
    let scratch =
        std::env::temp_dir().join(format!("mcpdesc-prereq-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{shown}: {e}"))?;
    let (out, err) = (scratch.join("stdout"), scratch.join("stderr"));
    let result = (|| {
        let file = |p: &Path| std::fs::File::create(p).map_err(|e| format!("{shown}: {e}"));
        let mut child = Command::new(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(file(&out)?)
            .stderr(file(&err)?)
            .spawn()
            .map_err(|e| format!("{shown} did not start: {e}"))?;
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() > limit => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!("{shown} did not finish within {limit:?}"));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(20)),
                Err(e) => return Err(format!("{shown}: {e}")),
            }
        };
        let stdout = std::fs::read_to_string(&out).unwrap_or_default();
        if status.success() {
            Ok(stdout)
        } else {
            let stderr = std::fs::read_to_string(&err).unwrap_or_default();
            let last = stderr.lines().rev().find(|l| !l.trim().is_empty());
            Err(format!(
                "{shown} failed ({status}){}",
                last.map(|l| format!(": {}", l.trim())).unwrap_or_default()
            ))
        }
    })();
    let _ = std::fs::remove_dir_all(&scratch);
    result
}
