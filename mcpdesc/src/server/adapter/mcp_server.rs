//! The MCP server over the official Rust SDK (`rmcp`): [`McpServer`], an rmcp
//! [`ServerHandler`] for a [`Router`]; [`RestoreDropped`], the service that serves it
//! with every member of its tools; [`serve_stdio`]; and the [`ClientPeer`] and
//! [`Notifier`] over rmcp's client handle.
//!
//! # Known limits of this adapter
//!
//! - rmcp 3.11's `Tool` type has no `execution` member. A `tools/list` answer gets
//!   the members rmcp's types drop written back (see [`ToolListings`]): over stdio by
//!   [`RestoreDropped`], over HTTP by the `http` module. A handler served by another
//!   rmcp transport without either loses them.
//! - MCP 2026-07-28 has no server-to-client requests during a call; it carries client
//!   input through input-required results (MRTR). [`McpServer`] serves them by
//!   replaying the handler: a [`Context`] request with no answer yet ends the round
//!   with an input-required result ([`ClientError::InputRequired`] inside the
//!   handler), and the client's retry runs the handler again with the answers. Code
//!   before a handler's last client request therefore runs once per round. The
//!   `requestState` format and the checks on it are in `input_rounds.rs`; what
//!   cancellation, progress and logging do across rounds is in [`Context`]'s docs.
//!   [`RmcpClientPeer`] itself refuses requests in a 2026-07-28 session.
//! - Cancellation is cooperative: `notifications/cancelled` cancels the call's
//!   [`Context`]; the handler's future is not dropped (it may hold state that must
//!   not be left half-updated), and rmcp sends no answer for a cancelled request.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::model as m;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, Service, ServiceError, ServiceExt};
use serde_json::{json, Value};

use crate::auth;
use crate::protocol::client_capabilities;
use crate::protocol::result::ShapedBlock;
use crate::server::input_rounds::{InputRequired, InputRounds};
use crate::server::subscriptions::SessionLink;
use crate::tasks::store::TaskStore;
use crate::tasks::{wire, TaskLimits, TaskSupport};
use crate::{
    BoxFuture, ClientError, ClientPeer, Context, Error, LogLevel, Notifier, ProtocolError,
    ProtocolVersion, Router, ToolListings, ToolResult,
};

/// An rmcp [`ServerHandler`] that serves a [`Router`]: server info, instructions and
/// capabilities from the description, `tools/list` for the negotiated version,
/// `tools/call` through the router (a [`Context`] with the client, the call's
/// cancellation, its progress token and the client's log level), `prompts/list`,
/// `prompts/get`, `resources/list`, `resources/templates/list`, `resources/read` and
/// `completion/complete` through the router's primitives (the same [`Context`]),
/// `logging/setLevel` when the description declares `logging`, and `get_tool` (rmcp
/// checks 2026-07-28 `Mcp-Param-*` headers with it).
///
/// Being a `ServerHandler`, it is what rmcp's `StreamableHttpService` takes, and a
/// hand-written handler can delegate to it to serve the generated tools beside its
/// own prompts, resources or tools (see the README's "Composition" section):
///
/// ```
/// use mcpdesc::rmcp::model::{ServerConfig, CallToolRequestParams, CallToolResponse,
///     ListToolsResult, PaginatedRequestParams};
/// use mcpdesc::rmcp::service::RequestContext;
/// use mcpdesc::rmcp::{ErrorData, RoleServer, ServerHandler};
///
/// #[derive(Clone)]
/// struct MyServer {
///     tools: mcpdesc::McpServer,
/// }
///
/// impl ServerHandler for MyServer {
///     fn get_info(&self) -> ServerConfig {
///         let mut info = self.tools.get_info();
///         info.instructions = Some("Start with analyze_game.".into());
///         info
///     }
///     async fn list_tools(&self, request: Option<PaginatedRequestParams>,
///         cx: RequestContext<RoleServer>) -> Result<ListToolsResult, ErrorData> {
///         self.tools.list_tools(request, cx).await
///     }
///     async fn call_tool(&self, request: CallToolRequestParams,
///         cx: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
///         self.tools.call_tool(request, cx).await
///     }
/// }
/// ```
///
/// Serve it with [`serve_stdio`], `mcpdesc::http` (feature `http`), or any rmcp
/// transport through [`RestoreDropped`] (plain `serve` works too, but then
/// `tools/list` lacks the members rmcp's `Tool` type drops):
///
/// ```no_run
/// # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
/// use mcpdesc::rmcp::ServiceExt;
///
/// let (server_end, _client_end) = tokio::io::duplex(64 * 1024);
/// let server = mcpdesc::McpServer::new(router);
/// let running = server.into_service().serve(server_end).await?;
/// running.waiting().await?;
/// # Ok(()) }
/// ```
///
/// # Sessions
///
/// A clone shares the router, the listing cache and the session state (the level of
/// `logging/setLevel`). Serve each MCP session with its own [`McpServer::new_session`]:
/// `serve_stdio` has one session, the `http` module makes one per HTTP session.
#[derive(Debug, Clone)]
pub struct McpServer {
    router: Arc<Router>,
    listings: ToolListings,
    session: Arc<Session>,
    /// The transport is trusted (stdio): the description's security is not
    /// enforced.
    trusted: bool,
    /// The bounds of each session's tasks.
    task_limits: TaskLimits,
}

/// What one MCP session remembers between requests.
#[derive(Debug, Default)]
struct Session {
    /// The level of the last `logging/setLevel`; `None` before the first.
    log_level: Mutex<Option<LogLevel>>,
    /// The session in the router's [`ChangeNotifier`](crate::ChangeNotifier): its
    /// client and its `resources/subscribe` URIs. Set when the session is first
    /// met; dropped with the session, which takes it out of the registry.
    link: OnceLock<Arc<SessionLink>>,
    /// The session's tasks, made at the first task request.
    tasks: OnceLock<Arc<TaskStore>>,
}

