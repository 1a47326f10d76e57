//! [`Session`]: an established MCP session and its raw requests; the handshake shared
//! by every transport.

use std::collections::HashSet;
use std::process::ExitStatus;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, ErrorData, Implementation,
};
use rmcp::service::ClientInitializeError;
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::transport::Transport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, Peer, RoleClient, Service};
use serde_json::{json, Value};

use super::answers::{Answers, SessionHandler};
use super::child::ServerProcess;
use super::error::stderr_note;
use super::lines::LineTransport;
use super::tap::Tap;
use super::{ConnectError, Options, RequestError};
use crate::server::adapter::mcp_server::to_rmcp_version;
use crate::{ClientPeer, ProtocolError, ProtocolVersion};

/// A listing gathered over every page: the items in order and each page's whole
/// result (its `nextCursor`, `_meta`, anything else the server put there).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// The items of every page (tools, prompts, resources or resource templates), as
    /// the server sent them.
    pub items: Vec<Value>,
    /// The result object of each page, in order.
    pub pages: Vec<Value>,
}

/// The most pages a listing follows before it reports a pagination loop.
const MAX_PAGES: usize = 10_000;

/// How long a session waits for the exit status of a server whose stdout closed,
/// to say in the error how it ended.
const EXIT_STATUS_WAIT: Duration = Duration::from_millis(500);

/// An established MCP session; cheap to clone (the clones share the connection).
///
/// Results are the JSON the server sent (see the [module docs](super)); the server's
/// answer to the handshake is [`Session::initialize_result`]. Dropping the last clone
/// ends the session and kills a spawned server's process group; [`Session::close`]
/// ends it gracefully.
#[derive(Clone)]
pub struct Session {
    inner: Arc<Inner>,
}

struct Inner {
    peer: Peer<RoleClient>,
    /// The rmcp client task, when this session owns it.
    service: tokio::sync::Mutex<Option<Box<dyn Running>>>,
    version: ProtocolVersion,
    handshake: Value,
    /// `None` for a session over a foreign rmcp client (results re-serialized).
    tap: Option<Arc<Tap>>,
    /// Who answers the server's client-input requests (unused over a foreign client).
    answers: Arc<Answers>,
    /// The capabilities the session declared (MCP JSON); `None` over a foreign client.
    capabilities: Option<Value>,
    process: Option<ServerProcess>,
    server: String,
    request_timeout: Duration,
    close_grace: Duration,
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
trait Running: Send + Sync {
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

    /// Sends any request and returns its raw `result`, within the request timeout.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, RequestError> {
        self.request_within(method, params, self.inner.request_timeout)
            .await
    }

