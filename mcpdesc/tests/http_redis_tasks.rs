//! MCP 2025-11-25 tasks across instances sharing one real Redis
//! (`HttpServer::shared_state` with `mcpdesc::state::RedisState`): a task created on
//! one instance is polled, listed, cancelled and fetched on the other, and the
//! cancellation reaches the handler running on the first; a task whose instance
//! died ends `failed` after its lease (never `404` before its TTL); stateless
//! instances serve tasks with the store (the capability and `taskSupport` come
//! back); another principal's task answers exactly as an unknown one.
//!
//! Each test starts its own `redis-server` (skipped with a notice without one; a
//! failure under `MCPDESC_REQUIRE_TOOLS=1`).

#[path = "../../tests/prereq.rs"]
mod prereq;
#[path = "support/redis.rs"]
mod redis;
#[path = "support/wire.rs"]
mod wire;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::StatusCode;
use mcpdesc::auth::{Principal, StaticTokens};
use mcpdesc::http::HttpServer;
use mcpdesc::state::RedisState;
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use redis::Redis;
use serde_json::{json, Value};
use wire::{Client, VERSION};

/// A `redis-server` of the test's own; `None` (a notice) without the program.
fn redis_server(test: &str) -> Option<Redis> {
    Redis::for_test(test, prereq::program)
}

/// Runs until cancelled (a minute at most); says whether it saw the cancellation.
const SLOW: ToolSpec = ToolSpec::new(
    "slow",
    &[],
    r#"{"name": "slow", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}"#,
);

/// Answers the instance that ran it, at once.
const QUICK: ToolSpec = ToolSpec::new(
    "quick",
    &[],
    r#"{"name": "quick", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}"#,
);

const SECURITY: &str = r#"{
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    "security": [{"bearer": []}]
}"#;

/// The router of instance `name`; `cancelled` is set when a `slow` handler of it
/// sees its cancellation.
fn router(name: &'static str, cancelled: Arc<AtomicBool>, secured: bool) -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("shared-tasks", "1.0.0")
    };
    let router = Router::new(info)
        .tool(SLOW, move |_, cx| {
            let cancelled = cancelled.clone();
            Box::pin(async move {
                tokio::select! {
                    () = cx.cancelled() => cancelled.store(true, Ordering::SeqCst),
                    () = tokio::time::sleep(Duration::from_secs(60)) => {}
                }
                Ok(ToolResult::text("slow done"))
            })
        })
        .tool(QUICK, move |_, _| {
            Box::pin(async move { Ok(ToolResult::text(format!("quick on {name}"))) })
        });
    match secured {
        true => router.security(Some(SECURITY)).authenticator(
            StaticTokens::new()
                .token("alice-token", Principal::new("alice"))
                .token("bob-token", Principal::new("bob")),
        ),
        false => router,
    }
}

/// How an instance is made.
#[derive(Clone, Copy)]
struct Setup {
    stateless: bool,
    secured: bool,
    lease: Option<Duration>,
}

const STATEFUL: Setup = Setup {
    stateless: false,
    secured: false,
    lease: None,
};

fn server(url: &str, name: &'static str, setup: Setup, cancelled: Arc<AtomicBool>) -> HttpServer {
    let state = RedisState::open(url).unwrap().with_prefix("tasks-test:");
    let mut server = HttpServer::new(router(name, cancelled, setup.secured))
        .shared_state(Arc::new(state))
        .stateless(setup.stateless);
    if let Some(lease) = setup.lease {
        server = server.task_lease(lease);
    }
    server
}

/// One instance on a free port, in this test's runtime.
async fn instance(
    redis: &Redis,
    name: &'static str,
    setup: Setup,
) -> (SocketAddr, Arc<AtomicBool>) {
    let cancelled = Arc::new(AtomicBool::new(false));
    let bound = server(&redis.url, name, setup, cancelled.clone())
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.run());
    (addr, cancelled)
}

/// One instance in a runtime of its own, on its own thread: sending on the
/// returned channel kills it at once (its runtime is dropped with every task of
/// it, the handlers and their lease renewals included), as a killed process.
fn killable_instance(
    redis: &Redis,
    name: &'static str,
    setup: Setup,
) -> (SocketAddr, std::sync::mpsc::Sender<()>) {
    let url = redis.url.clone();
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (kill_tx, kill_rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let bound = server(&url, name, setup, Arc::default())
                .bind("127.0.0.1:0")
                .await
                .unwrap();
            addr_tx.send(bound.local_addr()).unwrap();
            tokio::spawn(bound.run());
        });
        let _ = kill_rx.recv();
        runtime.shutdown_background();
    });
    (addr_rx.recv().unwrap(), kill_tx)
}

/// `client` pointed at another instance, same session and credentials.
fn at(client: &Client, addr: SocketAddr) -> Client {
    Client {
        addr,
        ..client.clone()
    }
}