impl McpServer {
    /// Wraps a router.
    pub fn new(router: Router) -> Self {
        let router = Arc::new(router);
        McpServer {
            listings: ToolListings::new(router.clone()),
            router,
            session: Arc::default(),
            trusted: false,
            task_limits: TaskLimits::default(),
        }
    }

    /// The same handler with other bounds on each session's tasks (MCP 2025-11-25
    /// task-augmented calls; see [`TaskLimits`] for the defaults).
    pub fn task_limits(mut self, limits: TaskLimits) -> Self {
        self.task_limits = limits;
        self
    }

    /// This session's task store.
    pub(crate) fn task_store(&self) -> Arc<TaskStore> {
        self.session
            .tasks
            .get_or_init(|| Arc::new(TaskStore::new(self.task_limits.clone())))
            .clone()
    }

    /// The same handler for a transport whose peer is trusted and which carries no
    /// credentials (what [`serve_stdio`] uses): the description's security is not
    /// enforced and handlers see no principal. By default an `McpServer` enforces
    /// it on every `tools/call`, `prompts/get`, `resources/read` and
    /// `completion/complete` with the credentials `mcpdesc::http` verified (none on
    /// other transports, so only public primitives can be called there); see
    /// [`crate::auth`].
    pub fn trusted_transport(mut self) -> Self {
        self.trusted = true;
        self
    }

    pub(crate) fn shared_router(&self) -> Arc<Router> {
        self.router.clone()
    }

    /// The wrapped router.
    pub fn router(&self) -> &Router {
        &self.router
    }

    /// The router's tool listings, which [`RestoreDropped`] and the `http` module
    /// read to put back what rmcp's `Tool` type drops.
    pub fn tool_listings(&self) -> &ToolListings {
        &self.listings
    }

    /// A handler for another MCP session: the same router and listing cache, a
    /// fresh session state.
    pub fn new_session(&self) -> Self {
        McpServer {
            router: self.router.clone(),
            listings: self.listings.clone(),
            session: Arc::default(),
            trusted: self.trusted,
            task_limits: self.task_limits.clone(),
        }
    }

    /// This handler as an rmcp service whose `tools/list` answers carry every
    /// member of the router's listing ([`RestoreDropped`]).
    pub fn into_service(self) -> RestoreDropped<Self> {
        let listings = self.listings.clone();
        RestoreDropped::new(self, listings)
    }

    fn versions(&self) -> Vec<m::ProtocolVersion> {
        self.router
            .info()
            .protocol_versions
            .iter()
            .copied()
            .map(to_rmcp_version)
            .collect()
    }

    /// The server capabilities of `version`, as rmcp's type; without `tasks` when
    /// `stateless` (no session would keep a task).
    fn capabilities(&self, version: ProtocolVersion, stateless: bool) -> m::ServerCapabilities {
        // The router's capabilities are native MCP JSON; rmcp's type reads them all
        // but `tasks`, which rides in `experimental` to the transport, where
        // `tasks::wire::outbound` moves it back.
        let mut native = self.router.capabilities(version);
        if let Some(tasks) = native.as_object_mut().and_then(|c| c.remove("tasks")) {
            if !stateless {
                native["experimental"][wire::CAPABILITY_KEY] = tasks;
            }
        }
        serde_json::from_value(native).unwrap_or_default()
    }

    /// This session in the router's change registry, registered on first use with
    /// the client of `context` (the session's peer: notifications sent through it
    /// outside a request go to the session's standalone stream).
    fn join(&self, version: ProtocolVersion, context: &RequestContext<RoleServer>) -> &SessionLink {
        self.session.link.get_or_init(|| {
            let notifier = Arc::new(RmcpNotifier::new(context.peer.clone()));
            let link = Arc::new(SessionLink::new(
                version,
                self.router.list_changed(version),
                notifier,
            ));
            self.router.changes().register(&link);
            link
        })
    }

    /// The least severe level the client wants in this request, or `None` when
    /// [`Context::log`] must send nothing (see there).
    fn log_level(
        &self,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) -> Option<LogLevel> {
        if !self.router.logging(version) {
            return None;
        }
        if version >= ProtocolVersion::V2026_07_28 {
            let level = context.meta.log_level()?;
            return serde_json::to_value(level)
                .ok()
                .and_then(|v| serde_json::from_value(v).ok());
        }
        let set = *self
            .session
            .log_level
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        Some(set.unwrap_or(LogLevel::Debug))
    }

    /// The [`Context`] of a `tools/call`: client requests through `peer`, the
    /// call's cancellation token, its progress token and the client's log level.
    ///
    /// `rounds` carries client input in MCP 2026-07-28; otherwise client requests go
    /// to the request's rmcp client.
    pub(crate) fn context(
        &self,
        version: ProtocolVersion,
        rounds: Option<Arc<InputRounds>>,
        context: &RequestContext<RoleServer>,
        auth: Option<CallAuth>,
    ) -> Context {
        let declared = context.client_capabilities();
        // A client that sent no capabilities declared none.
        let declared_json = capabilities_json(declared.as_ref()).unwrap_or_else(|| json!({}));
        let client = Arc::new(RequestClient(RmcpClientPeer {
            peer: context.peer.clone(),
            version,
            capabilities: ClientCapabilities::Rmcp(declared),
        }));
        let peer: Arc<dyn ClientPeer> = match rounds {
            Some(rounds) => rounds,
            None => client.clone(),
        };
        let notifier: Arc<dyn Notifier> = client;
        let mut cx = Context::for_request(version, peer, context.ct.clone(), notifier)
            .with_log_level(self.log_level(version, context))
            .with_client_capabilities(declared_json)
            .with_changes(self.router.changes());
        if let Some(token) = context.meta.get_progress_token() {
            if let Ok(token) = serde_json::to_value(token) {
                cx = cx.with_progress_token(token);
            }
        }
        if let Some((authentication, principal)) = auth {
            cx = cx.with_authentication(authentication, principal);
        }
        cx
    }
}