    /// [`Session::request`] with its own timeout.
    pub async fn request_within(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> Result<Value, RequestError> {
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, params));
        let handle = match self
            .inner
            .peer
            .send_request_with_option(request, PeerRequestOptions::with_timeout(timeout))
            .await
        {
            Ok(handle) => handle,
            Err(e) => return Err(self.request_error(method, e).await),
        };
        let id = handle.id.clone();
        match handle.await_response().await {
            Ok(typed) => match &self.inner.tap {
                Some(tap) => tap.take_result(&id).ok_or_else(|| RequestError::Transport {
                    method: method.to_owned(),
                    message: "the response was not recorded off the wire".to_owned(),
                }),
                None => Ok(serde_json::to_value(typed).unwrap_or(Value::Null)),
            },
            Err(e) => {
                if let Some(tap) = &self.inner.tap {
                    tap.forget(&id);
                }
                Err(self.request_error(method, e).await)
            }
        }
    }

    /// `tools/call` with any `arguments` (they are sent as given, valid or not); the
    /// raw result. A tool error is a result (`isError: true`); an unknown tool is
    /// usually a [`RequestError::Protocol`].
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<Value, RequestError> {
        self.request(
            "tools/call",
            Some(json!({"name": name, "arguments": arguments})),
        )
        .await
    }

    /// `prompts/get` with any `arguments`; the raw result.
    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Result<Value, RequestError> {
        self.request(
            "prompts/get",
            Some(json!({"name": name, "arguments": arguments})),
        )
        .await
    }

    /// `resources/read`; the raw result.
    pub async fn read_resource(&self, uri: &str) -> Result<Value, RequestError> {
        self.request("resources/read", Some(json!({"uri": uri})))
            .await
    }

    /// `completion/complete` with the given params (`ref`, `argument`, `context`);
    /// the raw result.
    pub async fn complete(&self, params: Value) -> Result<Value, RequestError> {
        self.request("completion/complete", Some(params)).await
    }

    /// `ping` (MCP 2026-07-28 has none; the server's error comes back).
    pub async fn ping(&self) -> Result<(), RequestError> {
        self.request("ping", None).await.map(drop)
    }

    /// Every page of `tools/list`.
    pub async fn list_tools(&self) -> Result<Listing, RequestError> {
        self.list_all("tools/list", "tools").await
    }

    /// Every page of `prompts/list`.
    pub async fn list_prompts(&self) -> Result<Listing, RequestError> {
        self.list_all("prompts/list", "prompts").await
    }

    /// Every page of `resources/list`.
    pub async fn list_resources(&self) -> Result<Listing, RequestError> {
        self.list_all("resources/list", "resources").await
    }

    /// Every page of `resources/templates/list`.
    pub async fn list_resource_templates(&self) -> Result<Listing, RequestError> {
        self.list_all("resources/templates/list", "resourceTemplates")
            .await
    }

    /// Follows `nextCursor` until a page has none. A cursor seen before, a cursor
    /// that is not a string, or a page without its `member` array is an
    /// [`RequestError::InvalidResult`].
    async fn list_all(&self, method: &str, member: &str) -> Result<Listing, RequestError> {
        let mut listing = Listing::default();
        let mut seen = HashSet::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor.as_ref().map(|c| json!({"cursor": c}));
            let page = self.request(method, params).await?;
            let invalid = |message: String, page: &Value| RequestError::InvalidResult {
                method: method.to_owned(),
                message,
                result: page.clone(),
            };
            let Some(items) = page.get(member).and_then(Value::as_array) else {
                return Err(invalid(format!("the page has no `{member}` array"), &page));
            };
            listing.items.extend(items.iter().cloned());
            let next = match page.get("nextCursor") {
                None | Some(Value::Null) => None,
                Some(Value::String(next)) => Some(next.clone()),
                Some(_) => return Err(invalid("`nextCursor` is not a string".to_owned(), &page)),
            };
            listing.pages.push(page);
            let Some(next) = next else {
                return Ok(listing);
            };
            if !seen.insert(next.clone()) || listing.pages.len() >= MAX_PAGES {
                let page = listing.pages.pop().unwrap_or_default();
                return Err(invalid(
                    format!("the cursor `{next}` leads back to a page already listed (or past {MAX_PAGES} pages)"),
                    &page,
                ));
            }
            cursor = Some(next);
        }
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

    async fn request_error(&self, method: &str, error: ServiceError) -> RequestError {
        let method = method.to_owned();
        match error {
            ServiceError::McpError(error) => RequestError::Protocol {
                method,
                error: protocol_error(error),
            },
            ServiceError::Timeout { timeout } => RequestError::Timeout {
                method,
                after: timeout,
            },
            ServiceError::TransportClosed | ServiceError::Cancelled { .. } => {
                RequestError::Disconnected {
                    method,
                    cause: self.disconnect_cause().await,
                }
            }
            other => {
                if self.inner.process.is_some() && !self.is_alive() {
                    RequestError::Disconnected {
                        method,
                        cause: self.disconnect_cause().await,
                    }
                } else {
                    match self.inner.tap.as_ref().and_then(|t| t.take_refusal()) {
                        Some(refusal) if refusal.status == 401 => RequestError::Unauthorized {
                            method,
                            challenges: refusal.challenges,
                        },
                        Some(refusal) => RequestError::Forbidden {
                            method,
                            scopes: refusal.scopes(),
                            challenges: refusal.challenges,
                        },
                        None => RequestError::Transport {
                            method,
                            message: other.to_string(),
                        },
                    }
                }
            }
        }
    }

    /// Why the connection ended, as precisely as known.
    async fn disconnect_cause(&self) -> String {
        let process = self.inner.process.as_ref();
        let cause = match (self.inner.tap.as_ref().and_then(|t| t.hangup()), process) {
            (Some(hangup), _) => format!("the server wrote {} on stdout", hangup.describe()),
            (None, Some(process)) => format!("the server {}", process_end(process).await),
            (None, None) if self.inner.service.try_lock().is_ok_and(|s| s.is_none()) => {
                "the session was closed".to_owned()
            }
            (None, None) => "the connection closed".to_owned(),
        };
        let stderr = match process {
            Some(process) => process.settled_stderr_tail().await,
            None => String::new(),
        };
        format!("{cause}{}", stderr_note(&stderr))
    }
}

