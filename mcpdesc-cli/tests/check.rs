//! `mcpdesc check` against servers it can trust or distrust: `mcpdesc serve-mock` of the
//! chess description and (with the shared corpus, `tests/prereq.rs`) every shared
//! real-world description under `--strict`; servers that drifted from their
//! description (serve-mock of a mutated copy); servers that crash, hang, write garbage
//! or never initialize; the JSON report; usage errors. The command runs in process
//! (`mcpdesc_cli::run`), the servers are the built `mcpdesc` binary and `sh` scripts.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

#[path = "../../tests/e2e/harness.rs"]
mod harness;

const MCPDESC: &str = env!("CARGO_BIN_EXE_mcpdesc");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn chess() -> PathBuf {
    root().join("examples/chess/chess.mcpdesc.json")
}

/// Runs `mcpdesc check ARGS...`: exit code, stdout, stderr.
fn check(args: &[&str]) -> (u8, String, String) {
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
fn check_mock(description: &Path, options: &[&str], served: &Path) -> (u8, Value) {
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
fn failures(report: &Value) -> Vec<(String, String)> {
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
fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcpdesc-check-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_mock_of_every_described_server_passes_strictly() {
    const TEST: &str = "mcpdesc-cli/check::the_mock_of_every_described_server_passes_strictly";
    let mut files = vec![chess()];
    if let Some(shared) = harness::prereq::shared_conformance(TEST) {
        let mut real_world: Vec<PathBuf> = std::fs::read_dir(shared.join("real-world"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        real_world.sort();
        assert!(!real_world.is_empty());
        files.extend(real_world);
    }
    for file in files {
        let (code, report) = check_mock(
            &file,
            &[
                "--examples",
                "all",
                "--generate",
                "all",
                "--cases",
                "6",
                "--strict",
            ],
            &file,
        );
        assert_eq!(code, 0, "{}: {report:#}", file.display());
        assert_eq!(report["counts"]["failures"], 0);
        assert_eq!(report["strict"], true);
        let calls = report["calls"].as_array().unwrap();
        // Every Tool Example was called, and generated inputs both valid and invalid.
        let desc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for tool in desc["tools"].as_array().unwrap() {
            let name = tool["name"].as_str().unwrap();
            for example in tool["examples"]
                .as_object()
                .into_iter()
                .flat_map(|m| m.keys())
            {
                assert!(
                    calls
                        .iter()
                        .any(|c| c["target"] == name && c["example"] == example.as_str()),
                    "{}: {name}/{example} not called",
                    file.display()
                );
            }
            let generated = |kind: &str| {
                calls.iter().any(|c| {
                    c["target"] == name
                        && c["example"]
                            .as_str()
                            .unwrap()
                            .ends_with(&format!("({kind})"))
                })
            };
            let skipped = report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["tool"] == name && f["kind"] == "skipped");
            assert!(generated("valid") || skipped, "{}: {name}", file.display());
        }
    }
}

#[test]
fn by_default_nothing_is_called() {
    let (code, report) = check_mock(&chess(), &[], &chess());
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["calls"], json!([]));
    assert_eq!(report["counts"]["calls"], 0);
    // The human report says so.
    let chess = chess();
    let (code, out, _) = check(&[
        chess.to_str().unwrap(),
        "--",
        MCPDESC,
        "serve-mock",
        chess.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("called: nothing"), "{out}");
    assert!(
        out.contains("(MCP 2025-11-25): 0 failures, 0 warnings, 0 skipped"),
        "{out}"
    );
}

/// A copy of the chess description changed by `mutate`, written to `dir`.
fn drifted(dir: &Path, name: &str, mutate: impl FnOnce(&mut Value)) -> PathBuf {
    let mut desc: Value = serde_json::from_str(&std::fs::read_to_string(chess()).unwrap()).unwrap();
    mutate(&mut desc);
    let path = dir.join(format!("{name}.mcpdesc.json"));
    std::fs::write(&path, serde_json::to_string_pretty(&desc).unwrap()).unwrap();
    path
}

/// The declaration of `name` that a 2025-11-25 session sees, the version `check`
/// negotiates (chess's `analyze_game` has a variant for 2025-06-18 and one for
/// 2025-11-25).
fn tool<'a>(desc: &'a mut Value, name: &str) -> &'a mut Value {
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

#[test]
fn a_server_that_drifted_fails_naming_the_tool() {
    let dir = tempdir("drift");
    let cases: Vec<(&str, PathBuf, (&str, &str))> = vec![
        (
            "renamed input field",
            drifted(&dir, "renamed", |d| {
                let t = tool(d, "analyze_game");
                let depth = t["inputSchema"]["properties"]
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("depth")
                    .unwrap();
                t["inputSchema"]["properties"]["plies"] = depth;
                let input = &mut t["examples"]["scholars-mate"]["input"];
                let v = input
                    .as_object_mut()
                    .unwrap()
                    .shift_remove("depth")
                    .unwrap();
                input["plies"] = v;
            }),
            ("input-schema-differs", "analyze_game"),
        ),
        (
            "output type changed",
            drifted(&dir, "output", |d| {
                tool(d, "analyze_game")["outputSchema"]["properties"]["evaluation"]["type"] =
                    json!(["number", "string"]);
            }),
            ("output-schema-differs", "analyze_game"),
        ),
        (
            "tool removed",
            drifted(&dir, "removed", |d| {
                d["tools"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|t| t["name"] != "record_game_result");
            }),
            ("missing", "record_game_result"),
        ),
        (
            "tool added",
            drifted(&dir, "added", |d| {
                let mut extra = tool(d, "get_player_rating").clone();
                extra["name"] = json!("resign_game");
                d["tools"].as_array_mut().unwrap().push(extra);
            }),
            ("undeclared", "resign_game"),
        ),
    ];
    for (what, served, expected) in cases {
        let (code, report) = check_mock(&chess(), &[], &served);
        assert_eq!(code, 1, "{what}: {report:#}");
        let got = failures(&report);
        let want = vec![(expected.0.to_owned(), expected.1.to_owned())];
        assert_eq!(got, want, "{what}: {report:#}");
        // The human report names the tool in its diagnostic.
        let (code, out, _) = check(&[
            chess().to_str().unwrap(),
            "--",
            MCPDESC,
            "serve-mock",
            served.to_str().unwrap(),
        ]);
        assert_eq!(code, 1);
        let line = format!("failure[{}]: tool `{}`", expected.0, expected.1);
        assert!(out.contains(&line), "{what}: {out}");
    }
    // Prompts and resources drift the same way.
    let served = drifted(&dir, "primitives", |d| {
        d["prompts"][0]["title"] = json!("Opening Plan");
        d.as_object_mut().unwrap().shift_remove("resources");
    });
    let (code, report) = check_mock(&chess(), &[], &served);
    assert_eq!(code, 1, "{report:#}");
    let got: Vec<(&str, &str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap(),
                f["primitive"].as_str().unwrap(),
                f["tool"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("member-differs", "prompt", "opening_study"),
            ("missing", "resource", "chess://rating-pools")
        ],
        "{report:#}"
    );
    assert!(report["findings"][0]["message"]
        .as_str()
        .unwrap()
        .starts_with("`title` in `prompts/list` differs"));
    // An example result the server no longer gives: a warning, a failure under --strict.
    let other = drifted(&dir, "other-result", |d| {
        tool(d, "get_player_rating")["examples"]["new-player-blitz"]["result"]["content"][0]
            ["text"] = json!("Rating: 1234");
    });
    let sel = ["--examples", "get_player_rating/new-player-blitz"];
    let (code, report) = check_mock(&chess(), &sel, &other);
    assert_eq!(code, 0, "{report:#}");
    let finding = &report["findings"][0];
    assert_eq!(finding["kind"], "example-differs", "{report:#}");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["tool"], "get_player_rating");
    assert_eq!(finding["example"], "new-player-blitz");
    assert_eq!(
        report["calls"].as_array().unwrap().len(),
        1,
        "only the selected example is called"
    );
    let strict = [sel[0], sel[1], "--strict"];
    let (code, report) = check_mock(&chess(), &strict, &other);
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(
        failures(&report),
        [("example-differs".to_owned(), "get_player_rating".to_owned())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_json_report_has_its_documented_shape() {
    let dir = tempdir("json");
    let served = drifted(&dir, "removed", |d| {
        d["tools"]
            .as_array_mut()
            .unwrap()
            .retain(|t| t["name"] != "record_game_result");
    });
    let (code, report) = check_mock(
        &chess(),
        &["--generate", "analyze_game", "--cases", "4", "--seed", "9"],
        &served,
    );
    assert_eq!(code, 1);
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "description",
            "server",
            "protocolVersion",
            "seed",
            "strict",
            "exampleOrder",
            "findings",
            "calls",
            "counts"
        ]
    );
    assert_eq!(report["seed"], 9);
    assert_eq!(report["protocolVersion"], "2025-11-25");
    assert_eq!(
        report["findings"][0],
        json!({
            "kind": "missing",
            "severity": "failure",
            "primitive": "tool",
            "tool": "record_game_result",
            "message": "the description declares it, but `tools/list` does not list it"
        })
    );
    assert_eq!(
        report["counts"],
        json!({"failures": 1, "warnings": 0, "skipped": 0, "calls": 4})
    );
    let calls = report["calls"].as_array().unwrap();
    assert_eq!(calls[0]["method"], "tools/call");
    assert_eq!(calls[0]["example"], "generated #1 (valid)");
    assert_eq!(calls[1]["example"], "generated #2 (invalid)");
    assert_eq!(calls[1]["params"]["name"], "analyze_game");
    // The same seed gives the same inputs; another seed others.
    let (_, again) = check_mock(
        &chess(),
        &["--generate", "analyze_game", "--cases", "4", "--seed", "9"],
        &served,
    );
    assert_eq!(again["calls"], report["calls"]);
    let (_, other) = check_mock(
        &chess(),
        &["--generate", "analyze_game", "--cases", "4", "--seed", "10"],
        &served,
    );
    assert_ne!(other["calls"], report["calls"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sh -c SCRIPT` in front of `mcpdesc serve-mock CHESS`: the script reads the
/// client's lines and passes them on, doing `on_call` when one is a `tools/call`
/// (fd 3 is the real stdout).
fn wrapped(on_call: &str) -> Vec<String> {
    let script = format!(
        "exec 3>&1; while IFS= read -r line; do case \"$line\" in *'\"tools/call\"'*) {on_call};; esac; printf '%s\\n' \"$line\"; done | {MCPDESC} serve-mock {}",
        chess().display()
    );
    vec!["sh".into(), "-c".into(), script]
}

fn check_command(options: &[&str], command: &[String]) -> (u8, String, String, Duration) {
    let chess = chess();
    let mut args = vec![chess.to_str().unwrap()];
    args.extend_from_slice(options);
    args.push("--");
    args.extend(command.iter().map(String::as_str));
    let started = Instant::now();
    let (code, out, err) = check(&args);
    (code, out, err, started.elapsed())
}

#[test]
fn servers_that_crash_hang_or_write_garbage_are_reported_in_bounded_time() {
    let one = [
        "--examples",
        "analyze_game/scholars-mate",
        "--timeout",
        "2",
        "--format",
        "json",
    ];
    // Crashes when a tool is called: a finding, exit 1.
    let (code, out, err, took) =
        check_command(&one, &wrapped("echo 'fatal: out of memory' >&2; exit 7"));
    assert_eq!(code, 1, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        failures(&report),
        [("server-exited".to_owned(), String::new())],
        "{report:#}"
    );
    assert!(took < Duration::from_secs(15), "{took:?}");
    // Hangs on a call: the call times out (a finding), the server is killed at the end.
    let (code, out, err, took) = check_command(&one, &wrapped("sleep 30"));
    assert_eq!(code, 1, "{out}{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        failures(&report),
        [("no-answer".to_owned(), "analyze_game".to_owned())],
        "{report:#}"
    );
    assert_eq!(report["calls"][0]["outcome"], "timeout");
    assert!(took < Duration::from_secs(15), "{took:?}");
    // Garbage on stdout in answer to a call: the session ends, a finding names the line.
    let (code, out, _, took) = check_command(&one, &wrapped("echo 'Segmentation fault' >&3"));
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["findings"][0]["kind"], "server-exited", "{report:#}");
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Segmentation fault"),
        "{report:#}"
    );
    assert!(took < Duration::from_secs(15), "{took:?}");

    // Before the handshake, each is exit 2 with a clear message.
    let sh = |script: &str| vec!["sh".to_owned(), "-c".to_owned(), script.to_owned()];
    for (script, says) in [
        (
            "echo 'no database' >&2; exit 3",
            "exited (exit status: 3) before the handshake completed",
        ),
        (
            "echo 'Server ready!'; sleep 30",
            "wrote a line that is not a JSON-RPC message",
        ),
        ("exec sleep 30", "did not complete the handshake within 1 s"),
    ] {
        let (code, out, err, took) = check_command(&["--timeout", "1"], &sh(script));
        assert_eq!(code, 2, "{script}: {out}{err}");
        assert!(out.is_empty());
        assert!(err.starts_with("error: the check could not run: "), "{err}");
        assert!(err.contains(says), "{script}: {err}");
        assert!(took < Duration::from_secs(10), "{script}: {took:?}");
    }
    let (code, _, err, _) = check_command(&[], &["mcpdesc-no-such-server".to_owned()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("could not start the MCP server `mcpdesc-no-such-server`"),
        "{err}"
    );
}

#[test]
fn over_streamable_http() {
    let server = harness::HttpServerProcess::start(
        MCPDESC,
        &[
            "serve-mock",
            chess().to_str().unwrap(),
            "--http",
            "127.0.0.1:0",
        ],
    );
    let chess = chess();
    let (code, out, err) = check(&[
        chess.to_str().unwrap(),
        "--url",
        &server.url,
        "--examples",
        "all",
        "--strict",
        "--header",
        "X-Trace: check",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("tools/call analyze_game [scholars-mate]: result"),
        "{out}"
    );
    // No TLS without the `https` feature: an https:// URL cannot be checked, and says
    // why. With it the connection is refused (nothing listens there): exit 2 as well.
    let (code, _, err) = check(&[chess.to_str().unwrap(), "--url", "https://127.0.0.1:9/mcp"]);
    assert_eq!(code, 2);
    if cfg!(not(feature = "https")) {
        assert!(err.contains("needs TLS"), "{err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let chess = chess();
    let chess = chess.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![chess], "no server"),
        (
            vec![chess, "--url", "http://127.0.0.1:9/mcp", "--", "x"],
            "not both",
        ),
        (vec![chess, "--examples", "a,,b", "--", "x"], "empty item"),
        (
            vec![chess, "--protocol-version", "2024-11-05", "--", "x"],
            "does not describe MCP 2024-11-05",
        ),
        (
            vec![
                chess,
                "--header",
                "nocolon",
                "--url",
                "http://127.0.0.1:9/mcp",
            ],
            "Name: value",
        ),
        (vec![chess, "--timeout", "0", "--", "x"], "--timeout"),
        (vec![chess, "--timeout", "1e300", "--", "x"], "--timeout"),
        (vec![chess, "--timeout", "NaN", "--", "x"], "--timeout"),
        (
            vec!["/nonexistent/x.mcpdesc.json", "--", "x"],
            "cannot read",
        ),
    ];
    for (args, says) in cases {
        let (code, out, err) = check(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // An invalid description: its diagnostics, nothing checked.
    let dir = tempdir("invalid");
    let bad = dir.join("bad.mcpdesc.json");
    std::fs::write(&bad, r#"{"mcpdesc": "0.9.0", "info": {}}"#).unwrap();
    let (code, _, err) = check(&[bad.to_str().unwrap(), "--", "x"]);
    assert_eq!(code, 2);
    assert!(err.contains("is invalid; nothing checked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each protocol version gets the tools of its scope: a described tool of another
/// version is neither expected nor called, and the version can be chosen.
#[test]
fn each_protocol_version_is_checked_with_its_own_tools() {
    let eras = root().join("tests/fixtures/client/eras.mcpdesc.json");
    for (version, tool) in [("2025-11-25", "echo_2025"), ("2026-07-28", "echo_2026")] {
        let (code, report) = check_mock(
            &eras,
            &[
                "--protocol-version",
                version,
                "--examples",
                "all",
                "--strict",
            ],
            &eras,
        );
        assert_eq!(code, 0, "{version}: {report:#}");
        assert_eq!(report["protocolVersion"], version);
        let targets: Vec<&str> = report["calls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["target"].as_str().unwrap())
            .collect();
        assert_eq!(targets, [tool], "{version}");
    }
    // Without --protocol-version the newest described version is negotiated.
    let (code, report) = check_mock(&eras, &[], &eras);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["protocolVersion"], "2026-07-28");
}

/// A static resource with two examples can only answer one of them: reading it
/// matches when the result is any example's. Prompts, templates and completions are
/// replayed the same way; each call is listed.
#[test]
fn prompts_resources_and_completions_are_replayed() {
    let fixture = root().join("tests/fixtures/generator/primitives.mcpdesc.json");
    let (code, report) = check_mock(&fixture, &["--examples", "all", "--strict"], &fixture);
    assert_eq!(code, 0, "{report:#}");
    let methods: std::collections::BTreeSet<&str> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["method"].as_str().unwrap())
        .collect();
    assert_eq!(
        methods.into_iter().collect::<Vec<_>>(),
        [
            "completion/complete",
            "prompts/get",
            "resources/read",
            "tools/call"
        ]
    );
    // A prompt whose served messages drifted fails under --strict, naming the prompt.
    let dir = tempdir("prompt");
    let mut desc: Value = serde_json::from_str(&std::fs::read_to_string(chess()).unwrap()).unwrap();
    desc["prompts"][0]["examples"]["ruy-lopez-white"]["result"]["messages"][0]["content"]["text"] =
        json!("Something else");
    let served = dir.join("prompt.mcpdesc.json");
    std::fs::write(&served, desc.to_string()).unwrap();
    let (code, report) = check_mock(
        &chess(),
        &["--examples", "opening_study", "--strict"],
        &served,
    );
    assert_eq!(code, 1, "{report:#}");
    assert_eq!(report["findings"][0]["primitive"], "prompt");
    assert_eq!(report["findings"][0]["tool"], "opening_study");
    assert_eq!(report["findings"][0]["example"], "ruy-lopez-white");
    assert!(
        report["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("/messages/0"),
        "{report:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A schema part the generator does not serve is a `skipped` finding (exit 0), and so
/// is a selection naming nothing the description declares.
#[test]
fn what_cannot_be_generated_or_selected_is_skipped() {
    let dir = tempdir("skipped");
    let patterned = drifted(&dir, "pattern", |d| {
        tool(d, "analyze_game")["inputSchema"]["properties"]["pgn"]["pattern"] = json!("^.*$");
    });
    let (code, report) = check_mock(
        &patterned,
        &[
            "--generate",
            "analyze_game,resign_game",
            "--cases",
            "2",
            "--examples",
            "analyze_game/no-such-example",
        ],
        &patterned,
    );
    assert_eq!(code, 0, "{report:#}");
    let findings: Vec<(&str, &str, &str)> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap(),
                f["severity"].as_str().unwrap(),
                f["message"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(findings.len(), 3, "{report:#}");
    assert_eq!(findings[0].0, "selection-unknown");
    assert!(
        findings[0]
            .2
            .contains("--examples names `analyze_game/no-such-example`"),
        "{report:#}"
    );
    assert_eq!(findings[1].0, "selection-unknown");
    assert!(
        findings[1].2.contains("--generate names `resign_game`"),
        "{report:#}"
    );
    assert_eq!((findings[2].0, findings[2].1), ("skipped", "skipped"));
    assert!(
        findings[2]
            .2
            .contains("`pattern` at /properties/pgn is not supported"),
        "{report:#}"
    );
    assert_eq!(report["calls"], json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The spawned server runs in its own process group, out of reach of the terminal's
/// Ctrl-C: `check` ends it itself when interrupted, even during the handshake.
#[cfg(target_os = "linux")] // reads /proc
#[test]
fn ctrl_c_stops_the_check_and_the_server() {
    let dir = tempdir("ctrl-c");
    let pid_file = dir.join("pid");
    let check = std::process::Command::new(MCPDESC)
        .arg("check")
        .arg(chess())
        .args(["--timeout", "60", "--", "sh", "-c"])
        .arg(format!("echo $$ > {}; exec sleep 120", pid_file.display()))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !pid_file.exists() && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let status = std::process::Command::new("kill")
        .args(["-INT", &check.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = check.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("interrupted; the server was stopped"),
        "{stderr}"
    );
    // Gone, or a zombie waiting for a reaper: either way no longer running. `check`
    // sends SIGKILL to the group as it exits; on a loaded machine the kernel may take a
    // moment to run the dying process's exit, so it is given a few seconds (a server
    // that survived would still be there after them).
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_owned();
    let state_of = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .map(|stat| {
                stat.rsplit(')')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_owned()
            })
            .unwrap_or_default()
    };
    let stopped = Instant::now();
    let mut state = state_of();
    while !(state.is_empty() || state == "Z") && stopped.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
        state = state_of();
    }
    assert!(
        state.is_empty() || state == "Z",
        "the server {pid} is in state {state} 5 s after check exited"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A tool whose 2025-11-25 declaration requires a task (its plain call is refused with
/// -32601) is called as a task: the task-augmented `tools/call`, then `tasks/result`,
/// whose answer is compared with the example; the other tools are called plainly.
#[test]
fn required_tools_are_called_as_tasks() {
    let fixture = root().join("mcpdesc-cli/tests/fixtures/tasks.mcpdesc.json");
    let options = [
        "--examples",
        "all",
        "--generate",
        "all",
        "--cases",
        "4",
        "--strict",
    ];
    let (code, report) = check_mock(&fixture, &options, &fixture);
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["counts"]["failures"], 0, "{report:#}");
    let calls = report["calls"].as_array().unwrap();
    let tool_calls = || calls.iter().filter(|c| c["method"] == "tools/call");
    let (archive, others): (Vec<&Value>, Vec<&Value>) =
        tool_calls().partition(|c| c["target"] == "archive");
    assert!(archive.len() >= 3, "{calls:#?}");
    assert!(
        archive.iter().all(|c| c["params"]["task"] == json!({})),
        "{archive:#?}"
    );
    assert!(
        others.iter().all(|c| c["params"].get("task").is_none()),
        "{others:#?}"
    );
    let outcome = |example: &str| {
        archive
            .iter()
            .find(|c| c["example"] == example)
            .map(|c| c["outcome"].clone())
    };
    assert_eq!(outcome("logs"), Some(json!("result")));
    assert_eq!(outcome("missing"), Some(json!("isError")));
}

/// `--examples all` replays tools in document order with destructive ones last, and the
/// report says so.
#[test]
fn examples_run_in_document_order_destructive_last() {
    let fixture = root().join("mcpdesc-cli/tests/fixtures/notes-order.mcpdesc.json");
    let (code, report) = check_mock(&fixture, &["--examples", "all", "--strict"], &fixture);
    assert_eq!(code, 0, "{report:#}");
    let order: Vec<String> = report["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            format!(
                "{}/{}",
                c["target"].as_str().unwrap(),
                c["example"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        order,
        [
            "tag_note/first",
            "get_note/first",
            "get_note/second",
            "delete_note/first"
        ]
    );
    assert_eq!(report["exampleOrder"], mcpdesc_check::EXAMPLE_ORDER);
    let (_, out, _) = check(&[
        fixture.to_str().unwrap(),
        "--examples",
        "all",
        "--",
        MCPDESC,
        "serve-mock",
        fixture.to_str().unwrap(),
    ]);
    assert!(
        out.contains(
            "examples in order: prompts, resources and templates, then tools in document order"
        ),
        "{out}"
    );
}