impl McpServer {
    /// The version of a `resources/subscribe` or `resources/unsubscribe`, when the
    /// description declares `resources.subscribe` for it (else `-32601`) and the
    /// request belongs to a session that can be notified later (else `-32600`: a
    /// stateless HTTP request has no session to remember the subscription in).
    fn subscription_version(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<ProtocolVersion, ErrorData> {
        let version = negotiated(context)?;
        if !self.router.subscribe(version) {
            return Err(ErrorData::new(
                m::ErrorCode::METHOD_NOT_FOUND,
                "resources/subscribe is not declared by this server for this protocol version",
                None,
            ));
        }
        if stateless_http(context) {
            return Err(ErrorData::invalid_request(
                "resources/subscribe needs a session: this server serves HTTP without sessions",
                None,
            ));
        }
        Ok(version)
    }

    /// Checks the effective Security Requirement of `target` (see [`crate::auth`])
    /// before anything of the request runs: what the caller authenticated, for the
    /// handler's [`Context`], or the JSON-RPC error [`auth::FORBIDDEN_CODE`].
    ///
    /// `target` is only built when security is enforced (it allocates, and a trusted
    /// transport needs none).
    pub(crate) fn authorize(
        &self,
        target: impl FnOnce() -> auth::Target,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<CallAuth>, ErrorData> {
        if self.trusted || !self.router.enforces_security() {
            return Ok(None);
        }
        let target = target();
        let (authentication, choice) = match request_security(context) {
            Some((authentication, choice)) => (authentication, choice),
            None => (Arc::default(), auth::TransportChoice::default()),
        };
        let requirement = self
            .router
            .effective_security_ref(&target, version, &choice);
        // Only a refusal names what was refused.
        let what = || match &target {
            auth::Target::Tool(name) => format!("the tool `{name}`"),
            auth::Target::Prompt(name) => format!("the prompt `{name}`"),
            auth::Target::Resource(uri) => format!("the resource `{uri}`"),
            auth::Target::Completion(target) => format!("the {} `{}`", target.kind(), target.id()),
            auth::Target::Endpoint => "this request".to_owned(),
        };
        match requirement.evaluate(&authentication) {
            auth::Verdict::Allowed { principal } => Ok(Some((authentication, principal))),
            auth::Verdict::Unauthenticated => Err(ErrorData::new(
                m::ErrorCode(auth::FORBIDDEN_CODE),
                format!(
                    "Unauthorized: {} needs authentication ({requirement})",
                    what()
                ),
                Some(json!({"status": 401, "error": "unauthorized"})),
            )),
            auth::Verdict::InsufficientScope { scopes } => Err(ErrorData::new(
                m::ErrorCode(auth::FORBIDDEN_CODE),
                format!(
                    "Forbidden: {} needs the scope(s) {}",
                    what(),
                    scopes.join(" ")
                ),
                Some(
                    json!({"status": 403, "error": "insufficient_scope", "scope": scopes.join(" ")}),
                ),
            )),
        }
    }

    /// The [`Context`] of a `prompts/get`, `resources/read` or `completion/complete`:
    /// as a `tools/call`'s (cancellation, progress token, log level), with the client
    /// through rmcp before MCP 2026-07-28 and through `rounds` (input-required results,
    /// as for `tools/call`) from 2026-07-28 on. `completion/complete` has no
    /// input-required result in 2026-07-28: a client request from a completion handler
    /// fails there with [`ClientError::Unsupported`].
    fn primitive_context(
        &self,
        version: ProtocolVersion,
        rounds: Option<Arc<InputRounds>>,
        context: &RequestContext<RoleServer>,
        auth: Option<CallAuth>,
    ) -> Context {
        self.context(version, rounds, context, auth)
    }

    /// The input rounds of a `prompts/get` or `resources/read` in MCP 2026-07-28 (else
    /// `None`): `call` names the request in its `requestState` (`prompts/get NAME`,
    /// `resources/read URI`), so that a state is not replayed against another request.
    fn primitive_rounds(
        version: ProtocolVersion,
        call: &str,
        arguments: Option<&Value>,
        request_state: Option<&str>,
        input_responses: Option<m::InputResponses>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<Arc<InputRounds>>, ErrorData> {
        if version < ProtocolVersion::V2026_07_28 {
            return Ok(None);
        }
        InputRounds::resume(
            call,
            arguments,
            request_state,
            input_responses.unwrap_or_default(),
            capabilities_json(context.client_capabilities().as_ref()),
        )
        .map(|rounds| Some(Arc::new(rounds)))
        .map_err(|message| ErrorData::invalid_params(message, None))
    }
}

/// What a call authenticated, and which principal satisfied its requirement.
type CallAuth = (Arc<auth::Authentication>, Option<usize>);

/// What `mcpdesc::http` verified for this request, passed on by rmcp in the HTTP
/// request's extensions.
#[cfg(feature = "http")]
fn request_security(
    context: &RequestContext<RoleServer>,
) -> Option<(Arc<auth::Authentication>, auth::TransportChoice)> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    let security = parts
        .extensions
        .get::<crate::http::security::gate::RequestSecurity>()?;
    Some((security.authentication.clone(), security.choice.clone()))
}

/// Whether `context` is a streamable HTTP request that no session follows: marked so
/// by `mcpdesc::http` ([`marked_stateless`]), or, from rmcp's own HTTP service,
/// naming no session (`Mcp-Session-Id`; of a stateful server's requests only
/// `initialize` names none, so [`McpServer::initialize`] asks the mark alone).
#[cfg(feature = "http")]
pub(crate) fn stateless_http(context: &RequestContext<RoleServer>) -> bool {
    marked_stateless(context)
        || context
            .extensions
            .get::<http::request::Parts>()
            .is_some_and(|parts| !parts.headers.contains_key("mcp-session-id"))
}

/// Whether `mcpdesc::http` marked `context` as a request to a server without
/// sessions (`http/stateless.rs`).
#[cfg(feature = "http")]
fn marked_stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .extensions
        .get::<http::request::Parts>()
        .is_some_and(|parts| {
            parts
                .extensions
                .get::<crate::server::adapter::http_marks::Stateless>()
                .is_some()
        })
}

#[cfg(not(feature = "http"))]
pub(crate) fn stateless_http(_context: &RequestContext<RoleServer>) -> bool {
    false
}

#[cfg(not(feature = "http"))]
fn marked_stateless(_context: &RequestContext<RoleServer>) -> bool {
    false
}

#[cfg(not(feature = "http"))]
fn request_security(
    _context: &RequestContext<RoleServer>,
) -> Option<(Arc<auth::Authentication>, auth::TransportChoice)> {
    None
}

/// Native list items as rmcp's types; an item rmcp cannot represent is an internal
/// error naming it (only a declaration the validator rejects gets there).
fn from_values<T: serde::de::DeserializeOwned>(
    items: Vec<Value>,
    what: &str,
) -> Result<Vec<T>, ErrorData> {
    items
        .into_iter()
        .map(|item| {
            serde_json::from_value(item.clone()).map_err(|e| {
                ErrorData::internal_error(format!("the {what} {item} cannot be listed: {e}"), None)
            })
        })
        .collect()
}

/// A result's wire JSON as rmcp's type.
fn from_wire<T: serde::de::DeserializeOwned>(wire: Value, what: &str) -> Result<T, ErrorData> {
    serde_json::from_value(wire)
        .map_err(|e| ErrorData::internal_error(format!("the {what} cannot be sent: {e}"), None))
}

/// An rmcp [`Service`] around a handler that serves a router's tools (an
/// [`McpServer`], or a hand-written handler that delegates to one): `tools/list`
/// answers get back the members of the router's listing that rmcp's `Tool` type
/// dropped ([`ToolListings::restore`]), so the client sees each tool as the
/// description declares it for the negotiated version. Everything else goes to the
/// handler unchanged.
///
/// Use it with any rmcp transport except streamable HTTP (rmcp's HTTP service takes
/// a bare `ServerHandler`; the `http` module restores the members on the wire).
///
/// ```no_run
/// # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
/// use mcpdesc::rmcp::ServiceExt;
///
/// let tools = mcpdesc::McpServer::new(router);
/// let listings = tools.tool_listings().clone();
/// // `tools` could be any handler that delegates its tools to an `McpServer`.
/// let service = mcpdesc::RestoreDropped::new(tools, listings);
/// service.serve(mcpdesc::rmcp::transport::stdio()).await?.waiting().await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct RestoreDropped<S> {
    inner: S,
    listings: ToolListings,
}

