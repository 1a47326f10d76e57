//! A drain that loses no MCP 2025-11-25 task: `BoundHttpServer::shutdown` waits
//! for a running task as for a request in flight, serves `tasks/*` meanwhile,
//! fails a task that outlives the grace period ("server shut down") and counts
//! both in its report.

#![cfg(feature = "http")]

#[path = "support/wire.rs"]
mod wire;

use std::time::{Duration, Instant};

use hyper::StatusCode;
use mcpdesc::http::{BoundHttpServer, HttpServer};
use mcpdesc::{ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
use serde_json::{json, Value};
use wire::Client;

/// Answers after 400 ms.
const BRIEF: ToolSpec = ToolSpec::new(
    "brief",
    &[],
    r#"{"name": "brief", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}"#,
);

/// Answers after a minute, far past any grace period here.
const ENDLESS: ToolSpec = ToolSpec::new(
    "endless",
    &[],
    r#"{"name": "endless", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}"#,
);

fn router() -> Router {
    let info = ServerInfo {
        protocol_versions: &[ProtocolVersion::V2025_11_25],
        ..ServerInfo::new("drain-tasks", "1.0.0")
    };
    Router::new(info)
        .tool(BRIEF, |_, _| {
            Box::pin(async {
                tokio::time::sleep(Duration::from_millis(400)).await;
                Ok(ToolResult::text("brief done"))
            })
        })
        .tool(ENDLESS, |_, _| {
            Box::pin(async {
                tokio::time::sleep(Duration::from_secs(60)).await;
                Ok(ToolResult::text("never"))
            })
        })
}

async fn start() -> (Client, BoundHttpServer) {
    let server = HttpServer::new(router()).bind("127.0.0.1:0").await.unwrap();
    tokio::spawn(server.clone().run());
    let mut client = Client::new(server.local_addr());
    assert_eq!(client.initialize().await.status, StatusCode::OK);
    (client, server)
}

/// Starts `tool` as a task; its id.
async fn start_task(client: &Client, id: i64, tool: &str) -> String {
    let reply = client
        .post(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": {}, "task": {"ttl": 60000}}}))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{reply:?}");
    let task = &reply.answer(id)["result"]["task"];
    assert_eq!(task["status"], "working", "{}", reply.body);
    task["taskId"].as_str().unwrap().to_owned()
}

async fn task_request(client: &Client, id: i64, method: &str, task: &str) -> Value {
    let reply = client
        .post(json!({"jsonrpc": "2.0", "id": id, "method": method,
            "params": {"taskId": task}}))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{method}: {reply:?}");
    reply.answer(id)
}

#[tokio::test]
async fn a_task_that_ends_within_the_grace_is_waited_for_and_its_result_served() {
    let (client, server) = start().await;
    let task = start_task(&client, 1, "brief").await;
    let stopper = server.clone();
    let shutdown = tokio::spawn(async move { stopper.shutdown(Duration::from_secs(10)).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Draining: new work is refused, the task is still followed.
    assert_eq!(
        client.call_tool(2, "brief").await.status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    let got = task_request(&client, 3, "tasks/get", &task).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    // Its waiting `tasks/result` is in flight: the drain ends once it is answered.
    let result = task_request(&client, 4, "tasks/result", &task).await;
    assert_eq!(
        result["result"]["content"][0]["text"], "brief done",
        "{result}"
    );
    let report = tokio::time::timeout(Duration::from_secs(10), shutdown)
        .await
        .expect("the drain ends once the task has")
        .unwrap();
    assert_eq!(
        (
            report.requests_cut,
            report.tasks_finished,
            report.tasks_failed
        ),
        (0, 1, 0),
        "{report}"
    );
    assert!(tokio::net::TcpStream::connect(server.local_addr())
        .await
        .is_err());
}

#[tokio::test]
async fn a_task_that_outlives_the_grace_ends_failed_and_is_counted() {
    let (client, server) = start().await;
    let brief = start_task(&client, 1, "brief").await;
    let endless = start_task(&client, 2, "endless").await;
    // A client waiting for the endless task's result learns how it ended.
    let waiter = client.clone();
    let waiting = {
        let endless = endless.clone();
        tokio::spawn(async move { task_request(&waiter, 3, "tasks/result", &endless).await })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let report = server.shutdown(Duration::from_millis(800)).await;
    // The grace period, then at most the second the failed task gets to answer.
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(800) && took < Duration::from_secs(3),
        "{took:?}"
    );
    assert_eq!(
        (
            report.requests_cut,
            report.tasks_finished,
            report.tasks_failed
        ),
        (0, 1, 1),
        "{report}"
    );
    let answer = waiting.await.unwrap();
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    assert_eq!(answer["error"]["message"], "server shut down", "{answer}");
    let _ = brief;
}
