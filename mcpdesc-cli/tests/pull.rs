//! `mcpdesc pull` end to end: the real binary against real servers.
//!
//! - Round trips: `mcpdesc serve-mock F` for the chess example, the repository's valid
//!   conformance cases and client fixtures (MCP 2026-07-28 among them) and (with the
//!   shared corpus, `tests/prereq.rs`) every shared real-world description: the pulled description validates and declares exactly what
//!   the server lists (tools, prompts, resources, templates, member for member), with
//!   the original's tool schemas, the negotiated version and no warning.
//! - `examples/chess-server`'s router over streamable HTTP (`--url`).
//! - The npm servers `@modelcontextprotocol/server-memory` and `server-everything`
//!   (Node.js, `prereq::npm_package`): valid descriptions with all their tools.
//! - Output format by OUT's extension; JSON on stdout without `-o`.
//! - A scripted server (`tests/fixtures/pull/scripted-server.sh`, POSIX sh) for what
//!   must be dropped or fixed (each a warning naming the item) and for the servers that
//!   crash, hang or write garbage: exit 2 within the bound, nothing written, the child
//!   gone.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use mcpdesc_cli::serve_mock::mock_router;
use mcpdesc_codegen::{Description, Format, Limits};
use serde_json::{json, Value};

#[path = "../../tests/e2e/harness.rs"]
mod harness;

use harness::prereq;

const MCPDESC: &str = env!("CARGO_BIN_EXE_mcpdesc");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scripted_server() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pull/scripted-server.sh")
}

/// A fresh scratch directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("mcpdesc-pull-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What one run of the binary did.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `mcpdesc ARGS`; a run longer than 60 s is killed and fails the test (a hang
/// guard, not a performance check).
fn mcpdesc(args: &[&str]) -> Run {
    let scratch = Scratch::new(&format!("run-{}", args.len() + rand_suffix()));
    let (out, err) = (scratch.path("stdout"), scratch.path("stderr"));
    let started = Instant::now();
    let mut child = Command::new(MCPDESC)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("mcpdesc {args:?} ran longer than 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(&out).unwrap(),
        stderr: std::fs::read_to_string(&err).unwrap(),
        took: started.elapsed(),
    }
}

/// A per-call number so that parallel runs get their own scratch directories.
fn rand_suffix() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed) * 100
}

/// Reads and validates a written description: its value (errors fail the test).
fn valid_description(path: &Path) -> Value {
    let desc = Description::from_path(path, &Limits::default()).unwrap();
    assert!(
        desc.is_valid(),
        "{} is not valid:\n{}",
        path.display(),
        desc.render_diagnostics()
    );
    desc.loaded.unwrap().value
}

