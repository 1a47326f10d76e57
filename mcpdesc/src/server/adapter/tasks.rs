//! The server side of tasks: the task-augmented `tools/call` and the four `tasks/*`
//! requests of an [`McpServer`] session, as JSON-RPC results in the MCP 2025-11-25
//! shapes.

use std::sync::Arc;

use rmcp::service::RequestContext;
use rmcp::{model as m, ErrorData, RoleServer, ServerHandler};
use serde_json::{json, Value};

use super::convert::{negotiated, to_error_data};
use super::http_marks::stateless_http;
use super::mcp_server::McpServer;
use crate::auth;
use crate::protocol::version::ProtocolVersion;
use crate::tasks::running::SHUT_DOWN;
use crate::tasks::store::{Outcome, Refusal, TaskStore};
use crate::tasks::wire;

/// How long a cancelled task's handler may run on after its cancellation before it
/// is dropped at its next await point.
const CANCEL_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// The `_meta` key that ties a `tasks/result` answer to its task.
const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

impl McpServer {
    /// Answers a custom request: the task methods (see [`wire`]) in a version with
    /// a task-capable tool; anything else is `-32601`.
    pub(crate) async fn task_request(
        &self,
        request: m::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CustomResult, ErrorData> {
        let method = request.method.as_str();
        let params = request.params.unwrap_or_else(|| json!({}));
        let version = negotiated(&context)?;
        let known = matches!(
            method,
            wire::CALL | wire::GET | wire::CANCEL | "tasks/result" | "tasks/list"
        );
        // A stateless HTTP server has no session to keep a task in: it advertises
        // no `tasks` capability and serves as a server without one.
        let runs_tasks = self.router().serves_tasks(version);
        let stateless = runs_tasks && stateless_http(&context);
        let serves = runs_tasks && !stateless;
        if method == wire::CALL && !serves {
            // A server without the `tasks` capability ignores the augmentation
            // (MCP 2025-11-25: it "MUST process requests of that type normally"):
            // the plain call.
            return self.plain_call(params, context).await;
        }
        if !known || !serves {
            let why = match (known, stateless) {
                (false, _) => "",
                (true, true) => {
                    " (stateless mode: this server serves HTTP without sessions, so it \
                     keeps no task and has no `tasks` capability)"
                }
                (true, false) => " (no tool of this protocol version runs as a task)",
            };
            return Err(ErrorData::new(
                m::ErrorCode::METHOD_NOT_FOUND,
                format!("Method not found: {}{why}", wire::public_method(method)),
                None,
            ));
        }
        let store = self.task_store();
        let answer = match method {
            wire::CALL => self.call_as_task(params, version, context, store)?,
            wire::GET => store.get(task_id(&params)?).map_err(refused)?,
            wire::CANCEL => store.cancel(task_id(&params)?).map_err(refused)?,
            "tasks/list" => {
                let cursor = params.get("cursor").and_then(Value::as_str);
                let (tasks, next) = store.list(cursor).map_err(refused)?;
                let mut answer = json!({ "tasks": tasks });
                if let Some(next) = next {
                    answer["nextCursor"] = json!(next);
                }
                answer
            }
            _ => task_result(&store, task_id(&params)?).await?,
        };
        Ok(m::CustomResult::new(answer))
    }

    /// The `tools/call` of `params` without its `task`, answered as usual.
    async fn plain_call(
        &self,
        params: Value,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CustomResult, ErrorData> {
        let request: m::CallToolRequestParams = serde_json::from_value(params)
            .map_err(|e| ErrorData::invalid_params(format!("invalid tools/call: {e}"), None))?;
        let response = ServerHandler::call_tool(self, request, context).await?;
        serde_json::to_value(m::ServerResult::from(response))
            .map(m::CustomResult::new)
            .map_err(|e| {
                ErrorData::internal_error(format!("the tool result cannot be sent: {e}"), None)
            })
    }

    /// Starts the tool of a task-augmented `tools/call` in the background; the
    /// `CreateTaskResult`.
    fn call_as_task(
        &self,
        params: Value,
        version: ProtocolVersion,
        context: RequestContext<RoleServer>,
        store: Arc<TaskStore>,
    ) -> Result<Value, ErrorData> {
        let name = params
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| ErrorData::invalid_params("tools/call needs a tool `name`", None))?
            .to_owned();
        let support = self
            .router()
            .task_support(&name, version)
            .map_err(to_error_data)?;
        if !support.allows_task() {
            return Err(ErrorData::new(
                m::ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "the tool `{name}` cannot be called as a task \
                     (its execution.taskSupport is forbidden): call it without `task`"
                ),
                None,
            ));
        }
        let auth = self.authorize(
            || auth::policy::Target::Tool(name.clone()),
            version,
            &context,
        )?;
        let ttl = params.pointer("/task/ttl").and_then(Value::as_u64);
        let (id, token, task) = store.create(ttl).map_err(refused)?;
        let cx = self
            .context(version, None, &context, auth)
            .with_cancellation(token.clone());
        let router = self.shared_router();
        let arguments = params.get("arguments").cloned();
        // Held while the handler runs: a drain waits for it as for a request.
        let running = self.running_tasks().clone();
        let mark = running.track();
        tokio::spawn(async move {
            let _mark = mark;
            let call = router.call_tool(&name, arguments, cx);
            tokio::pin!(call);
            let outcome = tokio::select! {
                biased;
                outcome = &mut call => outcome,
                () = running.deadline() => {
                    // The drain's grace period is over: the task ends `failed` so
                    // that a client polling it sees a terminal status, and its
                    // handler is dropped (its Context sees the cancellation first).
                    if store.fail(&id, SHUT_DOWN) {
                        running.count_failed();
                    }
                    return;
                }
                () = token.cancelled() => {
                    // Cancelled (or its TTL ran out): the store entry is already
                    // cancelled or gone. The handler sees it through its Context and
                    // gets CANCEL_GRACE to wind down; then it is dropped.
                    tokio::select! {
                        _ = tokio::time::timeout(CANCEL_GRACE, call) => {}
                        () = running.deadline() => {}
                    }
                    return;
                }
            };
            let outcome = match outcome {
                Ok(result) => Outcome::Result(result.to_wire(version)),
                Err(error) => Outcome::Error {
                    code: error.code,
                    message: error.message,
                    data: error.data,
                },
            };
            store.finish(&id, outcome);
        });
        Ok(json!({ "task": task }))
    }
}

