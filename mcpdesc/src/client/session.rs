//! [`Session`], an established MCP session, and the [`Options`] of one: how it
//! connects and behaves. Its requests are in `requests.rs`.

use std::process::ExitStatus;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::ErrorData;
use rmcp::service::RunningService;
use rmcp::{Peer, RoleClient, Service};
use serde_json::Value;

use super::answers::Answers;
use super::child::ServerProcess;
use super::error::ConnectError;
use super::tap::Tap;
use crate::protocol::error::ProtocolError;
use crate::protocol::version::ProtocolVersion;
use crate::server::context::ClientPeer;

/// How long a session waits for the exit status of a server whose stdout closed,
/// to say in the error how it ended.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(500);

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
    /// [`RequestError::Timeout`](super::error::RequestError::Timeout).
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

/// An established MCP session; cheap to clone (the clones share the connection).
///
/// Results are the JSON the server sent (see the module docs); the server's
/// answer to the handshake is [`Session::initialize_result`]. Dropping the last clone
/// ends the session and kills a spawned server's process group; [`Session::close`]
/// ends it gracefully.
#[derive(Clone)]
pub struct Session {
    pub(super) inner: Arc<Inner>,
}

pub(super) struct Inner {
    pub(super) peer: Peer<RoleClient>,
    /// The rmcp client task, when this session owns it.
    pub(super) service: tokio::sync::Mutex<Option<Box<dyn Running>>>,
    pub(super) version: ProtocolVersion,
    pub(super) handshake: Value,
    /// `None` for a session over a foreign rmcp client (results re-serialized).
    pub(super) tap: Option<Arc<Tap>>,
    /// Who answers the server's client-input requests (unused over a foreign client).
    pub(super) answers: Arc<Answers>,
    /// The capabilities the session declared (MCP JSON); `None` over a foreign client.
    pub(super) capabilities: Option<Value>,
    pub(super) process: Option<ServerProcess>,
    pub(super) server: String,
    pub(super) request_timeout: Duration,
    pub(super) close_grace: Duration,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("server", &self.inner.server)
            .field("protocol_version", &self.inner.version)
            .field("raw", &self.is_raw())
            .finish_non_exhaustive()
    }
}

/// A running rmcp client service of any handler type, closable.
pub(super) trait Running: Send + Sync {
    fn close(&mut self, within: Duration) -> BoxFuture<'_, ()>;
}

impl<S: Service<RoleClient>> Running for RunningService<RoleClient, S> {
    fn close(&mut self, within: Duration) -> BoxFuture<'_, ()> {
        Box::pin(async move {
            let _ = self.close_with_timeout(within).await;
        })
    }
}

impl Session {
    /// A session over an rmcp client that has completed its handshake. The session
    /// owns it (and closes it in [`Session::close`]). Results are re-serialized from
    /// rmcp's typed values: members rmcp does not model are lost
    /// ([`Session::is_raw`] is `false`).
    pub fn from_running_service<S: Service<RoleClient>>(
        service: RunningService<RoleClient, S>,
        options: &Options,
    ) -> Result<Session, ConnectError> {
        let peer = service.peer().clone();
        let mut session = Session::from_peer(peer, options)?;
        let inner = Arc::get_mut(&mut session.inner).expect("a new session is not shared");
        inner.service = tokio::sync::Mutex::new(Some(Box::new(service)));
        Ok(session)
    }

    /// A session over the peer of an rmcp client that has completed its handshake
    /// and that someone else keeps running (and closes). Results are re-serialized
    /// from rmcp's typed values ([`Session::is_raw`] is `false`).
    pub fn from_peer(peer: Peer<RoleClient>, options: &Options) -> Result<Session, ConnectError> {
        let server = "the rmcp client's server".to_owned();
        let info = peer.peer_info().ok_or_else(|| {
            ConnectError::Options("the rmcp client has not completed its handshake".to_owned())
        })?;
        let version = accepted_version(info.protocol_version.as_str(), options, &server)?;
        let handshake = serde_json::to_value(&*info).unwrap_or(Value::Null);
        Ok(Session {
            inner: Arc::new(Inner {
                peer,
                service: tokio::sync::Mutex::new(None),
                version,
                handshake,
                tap: None,
                answers: Arc::new(Answers::default()),
                capabilities: None,
                process: None,
                server,
                request_timeout: options.request_timeout,
                close_grace: options.close_grace,
            }),
        })
    }

