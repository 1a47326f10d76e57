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
#[cfg(feature = "http")]
use super::shared_tasks::{shared_scope, SharedTaskScope};
use crate::auth;
use crate::protocol::futures::BoxFuture;
use crate::protocol::version::ProtocolVersion;
use crate::server::context::Context;
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
        // ... unless the endpoint keeps tasks in a shared store (`shared_tasks`).
        #[cfg(feature = "http")]
        let shared = shared_scope(&context);
        #[cfg(feature = "http")]
        let stateless = runs_tasks && stateless_http(&context) && shared.is_none();
        #[cfg(not(feature = "http"))]
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
        #[cfg(feature = "http")]
        if let Some(shared) = shared {
            return self
                .shared_task_request(method, params, version, context, shared)
                .await
                .map(m::CustomResult::new);
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

    /// A task request answered from the shared store.
    #[cfg(feature = "http")]
    async fn shared_task_request(
        &self,
        method: &str,
        params: Value,
        version: ProtocolVersion,
        context: RequestContext<RoleServer>,
        shared: SharedTaskScope,
    ) -> Result<Value, ErrorData> {
        let limits = &self.task_limits;
        Ok(match method {
            wire::CALL => {
                let (ttl, cx, call) = self.task_call(&params, version, &context)?;
                let (id, token, task) = shared.create(limits, ttl).await?;
                let cx = cx.with_cancellation(token.clone());
                let running = self.running_tasks().clone();
                let mark = running.track();
                tokio::spawn(shared.run(id, token, running, mark, CANCEL_GRACE, call(cx)));
                json!({ "task": task })
            }
            wire::GET => shared.get(task_id(&params)?).await?,
            wire::CANCEL => shared.cancel(task_id(&params)?).await?,
            "tasks/list" => {
                let cursor = params.get("cursor").and_then(Value::as_str);
                let (tasks, next) = shared.list(limits, cursor).await?;
                let mut answer = json!({ "tasks": tasks });
                if let Some(next) = next {
                    answer["nextCursor"] = json!(next);
                }
                answer
            }
            _ => {
                let id = task_id(&params)?;
                let (task, outcome) = shared.wait(id).await?;
                result_answer(id, &task, outcome)?
            }
        })
    }

    /// What a task-augmented `tools/call` runs, checked: its requested TTL, the
    /// handler's `Context` (without the task's cancellation yet) and the call,
    /// as a future of its [`Outcome`] once given that `Context`.
    #[allow(clippy::type_complexity)]
    fn task_call(
        &self,
        params: &Value,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) -> Result<
        (
            Option<u64>,
            Context,
            impl FnOnce(Context) -> BoxFuture<'static, Outcome>,
        ),
        ErrorData,
    > {
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
            context,
        )?;
        let ttl = params.pointer("/task/ttl").and_then(Value::as_u64);
        let cx = self.context(version, None, context, auth);
        let router = self.shared_router();
        let arguments = params.get("arguments").cloned();
        let call = move |cx: Context| -> BoxFuture<'static, Outcome> {
            Box::pin(async move {
                match router.call_tool(&name, arguments, cx).await {
                    Ok(result) => Outcome::Result(result.to_wire(version)),
                    Err(error) => Outcome::Error {
                        code: error.code,
                        message: error.message,
                        data: error.data,
                    },
                }
            })
        };
        Ok((ttl, cx, call))
    }

    /// Starts the tool of a task-augmented `tools/call` in the background, the
    /// task in this session's store; the `CreateTaskResult`.
    fn call_as_task(
        &self,
        params: Value,
        version: ProtocolVersion,
        context: RequestContext<RoleServer>,
        store: Arc<TaskStore>,
    ) -> Result<Value, ErrorData> {
        let (ttl, cx, call) = self.task_call(&params, version, &context)?;
        let (id, token, task) = store.create(ttl).map_err(refused)?;
        let cx = cx.with_cancellation(token.clone());
        // Held while the handler runs: a drain waits for it as for a request.
        let running = self.running_tasks().clone();
        let mark = running.track();
        tokio::spawn(async move {
            let _mark = mark;
            let call = call(cx);
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
    result_answer(id, &task, outcome)
}

/// The `tasks/result` answer of ended task `id` (its wire `Task` and outcome).
fn result_answer(id: &str, task: &Value, outcome: Option<Outcome>) -> Result<Value, ErrorData> {
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