/// `tasks/result`: waits until the task is terminal, then answers what its
/// `tools/call` would have: the result (with the related-task `_meta`) or the
/// JSON-RPC error. A cancelled task has neither: `-32600`.
async fn task_result(store: &TaskStore, id: &str) -> Result<Value, ErrorData> {
    let (task, outcome) = store.wait(id).await.map_err(refused)?;
    match outcome {
        Some(Outcome::Result(mut result)) => {
            if let Some(object) = result.as_object_mut() {
                let meta = object.entry("_meta").or_insert_with(|| json!({}));
                if let Some(meta) = meta.as_object_mut() {
                    meta.insert(RELATED_TASK.into(), json!({ "taskId": id }));
                }
            }
            Ok(result)
        }
        Some(Outcome::Error {
            code,
            message,
            data,
        }) => Err(ErrorData::new(m::ErrorCode(code), message, data)),
        None => Err(ErrorData::invalid_request(
            format!(
                "task {id} was {}: it has no result",
                task["status"].as_str().unwrap_or("ended")
            ),
            None,
        )),
    }
}

fn task_id(params: &Value) -> Result<&str, ErrorData> {
    params
        .get("taskId")
        .and_then(Value::as_str)
        .ok_or_else(|| ErrorData::invalid_params("the request needs a `taskId`", None))
}

/// A store refusal as its JSON-RPC error: the live-task bound is `-32600`, an
/// unknown task, a cursor or an ended task to cancel `-32602` (as the spec says).
fn refused(refusal: Refusal) -> ErrorData {
    match refusal {
        Refusal::TooMany(_) => ErrorData::invalid_request(refusal.to_string(), None),
        _ => ErrorData::invalid_params(refusal.to_string(), None),
    }
}
