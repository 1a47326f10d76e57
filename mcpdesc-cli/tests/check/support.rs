//! What the tests of `check` share: running the command in process, the chess
//! description, the mock as a server, drifted copies, wrapped servers, reports.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

pub const MCPDESC: &str = env!("CARGO_BIN_EXE_mcpdesc");

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub fn chess() -> PathBuf {
    root().join("examples/chess/chess.mcpdesc.json")
}

/// Runs `mcpdesc check ARGS...`: exit code, stdout, stderr.
pub fn check(args: &[&str]) -> (u8, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let argv = std::iter::once("mcpdesc")
        .chain(std::iter::once("check"))
        .chain(args.iter().copied());
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// `mcpdesc check DESCRIPTION OPTIONS... --format json -- mcpdesc serve-mock SERVED`:
/// exit code and the JSON report.
pub fn check_mock(description: &Path, options: &[&str], served: &Path) -> (u8, Value) {
    let description = description.to_str().unwrap();
    let served = served.to_str().unwrap();
    let mut args = vec![description];
    args.extend_from_slice(options);
    args.extend([
        "--format",
        "json",
        "--timeout",
        "20",
        "--",
        MCPDESC,
        "serve-mock",
        served,
    ]);
    let (code, out, err) = check(&args);
    let report = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("not a JSON report ({e}): {out}\nstderr: {err}"));
    (code, report)
}

/// The (kind, tool) pairs of a JSON report's failures.
pub fn failures(report: &Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "failure")
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_owned(),
                f["tool"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// A fresh temporary folder for one test.
pub fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdesc-check-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the chess description changed by `mutate`, written to `dir`.
pub fn drifted(dir: &Path, name: &str, mutate: impl FnOnce(&mut Value)) -> PathBuf {
    let mut desc: Value = serde_json::from_str(&std::fs::read_to_string(chess()).unwrap()).unwrap();
    mutate(&mut desc);
    let path = dir.join(format!("{name}.mcpdesc.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&desc).unwrap()).unwrap();
    path
}

/// The declaration of `name` that a 2025-11-25 session sees, the version `check`
/// negotiates (chess's `analyze_game` has a variant for 2025-06-18 and one for
/// 2025-11-25).
pub fn tool<'a>(desc: &'a mut Value, name: &str) -> &'a mut Value {
    desc["tools"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|t| {
            t["name"] == name
                && t["protocolVersions"]
                    .as_array()
                    .is_none_or(|list| list.iter().any(|v| v == "2025-11-25"))
        })
        .unwrap()
}

/// `sh -c SCRIPT` in front of `mcpdesc serve-mock CHESS`: the script reads the
/// client's lines and passes them on, doing `on_call` when one is a `tools/call`
/// (fd 3 is the real stdout).
pub fn wrapped(on_call: &str) -> Vec<String> {
    let script = format!(
        "exec 3>&1; while IFS= read -r line; do case \"$line\" in *'\"tools/call\"'*) {on_call};; esac; printf '%s\\n' \"$line\"; done | {MCPDESC} serve-mock {}",
        chess().display()
    );
    vec!["sh".into(), "-c".into(), script]
}

pub fn check_command(options: &[&str], command: &[String]) -> (u8, String, String, Duration) {
    let chess = chess();
    let mut args = vec![chess.to_str().unwrap()];
    args.extend_from_slice(options);
    args.push("--");
    args.extend(command.iter().map(String::as_str));
    let started = Instant::now();
    let (code, out, err) = check(&args);
    (code, out, err, started.elapsed())
}
