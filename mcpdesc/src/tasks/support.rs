//! Which tools run as tasks: a tool's `execution.taskSupport` in a protocol version,
//! and the `tasks` server capability that follows from it.

use serde_json::{json, Map, Value};

use crate::protocol::version::ProtocolVersion;

/// A tool's `execution.taskSupport` (MCP 2025-11-25 core tasks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskSupport {
    /// No task augmentation (the default): a task-augmented call is `-32601`.
    #[default]
    Forbidden,
    /// Called plainly or as a task.
    Optional,
    /// Only as a task: a plain call is `-32601`.
    Required,
}

impl TaskSupport {
    /// The support a tool declaration (its JSON object) states in `version`: only MCP
    /// 2025-11-25 has core tasks, so every other version is
    /// [`TaskSupport::Forbidden`] (2026-07-28's `io.modelcontextprotocol/tasks`
    /// extension is not served; see `docs/serving.md`).
    pub fn of(declaration: &Map<String, Value>, version: ProtocolVersion) -> TaskSupport {
        if version != ProtocolVersion::V2025_11_25 {
            return TaskSupport::Forbidden;
        }
        match declaration
            .get("execution")
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str)
        {
            Some("optional") => TaskSupport::Optional,
            Some("required") => TaskSupport::Required,
            _ => TaskSupport::Forbidden,
        }
    }

    /// Whether a task-augmented call is accepted.
    pub fn allows_task(self) -> bool {
        self != TaskSupport::Forbidden
    }
}

/// The `tasks` server capability of a server with a task-capable tool: it lists and
/// cancels tasks and accepts task-augmented `tools/call`.
pub(crate) fn capability() -> Value {
    json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn support_is_read_in_2025_11_25_only() {
        let tool = json!({"name": "t", "execution": {"taskSupport": "required"}});
        let tool = tool.as_object().unwrap();
        assert_eq!(
            TaskSupport::of(tool, ProtocolVersion::V2025_11_25),
            TaskSupport::Required
        );
        assert_eq!(
            TaskSupport::of(tool, ProtocolVersion::V2025_06_18),
            TaskSupport::Forbidden
        );
        assert_eq!(
            TaskSupport::of(&Map::new(), ProtocolVersion::V2025_11_25),
            TaskSupport::Forbidden
        );
    }
}
