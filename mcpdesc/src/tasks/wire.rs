//! The raw-message rewrites that carry MCP 2025-11-25 core tasks through rmcp 3.11.
//!
//! rmcp 3.11 implements tasks as the 2026-07-28 `io.modelcontextprotocol/tasks`
//! extension (SEP-2663): its `CallToolRequestParams` drops the 2025-11-25 `task`
//! parameter, it routes `tasks/get` and `tasks/cancel` to handlers gated on that
//! extension, and its `ServerCapabilities` has no `tasks` member. So the 2025-11-25
//! form is rewritten at the message boundary, before rmcp parses a request and
//! after it writes a response:
//!
//! - inbound, a `tools/call` with `params.task` becomes the private method
//!   [`CALL`], and `tasks/get` / `tasks/cancel` become [`GET`] / [`CANCEL`]: rmcp
//!   hands these, like `tasks/result` and `tasks/list` (which it does not know), to
//!   the server's custom-request handler unchanged;
//! - outbound, the `tasks` capability, which the server puts in
//!   `capabilities.experimental` under [`CAPABILITY_KEY`] (the only place rmcp's type
//!   keeps an arbitrary object), moves back to `capabilities.tasks`.

use serde_json::Value;

/// The private method of a task-augmented `tools/call`.
pub const CALL: &str = "rs.mcpdesc/tasks/call";
/// The private method of `tasks/get`.
pub const GET: &str = "rs.mcpdesc/tasks/get";
/// The private method of `tasks/cancel`.
pub const CANCEL: &str = "rs.mcpdesc/tasks/cancel";
/// Where the `tasks` capability rides through rmcp's `ServerCapabilities`.
pub const CAPABILITY_KEY: &str = "rs.mcpdesc/tasks";

/// The MCP method a private method stands for (for error messages).
pub(crate) fn public_method(method: &str) -> &str {
    match method {
        CALL => "tools/call",
        GET => "tasks/get",
        CANCEL => "tasks/cancel",
        other => other,
    }
}

/// The inbound JSON-RPC message `bytes` rewritten as the module docs say; `None`
/// when it needs no rewrite (most messages: they are not parsed).
pub fn inbound(bytes: &[u8]) -> Option<Vec<u8>> {
    if !contains(bytes, b"tasks/") && !contains(bytes, b"\"task\"") {
        return None;
    }
    let mut message: Value = serde_json::from_slice(bytes).ok()?;
    let object = message.as_object_mut()?;
    let method = object.get("method")?.as_str()?;
    let renamed = match method {
        "tools/call" if object.get("params")?.get("task")?.is_object() => CALL,
        "tasks/get" => GET,
        "tasks/cancel" => CANCEL,
        _ => return None,
    };
    object.insert("method".into(), Value::from(renamed));
    serde_json::to_vec(&message).ok()
}

/// The outbound JSON-RPC message `bytes` with the `tasks` capability moved back;
/// `None` when it carries none.
pub fn outbound(bytes: &[u8]) -> Option<Vec<u8>> {
    if !contains(bytes, CAPABILITY_KEY.as_bytes()) {
        return None;
    }
    let mut message: Value = serde_json::from_slice(bytes).ok()?;
    let capabilities = message
        .pointer_mut("/result/capabilities")?
        .as_object_mut()?;
    let experimental = capabilities.get_mut("experimental")?.as_object_mut()?;
    let tasks = experimental.remove(CAPABILITY_KEY)?;
    if experimental.is_empty() {
        capabilities.remove("experimental");
    }
    capabilities.insert("tasks".into(), tasks);
    serde_json::to_vec(&message).ok()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn rewrite(f: fn(&[u8]) -> Option<Vec<u8>>, message: Value) -> Option<Value> {
        f(&serde_json::to_vec(&message).unwrap()).map(|b| serde_json::from_slice(&b).unwrap())
    }

    #[test]
    fn task_requests_get_their_private_methods() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "t", "task": {"ttl": 5}}});
        assert_eq!(rewrite(inbound, call).unwrap()["method"], CALL);
        let plain = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "t", "arguments": {"task": 1}}});
        assert_eq!(rewrite(inbound, plain), None);
        let get =
            json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {"taskId": "a"}});
        assert_eq!(rewrite(inbound, get).unwrap()["method"], GET);
        let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/list"});
        assert_eq!(rewrite(inbound, list), None);
    }

    #[test]
    fn the_capability_moves_back() {
        let answer = json!({"jsonrpc": "2.0", "id": 0, "result": {"capabilities": {
            "tools": {}, "experimental": {CAPABILITY_KEY: {"list": {}}}}}});
        assert_eq!(
            rewrite(outbound, answer).unwrap()["result"]["capabilities"],
            json!({"tools": {}, "tasks": {"list": {}}})
        );
    }
}
