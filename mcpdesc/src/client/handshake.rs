//! The handshake shared by every transport: the plan for the accepted versions
//! (`initialize`, `server/discover`, or discovery with the fallback to
//! `initialize`), its failures as [`ConnectError`]s, and the [`Session`] it opens.

use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::Transport;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient};
use serde_json::{json, Value};

use super::answers::{Answers, SessionHandler};
use super::child::{describe, ServerProcess};
use super::error::ConnectError;
use super::lines::LineTransport;
use super::session::Options;
use super::session::{accepted_version, process_end, protocol_error, Inner, Session};
use super::tap::Tap;
use crate::protocol::version::{to_rmcp_version, ProtocolVersion};

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
    let server = describe(&command);
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
