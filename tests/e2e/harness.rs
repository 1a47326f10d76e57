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
    run_script("client.mjs", name, plan)
}

/// Runs `script` (a file of this folder: `client.mjs`, `auth.mjs`) on `plan`, as
/// [`run_client`] does (also after [`client_ready`]).
pub fn run_script(script: &str, name: &str, plan: &serde_json::Value) -> String {
    let dir = std::env::temp_dir().join(format!("mcpdesc-e2e-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan_path = dir.join("plan.json");
    std::fs::write(&plan_path, serde_json::to_string_pretty(plan).unwrap()).unwrap();
    // Files, not pipes: a server process that outlived the client would hold a pipe
    // open and make reading it wait forever.
    let stdout_path = dir.join("stdout");
    let stderr_path = dir.join("stderr");
    let mut child = Command::new("node")
        .arg(e2e_dir().join(script))
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

/// The `primitives` part of a plan (see `primitives.mjs`) for the declarations of a
/// resolved description that apply to `version` (the version the client negotiates):
/// every Prompt, Resource, Resource Template and completion example, expecting exactly
/// its result; bad requests (an unknown prompt, a missing required argument, an unknown
/// resource, a malformed URI for a level-1 template, an unknown completion argument)
/// expecting their JSON-RPC error. `lists` are the router's projections (prompts,
/// resources, templates) that `prompts/list` and the others must equal; `capabilities`
/// the capabilities that must be advertised; `changeFlags` the `listChanged` and
/// `subscribe` flags of `prompts` and `resources` the server must advertise.
///
/// An example whose request an earlier example of the same target (in name order, the
/// mock's order) already shows is not reachable by its request: it goes to
/// `"shadowed"` as `{"select": "TARGET=EXAMPLE", "kind": "prompts" | "reads" |
/// "completions", "call": ...}`, for a run of the mock with that `--select` (a real
/// server answers by its own logic and has no use for them).
pub fn primitive_plan(
    doc: &serde_json::Value,
    version: &str,
    lists: [Vec<serde_json::Value>; 3],
    capabilities: &[&str],
) -> serde_json::Value {
    use serde_json::{json, Value};
    let applies = |d: &Value| {
        d.get("protocolVersions")
            .and_then(Value::as_array)
            .is_none_or(|list| list.iter().any(|v| v == version))
    };
    let declared = |array: &str| -> Vec<Value> {
        doc[array]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| applies(d))
            .cloned()
            .collect()
    };
    // In name order, the mock's order.
    let examples = |d: &Value, member: &str| -> Vec<(String, Value)> {
        let mut list: Vec<(String, Value)> = d[member]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        list
    };
    let mut calls = Calls::default();
    let name = |d: &Value, key: &str| d[key].as_str().unwrap_or_default().to_owned();
    let completion_calls = |target: String, reference: Value, d: &Value, calls: &mut Calls| {
        for (label, e) in examples(d, "completionExamples") {
            let mut call = json!({
                "label": label, "ref": reference,
                "argument": {"name": e["argument"]["name"], "value": e["argument"]["value"]},
                "expectResult": e["result"],
            });
            if let Some(arguments) = e.pointer("/context/arguments") {
                call["context"] = json!({ "arguments": arguments });
            }
            let request = json!([call["argument"], call.get("context")]);
            calls.keep(Kind::Completions, &target, &request, &label, call);
        }
    };
    let (prompts, resources, templates) = (
        declared("prompts"),
        declared("resources"),
        declared("resourceTemplates"),
    );
    for p in &prompts {
        let target = format!("prompt:{}", name(p, "name"));
        for (label, e) in examples(p, "examples") {
            let arguments = e.get("arguments").cloned().unwrap_or_else(|| json!({}));
            let call = json!({"label": label, "name": p["name"], "arguments": arguments, "expectResult": e["result"]});
            calls.keep(Kind::Prompts, &target, &arguments, &label, call);
        }
        let target = format!("completion:prompt:{}", name(p, "name"));
        completion_calls(
            target,
            json!({"type": "ref/prompt", "name": p["name"]}),
            p,
            &mut calls,
        );
    }
    for r in &resources {
        let target = format!("resource:{}", name(r, "uri"));
        for (label, e) in examples(r, "examples") {
            let call = json!({"label": label, "uri": r["uri"], "expectResult": e["result"]});
            calls.keep(Kind::Reads, &target, &r["uri"], &label, call);
        }
    }
    for t in &templates {
        let target = format!("template:{}", name(t, "uriTemplate"));
        for (label, e) in examples(t, "examples") {
            let call = json!({"label": label, "uri": e["uri"], "expectResult": e["result"]});
            calls.keep(Kind::Reads, &target, &e["uri"], &label, call);
        }
        let target = format!("completion:template:{}", name(t, "uriTemplate"));
        completion_calls(
            target,
            json!({"type": "ref/resource", "uri": t["uriTemplate"]}),
            t,
            &mut calls,
        );
    }
    let Calls {
        prompts: prompt_calls,
        reads,
        completions,
        shadowed,
        ..
    } = calls;
    let mut errors = Vec::new();
    // The bad requests this description allows.
    let not_found = if version >= "2026-07-28" {
        -32602
    } else {
        -32002
    };
    if !prompts.is_empty() {
        errors.push(
            json!({"label": "of an unknown prompt", "method": "prompts/get",
            "params": {"name": "mcpdesc_e2e_no_such_prompt"}, "code": -32602}),
        );
    }
    let required = prompts.iter().find(|p| {
        p["arguments"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|a| a["required"] == true)
    });
    if let Some(p) = required {
        errors.push(
            json!({"label": "without its required arguments", "method": "prompts/get",
            "params": {"name": p["name"], "arguments": {}}, "code": -32602}),
        );
    }
    let parsed: Vec<mcpdesc::UriTemplate> = templates
        .iter()
        .filter_map(|t| mcpdesc::UriTemplate::parse(t["uriTemplate"].as_str()?).ok())
        .collect();
    let unknown = "mcpdesc-e2e://no/such/resource";
    if parsed.iter().all(|t| t.match_uri(unknown).is_none()) {
        errors.push(
            json!({"label": "of an unknown resource", "method": "resources/read",
            "params": {"uri": unknown}, "code": not_found}),
        );
    }
    let malformed = parsed.iter().find_map(|t| {
        if !t.is_level_one() || t.variables().is_empty() {
            return None;
        }
        let mut uri = t.as_str().to_owned();
        for name in t.variables() {
            uri = uri.replace(&format!("{{{name}}}"), "%zz");
        }
        // Only when this template is the one the URI reaches (templates are tried in
        // order).
        let first = parsed
            .iter()
            .find(|other| other.match_uri(&uri).is_some())?;
        (first.as_str() == t.as_str()).then_some(uri)
    });
    if let Some(uri) = malformed {
        errors.push(
            json!({"label": "with a malformed URI for a template", "method": "resources/read",
            "params": {"uri": uri}, "code": -32602}),
        );
    }
    if let Some(c) = completions.first() {
        errors.push(json!({"label": "of an unknown argument", "method": "completion/complete",
            "params": {"ref": c["ref"], "argument": {"name": "mcpdesc_e2e_no_such_argument", "value": ""}},
            "code": -32602}));
    }
    // The change flags the server must advertise: what the description declares for the
    // version, before MCP 2026-07-28 (which delivers changes through
    // `subscriptions/listen`, not served); none from it on.
    let declared_capabilities = declared("capabilities").into_iter().next();
    let flag = |capability: &str, flag: &str| {
        version < "2026-07-28"
            && declared_capabilities
                .as_ref()
                .and_then(|d| d[capability][flag].as_bool())
                .unwrap_or(false)
    };
    let change_flags = json!({
        "prompts": {"listChanged": flag("prompts", "listChanged"), "subscribe": false},
        "resources": {"listChanged": flag("resources", "listChanged"),
            "subscribe": flag("resources", "subscribe")},
    });
    let [expected_prompts, expected_resources, expected_templates] = lists;
    json!({
        "capabilities": capabilities,
        "changeFlags": change_flags,
        "expectedPrompts": expected_prompts,
        "expectedResources": expected_resources,
        "expectedResourceTemplates": expected_templates,
        "prompts": prompt_calls,
        "reads": reads,
        "completions": completions,
        "errors": errors,
        "shadowed": shadowed,
    })
}

/// Which list of the plan a call goes to.
#[derive(Clone, Copy)]
enum Kind {
    Prompts,
    Reads,
    Completions,
}

impl Kind {
    fn key(self) -> &'static str {
        match self {
            Kind::Prompts => "prompts",
            Kind::Reads => "reads",
            Kind::Completions => "completions",
        }
    }
}

/// The example calls of a plan, and the ones an earlier example of the same target
/// with the same request hides (see [`primitive_plan`]).
#[derive(Default)]
struct Calls {
    seen: std::collections::HashSet<String>,
    prompts: Vec<serde_json::Value>,
    reads: Vec<serde_json::Value>,
    completions: Vec<serde_json::Value>,
    shadowed: Vec<serde_json::Value>,
}

impl Calls {
    /// Keeps `call` when its request is new for `target`, else shadows it.
    fn keep(
        &mut self,
        kind: Kind,
        target: &str,
        request: &serde_json::Value,
        label: &str,
        call: serde_json::Value,
    ) {
        let key = format!("{target}\n{}", mcpdesc::testing::canonical(request));
        if !self.seen.insert(key) {
            self.shadowed.push(serde_json::json!({
                "select": format!("{target}={label}"), "kind": kind.key(), "call": call,
            }));
            return;
        }
        match kind {
            Kind::Prompts => self.prompts.push(call),
            Kind::Reads => self.reads.push(call),
            Kind::Completions => self.completions.push(call),
        }
    }
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
