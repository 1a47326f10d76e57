//! A task on the server: what a task-augmented `tools/call` created (MCP 2025-11-25
//! core tasks), with its status, its result and its cancellation.

use serde_json::{json, Value};

use super::error::RequestError;
use super::session::Session;

/// A task a task-augmented `tools/call` created ([`Session::call_tool_as_task`]).
#[derive(Clone)]
pub struct ToolTask {
    session: Session,
    id: String,
    created: Value,
}

impl std::fmt::Debug for ToolTask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolTask")
            .field("id", &self.id)
            .field("created", &self.created)
            .finish_non_exhaustive()
    }
}

impl ToolTask {
    /// The task id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The `Task` of the `CreateTaskResult`, as sent.
    pub fn created(&self) -> &Value {
        &self.created
    }

    /// `tasks/get`: the task now (`status`, `statusMessage`, `ttl`...), as sent.
    pub async fn status(&self) -> Result<Value, RequestError> {
        self.session
            .request("tasks/get", Some(json!({"taskId": self.id})))
            .await
    }

    /// `tasks/result`: waits until the task ends (within the session's request
    /// timeout) and returns what the plain `tools/call` would have, as sent (with the
    /// related-task `_meta` entry).
    pub async fn result(&self) -> Result<Value, RequestError> {
        self.session
            .request("tasks/result", Some(json!({"taskId": self.id})))
            .await
    }

    /// `tasks/cancel`: the task after, as sent.
    pub async fn cancel(&self) -> Result<Value, RequestError> {
        self.session
            .request("tasks/cancel", Some(json!({"taskId": self.id})))
            .await
    }
}

impl Session {
    /// A task-augmented `tools/call` (`task`, with `ttl` in milliseconds when given):
    /// the task it created. A server that answered with the plain result instead
    /// (one without the `tasks` capability ignores `task`) gives a
    /// [`RequestError::Transport`] naming the answer.
    pub async fn call_tool_as_task(
        &self,
        name: &str,
        arguments: Value,
        ttl: Option<u64>,
    ) -> Result<ToolTask, RequestError> {
        let task = match ttl {
            Some(ttl) => json!({ "ttl": ttl }),
            None => json!({}),
        };
        let answer = self
            .request(
                "tools/call",
                Some(json!({"name": name, "arguments": arguments, "task": task})),
            )
            .await?;
        let created = answer.get("task").cloned().unwrap_or(Value::Null);
        let Some(id) = created.get("taskId").and_then(Value::as_str) else {
            return Err(RequestError::Transport {
                method: "tools/call".to_owned(),
                message: format!("the task-augmented call created no task: {answer}"),
            });
        };
        Ok(ToolTask {
            session: self.clone(),
            id: id.to_owned(),
            created,
        })
    }
}
