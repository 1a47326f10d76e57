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
mod error;
#[cfg(feature = "client-http")]
mod http;
mod lines;
mod session;
mod tap;
mod task;
mod typed;
mod typed_task;

use std::time::Duration;

pub(crate) use challenge::challenges_note as challenge_note;
pub use challenge::Challenge;
pub(crate) use error::scopes_note;
pub use error::{ConnectError, RequestError};
pub use session::{Listing, Session};
pub use task::ToolTask;
pub use typed::TypedClient;
pub use typed_task::{TaskInfo, TaskStatus, TypedTask};

use crate::ProtocolVersion;

/// Connects to a server started from `command`, with default [`Options`].
pub async fn stdio(command: tokio::process::Command) -> Result<Session, ConnectError> {
    Options::new().stdio(command).await
}

/// Connects to a streamable HTTP server at `url` (its MCP endpoint, such as
/// `http://127.0.0.1:8080/mcp`), with default [`Options`].
#[cfg(feature = "client-http")]
pub async fn http(url: &str) -> Result<Session, ConnectError> {
    Options::new().http(url).await
}

/// How a [`Session`] connects and behaves; build one, then call [`Options::stdio`],
/// `Options::http` (feature `client-http`) or [`Options::io`].
///
/// ```
/// use std::time::Duration;
/// use mcpdesc::{client::Options, ProtocolVersion};
///
/// let options = Options::new()
///     .request_timeout(Duration::from_secs(5))
///     .protocol_versions(&[ProtocolVersion::V2025_06_18]);
/// assert_eq!(options.accepted_versions(), &[ProtocolVersion::V2025_06_18]);
/// ```
#[derive(Debug, Clone)]
pub struct Options {
    pub(crate) connect_timeout: Duration,
    pub(crate) request_timeout: Duration,
    pub(crate) close_grace: Duration,
    /// Newest first, without duplicates, never empty after `protocol_versions`.
    pub(crate) versions: Vec<ProtocolVersion>,
    pub(crate) client_name: String,
    pub(crate) client_version: String,
    pub(crate) inherit_stderr: bool,
    pub(crate) tolerate_stdout_noise: bool,
    pub(crate) max_message_bytes: usize,
    #[cfg_attr(not(feature = "client-http"), allow(dead_code))]
    pub(crate) headers: Vec<(String, String)>,
    #[cfg_attr(not(feature = "client-http"), allow(dead_code))]
    pub(crate) bearer_token: Option<String>,
    /// The declared client capabilities (MCP JSON); none by default.
    pub(crate) capabilities: Option<serde_json::Value>,
}

impl Default for Options {
    fn default() -> Self {
        Options::new()
    }
}

impl Options {
    /// The defaults: connect timeout 30 s, request timeout 60 s (the official
    /// TypeScript SDK's), close grace 2 s, every protocol version accepted, client
    /// `mcpdesc` with this crate's version, the server's stderr kept (not shown),
    /// stdout noise fatal, messages up to 16 MiB.
    pub fn new() -> Self {
        Options {
            connect_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(60),
            close_grace: Duration::from_secs(2),
            versions: ProtocolVersion::ALL.iter().rev().copied().collect(),
            client_name: "mcpdesc".to_owned(),
            client_version: env!("CARGO_PKG_VERSION").to_owned(),
            inherit_stderr: false,
            tolerate_stdout_noise: false,
            max_message_bytes: 16 * 1024 * 1024,
            headers: Vec::new(),
            bearer_token: None,
            capabilities: None,
        }
    }

    /// How long the connection and the handshake may take (spawning included).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long each request may wait for its answer; a request that times out is
    /// cancelled (`notifications/cancelled`) and fails with
    /// [`RequestError::Timeout`].
    pub fn request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// How long [`Session::close`] waits for the server to exit after closing its
    /// stdin, and again after `SIGTERM`, before it kills the process group.
    pub fn close_grace(mut self, grace: Duration) -> Self {
        self.close_grace = grace;
        self
    }

    /// The protocol versions the session accepts (default: all). The newest is
    /// offered; the server may choose an older one of the list. With MCP 2026-07-28
    /// in the list the session starts with `server/discover` and falls back to
    /// `initialize` (with the newest older version) when the server does not know it.
    /// An empty list is refused when connecting.
    pub fn protocol_versions(mut self, versions: &[ProtocolVersion]) -> Self {
        let mut versions = versions.to_vec();
        versions.sort_unstable_by(|a, b| b.cmp(a));
        versions.dedup();
        self.versions = versions;
        self
    }

    /// The accepted versions, newest first.
    pub fn accepted_versions(&self) -> &[ProtocolVersion] {
        &self.versions
    }

    /// The client capabilities the session declares, as MCP JSON (such as
    /// `{"elicitation": {"form": {}}, "sampling": {}, "roots": {}}`; default none).
    /// Declare only what [`Session::answer_client_input`] will answer: a server may
    /// send a request for each. A value that is not MCP client capabilities fails
    /// the connection with [`ConnectError::Options`].
    pub fn client_capabilities(mut self, capabilities: serde_json::Value) -> Self {
        self.capabilities = Some(capabilities);
        self
    }

    /// The `clientInfo` the session sends (default `mcpdesc` and this crate's version).
    pub fn client_info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.client_name = name.into();
        self.client_version = version.into();
        self
    }

    /// Lets a spawned server write to this process's stderr instead of keeping its
    /// last lines for error messages.
    pub fn inherit_stderr(mut self, inherit: bool) -> Self {
        self.inherit_stderr = inherit;
        self
    }

    /// Skips stdout lines that are not JSON-RPC messages (kept in
    /// [`Session::stdout_noise`]) instead of ending the session with an error. MCP
    /// servers must not write anything else to stdout; some print a banner anyway.
    pub fn tolerate_stdout_noise(mut self, tolerate: bool) -> Self {
        self.tolerate_stdout_noise = tolerate;
        self
    }

    /// The largest message accepted (one stdio line, one HTTP body or SSE event;
    /// default 16 MiB).
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    /// An extra HTTP header sent with every request (feature `client-http`).
    #[cfg(feature = "client-http")]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// An `Authorization: Bearer` token sent with every HTTP request (feature
    /// `client-http`).
    #[cfg(feature = "client-http")]
    pub fn bearer_token(mut self, token: impl Into<String>) -> Self {
        self.bearer_token = Some(token.into());
        self
    }

    /// Spawns `command` and connects over its stdio. Its stdin, stdout (and, unless
    /// [`Options::inherit_stderr`], stderr) are replaced by pipes, and it is put in a
    /// new process group (Unix) so that the session can end everything it starts.
    pub async fn stdio(self, command: tokio::process::Command) -> Result<Session, ConnectError> {
        session::connect_stdio(self, command).await
    }

    /// Connects over a pair of byte streams speaking MCP's stdio framing (for a
    /// server on a socket, or in the same process over `tokio::io::duplex`).
    pub async fn io<R, W>(self, read: R, write: W) -> Result<Session, ConnectError>
    where
        R: tokio::io::AsyncRead + Send + Unpin + 'static,
        W: tokio::io::AsyncWrite + Send + Unpin + 'static,
    {
        session::connect_io(self, read, write, "the byte stream".to_owned(), None).await
    }

    /// Connects to a streamable HTTP server at `url`, its MCP endpoint (feature
    /// `client-http`; `https://` needs `client-https`).
    #[cfg(feature = "client-http")]
    pub async fn http(self, url: &str) -> Result<Session, ConnectError> {
        http::connect(self, url).await
    }
}
