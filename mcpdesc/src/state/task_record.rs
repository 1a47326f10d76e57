//! What a shared store keeps of one MCP 2025-11-25 task ([`TaskRecord`]), and how
//! ending one went ([`TaskEnd`]).
//!
//! A store that keeps tasks (`StateStore::keeps_tasks`)
//! lets every instance of a service answer `tasks/get`, `tasks/result`,
//! `tasks/list` and `tasks/cancel` for a task started on any of them. The instance
//! running a task's handler holds a lease on it, renewed while the handler runs
//! ([`TaskRecord::lease_until_ms`]); a `working` task whose lease has run out
//! belongs to an instance that stopped, and whoever reads it next ends it
//! `failed` ("the instance running this task stopped").

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::owner::Owner;

/// A task's status (MCP 2025-11-25 `TaskStatus`; `input_required` is never
/// entered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Its handler runs.
    Working,
    /// It ended with a result.
    Completed,
    /// It ended with an error (the handler's, a shut down or stopped instance).
    Failed,
    /// `tasks/cancel` ended it.
    Cancelled,
}

impl TaskStatus {
    /// The wire name (`working`, `completed`, `failed`, `cancelled`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaskStatus::Working => "working",
            TaskStatus::Completed => "completed",
            TaskStatus::Failed => "failed",
            TaskStatus::Cancelled => "cancelled",
        }
    }

    /// The status of wire name `name`.
    pub fn parse(name: &str) -> Option<TaskStatus> {
        Some(match name {
            "working" => TaskStatus::Working,
            "completed" => TaskStatus::Completed,
            "failed" => TaskStatus::Failed,
            "cancelled" => TaskStatus::Cancelled,
            _ => return None,
        })
    }

    /// Whether the task has ended.
    pub fn is_terminal(self) -> bool {
        self != TaskStatus::Working
    }
}

/// How a task's `tools/call` ended: what its `tasks/result` answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum TaskOutcome {
    /// The `tools/call` result, as JSON on the wire.
    Result(Value),
    /// The JSON-RPC error the call would have answered.
    Error {
        /// The JSON-RPC error code.
        code: i32,
        /// The error message.
        message: String,
        /// The error data, if any.
        data: Option<Value>,
    },
}

/// What a store keeps of one task. Times are milliseconds since the Unix epoch,
/// by the clock of the instance that wrote them (instances of one service are
/// expected to keep their clocks in sync, as for any lease).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskRecord {
    /// The task id: random, unguessable (a UUID v4).
    pub id: String,
    /// Who may see it: `session:{id}` for a task of a stateful session,
    /// `owner:{principals}` for a task of an authenticated stateless request,
    /// `anonymous:{task id}` (its own) otherwise. `tasks/list` lists the tasks of
    /// one scope.
    pub scope: String,
    /// The principals of the request that created it (security enforced); a
    /// request of other principals gets what an unknown task gets.
    pub owner: Option<Owner>,
    /// Its status.
    pub status: TaskStatus,
    /// The status message, if any.
    pub status_message: Option<String>,
    /// When it was created.
    pub created_ms: u64,
    /// When its status last changed.
    pub updated_ms: u64,
    /// How long after its creation it is kept (its TTL); the store may drop it
    /// then.
    pub ttl_ms: u64,
    /// The `pollInterval` suggested to clients.
    pub poll_interval_ms: u64,
    /// How it ended (set together with a terminal status, never after it).
    pub outcome: Option<TaskOutcome>,
    /// Until when the instance running its handler holds it (renewed while the
    /// handler runs). Past it, a `working` task is taken for stopped.
    #[serde(default)]
    pub lease_until_ms: u64,
}

/// What `StateStore::end_task` did.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskEnd {
    /// The task was `working`: it is now the record given.
    Ended(TaskRecord),
    /// The task had already ended: the record as it is (unchanged).
    AlreadyEnded(TaskRecord),
    /// The store does not know the task (never created, or past its TTL).
    Gone,
}
