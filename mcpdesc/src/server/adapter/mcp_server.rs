//! [`McpServer`], the rmcp `ServerHandler` of a [`Router`], with its settings;
//! [`RestoreDropped`], the service that serves it with every member of its tools; and
//! [`serve_stdio`].

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{model as m, ErrorData, RoleServer, Service, ServiceExt};

use super::convert::negotiated;
use super::listing::ToolListings;
use crate::protocol::error::Error;
use crate::protocol::version::ProtocolVersion;
use crate::server::router::Router;
use crate::server::subscriptions::SessionLink;
use crate::tasks::limits::TaskLimits;
use crate::tasks::running::RunningTasks;
use crate::tasks::store::TaskStore;

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
/// own prompts, resources or tools (see "Composition" in `docs/serving.md`):
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
/// `logging/setLevel`, the subscriptions). Serve each MCP session with its own [`McpServer::new_session`]:
/// `serve_stdio` has one session, the `http` module makes one per HTTP session.
///
/// [`ServerHandler`]: rmcp::ServerHandler
/// [`Context`]: crate::server::context::Context
#[derive(Debug, Clone)]
pub struct McpServer {
    pub(super) router: Arc<Router>,
    pub(super) listings: ToolListings,
    pub(super) session: Arc<Session>,
    /// The transport is trusted (stdio): the description's security is not
    /// enforced.
    pub(super) trusted: bool,
    /// The bounds of each session's tasks.
    pub(super) task_limits: TaskLimits,
    /// The running tasks of every session, which a drain waits for.
    pub(super) running: RunningTasks,
}

/// What one MCP session remembers between requests.
#[derive(Debug, Default)]
pub(super) struct Session {
    /// The session in the router's [`ChangeNotifier`]: its client, its
    /// `resources/subscribe` URIs and the level of its last `logging/setLevel`. Set
    /// when the session is first met; dropped with the session, which takes it out
    /// of the registry.
    ///
    /// [`ChangeNotifier`]: crate::server::subscriptions::ChangeNotifier
    pub(super) link: OnceLock<Arc<SessionLink>>,
    /// The session's tasks, made at the first task request.
    pub(super) tasks: OnceLock<Arc<TaskStore>>,
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
            running: RunningTasks::default(),
        }
    }

    /// The same handler with other bounds on each session's tasks (MCP 2025-11-25
    /// task-augmented calls; see [`TaskLimits`] for the defaults).
    pub fn task_limits(mut self, limits: TaskLimits) -> Self {
        self.task_limits = limits;
        self
    }

    /// The running tasks of every session of this server (shared with the HTTP
    /// drain, which waits for them).
    pub(crate) fn running_tasks(&self) -> &RunningTasks {
        &self.running
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
    /// `crate::auth`.
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
            running: self.running.clone(),
        }
    }

    /// This handler as an rmcp service whose `tools/list` answers carry every
    /// member of the router's listing ([`RestoreDropped`]).
    pub fn into_service(self) -> RestoreDropped<Self> {
        let listings = self.listings.clone();
        RestoreDropped::new(self, listings)
    }
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
/// credentials and its client started this process (see `crate::auth`).
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
        .serve(crate::tasks::transport::routed(read, write))
        .await
        .map_err(|e| Error::Initialize(e.to_string()))?;
    match running.waiting().await {
        Ok(rmcp::service::QuitReason::JoinError(e)) => Err(Error::Session(e.to_string())),
        Ok(_) => Ok(()),
        Err(e) => Err(Error::Session(e.to_string())),
    }
}
