//! The MCP endpoint's path and the request body limit: the defaults
//! `HttpServer` starts from, which the security gate
//! needs too.

/// The path of the MCP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// The default request body limit: 4 MiB (rmcp's default).
pub const DEFAULT_MAX_REQUEST_BODY_BYTES: usize = 4 * 1024 * 1024;
