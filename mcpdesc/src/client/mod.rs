//! The MCP client side (feature `client`; `client-http` for streamable HTTP): a
//! [`Session`] with any MCP server, whose results are the JSON the server sent.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use serde_json::json;
//!
//! let command = tokio::process::Command::new("chess-server");
//! let session = mcpdesc::client::stdio(command).await?;
//! println!("MCP {}", session.protocol_version());
//!
//! let tools = session.list_tools().await?;            // every page, raw tool objects
//! for tool in &tools.items {
//!     println!("{}", tool["name"]);
//! }
//! let result = session.call_tool("analyze_game", json!({"pgn": "1. e4"})).await?;
//! assert!(result.get("content").is_some());
//! session.close().await;                               // stdin closed, then the process ends
//! # Ok(()) }
//! ```
//!
//! # Connecting
//!
//! - [`stdio`]: spawns a `tokio::process::Command` and speaks MCP over its stdin and
//!   stdout (one JSON-RPC message per line). The server runs in its own process group;
//!   the session keeps the last lines of its stderr for error messages.
//! - `http` (feature `client-http`): streamable HTTP to a URL, through rmcp's client
//!   worker (sessions, SSE, resumption) and reqwest. Plain `http://` only by default;
//!   the `client-https` feature adds reqwest's rustls stack for `https://`. The
//!   default keeps the TLS stack (and its C build of aws-lc) out of builds that only
//!   talk to local servers.
//! - [`Options::io`]: any byte stream pair (a socket, an in-memory pipe).
//! - [`Session::from_running_service`] / [`Session::from_peer`]: an rmcp client you
//!   already run. rmcp has parsed its results into typed values by then, so the raw
//!   results are re-serialized from those and lose what rmcp's types drop
//!   ([`Session::is_raw`] says `false`).
//!
//! [`Options`] sets the timeouts (connect 30 s, each request 60 s, close grace 2 s),
//! the accepted protocol versions (all five by default; MCP 2026-07-28 is negotiated
//! with `server/discover`, falling back to `initialize` for an older server), the
//! client's name, and what to do with stdout noise.
//!
//! # Raw results
//!
//! rmcp's typed models keep only the members they know (a tool's `execution`, for
//! one, is dropped). A contract check must compare exactly what the server sent, so
//! the session sends its requests as rmcp custom requests and records each response
//! off the wire, by request id, before rmcp parses it (see `tap.rs`; the stdio
//! transport `lines.rs` and the HTTP client `http.rs` feed it). The typed parse
//! still happens and is discarded.
//!
//! # Errors
//!
//! Connecting fails with a [`ConnectError`] naming the server and saying what
//! happened: it would not start, exited (with its stderr tail), wrote something that
//! is not JSON-RPC on stdout, did not complete the handshake in time, rejected it, or
//! chose a version the session does not accept. A request fails with a
//! [`RequestError`]: [`RequestError::Protocol`] is a JSON-RPC error answer (code,
//! message, data); the others mean no answer came (timeout, disconnection, transport
//! failure) or a listing that is malformed.
//!
//! # Termination
//!
//! A spawned server never outlives its session: dropping the last handle of a
//! [`Session`] kills the server's process group, and [`Session::close`] follows the MCP
//! stdio shutdown (stdin closed, the grace period, `SIGTERM`, the grace period,
//! `SIGKILL`).

mod answers;
pub(crate) mod call_error;
mod challenge;
mod child;
mod connect;
mod error;
mod handshake;
#[cfg(feature = "client-http")]
mod http;
mod lines;
mod requests;
mod session;
mod tap;
mod task;
mod typed;
mod typed_task;

/// The bound of `http` and `Options::http` without the `client-http` feature: no type
/// meets it, and its message names the feature.
#[cfg(not(feature = "client-http"))]
#[doc(hidden)]
pub use crate::features::ClientHttpFeature;
pub use challenge::Challenge;
pub use connect::http;
pub use connect::stdio;
pub use error::{ConnectError, RequestError};
pub use requests::Listing;
pub use session::{Options, Session};
pub use task::ToolTask;
pub use typed::TypedClient;
pub use typed_task::{TaskInfo, TaskStatus, TypedTask};
