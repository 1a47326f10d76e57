//! `mcpdesc init` and `mcpdesc stubs`: a new crate is written, builds with `cargo
//! build`, fails `cargo test` once per example (naming it) until the handlers are
//! written, and serves what its description lists (`mcpdesc check` over stdio and
//! HTTP; over HTTP a secured description answers 401 without credentials).
//!
//! The crates depend on this checkout by path (`--mcpdesc-path`) and are built for
//! real by a child `cargo`, offline, with the workspace's `Cargo.lock` (the same
//! versions the workspace builds) and one scratch target directory shared by every
//! test here, so the dependencies compile once.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A fresh, missing directory for a test's crate.
fn crate_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("init-crates")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    dir
}

/// The target directory the child builds share.
fn scratch_target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("init-target")
}

fn mcpdesc(args: &[&str]) -> (u8, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut argv = vec!["mcpdesc"];
    argv.extend_from_slice(args);
    let code = mcpdesc_cli::run(argv, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// `mcpdesc init DIR --mcpdesc-path REPO EXTRA...`, then the workspace's lock file
/// copied in.
fn init(dir: &Path, extra: &[&str]) {
    let repo = repo();
    let mut args = vec![
        "init",
        dir.to_str().unwrap(),
        "--mcpdesc-path",
        repo.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = mcpdesc(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("created "), "{out}");
    std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

/// `cargo SUBCOMMAND --offline` in `dir` with the shared target: (success, stdout,
/// stderr).
fn cargo(dir: &Path, subcommand: &str) -> (bool, String, String) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = Command::new(cargo)
        .args([subcommand, "--offline", "--quiet"])
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

/// Builds the crate and runs its tests: every example test fails, naming its
/// example, with the stubs' "not implemented" message where the handler answered.
fn builds_and_fails_per_example(dir: &Path, examples: &[&str]) {
    let (ok, _, err) = cargo(dir, "build");
    assert!(ok, "cargo build of the new crate failed:\n{err}");
    assert!(
        !err.contains("warning: unused"),
        "the new crate builds with warnings:\n{err}"
    );
    let (ok, out, err) = cargo(dir, "test");
    assert!(!ok, "the stubs pass the example tests:\n{out}\n{err}");
    let failed = format!("0 passed; {} failed", examples.len());
    assert!(out.contains(&failed), "expected `{failed}`:\n{out}");
    for example in examples {
        assert!(
            out.contains(&format!("example `{example}`")),
            "no failure names example `{example}`:\n{out}"
        );
    }
    assert!(out.contains("not implemented: "), "{out}");
}

/// The built binary of the crate in `dir`.
fn binary(dir: &Path) -> PathBuf {
    let name = dir.file_name().unwrap().to_str().unwrap();
    scratch_target().join("debug").join(name)
}

/// The crate's binary serving HTTP on a free port, and its URL.
struct HttpServer {
    child: std::process::Child,
    url: String,
}

impl HttpServer {
    fn start(dir: &Path) -> HttpServer {
        let mut child = Command::new(binary(dir))
            .args(["--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .last()
            .filter(|u| u.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL on the server's first line: {line:?}"))
            .to_owned();
        HttpServer { child, url }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_sample_crate_builds_tests_and_serves_on_stdio() {
    let dir = crate_dir("sample-stdio");
    init(&dir, &[]);
    let description = dir.join("sample-stdio.mcpdesc.yaml");
    assert!(description.is_file());
    let (code, out, err) = mcpdesc(&["validate", description.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    builds_and_fails_per_example(&dir, &["ada", "ada", "today"]);
    let (code, out, err) = mcpdesc(&[
        "check",
        description.to_str().unwrap(),
        "--",
        binary(&dir).to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn the_http_crate_serves_its_listings_over_http() {
    let dir = crate_dir("sample-http");
    init(&dir, &["--http"]);
    let (ok, _, err) = cargo(&dir, "build");
    assert!(ok, "{err}");
    let server = HttpServer::start(&dir);
    let description = dir.join("sample-http.mcpdesc.yaml");
    let (code, out, err) = mcpdesc(&["check", description.to_str().unwrap(), "--url", &server.url]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn a_secured_description_gets_an_authenticator_that_refuses_until_written() {
    let dir = crate_dir("games");
    let given = repo().join("tests/fixtures/generator/security.mcpdesc.json");
    init(&dir, &["--http", "--description", given.to_str().unwrap()]);
    let handlers = std::fs::read_to_string(dir.join("src/handlers.rs")).unwrap();
    assert!(handlers.contains("impl contract::Authenticator for Service"));
    builds_and_fails_per_example(&dir, &["all", "scholar"]);
    // Over HTTP the router enforces the description's security with the stub
    // authenticator: the listings are open (some primitives are public), the calls
    // of secured tools are refused to a client without credentials.
    let server = HttpServer::start(&dir);
    let (code, out, err) = mcpdesc(&[
        "check",
        dir.join("security.mcpdesc.json").to_str().unwrap(),
        "--url",
        &server.url,
        "--examples",
        "all",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    for refused in [
        "tool `list_games`, example `all`",
        "tool `record_game`, example `scholar`",
    ] {
        assert!(out.contains(refused), "{out}");
    }
}

#[test]
fn init_refuses_a_directory_that_is_not_empty() {
    let dir = crate_dir("not-empty");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let (code, out, err) = mcpdesc(&["init", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("is not empty"), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn init_refuses_an_invalid_description_and_writes_nothing() {
    let dir = crate_dir("invalid");
    let bad = repo().join("tests/conformance/expected-invalid/tool-members.json");
    let (code, _, err) = mcpdesc(&[
        "init",
        dir.to_str().unwrap(),
        "--description",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error[") && err.contains("nothing written"),
        "{err}"
    );
    assert!(!dir.exists());
}

#[test]
fn stubs_implement_every_trait_the_generator_emits() {
    let security = repo().join("tests/fixtures/generator/security.mcpdesc.json");
    let (code, out, err) = mcpdesc(&["stubs", security.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    for block in [
        "impl contract::ListGames for Service",
        "impl contract::RecordGame for Service",
        "impl contract::ServerStatus for Service",
        "impl contract::GameReviewPrompt for Service",
        "impl contract::LeaderboardResource for Service",
        "impl contract::Authenticator for Service",
    ] {
        assert!(out.contains(block), "no `{block}`:\n{out}");
    }
    // One stub per required method, named as the generated traits name them.
    for method in [
        "async fn list_games(",
        "async fn get_game_review(",
        "async fn read_leaderboard(",
        "async fn authenticate_api_key(",
        "async fn authenticate_api_key_2(",
        "async fn authenticate_basic(",
        "async fn authenticate_games_oauth(",
        "async fn authenticate_sso(",
    ] {
        assert_eq!(out.matches(method).count(), 1, "{method}:\n{out}");
    }
    assert!(!out.contains("impl contract::Handlers") && !out.contains("impl contract::Server "));
    let (code, _, err) = mcpdesc(&["stubs", "/nonexistent/x.mcpdesc.json"]);
    assert_eq!(code, 2, "{err}");
}
