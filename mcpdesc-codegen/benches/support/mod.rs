//! The synthetic descriptions the benchmarks share.

use serde_json::json;

/// A valid description with `tools` tools, each with a nested schema (a `$defs`
/// reference), an `outputSchema` and two examples.
pub fn description(tools: usize) -> String {
    let tools: Vec<_> = (0..tools)
        .map(|i| {
            json!({
                "name": format!("tool_{i}"),
                "description": "A synthetic tool",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "query": {"type": "string", "minLength": 1},
                        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
                        "filters": {"type": "array", "items": {"$ref": "#/$defs/Filter"}}
                    },
                    "required": ["query"],
                    "$defs": {"Filter": {"type": "object", "properties": {"field": {"type": "string"}, "value": {}}}}
                },
                "outputSchema": {"type": "object", "properties": {"hits": {"type": "integer"}}, "required": ["hits"]},
                "examples": {
                    "one": {"input": {"query": "a", "limit": 5}, "result": {"content": [{"type": "text", "text": "5"}], "structuredContent": {"hits": 5}}},
                    "failure": {"input": {"query": "b"}, "result": {"content": [{"type": "text", "text": "no"}], "isError": true}}
                }
            })
        })
        .collect();
    json!({
        "mcpdesc": "0.9.0",
        "info": {"name": "bench", "version": "1"},
        "protocolVersions": ["2025-11-25"],
        "tools": tools
    })
    .to_string()
}
