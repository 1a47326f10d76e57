//! Runs the TypeScript MCP client (`client.mjs`, pinned in this folder's lockfile) on a
//! plan, for the end-to-end tests of several crates (each includes this file with
//! `#[path]`). A plan names its transport: `command` + `args` (stdio: the client
//! starts the server) or `url` (streamable HTTP to a server started with
//! [`HttpServerProcess`]).
//!
//! A test first asks [`client_ready`]: the client is installed with `npm ci` when
//! `node_modules` is missing (`tests/prereq.rs`); without Node.js the test prints a
//! notice and passes, or fails under `MCPDESC_REQUIRE_NODE=1` (as in CI). A client that
//! does not finish within two minutes is killed and reported (a hang guard, not a
//! performance check).

#![allow(dead_code)] // Each including test uses part of it.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

#[path = "../prereq.rs"]
pub mod prereq;

/// The npm package of the TypeScript MCP client.
pub const SDK: &str = "@modelcontextprotocol/sdk";

/// This folder, found from the including crate's manifest directory.
pub fn e2e_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("tests/e2e"))
        .find(|dir| dir.join("client.mjs").exists())
        .expect("tests/e2e/client.mjs above the crate")
}

/// Whether the pinned client can run (Node.js present, the client installed, with
/// `npm ci` when missing); `false` with a notice naming `test` when not. Call it at the
/// top of the test, before [`run_client`].
pub fn client_ready(test: &str) -> bool {
    prereq::npm_package(test, SDK).is_some()
}

/// Runs the client on `plan` (see `client.mjs` for its shape) and returns its stdout;
/// panics with stdout and stderr when it reports a failure or does not finish. Needs
/// [`client_ready`] first.
pub fn run_client(name: &str, plan: &serde_json::Value) -> String {
    let dir = std::env::temp_dir().join(format!("mcpdesc-e2e-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan_path = dir.join("plan.json");
    std::fs::write(&plan_path, serde_json::to_string_pretty(plan).unwrap()).unwrap();
    // Files, not pipes: a server process that outlived the client would hold a pipe
    // open and make reading it wait forever.
    let stdout_path = dir.join("stdout");
    let stderr_path = dir.join("stderr");
    let mut child = Command::new("node")
        .arg(e2e_dir().join("client.mjs"))
        .arg(&plan_path)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&stdout_path).unwrap())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .expect("node (Node.js 20) is needed for the end-to-end test");
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
        None => panic!("{name}: the client did not finish within 2 minutes:\n{stdout}\n{stderr}"),
        Some(s) if !s.success() => {
            panic!("{name}: the TypeScript client reported failures:\n{stdout}\n{stderr}")
        }
        Some(_) => {
            assert!(stdout.contains(" passed, 0 failed"), "{name}: {stdout}");
            stdout
        }
    }
}

/// The plan's calls for every Tool Example of `tool` (a resolved declaration): the
/// example's input as arguments, and as expectations its `isError`, content kinds,
/// `structuredContent` valid against `outputSchema` and equal to the example's, and the
/// whole result equal to the example's.
pub fn example_calls(tool: &serde_json::Value) -> Vec<serde_json::Value> {
    use serde_json::{json, Value};
    let examples = tool["examples"].as_object().into_iter().flatten();
    examples
        .map(|(label, example)| {
            let result = &example["result"];
            let is_error = result["isError"].as_bool().unwrap_or(false);
            let kinds: Vec<&Value> = result["content"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|c| &c["type"])
                .collect();
            let output_schema = match is_error {
                true => &Value::Null,
                false => tool.get("outputSchema").unwrap_or(&Value::Null),
            };
            json!({
                "label": label,
                "tool": tool["name"],
                "arguments": example["input"],
                "expectError": is_error,
                "expectKinds": kinds,
                "outputSchema": output_schema,
                "expectStructured": result.get("structuredContent").unwrap_or(&Value::Null),
                "expectResult": result,
            })
        })
        .collect()
}

/// A server process serving streamable HTTP on a free loopback port, killed on drop.
///
/// It is started with `args` (which ask for `--http 127.0.0.1:0`); its stderr is
/// read until a line names the endpoint (`http://...`), within 60 seconds (a hang
/// guard), and collected after that.
pub struct HttpServerProcess {
    child: Child,
    /// The MCP endpoint the server printed.
    pub url: String,
    stderr: Arc<Mutex<String>>,
}

impl HttpServerProcess {
    /// Starts `command args` and waits for its endpoint line.
    pub fn start(command: &str, args: &[&str]) -> Self {
        let mut child = Command::new(command)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command}: {e}"));
        let stderr = Arc::new(Mutex::new(String::new()));
        let (found, url) = mpsc::channel();
        let pipe = child.stderr.take().unwrap();
        let collected = stderr.clone();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(pipe).lines().map_while(Result::ok) {
                if let Some(at) = line.find("http://") {
                    let url = line[at..].split_whitespace().next().unwrap_or_default();
                    let _ = found.send(url.to_owned());
                }
                let mut all = collected.lock().unwrap();
                all.push_str(&line);
                all.push('\n');
            }
        });
        match url.recv_timeout(Duration::from_secs(60)) {
            Ok(url) => HttpServerProcess { child, url, stderr },
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "{command} printed no http:// endpoint within 60 s:\n{}",
                    stderr.lock().unwrap()
                );
            }
        }
    }

    /// What the server printed on stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for HttpServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
