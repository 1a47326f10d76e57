//! Drives either greeter server through an rmcp client: in process over a duplex
//! pipe (dispatch timing, the equality test) or as a child process on stdio (memory).

use std::time::{Duration, Instant};

use futures::stream::{self, StreamExt};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientConfig, JsonObject, ProtocolVersion,
};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};

/// Which server answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The router mcpdesc generated ([`crate::generated`]).
    Generated,
    /// The rmcp `#[tool]` server ([`crate::handwritten`]).
    Handwritten,
    /// The same with its `ToolRouter` built once and kept in a field
    /// ([`crate::handwritten::StoredGreeter`]); in-process dispatch only.
    HandwrittenStored,
}

impl Side {
    /// Both sides, generated first.
    pub const BOTH: [Side; 2] = [Side::Generated, Side::Handwritten];
    /// Every server of the dispatch benchmark.
    pub const ALL: [Side; 3] = [Side::Generated, Side::Handwritten, Side::HandwrittenStored];

    /// A short label for tables.
    pub fn label(self) -> &'static str {
        match self {
            Side::Generated => "generated",
            Side::Handwritten => "hand-written",
            Side::HandwrittenStored => "hand-written, router kept",
        }
    }
}

/// A connected rmcp client.
pub type Client = RunningService<RoleClient, ClientConfig>;

/// The protocol version both sides negotiate (the newest the description declares),
/// so that neither answers in a different wire shape.
pub fn client_info() -> ClientConfig {
    ClientConfig::default().with_protocol_version(ProtocolVersion::V_2025_11_25)
}

/// `side` served in this process over a `tokio::io::duplex` pipe, and an initialized
/// rmcp client on the other end. The server task ends when the client is dropped.
pub async fn connect(side: Side) -> Client {
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    match side {
        Side::Generated => {
            // What `mcpdesc::serve_stdio` serves: the adapter behind `RestoreDropped`.
            let service = crate::generated::server().into_service();
            tokio::spawn(async move {
                if let Ok(running) = service.serve(server_io).await {
                    let _ = running.waiting().await;
                }
            });
        }
        Side::Handwritten => {
            tokio::spawn(async move {
                if let Ok(running) = crate::handwritten::server().serve(server_io).await {
                    let _ = running.waiting().await;
                }
            });
        }
        Side::HandwrittenStored => {
            let service = crate::handwritten::stored_server();
            tokio::spawn(async move {
                if let Ok(running) = service.serve(server_io).await {
                    let _ = running.waiting().await;
                }
            });
        }
    }
    client_info()
        .serve(client_io)
        .await
        .expect("the client initializes")
}

/// The arguments of call number `i`: a different name each time, every other call
/// excited.
pub fn arguments(i: usize) -> JsonObject {
    let mut map = JsonObject::new();
    map.insert("name".into(), format!("user-{i}").into());
    if i.is_multiple_of(2) {
        map.insert("excited".into(), true.into());
    }
    map
}

/// One `tools/call` of `greet`.
pub async fn call(client: &Client, i: usize) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new("greet").with_arguments(arguments(i)))
        .await
        .expect("greet answers")
}

/// `calls` calls one at a time: each waits for the previous answer.
pub async fn sequential(client: &Client, calls: usize) -> Duration {
    let start = Instant::now();
    for i in 0..calls {
        std::hint::black_box(call(client, i).await);
    }
    start.elapsed()
}

/// `calls` calls with up to `in_flight` of them sent and not yet answered.
pub async fn pipelined(client: &Client, calls: usize, in_flight: usize) -> Duration {
    let start = Instant::now();
    stream::iter(0..calls)
        .map(|i| call(client, i))
        .buffer_unordered(in_flight)
        .for_each(|result| {
            std::hint::black_box(result);
            async {}
        })
        .await;
    start.elapsed()
}