/// How a spawned server's side ended: `exited (exit status: 1)`, or `closed its
/// stdout` when it still runs (or its status does not come in time).
async fn process_end(process: &ServerProcess) -> String {
    match process.exit_status_within(EXIT_STATUS_WAIT).await {
        Some(status) => format!("exited ({status})"),
        None => "closed its stdout".to_owned(),
    }
}

fn protocol_error(error: ErrorData) -> ProtocolError {
    ProtocolError {
        code: error.code.0,
        message: error.message.into_owned(),
        data: error.data,
    }
}

/// The negotiated version, if it is known and accepted.
fn accepted_version(
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

/// How long a session waits for the answer to `server/discover` before it tries
/// `initialize` instead (an older server may ignore a method it does not know).
const DISCOVERY_WAIT: Duration = Duration::from_secs(10);

/// How the handshake goes for the accepted versions (see
/// [`Options::protocol_versions`]).
enum Plan {
    /// `initialize` offering the version.
    Initialize(ProtocolVersion),
    /// `server/discover` with these versions (newest first), no fallback.
    Discover(Vec<ProtocolVersion>),
    /// `server/discover`, then `initialize` with the version when the server does not
    /// speak MCP 2026-07-28 (an error answer, no common version, or no answer within
    /// [`DISCOVERY_WAIT`]).
    DiscoverThenInitialize(Vec<ProtocolVersion>, ProtocolVersion),
}

impl Plan {
    fn of(options: &Options) -> Result<Plan, ConnectError> {
        let modern: Vec<_> = options
            .versions
            .iter()
            .copied()
            .filter(|v| !v.has_initialize())
            .collect();
        let legacy = options
            .versions
            .iter()
            .copied()
            .find(|v| v.has_initialize());
        match (modern.is_empty(), legacy) {
            (true, Some(legacy)) => Ok(Plan::Initialize(legacy)),
            (false, None) => Ok(Plan::Discover(modern)),
            (false, Some(legacy)) => Ok(Plan::DiscoverThenInitialize(modern, legacy)),
            (true, None) => Err(ConnectError::Options(
                "no protocol version is accepted (Options::protocol_versions got an empty list)"
                    .to_owned(),
            )),
        }
    }
}

/// The session's client handler: the `initialize` params (or discovery `_meta`),
/// offering `version` and declaring `capabilities`, and the answers to client-input
/// requests.
fn client_handler(
    options: &Options,
    version: ProtocolVersion,
    capabilities: &ClientCapabilities,
    answers: &Arc<Answers>,
    tap: &Arc<Tap>,
) -> SessionHandler {
    let config = ClientConfig::new(
        capabilities.clone(),
        Implementation::new(&options.client_name, &options.client_version),
    )
    .with_protocol_version(to_rmcp_version(version));
    SessionHandler {
        config,
        answers: answers.clone(),
        tap: tap.clone(),
    }
}

/// The capabilities of [`Options::client_capabilities`] as rmcp's type.
fn declared_capabilities(options: &Options) -> Result<ClientCapabilities, ConnectError> {
    match &options.capabilities {
        None => Ok(ClientCapabilities::default()),
        Some(value) => serde_json::from_value(value.clone()).map_err(|e| {
            ConnectError::Options(format!(
                "the client capabilities {value} are not MCP client capabilities: {e}"
            ))
        }),
    }
}

/// Whether a failed `server/discover` means "an older server": try `initialize`.
fn discovery_refused(error: &ClientInitializeError) -> bool {
    matches!(
        error,
        ClientInitializeError::JsonRpcError(_)
            | ClientInitializeError::NoCompatibleProtocolVersion { .. }
            | ClientInitializeError::ExpectedInitResult(_)
            | ClientInitializeError::ExpectedInitResponse(_)
            | ClientInitializeError::UncorrelatedErrorResponse { .. }
    )
}

/// The session's rmcp client service.
type Client = RunningService<RoleClient, SessionHandler>;

/// The handshake of `plan` over transports from `connection` (a new handle, or a new
/// connection, per attempt), within `deadline`; `None` when the deadline passed.
async fn run_plan<T>(
    options: &Options,
    plan: Plan,
    mut connection: impl FnMut() -> T,
    tap: &Arc<Tap>,
    answers: &Arc<Answers>,
    capabilities: &ClientCapabilities,
    deadline: tokio::time::Instant,
) -> Option<Result<Client, ClientInitializeError>>
where
    T: Transport<RoleClient> + 'static,
{
    let initialize = |version, transport| {
        client_handler(options, version, capabilities, answers, tap)
            .serve_with_lifecycle(transport, ClientLifecycleMode::Initialize)
    };
    let discover = |versions: Vec<ProtocolVersion>, transport| {
        let preferred_versions = versions.iter().map(|v| to_rmcp_version(*v)).collect();
        client_handler(options, versions[0], capabilities, answers, tap).serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Discover { preferred_versions },
        )
    };
    match plan {
        Plan::Initialize(version) => {
            tokio::time::timeout_at(deadline, initialize(version, connection()))
                .await
                .ok()
        }
        Plan::Discover(versions) => {
            tokio::time::timeout_at(deadline, discover(versions, connection()))
                .await
                .ok()
        }
        Plan::DiscoverThenInitialize(versions, legacy) => {
            let wait = deadline.min(tokio::time::Instant::now() + DISCOVERY_WAIT);
            match tokio::time::timeout_at(wait, discover(versions, connection())).await {
                Ok(Ok(running)) => return Some(Ok(running)),
                Ok(Err(error)) if !discovery_refused(&error) => return Some(Err(error)),
                Ok(Err(_)) | Err(_) => {}
            }
            tap.abandon_pending_handshakes();
            tokio::time::timeout_at(deadline, initialize(legacy, connection()))
                .await
                .ok()
        }
    }
}