impl<S> RestoreDropped<S> {
    /// Wraps `inner`, restoring from `listings`.
    pub fn new(inner: S, listings: ToolListings) -> Self {
        RestoreDropped { inner, listings }
    }

    /// The wrapped handler.
    pub fn inner(&self) -> &S {
        &self.inner
    }
}

impl<S: Service<RoleServer>> Service<RoleServer> for RestoreDropped<S> {
    async fn handle_request(
        &self,
        request: m::ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ServerResult, ErrorData> {
        // Read before `context` moves into the handler.
        let listing_version = match request {
            m::ClientRequest::ListToolsRequest(_) => negotiated(&context).ok(),
            _ => None,
        };
        let result = self.inner.handle_request(request, context).await?;
        Ok(match listing_version {
            Some(version) => restore_dropped_members(result, &self.listings, version),
            None => result,
        })
    }

    async fn handle_notification(
        &self,
        notification: m::ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.inner.handle_notification(notification, context).await
    }

    fn get_info(&self) -> m::ServerConfig {
        self.inner.get_info()
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [m::ProtocolVersion]> {
        self.inner.supported_protocol_versions()
    }
}

/// Writes a `tools/list` answer back as JSON with what [`ToolListings::restore`]
/// adds; an answer that lost nothing is returned unchanged.
fn restore_dropped_members(
    result: m::ServerResult,
    listings: &ToolListings,
    version: ProtocolVersion,
) -> m::ServerResult {
    let m::ServerResult::ListToolsResult(list) = &result else {
        return result;
    };
    let Ok(mut wire) = serde_json::to_value(list) else {
        return result;
    };
    if listings.restore(version, &mut wire) {
        m::ServerResult::CustomResult(m::CustomResult::new(wire))
    } else {
        result
    }
}

/// Serves `router` as an MCP server on stdin/stdout until the client disconnects.
///
/// Must run inside a Tokio runtime. Refuses to start when the router has registration
/// errors ([`Error::InvalidRouter`]), so a broken tool is noticed at start-up rather
/// than at its first call.
///
/// The description's security is not enforced on stdio: the transport carries no
/// credentials and its client started this process (see [`crate::auth`]).
///
/// ```no_run
/// # fn router() -> mcpdesc::Router { unimplemented!() }
/// #[tokio::main]
/// async fn main() -> Result<(), mcpdesc::Error> {
///     mcpdesc::serve_stdio(router()).await
/// }
/// ```
pub async fn serve_stdio(router: Router) -> Result<(), Error> {
    if !router.errors().is_empty() {
        return Err(Error::InvalidRouter(router.errors().to_vec()));
    }
    // stdio carries no credentials and its peer started this process: security is
    // not enforced there (see `crate::auth`).
    // Through the task rewrites (`tasks::wire`): rmcp 3.11 parses only the
    // 2026-07-28 form of tasks.
    let (read, write) = rmcp::transport::stdio();
    let running = McpServer::new(router)
        .trusted_transport()
        .into_service()
        .serve(crate::tasks::routed(read, write))
        .await
        .map_err(|e| Error::Initialize(e.to_string()))?;
    match running.waiting().await {
        Ok(rmcp::service::QuitReason::JoinError(e)) => Err(Error::Session(e.to_string())),
        Ok(_) => Ok(()),
        Err(e) => Err(Error::Session(e.to_string())),
    }
}

pub(crate) fn to_rmcp_version(version: ProtocolVersion) -> m::ProtocolVersion {
    match version {
        ProtocolVersion::V2024_11_05 => m::ProtocolVersion::V_2024_11_05,
        ProtocolVersion::V2025_03_26 => m::ProtocolVersion::V_2025_03_26,
        ProtocolVersion::V2025_06_18 => m::ProtocolVersion::V_2025_06_18,
        ProtocolVersion::V2025_11_25 => m::ProtocolVersion::V_2025_11_25,
        ProtocolVersion::V2026_07_28 => m::ProtocolVersion::V_2026_07_28,
    }
}

/// The protocol version of the request: the one negotiated at `initialize`, or the one
/// a 2026-07-28 request names in its `_meta`.
pub(crate) fn negotiated(
    context: &RequestContext<RoleServer>,
) -> Result<ProtocolVersion, ErrorData> {
    let version = context.protocol_version().ok_or_else(|| {
        ErrorData::invalid_request("no MCP protocol version was negotiated", None)
    })?;
    version.as_str().parse().map_err(|_| {
        ErrorData::invalid_request(format!("unsupported MCP protocol version {version}"), None)
    })
}

pub(crate) fn to_error_data(error: ProtocolError) -> ErrorData {
    ErrorData::new(m::ErrorCode(error.code), error.message, error.data)
}

/// rmcp's `Tool` needs object schemas; a boolean `outputSchema` (possible in
/// 2026-07-28) is written as the equivalent object schema.
fn to_rmcp_tool(mut tool: Value) -> Result<m::Tool, String> {
    if let Some(schema) = tool.get_mut("outputSchema") {
        if let Value::Bool(accepts) = *schema {
            *schema = if accepts {
                json!({})
            } else {
                json!({"not": {}})
            };
        }
    }
    serde_json::from_value(tool).map_err(|e| e.to_string())
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> m::ServerConfig {
        let info = self.router.info();
        let mut implementation = m::Implementation::new(info.name.clone(), info.version.clone());
        if let Some(title) = &info.title {
            implementation = implementation.with_title(title.clone());
        }
        if let Some(description) = &info.description {
            implementation = implementation.with_description(description.clone());
        }
        if let Some(url) = &info.website_url {
            implementation = implementation.with_website_url(url.clone());
        }
        // The fallback answer: the newest version we speak; `initialize` replaces
        // the version and its capabilities with the negotiated ones.
        let newest = info.protocol_versions.iter().max().copied();
        let capabilities = newest
            .map(|v| self.capabilities(v, false))
            .unwrap_or_default();
        let mut config = m::ServerConfig::new(capabilities).with_server_info(implementation);
        if let Some(instructions) = &info.instructions {
            config = config.with_instructions(instructions.clone());
        }
        if let Some(newest) = newest {
            config = config.with_protocol_version(to_rmcp_version(newest));
        }
        config
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [m::ProtocolVersion]> {
        Cow::Owned(self.versions())
    }

    async fn initialize(
        &self,
        request: m::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        // The capabilities of the negotiated version, not of the newest; a
        // stateless server advertises no `tasks` (`http/stateless.rs`).
        if let Ok(version) = result.protocol_version.as_str().parse() {
            result.capabilities = self.capabilities(version, marked_stateless(&context));
            self.join(version, &context);
        }
        Ok(result)
    }

    // rmcp deprecates logging for MCP 2026-07-28 (SEP-2577); the earlier versions
    // served here have it.
    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: m::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let version = negotiated(&context)?;
        // A client that lists may want to hear when the list changes.
        self.join(version, &context);
        // 2026-07-28 has no `logging/setLevel` (the level rides in each request's
        // `_meta`); earlier versions have it when the server declares `logging`.
        if version >= ProtocolVersion::V2026_07_28 || !self.router.logging(version) {
            return Err(ErrorData::method_not_found::<m::SetLevelRequestMethod>());
        }
        let level: LogLevel = serde_json::to_value(request.level)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok())
            .ok_or_else(|| ErrorData::invalid_params("unknown log level", None))?;
        *self
            .session
            .log_level
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(level);
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListToolsResult, ErrorData> {
        let version = negotiated(&context)?;
        // Without a session no tool runs as a task: none is listed with
        // `execution.taskSupport` (the `http` module's write-back agrees).
        let tasks = !stateless_http(&context);
        let mut tools = Vec::new();
        for native in self.listings.listing(version, tasks) {
            let name = native["name"].as_str().unwrap_or_default();
            match to_rmcp_tool(native.clone()) {
                Ok(tool) => tools.push(tool),
                // Only a declaration the description validator rejects gets here.
                Err(e) => eprintln!("mcpdesc: tool `{name}` left out of tools/list: {e}"),
            }
        }
        Ok(m::ListToolsResult::with_all_items(tools))
    }

    fn get_tool(&self, name: &str) -> Option<m::Tool> {
        // Asked without a request (for 2026-07-28 `Mcp-Param-*` header checks): the
        // tool as the newest version that serves it lists it.
        self.router
            .info()
            .protocol_versions
            .iter()
            .rev()
            .find_map(|v| {
                self.listings
                    .tools(*v)
                    .iter()
                    .find(|t| t["name"] == name)
                    .cloned()
            })
            .and_then(|tool| to_rmcp_tool(tool).ok())
    }

    async fn list_prompts(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListPromptsResult, ErrorData> {
        let version = negotiated(&context)?;
        // A client that lists may want to hear when the list changes.
        self.join(version, &context);
        let prompts = from_values(self.router.list_prompts(version), "prompt")?;
        Ok(m::ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: m::GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::GetPromptResponse, ErrorData> {
        let version = negotiated(&context)?;
        let target = || auth::Target::Prompt(request.name.clone());
        let auth = self.authorize(target, version, &context)?;
        let arguments = request.arguments.map(Value::Object);
        let rounds = Self::primitive_rounds(
            version,
            &format!("prompts/get {}", request.name),
            arguments.as_ref(),
            request.request_state.as_deref(),
            request.input_responses,
            &context,
        )?;
        let cx = self.primitive_context(version, rounds.clone(), &context, auth);
        let arguments = match arguments {
            Some(Value::Object(map)) => Some(map),
            _ => None,
        };
        let result = self.router.get_prompt(&request.name, arguments, cx).await;
        // A handler that asked for input failed with it (`?`): the round's requests
        // are the answer, not its error.
        if let Some(input) = rounds.and_then(|rounds| rounds.input_required()) {
            return to_input_required(input).map(m::GetPromptResponse::InputRequired);
        }
        let result = result.map_err(to_error_data)?;
        from_wire(result.to_wire(version), "prompt result").map(m::GetPromptResponse::Complete)
    }

    async fn list_resources(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListResourcesResult, ErrorData> {
        let version = negotiated(&context)?;
        // A client that lists may want to hear when the list changes.
        self.join(version, &context);
        let resources = from_values(self.router.list_resources(version), "resource")?;
        Ok(m::ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListResourceTemplatesResult, ErrorData> {
        let version = negotiated(&context)?;
        let templates = from_values(
            self.router.list_resource_templates(version),
            "resource template",
        )?;
        Ok(m::ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: m::ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ReadResourceResponse, ErrorData> {
        let version = negotiated(&context)?;
        let target = || auth::Target::Resource(request.uri.clone());
        let auth = self.authorize(target, version, &context)?;
        let rounds = Self::primitive_rounds(
            version,
            &format!("resources/read {}", request.uri),
            None,
            request.request_state.as_deref(),
            request.input_responses,
            &context,
        )?;
        let cx = self.primitive_context(version, rounds.clone(), &context, auth);
        let result = self.router.read_resource(&request.uri, cx).await;
        // As for a prompt: the round's requests are the answer.
        if let Some(input) = rounds.and_then(|rounds| rounds.input_required()) {
            return to_input_required(input).map(m::ReadResourceResponse::InputRequired);
        }
        let result = result.map_err(to_error_data)?;
        from_wire(result.to_wire(version), "read result").map(m::ReadResourceResponse::Complete)
    }

    async fn complete(
        &self,
        request: m::CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CompleteResult, ErrorData> {
        let version = negotiated(&context)?;
        let target = match &request.r#ref {
            m::Reference::Prompt(p) => crate::CompletionTarget::prompt(p.name.clone()),
            m::Reference::Resource(r) => crate::CompletionTarget::resource_template(r.uri.clone()),
            #[allow(unreachable_patterns)] // rmcp's enum is non-exhaustive.
            _ => {
                return Err(ErrorData::invalid_params(
                    "unknown completion reference type",
                    None,
                ))
            }
        };
        let mut completion =
            crate::CompletionRequest::new(request.argument.name, request.argument.value);
        if let Some(arguments) = request.context.and_then(|c| c.arguments) {
            completion.context = arguments.into_iter().collect();
        }
        let completion_target = || auth::Target::Completion(target.clone());
        let auth = self.authorize(completion_target, version, &context)?;
        let cx = self.primitive_context(version, None, &context, auth);
        let result = self
            .router
            .complete(&target, completion, cx)
            .await
            .map_err(to_error_data)?;
        from_wire(result.to_wire(version), "completion result")
    }

    // rmcp deprecates `resources/subscribe` for MCP 2026-07-28 (it has
    // `subscriptions/listen`); the earlier versions served here have it.
    #[allow(deprecated)]
    async fn subscribe(
        &self,
        request: m::SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let version = self.subscription_version(&context)?;
        self.join(version, &context).subscribe(&request.uri);
        Ok(())
    }

    #[allow(deprecated)]
    async fn unsubscribe(
        &self,
        request: m::UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let version = self.subscription_version(&context)?;
        self.join(version, &context).unsubscribe(&request.uri);
        Ok(())
    }

    async fn on_custom_request(
        &self,
        request: m::CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CustomResult, ErrorData> {
        self.task_request(request, context).await
    }

    async fn call_tool(
        &self,
        request: m::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CallToolResponse, ErrorData> {
        let version = negotiated(&context)?;
        let auth = self.authorize(
            || auth::Target::Tool(request.name.to_string()),
            version,
            &context,
        )?;
        // A task-augmented call arrives as a custom request (`tasks::wire`); a plain
        // call of a tool that only runs as a task is refused, except where no tool
        // runs as a task (stateless HTTP): there it is listed and served plainly.
        if self.router.task_support(&request.name, version).ok() == Some(TaskSupport::Required)
            && !stateless_http(&context)
        {
            return Err(ErrorData::new(
                m::ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "the tool `{}` runs only as a task (its execution.taskSupport is \
                     required): call it with `task`",
                    request.name
                ),
                None,
            ));
        }
        let arguments = request.arguments.map(Value::Object);
        // From 2026-07-28 on there are no server-to-client requests during a call:
        // client input goes through input-required results, and the handler is
        // replayed (input_rounds.rs).
        let rounds = if version >= ProtocolVersion::V2026_07_28 {
            let rounds = InputRounds::resume(
                &request.name,
                arguments.as_ref(),
                request.request_state.as_deref(),
                request.input_responses.unwrap_or_default(),
                capabilities_json(context.client_capabilities().as_ref()),
            )
            .map_err(|message| ErrorData::invalid_params(message, None))?;
            Some(Arc::new(rounds))
        } else {
            None
        };
        let cx = self.context(version, rounds.clone(), &context, auth);
        let result = self
            .router
            .call_tool(&request.name, arguments, cx)
            .await
            .map_err(to_error_data)?;
        if let Some(input) = rounds.and_then(|rounds| rounds.input_required()) {
            return to_input_required(input).map(m::CallToolResponse::InputRequired);
        }
        to_complete(result, version)
    }
}

/// A tool result as rmcp's completed `tools/call` response for `version`: the result
/// shaped as [`ToolResult::to_wire`] shapes it, built as rmcp's type directly (plain
/// text blocks, the structured output and `_meta` are moved, not written to JSON and
/// parsed back; only other content blocks go through their wire JSON).
fn to_complete(
    result: ToolResult,
    version: ProtocolVersion,
) -> Result<m::CallToolResponse, ErrorData> {
    let shaped = result.shape(version);
    let cannot_send = |e: serde_json::Error| {
        ErrorData::internal_error(format!("the tool result cannot be sent: {e}"), None)
    };
    let mut content = Vec::with_capacity(shaped.content.len());
    for block in shaped.content {
        content.push(match block {
            ShapedBlock::Text(text) => m::ContentBlock::text(text),
            ShapedBlock::Wire(wire) => serde_json::from_value(wire).map_err(cannot_send)?,
        });
    }
    let mut complete = m::CallToolResult::default();
    complete.result_type = version.has_result_type().then_some(m::ResultType::COMPLETE);
    complete.content = content;
    complete.structured_content = shaped.structured_content;
    complete.is_error = shaped.is_error;
    complete.meta = shaped.meta.map(m::MetaObject);
    Ok(m::CallToolResponse::Complete(complete))
}

/// The requests a round left unanswered as rmcp's input-required result.
fn to_input_required(input: InputRequired) -> Result<m::InputRequiredResult, ErrorData> {
    let mut requests = m::InputRequests::new();
    for (key, request) in input.requests {
        let request = serde_json::from_value(request).map_err(|e| {
            ErrorData::internal_error(
                format!("the input request `{key}` cannot be sent: {e}"),
                None,
            )
        })?;
        requests.insert(key, request);
    }
    Ok(m::InputRequiredResult::new(
        Some(requests),
        Some(input.request_state),
    ))
}

/// A [`ClientPeer`] over rmcp's handle to the connected client.
///
/// It checks that the client declared the capability a request needs (MCP forbids
/// sending the request otherwise) and maps rmcp's errors to [`ClientError`].
#[derive(Debug, Clone)]
pub struct RmcpClientPeer {
    peer: Peer<RoleServer>,
    version: ProtocolVersion,
    /// The client's capabilities, when known.
    capabilities: ClientCapabilities,
}

/// The client's declared capabilities as an [`RmcpClientPeer`] got them. The adapter
/// keeps rmcp's type and writes it as JSON only when a handler sends a client request:
/// most calls send none, and the conversion was a cost of every call.
#[derive(Debug, Clone)]
enum ClientCapabilities {
    /// As JSON ([`RmcpClientPeer::new`]).
    Json(Option<Value>),
    /// As rmcp read them for the request (its `_meta`, else the session's
    /// `initialize`).
    Rmcp(Option<m::ClientCapabilities>),
}

/// rmcp's client capabilities as JSON.
fn capabilities_json(capabilities: Option<&m::ClientCapabilities>) -> Option<Value> {
    capabilities.and_then(|c| serde_json::to_value(c).ok())
}

impl RmcpClientPeer {
    /// A peer for a session of `version`; `capabilities` are the client's declared
    /// capabilities (as JSON), when known.
    pub fn new(
        peer: Peer<RoleServer>,
        version: ProtocolVersion,
        capabilities: Option<Value>,
    ) -> Self {
        RmcpClientPeer {
            peer,
            version,
            capabilities: ClientCapabilities::Json(capabilities),
        }
    }

    fn check(&self, method: &'static str, capability: &[&str]) -> Result<(), ClientError> {
        if self.version >= ProtocolVersion::V2026_07_28 {
            return Err(ClientError::Unsupported(format!(
                "`{method}` cannot be sent during a call in MCP {}: that version carries client input through input-required results, which `McpServer` serves by replaying the handler",
                self.version
            )));
        }
        match &self.capabilities {
            ClientCapabilities::Json(declared) => {
                client_capabilities::require(declared.as_ref(), method, capability)
            }
            ClientCapabilities::Rmcp(declared) => {
                let declared = capabilities_json(declared.as_ref());
                client_capabilities::require(declared.as_ref(), method, capability)
            }
        }
    }
}

fn service_error(method: &'static str, error: ServiceError) -> ClientError {
    match error {
        ServiceError::McpError(e) => ClientError::Rejected {
            method,
            code: e.code.0,
            message: e.message.into_owned(),
        },
        ServiceError::UnexpectedResponse => ClientError::InvalidResponse {
            method,
            message: "unexpected result type".into(),
        },
        other => ClientError::Transport {
            method,
            message: other.to_string(),
        },
    }
}

fn to_json<T: serde::Serialize>(method: &'static str, value: &T) -> Result<Value, ClientError> {
    serde_json::to_value(value).map_err(|e| ClientError::InvalidResponse {
        method,
        message: e.to_string(),
    })
}

fn from_json<T: serde::de::DeserializeOwned>(
    method: &'static str,
    params: Value,
) -> Result<T, ClientError> {
    serde_json::from_value(params).map_err(|e| ClientError::InvalidRequest {
        method,
        message: e.to_string(),
    })
}

impl ClientPeer for RmcpClientPeer {
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        const METHOD: &str = "elicitation/create";
        Box::pin(async move {
            self.check(METHOD, client_capabilities::for_elicitation(&params))?;
            let params: m::ElicitRequestParams = from_json(METHOD, params)?;
            let result = self
                .peer
                .create_elicitation(params)
                .await
                .map_err(|e| service_error(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        const METHOD: &str = "sampling/createMessage";
        Box::pin(async move {
            self.check(METHOD, &["sampling"])?;
            #[allow(deprecated)] // Sampling is deprecated only from MCP 2026-07-28 on.
            let result = {
                let params: m::CreateMessageRequestParams = from_json(METHOD, params)?;
                self.peer.create_message(params).await
            };
            let result = result.map_err(|e| service_error(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
        const METHOD: &str = "roots/list";
        Box::pin(async move {
            self.check(METHOD, &["roots"])?;
            #[allow(deprecated)] // Roots are deprecated only from MCP 2026-07-28 on.
            let result = self.peer.list_roots().await;
            let result = result.map_err(|e| service_error(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }
}

/// A [`Notifier`] over rmcp's handle to the connected client.
#[derive(Debug, Clone)]
pub struct RmcpNotifier {
    peer: Peer<RoleServer>,
}

impl RmcpNotifier {
    /// A notifier sending to `peer`.
    pub fn new(peer: Peer<RoleServer>) -> Self {
        RmcpNotifier { peer }
    }
}

impl Notifier for RmcpNotifier {
    fn notify(
        &self,
        method: &'static str,
        params: Value,
    ) -> BoxFuture<'_, Result<(), ClientError>> {
        notify_peer(&self.peer, method, params)
    }
}

/// The client of one served request, for its client requests ([`ClientPeer`], as
/// [`RmcpClientPeer`]) and its notifications ([`Notifier`], as [`RmcpNotifier`]): one
/// allocation and one `Peer` clone per request rather than one of each per role.
#[derive(Debug)]
struct RequestClient(RmcpClientPeer);

impl ClientPeer for RequestClient {
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        self.0.elicit(params)
    }

    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        self.0.create_message(params)
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
        self.0.list_roots()
    }
}

impl Notifier for RequestClient {
    fn notify(
        &self,
        method: &'static str,
        params: Value,
    ) -> BoxFuture<'_, Result<(), ClientError>> {
        notify_peer(&self.0.peer, method, params)
    }
}

/// Sends a handler's notification (`notifications/progress` or
/// `notifications/message`) or a change notification ([`crate::ChangeNotifier`]) to
/// the client behind `peer`.
fn notify_peer<'a>(
    peer: &'a Peer<RoleServer>,
    method: &'static str,
    params: Value,
) -> BoxFuture<'a, Result<(), ClientError>> {
    Box::pin(async move {
        let sent = match method {
            "notifications/progress" => {
                let params: m::ProgressNotificationParam = from_json(method, params)?;
                peer.notify_progress(params).await
            }
            // rmcp deprecates logging for MCP 2026-07-28 (SEP-2577); the
            // versions before it have the notification.
            #[allow(deprecated)]
            "notifications/message" => {
                let params: m::LoggingMessageNotificationParam = from_json(method, params)?;
                peer.notify_logging_message(params).await
            }
            "notifications/resources/updated" => {
                let params: m::ResourceUpdatedNotificationParam = from_json(method, params)?;
                peer.notify_resource_updated(params).await
            }
            "notifications/tools/list_changed" => peer.notify_tool_list_changed().await,
            "notifications/prompts/list_changed" => peer.notify_prompt_list_changed().await,
            "notifications/resources/list_changed" => peer.notify_resource_list_changed().await,
            _ => {
                return Err(ClientError::InvalidRequest {
                    method,
                    message: "not a notification a handler sends".into(),
                })
            }
        };
        sent.map_err(|e| service_error(method, e))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Annotations, Content, Meta};

    fn meta(key: &str) -> Meta {
        let mut meta = Meta::new();
        meta.insert(key.into(), json!(1));
        meta
    }

    /// Results that take every branch of the shaping: plain and annotated text, other
    /// block kinds (audio and links that some versions lack), structured content that
    /// is and is not an object, errors, `_meta`.
    fn results() -> Vec<ToolResult> {
        let annotations = Annotations {
            priority: Some(0.5),
            last_modified: Some("2025-01-01T00:00:00Z".into()),
            ..Default::default()
        };
        vec![
            ToolResult::text("plain"),
            ToolResult::structured(json!({"greeting": "Hello", "length": 5})),
            ToolResult::structured(json!([1, 2])),
            ToolResult::structured(json!("text")),
            ToolResult {
                content: vec![],
                structured_content: Some(json!([1])),
                ..Default::default()
            },
            ToolResult::error("bad input"),
            ToolResult {
                structured_content: Some(json!({"kept": false})),
                ..ToolResult::error("an error never carries structuredContent")
            },
            ToolResult::new(vec![
                Content::text("annotated").with_annotations(annotations.clone()),
                Content::text("with meta").with_meta(meta("block")),
                Content::image("aGk=", "image/png"),
                Content::audio("aGk=", "audio/wav").with_annotations(annotations),
                Content::resource_link("file:///a.txt", "a"),
                Content::embedded_text("file:///b.txt", "b", Some("text/plain")),
            ])
            .with_meta(meta("result")),
            ToolResult {
                is_error: Some(false),
                ..ToolResult::structured(json!({"n": 1}))
            },
        ]
    }

    /// Building rmcp's result directly gives what parsing the wire JSON gave before.
    #[test]
    fn the_direct_result_equals_the_wire_json_parsed() {
        for result in results() {
            for &version in ProtocolVersion::ALL {
                let direct = match to_complete(result.clone(), version).unwrap() {
                    m::CallToolResponse::Complete(r) => r,
                    other => panic!("not complete: {other:?}"),
                };
                let wire = result.to_wire(version);
                let parsed: m::CallToolResult = serde_json::from_value(wire.clone()).unwrap();
                assert_eq!(direct, parsed, "{result:?} in {version}");
                assert_eq!(serde_json::to_value(&direct).unwrap(), wire, "{version}");
            }
        }
    }
}
