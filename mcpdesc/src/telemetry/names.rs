//! The names the OpenTelemetry semantic conventions for MCP give to metrics, span
//! attributes and their values (status: development), in one place so that the
//! metrics, the spans and the Prometheus text agree.

/// The histogram of one request's or notification's handling, in seconds.
pub const OPERATION_DURATION: &str = "mcp.server.operation.duration";
/// The histogram of one session's life, from `initialize` to its end, in seconds.
pub const SESSION_DURATION: &str = "mcp.server.session.duration";

/// The JSON-RPC method (`tools/call`, `initialize`, ...).
pub const METHOD_NAME: &str = "mcp.method.name";
/// The tool a `tools/call` names.
pub const TOOL_NAME: &str = "gen_ai.tool.name";
/// The prompt a `prompts/get` names.
pub const PROMPT_NAME: &str = "gen_ai.prompt.name";
/// The class of error an operation ended with: the JSON-RPC error code, `tool_error`
/// for a tool result with `isError: true`, the HTTP status of a refusal.
pub const ERROR_TYPE: &str = "error.type";
/// The MCP protocol version of the request.
pub const PROTOCOL_VERSION: &str = "mcp.protocol.version";
/// `tcp` for streamable HTTP.
pub const NETWORK_TRANSPORT: &str = "network.transport";
/// The MCP session (`Mcp-Session-Id`), on spans only (unbounded cardinality).
pub const SESSION_ID: &str = "mcp.session.id";
/// The JSON-RPC request id as a string, on spans only.
pub const REQUEST_ID: &str = "jsonrpc.request.id";
/// `execute_tool` on a `tools/call` span (the GenAI conventions' tool span).
pub const OPERATION_NAME: &str = "gen_ai.operation.name";
/// The JSON-RPC error code of a failed request, on spans.
pub const RESPONSE_STATUS_CODE: &str = "rpc.response.status_code";
/// The authenticated principal's subject, on spans: the general conventions'
/// `user.id` (the MCP conventions name none).
pub const USER_ID: &str = "user.id";

/// The only transport value this crate records: streamable HTTP runs over TCP.
pub const TCP: &str = "tcp";

/// The explicit bucket boundaries (seconds) the conventions advise for both
/// duration histograms.
pub const DURATION_BUCKETS: [f64; 14] = [
    0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0,
];
