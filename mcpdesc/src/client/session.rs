//! [`Session`]: an established MCP session and its raw requests.

use std::collections::HashSet;
use std::process::ExitStatus;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::{ClientRequest, CustomRequest, ErrorData};
use rmcp::service::{PeerRequestOptions, RunningService, ServiceError};
use rmcp::{Peer, RoleClient, Service};
use serde_json::{json, Value};

use super::answers::Answers;
use super::child::ServerProcess;
use super::error::stderr_note;
use super::error::{ConnectError, RequestError};
use super::options::Options;
use super::tap::Tap;
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
