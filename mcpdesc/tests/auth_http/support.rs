//! What the tests share: the protocol versions served, a server started on a free
//! loopback port, tools declared with a requirement, a handler that answers with the
//! caller.

use std::net::SocketAddr;

use mcpdesc::http::HttpServer;
use mcpdesc::{ProtocolVersion, ToolResult, ToolSpec};
use serde_json::Value;

pub(crate) const VERSIONS: &[ProtocolVersion] =
    &[ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25];

pub(crate) async fn start<H: mcpdesc::rmcp::ServerHandler>(server: HttpServer<H>) -> SocketAddr {
    let bound = server.bind("127.0.0.1:0").await.unwrap();
    let addr = bound.local_addr();
    tokio::spawn(bound.run());
    addr
}

pub(crate) fn tool(name: &'static str, security: Option<&str>) -> ToolSpec {
    let declaration = match security {
        Some(s) => {
            format!(r#"{{"name": "{name}", "inputSchema": {{"type": "object"}}, "security": {s}}}"#)
        }
        None => format!(r#"{{"name": "{name}", "inputSchema": {{"type": "object"}}}}"#),
    };
    ToolSpec::new(name, &[], Box::leak(declaration.into_boxed_str()))
}

pub(crate) fn who() -> impl Fn(
    Value,
    mcpdesc::Context,
) -> mcpdesc::BoxFuture<'static, Result<ToolResult, mcpdesc::ToolError>>
       + Send
       + Sync
       + 'static {
    |_, cx| {
        let who = cx
            .principal()
            .map_or("anonymous".to_owned(), |p| p.subject().to_owned());
        Box::pin(async move { Ok(ToolResult::text(who)) })
    }
}