/// Starts `tool` as a task; its id.
async fn start_task(client: &Client, id: i64, tool: &str) -> String {
    let reply = client
        .post(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": {}, "task": {"ttl": 60000}}}))
        .await;
    let task = &reply.answer(id)["result"]["task"];
    assert_eq!(task["status"], "working", "{}", reply.body);
    task["taskId"].as_str().unwrap().to_owned()
}

/// The answer (result or error) to `method` of `task`.
async fn task_request(client: &Client, id: i64, method: &str, task: &str) -> Value {
    let reply = client
        .post(json!({"jsonrpc": "2.0", "id": id, "method": method,
            "params": {"taskId": task}}))
        .await;
    reply.answer(id)
}

async fn list(client: &Client, id: i64) -> Vec<String> {
    let reply = client
        .post(json!({"jsonrpc": "2.0", "id": id, "method": "tasks/list"}))
        .await;
    let answer = reply.answer(id);
    answer["result"]["tasks"]
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter()
        .map(|t| t["taskId"].as_str().unwrap().to_owned())
        .collect()
}

/// Waits (at most `within`) until `done` holds.
async fn eventually(within: Duration, mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

#[tokio::test]
async fn a_task_is_followed_and_cancelled_on_the_other_instance() {
    let Some(redis) = redis_server("a_task_is_followed_and_cancelled_on_the_other_instance") else {
        return;
    };
    let (a, cancelled_on_a) = instance(&redis, "A", STATEFUL).await;
    let (b, cancelled_on_b) = instance(&redis, "B", STATEFUL).await;
    let mut client = Client::new(a);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let on_b = at(&client, b);

    // Created on A, polled and listed on B.
    let task = start_task(&client, 1, "slow").await;
    let got = task_request(&on_b, 2, "tasks/get", &task).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    assert_eq!(got["result"]["taskId"], task.as_str());
    assert_eq!(list(&on_b, 3).await, vec![task.clone()]);

    // Cancelled on B: the handler on A hears it (Redis pub/sub, well before the
    // first lease renewal at a third of the 10 s default lease).
    let cancel = task_request(&on_b, 4, "tasks/cancel", &task).await;
    assert_eq!(cancel["result"]["status"], "cancelled", "{cancel}");
    assert!(
        eventually(Duration::from_secs(2), || cancelled_on_a
            .load(Ordering::SeqCst))
        .await,
        "the handler on A did not see the cancellation made on B"
    );
    assert!(!cancelled_on_b.load(Ordering::SeqCst));
    let got = task_request(&client, 5, "tasks/get", &task).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    assert_eq!(got["result"]["statusMessage"], "cancelled by the client");
    let again = task_request(&client, 6, "tasks/cancel", &task).await;
    assert_eq!(again["error"]["code"], -32602, "{again}");
    let result = task_request(&on_b, 7, "tasks/result", &task).await;
    assert_eq!(result["error"]["code"], -32600, "{result}");

    // A task that completes on A: its result fetched on B.
    let quick = start_task(&client, 8, "quick").await;
    let result = task_request(&on_b, 9, "tasks/result", &quick).await;
    assert_eq!(
        result["result"]["content"][0]["text"], "quick on A",
        "{result}"
    );
    assert_eq!(
        result["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        quick.as_str()
    );
    let got = task_request(&on_b, 10, "tasks/get", &quick).await;
    assert_eq!(got["result"]["status"], "completed", "{got}");
    assert_eq!(list(&client, 11).await, vec![task, quick]);

    // Another session, even on the same instance, sees none of them.
    let mut other = Client::new(b);
    assert_eq!(other.initialize().await.status, StatusCode::OK);
    assert!(list(&other, 12).await.is_empty());
}

#[tokio::test]
async fn a_task_whose_instance_died_fails_after_its_lease() {
    let Some(redis) = redis_server("a_task_whose_instance_died_fails_after_its_lease") else {
        return;
    };
    let lease = Duration::from_millis(900);
    let setup = Setup {
        lease: Some(lease),
        ..STATEFUL
    };
    let (a, kill_a) = killable_instance(&redis, "A", setup);
    let (b, _) = instance(&redis, "B", setup).await;
    let mut client = Client::new(a);
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let task = start_task(&client, 1, "slow").await;
    let on_b = at(&client, b);
    // While A lives, its renewals keep the task working past its first lease.
    tokio::time::sleep(lease * 2).await;
    let got = task_request(&on_b, 2, "tasks/get", &task).await;
    assert_eq!(got["result"]["status"], "working", "{got}");

    kill_a.send(()).unwrap();
    let failed = Instant::now() + lease * 4;
    let got = loop {
        let got = task_request(&on_b, 3, "tasks/get", &task).await;
        assert!(
            got.get("result").is_some(),
            "never 404 before its TTL: {got}"
        );
        if got["result"]["status"] != "working" || Instant::now() > failed {
            break got;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(got["result"]["status"], "failed", "{got}");
    assert_eq!(
        got["result"]["statusMessage"],
        "the instance running this task stopped"
    );
    let result = task_request(&on_b, 4, "tasks/result", &task).await;
    assert_eq!(result["error"]["code"], -32603, "{result}");
    assert_eq!(
        result["error"]["message"],
        "the instance running this task stopped"
    );
    assert_eq!(list(&on_b, 5).await, vec![task]);
}

#[tokio::test]
async fn stateless_instances_serve_tasks_with_the_store() {
    let Some(redis) = redis_server("stateless_instances_serve_tasks_with_the_store") else {
        return;
    };
    let setup = Setup {
        stateless: true,
        ..STATEFUL
    };
    let (a, _) = instance(&redis, "A", setup).await;
    let (b, _) = instance(&redis, "B", setup).await;
    // Without a session, each request names its version.
    let mut client = Client::new(a).header("mcp-protocol-version", VERSION);
    let init = client.initialize().await.answer(0);
    assert_eq!(client.session, None, "stateless: no session");
    assert_eq!(
        init["result"]["capabilities"]["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        "{init}"
    );
    let on_b = at(&client, b);
    let tools = on_b
        .post(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
        .await
        .answer(1);
    let quick = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "quick")
        .cloned()
        .unwrap_or_else(|| panic!("{tools}"));
    assert_eq!(quick["execution"]["taskSupport"], "optional", "{tools}");

    let task = start_task(&client, 2, "quick").await;
    let result = task_request(&on_b, 3, "tasks/result", &task).await;
    assert_eq!(
        result["result"]["content"][0]["text"], "quick on A",
        "{result}"
    );
    let got = task_request(&on_b, 4, "tasks/get", &task).await;
    assert_eq!(got["result"]["status"], "completed", "{got}");
    // Anonymous and without a session: nothing tells this client from another, so
    // no list shows the task (its id is its only key).
    assert!(list(&on_b, 5).await.is_empty());
    let cancel = task_request(&on_b, 6, "tasks/cancel", &task).await;
    assert_eq!(cancel["error"]["code"], -32602, "{cancel}");
    assert_eq!(
        cancel["error"]["message"],
        format!("task {task} is already completed: it cannot be cancelled")
    );
}

#[tokio::test]
async fn another_principals_task_answers_as_an_unknown_one() {
    let Some(redis) = redis_server("another_principals_task_answers_as_an_unknown_one") else {
        return;
    };
    let setup = Setup {
        stateless: true,
        secured: true,
        lease: None,
    };
    let (a, _) = instance(&redis, "A", setup).await;
    let (b, _) = instance(&redis, "B", setup).await;
    let mut alice = Client::bearer(a, "alice-token").header("mcp-protocol-version", VERSION);
    alice.initialize().await.answer(0);
    let task = start_task(&alice, 1, "slow").await;
    let bob = Client::bearer(b, "bob-token").header("mcp-protocol-version", VERSION);
    let unknown = "00000000-0000-4000-8000-000000000000";
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let refused = task_request(&bob, 2, method, &task).await;
        let none = task_request(&bob, 2, method, unknown).await;
        assert_eq!(
            refused["error"],
            json!({"code": -32602, "message": format!("task not found: {task}")}),
            "{method}: {refused}"
        );
        assert_eq!(
            none["error"],
            json!({"code": -32602, "message": format!("task not found: {unknown}")}),
            "{method}: {none}"
        );
    }
    assert!(list(&bob, 3).await.is_empty());
    // Alice follows it on B; Bob's cancel did nothing.
    let on_b = at(&alice, b);
    let got = task_request(&on_b, 4, "tasks/get", &task).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    assert_eq!(list(&on_b, 5).await, vec![task.clone()]);
    let cancel = task_request(&on_b, 6, "tasks/cancel", &task).await;
    assert_eq!(cancel["result"]["status"], "cancelled", "{cancel}");
}

#[tokio::test]
async fn a_task_cut_by_the_drain_ends_failed_in_the_store() {
    let Some(redis) = redis_server("a_task_cut_by_the_drain_ends_failed_in_the_store") else {
        return;
    };
    let a = server(&redis.url, "A", STATEFUL, Arc::default())
        .bind("127.0.0.1:0")
        .await
        .unwrap();
    tokio::spawn(a.clone().run());
    let (b, _) = instance(&redis, "B", STATEFUL).await;
    let mut client = Client::new(a.local_addr());
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    let task = start_task(&client, 1, "slow").await;
    let report = a.shutdown(Duration::from_millis(300)).await;
    assert_eq!(report.tasks_failed, 1, "{report}");
    // What B reads is the store's: the drain's terminal status landed there.
    let on_b = at(&client, b);
    let got = task_request(&on_b, 2, "tasks/get", &task).await;
    assert_eq!(got["result"]["status"], "failed", "{got}");
    assert_eq!(got["result"]["statusMessage"], "server shut down");
    let result = task_request(&on_b, 3, "tasks/result", &task).await;
    assert_eq!(result["error"]["message"], "server shut down", "{result}");
}
