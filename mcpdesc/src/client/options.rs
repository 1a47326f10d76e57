//! [`Options`]: how a session connects and behaves.

use std::time::Duration;

use crate::protocol::version::ProtocolVersion;

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
}