/// Spawns the server and connects over its stdio.
pub(crate) async fn connect_stdio(
    options: Options,
    command: tokio::process::Command,
) -> Result<Session, ConnectError> {
    let server = super::child::describe(&command);
    let (process, pipes) =
        ServerProcess::spawn(command, options.inherit_stderr).map_err(|source| {
            ConnectError::Spawn {
                server: server.clone(),
                source,
            }
        })?;
    connect_io(options, pipes.stdout, pipes.stdin, server, Some(process)).await
}

/// Connects over a line-framed byte stream pair (a spawned server's pipes or any
/// other), `process` being the server behind them if this session spawned it.
pub(crate) async fn connect_io<R, W>(
    options: Options,
    read: R,
    write: W,
    server: String,
    process: Option<ServerProcess>,
) -> Result<Session, ConnectError>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let tap = Arc::new(Tap::default());
    let transport = LineTransport::new(
        read,
        write,
        tap.clone(),
        options.max_message_bytes,
        options.tolerate_stdout_noise,
    );
    handshake(options, || transport.share(), server, tap, process).await
}

/// Runs the handshake within the connect timeout over transports from `connection`
/// (one per attempt) and builds the session.
pub(crate) async fn handshake<T>(
    options: Options,
    connection: impl FnMut() -> T,
    server: String,
    tap: Arc<Tap>,
    process: Option<ServerProcess>,
) -> Result<Session, ConnectError>
where
    T: Transport<RoleClient> + 'static,
{
    let plan = Plan::of(&options)?;
    let capabilities = declared_capabilities(&options)?;
    let answers = Arc::new(Answers::default());
    let deadline = tokio::time::Instant::now() + options.connect_timeout;
    let running = match run_plan(
        &options,
        plan,
        connection,
        &tap,
        &answers,
        &capabilities,
        deadline,
    )
    .await
    {
        Some(Ok(running)) => running,
        Some(Err(error)) => {
            return Err(init_error(error, &server, &tap, process.as_ref()).await);
        }
        None => {
            return Err(ConnectError::Timeout {
                stderr: process
                    .as_ref()
                    .map(ServerProcess::stderr_tail)
                    .unwrap_or_default(),
                server,
                after: options.connect_timeout,
            });
        }
    };
    let peer = running.peer().clone();
    let Some(info) = peer.peer_info() else {
        return Err(ConnectError::Handshake {
            server,
            message: "rmcp finished the handshake without the server's answer".to_owned(),
        });
    };
    let version = accepted_version(info.protocol_version.as_str(), &options, &server)?;
    let handshake = tap
        .handshake()
        .unwrap_or_else(|| serde_json::to_value(&*info).unwrap_or(Value::Null));
    Ok(Session {
        inner: Arc::new(Inner {
            peer,
            service: tokio::sync::Mutex::new(Some(Box::new(running))),
            version,
            handshake,
            tap: Some(tap),
            answers,
            capabilities: Some(options.capabilities.clone().unwrap_or_else(|| json!({}))),
            process,
            server,
            request_timeout: options.request_timeout,
            close_grace: options.close_grace,
        }),
    })
}