    /// The negotiated protocol version.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.inner.version
    }

    /// The server's answer to the handshake, as sent: the `initialize` result, or for
    /// MCP 2026-07-28 the `server/discover` result.
    pub fn initialize_result(&self) -> &Value {
        &self.inner.handshake
    }

    /// The server's declared capabilities (`capabilities` of the handshake result).
    pub fn server_capabilities(&self) -> Option<&Value> {
        self.inner.handshake.get("capabilities")
    }

    /// The server, for messages: the command line or the URL.
    pub fn server(&self) -> &str {
        &self.inner.server
    }

    /// Whether results are the JSON the server sent (`true` unless the session was
    /// built over a foreign rmcp client).
    pub fn is_raw(&self) -> bool {
        self.inner.tap.is_some()
    }

    /// The client capabilities this session declared (MCP JSON, `{}` for none; see
    /// [`Options::client_capabilities`]); `None` over a foreign rmcp client, whose
    /// declaration this session does not know.
    pub fn client_capabilities(&self) -> Option<&Value> {
        self.inner.capabilities.as_ref()
    }

    /// Sets the [`ClientPeer`] that answers the server's client-input requests
    /// (`elicitation/create`, `sampling/createMessage`, `roots/list`, sent during a
    /// call before MCP 2026-07-28) from now on; `None` refuses them again (the
    /// default). It gets the params as the server sent them. The capabilities the
    /// session declared are those of [`Options::client_capabilities`]. A session over
    /// a foreign rmcp client ([`Session::from_peer`]) answers through that client's
    /// handler instead, and this has no effect.
    pub fn answer_client_input(&self, peer: Option<Arc<dyn ClientPeer>>) {
        self.inner.answers.set(peer);
    }

    /// The rmcp peer under the session (for requests this API does not cover; their
    /// results are rmcp's typed values).
    pub fn rmcp_peer(&self) -> &Peer<RoleClient> {
        &self.inner.peer
    }

    /// Whether the connection is still open and (for a spawned server) the process
    /// still runs. A server that crashed during a call shows here.
    pub fn is_alive(&self) -> bool {
        !self.inner.peer.is_transport_closed()
            && self.inner.tap.as_ref().is_none_or(|t| t.hangup().is_none())
            && self
                .inner
                .process
                .as_ref()
                .is_none_or(|p| p.exit_status().is_none())
    }

    /// The process id of a spawned server.
    pub fn process_id(&self) -> Option<u32> {
        self.inner.process.as_ref()?.pid
    }

    /// The exit status of a spawned server that has exited.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        self.inner.process.as_ref()?.exit_status()
    }

    /// The last lines a spawned server wrote on stderr (empty when inherited, or for
    /// other transports).
    pub fn stderr_tail(&self) -> String {
        self.inner
            .process
            .as_ref()
            .map(ServerProcess::stderr_tail)
            .unwrap_or_default()
    }

    /// The stdout lines that were not JSON-RPC messages and were skipped (with
    /// [`Options::tolerate_stdout_noise`], and notifications rmcp cannot parse); at
    /// most 16.
    pub fn stdout_noise(&self) -> Vec<String> {
        self.inner
            .tap
            .as_ref()
            .map(|t| t.noise())
            .unwrap_or_default()
    }

    /// Ends the session: closes the connection (a spawned server's stdin; an HTTP
    /// session is deleted), then waits for a spawned server to exit, escalating to
    /// `SIGTERM` and `SIGKILL` after the grace period. Returns its exit status. Other
    /// clones of the session fail their requests afterwards.
    pub async fn close(&self) -> Option<ExitStatus> {
        let service = self.inner.service.lock().await.take();
        if let Some(mut service) = service {
            service.close(self.inner.close_grace).await;
        }
        match &self.inner.process {
            Some(process) => process.shutdown(self.inner.close_grace).await,
            None => None,
        }
    }
}

/// How a spawned server's side ended: `exited (exit status: 1)`, or `closed its
/// stdout` when it still runs (or its status does not come in time).
pub(super) async fn process_end(process: &ServerProcess) -> String {
    match process.exit_status_within(EXIT_STATUS_WAIT).await {
        Some(status) => format!("exited ({status})"),
        None => "closed its stdout".to_owned(),
    }
}

pub(super) fn protocol_error(error: ErrorData) -> ProtocolError {
    ProtocolError {
        code: error.code.0,
        message: error.message.into_owned(),
        data: error.data,
    }
}

/// The negotiated version, if it is known and accepted.
pub(super) fn accepted_version(
    chosen: &str,
    options: &Options,
    server: &str,
) -> Result<ProtocolVersion, ConnectError> {
    chosen
        .parse::<ProtocolVersion>()
        .ok()
        .filter(|v| options.versions.contains(v))
        .ok_or_else(|| ConnectError::Version {
            server: server.to_owned(),
            chosen: chosen.to_owned(),
            accepted: options.versions.clone(),
        })
}
