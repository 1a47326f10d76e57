//! `mcpdesc init` and `mcpdesc stubs`: a new crate is written, builds with `cargo
//! build`, fails `cargo test` once per example (naming it) until the handlers are
//! written, and serves what its description lists (`mcpdesc check` over stdio and
//! HTTP; over HTTP a secured description answers 401 without credentials). The
//! `--http` crate answers `/healthz`, `/readyz` and `/metrics` (the Prometheus text
//! counting the calls `mcpdesc check` made), exits 0 after draining on
//! SIGTERM, and its `deploy/nginx.conf` passes `nginx -t` (skipped without nginx,
//! see tests/prereq.rs).
//!
//! The crates depend on this checkout by path (`--mcpdesc-path`) and are built for
//! real by a child `cargo`, offline, with the workspace's `Cargo.lock` (the same
//! versions the workspace builds) and one scratch target directory shared by every
//! test here, so the dependencies compile once.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "../prereq.rs"]
mod prereq;

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

/// The crate's binary serving HTTP on a free port, its URL and the rest of its
/// stderr.
struct HttpServer {
    child: std::process::Child,
    url: String,
    stderr: BufReader<std::process::ChildStderr>,
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
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let url = line
            .split_whitespace()
            .last()
            .filter(|u| u.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL on the server's first line: {line:?}"))
            .to_owned();
        HttpServer { child, url, stderr }
    }

    /// `GET path` on the server over a raw HTTP/1.1 connection: (status, body).
    fn get(&self, path: &str) -> (u16, String) {
        let authority = self
            .url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap();
        let mut stream = std::net::TcpStream::connect(authority).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status = response
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("not an HTTP response: {response:?}"));
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_owned())
            .unwrap_or_default();
        (status, body)
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
fn the_http_crate_serves_its_listings_probes_and_drains_on_sigterm() {
    let dir = crate_dir("sample-http");
    init(&dir, &["--http"]);
    let (ok, _, err) = cargo(&dir, "build");
    assert!(ok, "{err}");
    assert!(
        !err.contains("src/main.rs"),
        "the template builds with warnings:\n{err}"
    );
    let mut server = HttpServer::start(&dir);
    let description = dir.join("sample-http.mcpdesc.yaml");
    let (code, out, err) = mcpdesc(&["check", description.to_str().unwrap(), "--url", &server.url]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(server.get("/healthz"), (200, "ok".to_owned()));
    assert_eq!(server.get("/readyz"), (200, "ready".to_owned()));
    // The calls `mcpdesc check` made, in the OpenTelemetry MCP conventions' names.
    let (status, metrics) = server.get("/metrics");
    assert_eq!(status, 200, "{metrics}");
    for line in [
        "# TYPE mcp_server_operation_duration_seconds histogram",
        "mcp_server_operation_duration_seconds_count{mcp_method_name=\"initialize\"",
        "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/list\"",
    ] {
        assert!(
            metrics.contains(line),
            "no `{line}` in /metrics:\n{metrics}"
        );
    }

    #[cfg(unix)]
    {
        // SIGTERM drains (nothing is in flight) and exits 0.
        let killed = Command::new("kill")
            .args(["-TERM", &server.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let status = loop {
            if let Some(status) = server.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no exit 20 s after SIGTERM"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let mut rest = String::new();
        server.stderr.read_to_string(&mut rest).unwrap();
        assert_eq!(status.code(), Some(0), "{rest}");
        assert!(rest.contains("draining"), "{rest}");
    }

    // Bad flags are usage errors, naming the flag.
    let bad = Command::new(binary(&dir))
        .args(["--http", "127.0.0.1:0", "--rate-limit", "0"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--rate-limit needs"));
    let bad = Command::new(binary(&dir))
        .args(["--http", "127.0.0.1:0", "--log-format", "xml"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--log-format: `xml`"));
}

#[test]
fn the_http_crate_has_an_nginx_config_nginx_accepts() {
    let dir = crate_dir("nginx-conf");
    init(&dir, &["--http"]);
    let conf = std::fs::read_to_string(dir.join("deploy/nginx.conf")).unwrap();
    for directive in [
        "location /.well-known/",
        "proxy_next_upstream error timeout http_502 http_503 non_idempotent;",
        "proxy_buffering off;",
        "location = /readyz",
        "upstream nginx-conf",
    ] {
        assert!(conf.contains(directive), "no `{directive}`:\n{conf}");
    }
    let Some(nginx) = prereq::program(
        "the_http_crate_has_an_nginx_config_nginx_accepts",
        &["nginx", "/usr/sbin/nginx"],
        &["-v"],
        "apt-get install nginx-light; CI: .ci/setup.d/20-nginx.sh",
    ) else {
        return;
    };
    let checked = Command::new(nginx)
        .arg("-t")
        .arg("-p")
        .arg(dir.join("deploy"))
        .args(["-c", "nginx.conf"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stderr);
    assert!(checked.status.success(), "{said}");
    assert!(said.contains("syntax is ok"), "{said}");
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
