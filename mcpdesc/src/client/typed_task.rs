//! [`TypedTask`]: a task a generated `Client`'s `{tool}_as_task` created, with the
//! task's status, its result in the tool's Rust types, and its cancellation.

use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::call_error::{CallError, Violation};
use super::task::ToolTask;
use super::typed::TypedClient;
use crate::protocol::result::ToolResult;
use crate::server::router::ToolSpec;

/// The status of a task (MCP 2025-11-25 `Task.status`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TaskStatus {
    /// `working`: the tool is running.
    Working,
    /// `input_required`: the server waits for the client (never sent by an mcpdesc
    /// server, whose handlers ask the client directly).
    InputRequired,
    /// `completed`: the result is ready.
    Completed,
    /// `failed`: the tool reported an error or the call failed.
    Failed,
    /// `cancelled`.
    Cancelled,
    /// A status this client does not know, as sent.
    Other(String),
}

impl TaskStatus {
    /// The status of its wire name.
    pub fn parse(status: &str) -> Self {
        match status {
            "working" => TaskStatus::Working,
            "input_required" => TaskStatus::InputRequired,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            other => TaskStatus::Other(other.to_owned()),
        }
    }

    /// Whether the task has ended (`completed`, `failed` or `cancelled`).
    pub fn is_terminal(&self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// A task as the server described it (`tasks/get`, `tasks/cancel`).
#[derive(Debug, Clone, PartialEq)]
pub struct TaskInfo {
    /// `status`.
    pub status: TaskStatus,
    /// `statusMessage`, when sent.
    pub status_message: Option<String>,
    /// `pollInterval` in milliseconds, when sent.
    pub poll_interval: Option<u64>,
    /// The task as sent.
    pub raw: Value,
}

impl TaskInfo {
    fn from_task(name: &str, raw: Value) -> Result<Self, CallError> {
        let Some(status) = raw.get("status").and_then(Value::as_str) else {
            return Err(CallError::Contract {
                name: name.to_owned(),
                violations: vec![Violation::new(
                    "/status",
                    "a task must have a string `status`",
                )],
                result: Box::new(raw),
            });
        };
        Ok(TaskInfo {
            status: TaskStatus::parse(status),
            status_message: raw
                .get("statusMessage")
                .and_then(Value::as_str)
                .map(str::to_owned),
            poll_interval: raw.get("pollInterval").and_then(Value::as_u64),
            raw,
        })
    }
}

/// A tool call running as a task (MCP 2025-11-25 core tasks), made by a generated
/// `Client`'s `{tool}_as_task` ([`TypedClient::call_tool_output_as_task`],
/// [`TypedClient::call_tool_as_task`]). `O` is what the plain call answers: the
/// tool's output type, or [`ToolResult`] for a tool without an
/// `outputSchema`.
///
/// [`ToolResult`]: crate::protocol::result::ToolResult
pub struct TypedTask<O> {
    client: TypedClient,
    spec: &'static ToolSpec,
    task: ToolTask,
    typed: bool,
    output: PhantomData<fn() -> O>,
}

impl<O> Clone for TypedTask<O> {
    fn clone(&self) -> Self {
        TypedTask {
            client: self.client.clone(),
            spec: self.spec,
            task: self.task.clone(),
            typed: self.typed,
            output: PhantomData,
        }
    }
}

impl<O> std::fmt::Debug for TypedTask<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedTask")
            .field("tool", &self.spec.name)
            .field("task", &self.task)
            .finish_non_exhaustive()
    }
}

impl<O: DeserializeOwned> TypedTask<O> {
    pub(super) fn new(
        client: TypedClient,
        spec: &'static ToolSpec,
        task: ToolTask,
        typed: bool,
    ) -> Self {
        TypedTask {
            client,
            spec,
            task,
            typed,
            output: PhantomData,
        }
    }

    /// The task id.
    pub fn id(&self) -> &str {
        self.task.id()
    }

    /// The untyped handle (the raw `tasks/*` answers).
    pub fn task(&self) -> &ToolTask {
        &self.task
    }

    /// `tasks/get`: the task now.
    pub async fn status(&self) -> Result<TaskInfo, CallError> {
        let raw = self
            .task
            .status()
            .await
            .map_err(|e| CallError::from_request(self.spec.name, e))?;
        TaskInfo::from_task(self.spec.name, raw)
    }

