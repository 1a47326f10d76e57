//! The MCP server over the official Rust SDK (`rmcp`, feature `rmcp`).

#[cfg(feature = "http")]
pub(crate) mod http_marks;
pub(crate) mod listing;
pub(crate) mod mcp_server;
pub(crate) mod tasks;