/// The described server's listings in `version`, as `serve-mock` serves them.
fn listed(file: &Path, version: mcpdesc::ProtocolVersion) -> [(&'static str, Vec<Value>); 4] {
    let desc = Description::from_path(file, &Limits::default()).unwrap();
    let router = mock_router(&desc, None, &[]).unwrap();
    [
        ("tools", router.list_tools(version)),
        ("prompts", router.list_prompts(version)),
        ("resources", router.list_resources(version)),
        ("resourceTemplates", router.list_resource_templates(version)),
    ]
}

fn negotiated(pulled: &Value) -> mcpdesc::ProtocolVersion {
    let versions = pulled["protocolVersions"].as_array().unwrap();
    assert_eq!(versions.len(), 1, "one negotiated version: {versions:?}");
    versions[0].as_str().unwrap().parse().unwrap()
}

/// Every listing of the pulled description equals what the server lists (an absent
/// collection: the server lists nothing of that kind).
fn assert_declares_the_listings(
    pulled: &Value,
    listings: &[(&'static str, Vec<Value>)],
    what: &str,
) {
    for (member, items) in listings {
        let declared = pulled.get(*member).cloned().unwrap_or(json!([]));
        assert_eq!(
            &declared,
            &json!(items),
            "{what}: `{member}` differs from the listing"
        );
    }
}

#[test]
fn descriptions_pulled_from_serve_mock_declare_what_it_lists() {
    // The chess example, the repository's valid conformance cases and the client
    // fixtures (`eras` negotiates MCP 2026-07-28 through `server/discover`).
    let mut files = vec![root().join("examples/chess/chess.mcpdesc.json")];
    for dir in ["tests/conformance/expected-valid", "tests/fixtures/client"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        found.sort();
        files.extend(found);
    }
    assert!(files.iter().any(|f| f.ends_with("eras.mcpdesc.json")));
    if let Some(shared) =
        prereq::shared_conformance("mcpdesc-cli/pull::descriptions_pulled_from_serve_mock_declare_what_it_lists (the shared real-world descriptions)")
    {
        let mut real_world: Vec<PathBuf> = std::fs::read_dir(shared.join("real-world"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        real_world.sort();
        assert!(real_world.len() >= 3, "{real_world:?}");
        files.extend(real_world);
    }
    let scratch = Scratch::new("round-trip");
    for (i, file) in files.iter().enumerate() {
        let out = scratch.path(&format!("{i}.mcpdesc.json"));
        let run = mcpdesc(&[
            "pull",
            "-o",
            out.to_str().unwrap(),
            "--",
            MCPDESC,
            "serve-mock",
            file.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}: {}", file.display(), run.stderr);
        assert!(
            run.stdout.is_empty(),
            "the description went to OUT: {}",
            run.stdout
        );
        assert!(
            run.stderr.ends_with("; 0 warnings\n") && !run.stderr.contains("warning["),
            "{}: {}",
            file.display(),
            run.stderr
        );
        let pulled = valid_description(&out);
        assert_eq!(pulled["mcpdesc"], "0.9.0");
        let version = negotiated(&pulled);
        let original = Description::from_path(file, &Limits::default()).unwrap();
        let original = original.validation.unwrap().resolution.value;
        assert_eq!(pulled["info"]["name"], original["info"]["name"]);
        assert_eq!(pulled["info"]["version"], original["info"]["version"]);
        assert!(
            original["protocolVersions"]
                .as_array()
                .unwrap()
                .contains(&json!(version.as_str())),
            "{}: negotiated {version}, which the description does not declare",
            file.display()
        );
        assert_declares_the_listings(&pulled, &listed(file, version), &file.display().to_string());
        // The round trip proper: the original's tools of that version, by name, with
        // their schemas.
        let in_scope = |tool: &&Value| {
            tool.get("protocolVersions")
                .and_then(Value::as_array)
                .is_none_or(|v| v.contains(&json!(version.as_str())))
        };
        let original_tools: Vec<&Value> = original["tools"]
            .as_array()
            .map(|t| t.iter().filter(in_scope).collect())
            .unwrap_or_default();
        let pulled_tools = pulled
            .get("tools")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        assert_eq!(
            pulled_tools.len(),
            original_tools.len(),
            "{}",
            file.display()
        );
        for (pulled_tool, tool) in pulled_tools.iter().zip(original_tools) {
            assert_eq!(pulled_tool["name"], tool["name"], "{}", file.display());
            assert_eq!(
                pulled_tool["inputSchema"],
                tool["inputSchema"],
                "{} {}",
                file.display(),
                tool["name"]
            );
            assert_eq!(
                pulled_tool.get("outputSchema"),
                tool.get("outputSchema"),
                "{} {}",
                file.display(),
                tool["name"]
            );
            assert_eq!(pulled_tool.get("examples"), None, "no example is invented");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chess_server_is_pulled_over_streamable_http() {
    let server = mcpdesc::http::HttpServer::new(chess_server::router())
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let url = server.url();
    let stop = server.shutdown_token();
    let serving = tokio::spawn(server.run());
    let scratch = Scratch::new("chess-http");
    let out = scratch.path("chess.mcpdesc.yaml");
    let args = ["pull", "--url", url.as_str(), "-o", out.to_str().unwrap()];
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let run = tokio::task::spawn_blocking(move || {
        mcpdesc(&args.iter().map(String::as_str).collect::<Vec<_>>())
    })
    .await
    .unwrap();
    stop.cancel();
    let _ = serving.await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("pulled chess-server 1.0.0 (MCP ")
            && run.stderr.ends_with("; 0 warnings\n"),
        "{}",
        run.stderr
    );
    let pulled = valid_description(&out);
    let version = negotiated(&pulled);
    let router = chess_server::router();
    let listings = [
        ("tools", router.list_tools(version)),
        ("prompts", router.list_prompts(version)),
        ("resources", router.list_resources(version)),
        ("resourceTemplates", router.list_resource_templates(version)),
    ];
    for (member, items) in &listings {
        assert!(!items.is_empty(), "the chess server lists {member}");
    }
    assert_declares_the_listings(&pulled, &listings, "chess-server");
    assert!(pulled["instructions"]
        .as_str()
        .is_some_and(|s| s.contains("analyze_game")));
    let capabilities = &pulled["capabilities"][0];
    for capability in ["tools", "prompts", "resources", "completions"] {
        assert!(capabilities.get(capability).is_some(), "{capabilities}");
    }
}

#[test]
fn the_format_follows_the_extension_and_stdout_is_json() {
    let chess = root().join("examples/chess/chess.mcpdesc.json");
    let scratch = Scratch::new("formats");
    let mut values = Vec::new();
    for name in ["chess.mcpdesc.json", "chess.mcpdesc.yaml", "chess.yml"] {
        let out = scratch.path(name);
        let run = mcpdesc(&[
            "pull",
            "-o",
            out.to_str().unwrap(),
            "--",
            MCPDESC,
            "serve-mock",
            chess.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let text = std::fs::read_to_string(&out).unwrap();
        let expected = if name.ends_with(".json") {
            Format::Json
        } else {
            Format::Yaml
        };
        assert_eq!(Format::sniff(&text), expected, "{name}:\n{text}");
        if expected == Format::Yaml {
            assert!(text.starts_with("$schema: https://mcpdesc.org/"), "{text}");
        }
        values.push(valid_description(&out));
    }
    let run = mcpdesc(&["pull", "--", MCPDESC, "serve-mock", chess.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let stdout: Value = serde_json::from_str(&run.stdout).expect("stdout is JSON");
    values.push(stdout);
    assert!(
        values.windows(2).all(|w| w[0] == w[1]),
        "every format holds the same document"
    );
    // An extension that says nothing is refused before any server is started.
    let out = scratch.path("chess.txt");
    let run = mcpdesc(&[
        "pull",
        "-o",
        out.to_str().unwrap(),
        "--",
        "mcpdesc-no-such-server",
    ]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!(
            "error: cannot tell the format of {} from its extension (use .json, .yaml or .yml)\n",
            out.display()
        )
    );
    assert!(!out.exists());
}

#[test]
fn usage_errors_exit_2() {
    let run = mcpdesc(&["pull"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("error: name the server:"),
        "{}",
        run.stderr
    );
    let run = mcpdesc(&["pull", "--url", "http://127.0.0.1:9/mcp", "--", "server"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

// ---- the scripted server ----------------------------------------------------------

/// A directory of answers for `scripted-server.sh`: `initialize` (2025-11-25, the
/// given capabilities) and one file per method.
fn script(scratch: &Scratch, capabilities: Value, answers: &[(&str, String)]) -> PathBuf {
    let dir = scratch.path("answers");
    std::fs::create_dir_all(&dir).unwrap();
    let initialize = json!({
        "protocolVersion": "2025-11-25",
        "capabilities": capabilities,
        "serverInfo": {"name": "scripted", "version": "0.1.0", "build": "nightly"},
    });
    std::fs::write(dir.join("initialize"), initialize.to_string()).unwrap();
    for (method, answer) in answers {
        std::fs::write(dir.join(method.replace('/', "_")), answer).unwrap();
    }
    dir
}

#[cfg(unix)]
#[test]
fn what_has_no_valid_place_is_dropped_or_fixed_with_a_warning_naming_it() {
    let scratch = Scratch::new("warnings");
    let tools = json!({"tools": [
        {"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
         "outputSchema": {"type": "array"}, "cost": 3},
        {"name": "broken", "inputSchema": {"type": "object", "required": "q"}},
        {"name": "search", "inputSchema": {"type": "object"}},
        {"name": "tagged", "inputSchema": {"type": "object"},
         "icons": [{"src": "https://example.com/t.png"}, {"src": "no uri"}]},
    ]});
    let prompts =
        json!({"prompts": [{"name": "review", "arguments": [{"name": "code", "schema": {}}]}]});
    let dir = script(
        &scratch,
        json!({"tools": {}, "prompts": {}, "sampling": {}}),
        &[
            ("tools/list", tools.to_string()),
            ("prompts/list", prompts.to_string()),
        ],
    );
    let out = scratch.path("pulled.mcpdesc.json");
    let run = mcpdesc(&[
        "pull",
        "-o",
        out.to_str().unwrap(),
        "--",
        "sh",
        scripted_server().to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pulled = valid_description(&out);
    let names: Vec<&str> = pulled["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["search", "broken", "tagged"]);
    assert_eq!(pulled["tools"][0].get("outputSchema"), None);
    assert_eq!(pulled["tools"][1]["inputSchema"], json!({"type": "object"}));
    assert_eq!(
        pulled["tools"][2]["icons"],
        json!([{"src": "https://example.com/t.png"}])
    );
    assert_eq!(pulled["prompts"][0]["arguments"], json!([{"name": "code"}]));
    assert_eq!(
        pulled["capabilities"],
        json!([{"tools": {}, "prompts": {}}])
    );
    let warnings: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning[mcpdesc.pull]: "))
        .collect();
    let expected = [
        "server info: member `build` has no place in an MCP Description; dropped",
        "capabilities: member `sampling` has no place in an MCP Description; dropped",
        "tool \"search\": member `cost` has no place in an MCP Description; dropped",
        "tool \"search\": `outputSchema` is of type \"array\", not an object schema; dropped",
        "tool \"search\" is listed again (first at /tools/0); only the first is kept",
        "prompt \"review\", argument \"code\": member `schema` has no place in an MCP Description; dropped",
        "tool \"broken\": `inputSchema` is not a valid schema (",
        "tool \"tagged\": `icons/1` dropped: ",
    ];
    assert_eq!(warnings.len(), expected.len(), "{}", run.stderr);
    for (line, start) in warnings.iter().zip(expected) {
        assert!(
            line["warning[mcpdesc.pull]: ".len()..].starts_with(start),
            "{line}\nexpected: {start}"
        );
    }
    for pointer in [
        "/tools/0/cost",
        "/tools/2 ",
        "/tools/1/inputSchema",
        "/tools/3/icons/1",
        "/prompts/0/arguments/0/schema",
    ] {
        assert!(
            run.stderr
                .contains(&format!("list (every page): {pointer}")),
            "{pointer}: {}",
            run.stderr
        );
    }
    assert!(
        run.stderr.ends_with(&format!(
            "pulled scripted 0.1.0 (MCP 2025-11-25) into {}: 3 tools, 1 prompt, 0 resources, 0 resource templates; 8 warnings\n",
            out.display()
        )),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[test]
fn a_refused_listing_is_a_warning_and_undeclared_ones_are_not_asked() {
    let scratch = Scratch::new("refused");
    // `prompts` is declared but `prompts/list` has no answer file ("Method not
    // found"); `resources/list` would be garbage, but `resources` is not declared.
    let dir = script(
        &scratch,
        json!({"tools": {}, "prompts": {}}),
        &[
            (
                "tools/list",
                json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}).to_string(),
            ),
            ("resources/list", "garbage".to_owned()),
        ],
    );
    let run = mcpdesc(&[
        "pull",
        "--",
        "sh",
        scripted_server().to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(
        "warning[mcpdesc.pull]: the server declares the capability but refused `prompts/list`: Method not found (-32601); the description lists none of them"
    ), "{}", run.stderr);
    let pulled: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        pulled["tools"],
        json!([{"name": "a", "inputSchema": {"type": "object"}}])
    );
    assert_eq!(pulled.get("prompts"), None);
    assert_eq!(pulled.get("resources"), None);
}

/// A server that misbehaves: exit 2, within `bound`, nothing written, and `expected`
/// in the message.
#[cfg(unix)]
fn assert_fails(scratch: &Scratch, server: &[&str], bound: Duration, expected: &str) {
    let out = scratch.path("never.mcpdesc.json");
    let mut args = vec!["pull", "--timeout", "1", "-o", out.to_str().unwrap(), "--"];
    args.extend(server);
    let run = mcpdesc(&args);
    assert_eq!(run.code, 2, "{server:?}: {}", run.stderr);
    assert!(run.took < bound, "{server:?} took {:?}", run.took);
    assert!(run.stderr.contains(expected), "{server:?}: {}", run.stderr);
    assert!(
        run.stderr.ends_with("error: nothing was written\n"),
        "{}",
        run.stderr
    );
    assert!(!out.exists(), "{server:?}: a file was written");
}

/// Whether `pid` is gone (or a zombie) within `within`.
#[cfg(unix)]
fn gone_within(pid: u32, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    loop {
        let gone = match std::fs::read_to_string(format!("/proc/{pid}/status")) {
            Err(_) => true,
            Ok(text) => text
                .lines()
                .any(|l| l.starts_with("State:") && l.contains('Z')),
        };
        if gone || Instant::now() >= deadline {
            return gone;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[test]
fn servers_that_crash_hang_or_write_garbage_exit_2_quickly() {
    let scratch = Scratch::new("bad");
    let quick = Duration::from_secs(10);
    // Before the handshake.
    assert_fails(&scratch, &["sh", "-c", "echo 'no database' >&2; exit 3"], quick,
        "exited (exit status: 3) before the handshake completed; its stderr ended with:\nno database");
    assert_fails(
        &scratch,
        &["sh", "-c", "echo 'Server ready!'; sleep 30"],
        quick,
        "wrote a line that is not a JSON-RPC message: `Server ready!` on stdout",
    );
    assert_fails(
        &scratch,
        &["mcpdesc-no-such-server"],
        quick,
        "could not start the MCP server `mcpdesc-no-such-server`",
    );
    let pid_file = scratch.path("pid");
    let hang = format!("echo $$ > {}; exec sleep 60", pid_file.display());
    assert_fails(
        &scratch,
        &["sh", "-c", &hang],
        quick,
        "did not complete the handshake within 1 s",
    );
    let pid: u32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(
        gone_within(pid, Duration::from_secs(5)),
        "the hanging server {pid} still runs"
    );
    // After it, in `tools/list`.
    let server = scripted_server();
    for (answer, expected) in [
        ("hang", "`tools/list` got no answer within 1 s"),
        ("garbage", "Listing tools..."),
        ("exit", "scripted server: giving up"),
    ] {
        let scratch = Scratch::new(&format!("bad-{answer}"));
        let dir = script(
            &scratch,
            json!({"tools": {}}),
            &[("tools/list", answer.to_owned())],
        );
        assert_fails(
            &scratch,
            &["sh", server.to_str().unwrap(), dir.to_str().unwrap()],
            quick,
            expected,
        );
    }
}

#[cfg(unix)]
#[test]
fn every_page_is_read_and_a_cursor_that_loops_ends_the_pull() {
    let scratch = Scratch::new("pages");
    let tool = |name: &str| json!({"name": name, "inputSchema": {"type": "object"}});
    let dir = script(
        &scratch,
        json!({"tools": {}, "resources": {}}),
        &[
            (
                "tools/list",
                json!({"tools": [tool("a")], "nextCursor": "p2"}).to_string(),
            ),
            (
                "tools/list.p2",
                json!({"tools": [tool("b"), tool("a")], "nextCursor": "p3"}).to_string(),
            ),
            ("tools/list.p3", json!({"tools": [tool("c")]}).to_string()),
            (
                "resources/list",
                json!({"resources": [], "nextCursor": "r2"}).to_string(),
            ),
            (
                "resources/list.r2",
                json!({"resources": [{"uri": "mem://x", "name": "x"}]}).to_string(),
            ),
            (
                "resources/templates/list",
                json!({"resourceTemplates": []}).to_string(),
            ),
        ],
    );
    let run = mcpdesc(&[
        "pull",
        "--",
        "sh",
        scripted_server().to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let pulled: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(pulled["tools"], json!([tool("a"), tool("b"), tool("c")]));
    assert_eq!(
        pulled["resources"],
        json!([{"uri": "mem://x", "name": "x"}])
    );
    assert_eq!(
        pulled.get("resourceTemplates"),
        None,
        "an empty listing is no collection"
    );
    // The duplicate is named by its place over both pages.
    assert!(
        run.stderr
            .contains("tools/list (every page): /tools/2 (code: duplicate)"),
        "{}",
        run.stderr
    );

    // A page that names a cursor already followed.
    let scratch = Scratch::new("loop");
    let dir = script(
        &scratch,
        json!({"tools": {}}),
        &[
            (
                "tools/list",
                json!({"tools": [tool("a")], "nextCursor": "again"}).to_string(),
            ),
            (
                "tools/list.again",
                json!({"tools": [tool("b")], "nextCursor": "again"}).to_string(),
            ),
        ],
    );
    assert_fails(
        &scratch,
        &[
            "sh",
            scripted_server().to_str().unwrap(),
            dir.to_str().unwrap(),
        ],
        Duration::from_secs(10),
        "the cursor `again` leads back to a page already listed",
    );
}

// ---- the npm reference servers -----------------------------------------------------

#[test]
fn the_npm_memory_and_everything_servers_are_pulled_with_all_their_tools() {
    const TEST: &str =
        "mcpdesc-cli/pull::the_npm_memory_and_everything_servers_are_pulled_with_all_their_tools";
    let shared = prereq::shared_conformance(&format!(
        "{TEST} (the comparison with the shared descriptions)"
    ));
    let scratch = Scratch::new("npm");
    for (package, args, recorded) in [
        (
            "@modelcontextprotocol/server-memory",
            &[][..],
            "memory.mcpdesc.json",
        ),
        (
            "@modelcontextprotocol/server-everything",
            &["stdio"][..],
            "everything.mcpdesc.json",
        ),
    ] {
        let Some(dir) = prereq::npm_package(TEST, package) else {
            return;
        };
        let entry = dir.join("dist/index.js");
        let out = scratch.path(recorded);
        let mut argv = vec![
            "pull",
            "-o",
            out.to_str().unwrap(),
            "--",
            "node",
            entry.to_str().unwrap(),
        ];
        argv.extend(args);
        let run = mcpdesc(&argv);
        assert_eq!(run.code, 0, "{package}: {}", run.stderr);
        let pulled = valid_description(&out);
        // All its tools: what the server itself lists, item for item.
        let listed = tokio::runtime::Runtime::new().unwrap().block_on(async {
            let mut command = tokio::process::Command::new("node");
            command.arg(&entry).args(args);
            let session = mcpdesc::client::stdio(command).await.unwrap();
            let tools = session.list_tools().await.unwrap().items;
            session.close().await;
            tools
        });
        assert!(!listed.is_empty());
        assert_eq!(pulled["tools"], json!(listed), "{package}: {}", run.stderr);
        // And the tools of the description recorded from it.
        if let Some(shared) = &shared {
            let recorded = Description::from_path(
                &shared.join("real-world").join(recorded),
                &Limits::default(),
            )
            .unwrap();
            let recorded = recorded.loaded.unwrap().value;
            let names = |doc: &Value| -> Vec<Value> {
                doc["tools"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t["name"].clone())
                    .collect()
            };
            assert_eq!(names(&pulled), names(&recorded), "{package}");
        }
    }
}