    /// `tasks/result`: waits until the task ends (within the session's request
    /// timeout) and answers what the plain call answers: the typed output (or the
    /// whole result), [`CallError::Tool`] for a tool error, [`CallError::Protocol`]
    /// for the call's JSON-RPC error or a cancelled task's refusal, and
    /// [`CallError::Contract`] for an output that breaks the `outputSchema`.
    pub async fn result(&self) -> Result<O, CallError> {
        let mut raw = self
            .task
            .result()
            .await
            .map_err(|e| CallError::from_request(self.spec.name, e))?;
        // The related-task entry ties the answer to the task; it is not the tool's.
        if let Some(meta) = raw.get_mut("_meta").and_then(Value::as_object_mut) {
            meta.remove("io.modelcontextprotocol/related-task");
            if meta.is_empty() {
                raw.as_object_mut().map(|r| r.remove("_meta"));
            }
        }
        self.client.finish(self.spec, raw, self.typed)
    }

    /// `tasks/cancel`: the task after (`cancelled`); a task that has already ended
    /// is [`CallError::Protocol`] (`-32602`).
    pub async fn cancel(&self) -> Result<TaskInfo, CallError> {
        let raw = self
            .task
            .cancel()
            .await
            .map_err(|e| CallError::from_request(self.spec.name, e))?;
        TaskInfo::from_task(self.spec.name, raw)
    }
}

impl TypedClient {
    /// Calls a tool without an `outputSchema` as a task (MCP 2025-11-25 core tasks):
    /// the task's handle, whose [`TypedTask::result`] is the whole result as
    /// [`TypedClient::call_tool`] answers it. See [`TypedClient::call_tool_output_as_task`].
    pub async fn call_tool_as_task<I: Serialize>(
        &self,
        spec: &'static ToolSpec,
        input: I,
    ) -> Result<TypedTask<ToolResult>, CallError> {
        self.as_task(spec, &input, false).await
    }

    /// Calls a tool with an `outputSchema` as a task: the task's handle, whose
    /// [`TypedTask::result`] is the typed output as [`TypedClient::call_tool_output`]
    /// answers it.
    ///
    /// Besides the checks of a plain call (scope, input), nothing is sent and the
    /// answer is [`CallError::NoTask`] when the declaration of the negotiated version
    /// does not say `execution.taskSupport` `optional` or `required`, or when the
    /// server did not advertise `capabilities.tasks.requests.tools.call`: a server
    /// without them would run the call plainly, or refuse it.
    pub async fn call_tool_output_as_task<I: Serialize, O: DeserializeOwned>(
        &self,
        spec: &'static ToolSpec,
        input: I,
    ) -> Result<TypedTask<O>, CallError> {
        self.as_task(spec, &input, true).await
    }

    async fn as_task<I: Serialize, O: DeserializeOwned>(
        &self,
        spec: &'static ToolSpec,
        input: &I,
        typed: bool,
    ) -> Result<TypedTask<O>, CallError> {
        let name = spec.name;
        let version = self.session().protocol_version();
        self.check_scope(name, spec.scope)?;
        let no_task = |reason: &str| CallError::NoTask {
            name: name.to_owned(),
            version,
            reason: reason.to_owned(),
        };
        let declaration = serde_json::from_str::<Value>(spec.declaration).unwrap_or(Value::Null);
        let support = declaration
            .pointer("/execution/taskSupport")
            .and_then(Value::as_str);
        if !matches!(support, Some("optional" | "required")) {
            return Err(no_task(
                "its declaration for this version does not say execution.taskSupport `optional` or `required`",
            ));
        }
        let advertised = self
            .session()
            .server_capabilities()
            .and_then(|c| c.pointer("/tasks/requests/tools/call"))
            .is_some();
        if !advertised {
            return Err(no_task(
                "the server does not advertise capabilities.tasks.requests.tools.call",
            ));
        }
        let arguments = self.arguments(spec, input)?;
        let task = self
            .session()
            .call_tool_as_task(name, arguments, None)
            .await
            .map_err(|e| CallError::from_request(name, e))?;
        Ok(TypedTask::new(self.clone(), spec, task, typed))
    }
}
