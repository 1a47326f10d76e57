//! The router's `tools/list` projection per protocol version, and the write-back of
//! the members rmcp's typed `Tool` drops.
//!
//! rmcp 3.11's `Tool` type has fields only for the members it knows; today it has no
//! `execution` (MCP 2025-11-25), so an answer built from it would lose
//! `execution.taskSupport`. Both transports put the members back as JSON before the
//! answer reaches the client: over stdio `RestoreDropped`
//! rewrites the typed answer, over HTTP the `http` module rewrites the response body
//! (see its docs for why there). Both call [`ToolListings::restore`].

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};

use crate::protocol::version::ProtocolVersion;
use crate::server::router::Router;

/// The tools a router lists, per protocol version, computed once per version and
/// shared by clones (a router does not change once served).
///
/// Get it from `McpServer::tool_listings`.
#[derive(Debug, Clone)]
pub struct ToolListings {
    router: Arc<Router>,
    /// [`Router::list_tools`] per version, in [`ProtocolVersion::ALL`] order.
    cells: Arc<Vec<OnceLock<Vec<Value>>>>,
    /// The same without `execution.taskSupport` ([`without_task_support`]).
    untasked: Arc<Vec<OnceLock<Vec<Value>>>>,
    /// Whether these are the listings of a server that runs tools as tasks (the
    /// default); `false` for a stateless HTTP server ([`ToolListings::without_tasks`]).
    tasks: bool,
}

/// One empty cell per protocol version.
fn cells() -> Arc<Vec<OnceLock<Vec<Value>>>> {
    Arc::new(
        ProtocolVersion::ALL
            .iter()
            .map(|_| OnceLock::new())
            .collect(),
    )
}

impl ToolListings {
    pub(crate) fn new(router: Arc<Router>) -> Self {
        ToolListings {
            router,
            cells: cells(),
            untasked: cells(),
            tasks: true,
        }
    }

    /// The same listings as a server that runs no tool as a task lists them (a
    /// stateless HTTP server: no session would keep the task): without
    /// `execution.taskSupport`, which [`ToolListings::tools`] then leaves out and
    /// [`ToolListings::restore`] does not put back.
    #[cfg(feature = "http")]
    pub(crate) fn without_tasks(mut self) -> Self {
        self.tasks = false;
        self
    }

    /// The native MCP `Tool` values of `version` ([`Router::list_tools`]).
    pub fn tools(&self, version: ProtocolVersion) -> &[Value] {
        self.listing(version, self.tasks)
    }

    /// The tools of `version` as a server that runs tools as tasks (`tasks`) or
    /// one that runs none lists them.
    pub(crate) fn listing(&self, version: ProtocolVersion, tasks: bool) -> &[Value] {
        let cells = if tasks { &self.cells } else { &self.untasked };
        match cells.get(version.index()) {
            Some(cell) => cell.get_or_init(|| {
                let tools = self.router.list_tools(version);
                match tasks {
                    true => tools,
                    false => tools.iter().map(without_task_support).collect(),
                }
            }),
            // Every version has a cell; nothing to list otherwise.
            None => &[],
        }
    }

    /// Completes a `tools/list` result (the JSON-RPC `result` object) with the
    /// members the listing for `version` ([`ToolListings::tools`]) has and the
    /// result lacks, tool by tool (matched by name; tools the router does not
    /// serve, say hand-written ones beside it, are left alone). Members present are kept as they are;
    /// nested objects are completed the same way. Returns whether anything was
    /// added.
    ///
    /// ```
    /// use mcpdesc::{McpServer, ProtocolVersion, Router, ServerInfo, ToolResult, ToolSpec};
    /// use serde_json::json;
    ///
    /// const RUN: ToolSpec = ToolSpec::new("run", &[], r#"{"name": "run",
    ///     "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}}"#);
    /// let router = Router::new(ServerInfo::new("demo", "1"))
    ///     .tool(RUN, |_, _| Box::pin(async { Ok(ToolResult::text("ok")) }));
    /// let server = McpServer::new(router);
    /// let mut result = json!({"tools": [{"name": "run", "inputSchema": {"type": "object"}}]});
    /// assert!(server.tool_listings().restore(ProtocolVersion::V2025_11_25, &mut result));
    /// assert_eq!(result["tools"][0]["execution"], json!({"taskSupport": "optional"}));
    /// ```
    pub fn restore(&self, version: ProtocolVersion, result: &mut Value) -> bool {
        let by_name: HashMap<&str, &Value> = self
            .tools(version)
            .iter()
            .filter_map(|tool| Some((tool.get("name")?.as_str()?, tool)))
            .collect();
        let mut restored = false;
        let tools = result.get_mut("tools").and_then(Value::as_array_mut);
        for tool in tools.into_iter().flatten() {
            let declared = tool
                .get("name")
                .and_then(Value::as_str)
                .and_then(|n| by_name.get(n));
            if let Some(declared) = declared {
                restored |= fill_missing(tool, declared);
            }
        }
        restored
    }
}

/// A native `Tool` without `execution.taskSupport` (and without `execution` when
/// nothing else is left in it): how a server without the `tasks` capability lists a
/// tool, which a client then calls plainly (MCP 2025-11-25: a tool without
/// `taskSupport` is `forbidden` to run as a task, the default).
fn without_task_support(tool: &Value) -> Value {
    let mut tool = tool.clone();
    if let Some(fields) = tool.as_object_mut() {
        if let Some(execution) = fields.get_mut("execution").and_then(Value::as_object_mut) {
            execution.remove("taskSupport");
            if execution.is_empty() {
                fields.remove("execution");
            }
        }
    }
    tool
}

/// Adds to `wire` every object member `declared` has and `wire` lacks, recursively
/// through objects and through arrays of the same length. Returns whether it added any.
fn fill_missing(wire: &mut Value, declared: &Value) -> bool {
    match (wire, declared) {
        (Value::Object(wire), Value::Object(declared)) => fill_missing_members(wire, declared),
        (Value::Array(wire), Value::Array(declared)) if wire.len() == declared.len() => wire
            .iter_mut()
            .zip(declared)
            .fold(false, |added, (w, d)| fill_missing(w, d) | added),
        _ => false,
    }
}

fn fill_missing_members(wire: &mut Map<String, Value>, declared: &Map<String, Value>) -> bool {
    let mut added = false;
    for (key, value) in declared {
        match wire.get_mut(key) {
            Some(kept) => added |= fill_missing(kept, value),
            None => {
                wire.insert(key.clone(), value.clone());
                added = true;
            }
        }
    }
    added
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn task_support_is_left_out_and_nothing_else() {
        let tool = json!({"name": "t", "inputSchema": {"type": "object"},
                          "execution": {"taskSupport": "required"}});
        assert_eq!(
            without_task_support(&tool),
            json!({"name": "t", "inputSchema": {"type": "object"}})
        );
        // A member beside `taskSupport` (none in 2025-11-25) would stay.
        let tool = json!({"name": "t", "execution": {"taskSupport": "optional", "x": 1}});
        assert_eq!(
            without_task_support(&tool),
            json!({"name": "t", "execution": {"x": 1}})
        );
        let plain = json!({"name": "t", "inputSchema": {"type": "object"}});
        assert_eq!(without_task_support(&plain), plain);
    }
}