/// A handshake failure as a [`ConnectError`].
fn init_error<'a>(
    error: ClientInitializeError,
    server: &'a str,
    tap: &'a Tap,
    process: Option<&'a ServerProcess>,
) -> BoxFuture<'a, ConnectError> {
    Box::pin(async move {
        let server = server.to_owned();
        // Bad output or an exited process explains a closed connection or a failed
        // write better than rmcp's error does.
        let ended = matches!(
            error,
            ClientInitializeError::ConnectionClosed(_)
                | ClientInitializeError::TransportError { .. }
        );
        if ended {
            if let Some(hangup) = tap.hangup() {
                let stderr = match process {
                    Some(process) => process.settled_stderr_tail().await,
                    None => String::new(),
                };
                return ConnectError::NotJsonRpc {
                    server,
                    what: hangup.describe(),
                    stderr,
                };
            }
            if let Some(process) = process {
                let ended = process_end(process).await;
                return ConnectError::Exited {
                    server,
                    ended,
                    stderr: process.settled_stderr_tail().await,
                };
            }
        }
        match error {
            ClientInitializeError::JsonRpcError(error) => ConnectError::Rejected {
                server,
                error: Box::new(protocol_error(error)),
            },
            ClientInitializeError::NoCompatibleProtocolVersion {
                client_supported,
                server_supported,
            } => ConnectError::Handshake {
                server,
                message: format!(
                    "no common protocol version (offered {}, the server supports {})",
                    join(&client_supported),
                    join(&server_supported)
                ),
            },
            ClientInitializeError::LegacyFallbackFailed { fallback, .. } => {
                init_error(*fallback, &server, tap, process).await
            }
            ClientInitializeError::ConnectionClosed(_) => ConnectError::Exited {
                server,
                ended: "closed the connection".to_owned(),
                stderr: String::new(),
            },
            ClientInitializeError::TransportError { error, context } => match tap.take_refusal() {
                Some(refusal) if refusal.status == 401 => ConnectError::Unauthorized {
                    server,
                    challenges: refusal.challenges,
                },
                Some(refusal) => ConnectError::Forbidden {
                    server,
                    scopes: refusal.scopes(),
                    challenges: refusal.challenges,
                },
                None => ConnectError::Transport {
                    server,
                    message: format!("{context}: {}", error.error),
                },
            },
            other => ConnectError::Handshake {
                server,
                message: other.to_string(),
            },
        }
    })
}

fn join(versions: &[rmcp::model::ProtocolVersion]) -> String {
    versions
        .iter()
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
