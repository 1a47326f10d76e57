//! [`HttpServer`]: the settings of a streamable HTTP server and the endpoint they
//! build (rmcp's `StreamableHttpService` behind the layer of `service.rs`), bound by
//! [`HttpServer::bind`]; and [`serve_http`].

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServerHandler;
use tokio::net::ToSocketAddrs;
use tokio_util::sync::CancellationToken;

use super::binding::Binding;
use super::bound::BoundHttpServer;
use super::defaults::DEFAULT_MAX_REQUEST_BODY_BYTES;
use super::drain::Drain;
use super::events::SharedEvents;
use super::listener::{ConnectionLimits, HttpListener};
use super::relay::{self, Relay};
use super::security::gate::{Gate, GateSettings};
use super::service::McpHttpService;
use super::sessions::{
    DEFAULT_HIBERNATE_AFTER, DEFAULT_INITIALIZE_TIMEOUT, DEFAULT_MAX_PENDING_SESSIONS,
    DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT,
};
use super::shared::SharedSessions;
use super::{dormant, hibernate, origin, service, sessions};
use crate::auth::declaration::TransportChoice;
use crate::protocol::error::{Error, RouterError};
use crate::server::adapter::listing::ToolListings;
use crate::server::adapter::mcp_server::McpServer;
use crate::server::adapter::shared_tasks::{SharedTasks, DEFAULT_TASK_LEASE};
use crate::server::router::Router;
use crate::server::subscriptions::ChangeNotifier;
use crate::state::{MemoryState, StateStore};
use crate::tasks::running::RunningTasks;

/// Serves `router` over streamable HTTP at `http://ADDR/mcp` with the defaults of
/// [`HttpServer`], until the process ends.
///
/// Refuses to start when the router has registration errors
/// ([`Error::InvalidRouter`]) or the address cannot be bound ([`Error::Http`]).
pub async fn serve_http(router: Router, addr: impl ToSocketAddrs) -> Result<(), Error> {
    HttpServer::new(router).bind(addr).await?.run().await
}

/// A streamable HTTP server for an rmcp handler, [`McpServer`] by default (see the
/// module docs for the defaults and the stateless mode).
pub struct HttpServer<H = McpServer> {
    factory: Arc<dyn Fn() -> H + Send + Sync>,
    listings: Option<ToolListings>,
    errors: Vec<RouterError>,
    config: StreamableHttpServerConfig,
    /// The router whose security the server enforces before rmcp.
    security: Option<Arc<Router>>,
    gate: GateSettings,
    limits: ConnectionLimits,
    origins: Vec<String>,
    max_sessions: usize,
    max_pending_sessions: usize,
    initialize_timeout: Duration,
    hibernate_after: Option<Duration>,
    idle_timeout: Option<Duration>,
    /// Where sessions' records are kept (stateful mode); `None`: in memory.
    state: Option<Arc<dyn StateStore>>,
    /// The lease of a task running here, with a store that keeps tasks.
    task_lease: Duration,
    /// Whose change notifications cross instances through a shared store, besides
    /// the router's of [`HttpServer::new`] and [`HttpServer::enforce_security_of`].
    changes: Option<ChangeNotifier>,
    /// Cancelled by a drain's end or [`BoundHttpServer::shutdown_token`]: closes
    /// every session (rmcp's token is its child).
    shutdown: CancellationToken,
    drain: Drain,
    #[cfg(feature = "rate-limit")]
    rate_limit: Option<super::rate_limit::RateLimit>,
    #[cfg(feature = "telemetry")]
    telemetry: Option<crate::telemetry::Telemetry>,
}

impl<H> std::fmt::Debug for HttpServer<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpServer")
            .field("allowed_hosts", &self.config.allowed_hosts)
            .field("json_response", &self.config.json_response)
            .field(
                "max_request_body_bytes",
                &self.config.max_request_body_bytes,
            )
            .field("stateless", &!self.config.legacy_session_mode)
            .field("restores_tool_members", &self.listings.is_some())
            .field("enforces_security", &self.security.is_some())
            .field("path", &self.gate.path)
            .field("limits", &self.limits)
            .field("allowed_origins", &self.origins)
            .field("max_sessions", &self.max_sessions)
            .field("max_pending_sessions", &self.max_pending_sessions)
            .field("initialize_timeout", &self.initialize_timeout)
            .field("hibernate_after", &self.hibernate_after)
            .field("session_idle_timeout", &self.idle_timeout)
            .field("shared_state", &self.state.as_ref().map(|s| s.shared()))
            .field("task_lease", &self.task_lease)
            .finish()
    }
}

impl HttpServer<McpServer> {
    /// A server for `router`: each HTTP session gets its own
    /// [`McpServer::new_session`], and `tools/list` answers carry every member of
    /// the router's listing.
    pub fn new(router: Router) -> Self {
        let errors = router.errors().to_vec();
        let server = McpServer::new(router);
        let listings = server.tool_listings().clone();
        let security = server.shared_router();
        // The drain waits for the tasks of every session.
        let tasks = server.running_tasks().clone();
        let mut http = HttpServer::with_handler(move || server.new_session())
            .restore_tool_members(listings)
            .with_errors(errors);
        http.security = Some(security);
        http.drain = Drain::new(http.shutdown.clone(), tasks);
        http
    }
}

impl<H: ServerHandler> HttpServer<H> {
    /// A server whose sessions are served by handlers from `factory`, called once per
    /// session (once per request in stateless mode). Use it to serve a hand-written
    /// handler that delegates its tools to an [`McpServer`]; give it that server's
    /// listings with [`HttpServer::restore_tool_members`].
    pub fn with_handler(factory: impl Fn() -> H + Send + Sync + 'static) -> Self {
        let shutdown = CancellationToken::new();
        HttpServer {
            drain: Drain::new(shutdown.clone(), RunningTasks::default()),
            shutdown,
            limits: ConnectionLimits::default(),
            origins: Vec::new(),
            max_sessions: DEFAULT_MAX_SESSIONS,
            max_pending_sessions: DEFAULT_MAX_PENDING_SESSIONS,
            initialize_timeout: DEFAULT_INITIALIZE_TIMEOUT,
            hibernate_after: Some(DEFAULT_HIBERNATE_AFTER),
            idle_timeout: Some(DEFAULT_SESSION_IDLE_TIMEOUT),
            state: None,
            task_lease: DEFAULT_TASK_LEASE,
            changes: None,
            factory: Arc::new(factory),
            listings: None,
            errors: Vec::new(),
            config: StreamableHttpServerConfig::default()
                .with_max_request_body_bytes(DEFAULT_MAX_REQUEST_BODY_BYTES),
            security: None,
            gate: GateSettings::default(),
            #[cfg(feature = "rate-limit")]
            rate_limit: None,
            #[cfg(feature = "telemetry")]
            telemetry: None,
        }
    }

    /// Enforces the security of `server`'s router in front of the handler (what
    /// [`HttpServer::new`] does for its own router): for a hand-written handler that
    /// delegates to an [`McpServer`]. Without it, such a handler's delegated calls
    /// are still checked by the `McpServer`, but with no credentials (see
    /// [`crate::auth`]).
    pub fn enforce_security_of(mut self, server: &McpServer) -> Self {
        let router = server.shared_router();
        self.errors = router.errors().to_vec();
        self.security = Some(router);
        self
    }

    /// Serves as the description's HTTP transport whose `url` is `url`: its
    /// `security` is what primitives inherit (by default, per protocol version, the
    /// first `streamable-http` transport; see [`crate::auth`]), and its `url` the
    /// `resource` of the Protected Resource Metadata.
    pub fn transport_url(mut self, url: impl Into<String>) -> Self {
        self.gate.choice = TransportChoice::Url(url.into());
        self
    }

    /// The `resource` of the Protected Resource Metadata: the server's canonical URL
    /// as clients reach it (behind a proxy, say). By default the served transport's
    /// declared `url`, else `http://<Host>/mcp`.
    pub fn resource_url(mut self, url: impl Into<String>) -> Self {
        self.gate.resource_url = Some(url.into());
        self
    }

    /// Makes the `resource` of the Protected Resource Metadata the URL each request
    /// reached (`http://<Host>/mcp`), even when the served transport declares a
    /// `url`: for a server run locally for tests (what `mcpdesc serve-mock` does),
    /// whose clients check that `resource` names the URL they connected to.
    pub fn served_resource_url(mut self) -> Self {
        self.gate.served_resource = true;
        self
    }

    /// The `authorization_servers` of the Protected Resource Metadata, replacing
    /// the ones derived from the description's `oauth2` and `openIdConnect` schemes.
    pub fn authorization_servers(
        mut self,
        servers: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.gate.authorization_servers = Some(servers.into_iter().map(Into::into).collect());
        self
    }

    /// The largest request head (request line and headers) accepted; a larger one
    /// gets `431 Request Header Fields Too Large` from hyper before anything else
    /// runs. Default [`DEFAULT_MAX_HEADER_BYTES`]. More than 100 header fields get
    /// the same answer.
    ///
    /// [`DEFAULT_MAX_HEADER_BYTES`]: super::listener::DEFAULT_MAX_HEADER_BYTES
    pub fn max_header_bytes(mut self, limit: usize) -> Self {
        self.limits.max_header_bytes = limit;
        self
    }

    /// A client that has not finished a request head this long after starting it
    /// is disconnected ([`HttpServer::bind`] only; see [`HttpListener`] for an
    /// application). Default [`DEFAULT_HEADER_READ_TIMEOUT`] (10 s).
    ///
    /// [`DEFAULT_HEADER_READ_TIMEOUT`]: super::listener::DEFAULT_HEADER_READ_TIMEOUT
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.limits.header_read_timeout = timeout;
        self
    }

    /// The most connections open at once; later ones wait in the kernel's accept
    /// queue ([`HttpServer::bind`] only). Default [`DEFAULT_MAX_CONNECTIONS`].
    ///
    /// [`DEFAULT_MAX_CONNECTIONS`]: super::listener::DEFAULT_MAX_CONNECTIONS
    pub fn max_connections(mut self, limit: usize) -> Self {
        self.limits.max_connections = limit;
        self
    }

    /// The browser origins (`scheme://host[:port]`) allowed to call the server. A
    /// request whose `Origin` is present and not in the list gets `403 Forbidden`
    /// before anything else; a CORS preflight from a listed origin gets `204` with
    /// the CORS headers, without authentication. Clients that send no `Origin`
    /// (every non-browser client) are unaffected. By default a local server allows
    /// loopback origins (`http://localhost:PORT`, `http://127.0.0.1:PORT`,
    /// `http://[::1]:PORT`, any port) and no other; a server bound to another
    /// address, or answering other hosts ([`HttpServer::allowed_hosts`]), allows
    /// only the origins listed here (see the module docs, "Defaults").
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.origins = origins.into_iter().map(Into::into).collect();
        self
    }

    /// The most sessions open at once (stateful mode); past it an `initialize`
    /// gets `503 Service Unavailable` with `Retry-After`, and the open sessions
    /// keep working. Default [`DEFAULT_MAX_SESSIONS`] (10,000).
    pub fn max_sessions(mut self, limit: usize) -> Self {
        self.max_sessions = limit;
        self
    }

    /// The most sessions still in their handshake (opened by `initialize`, nothing
    /// heard from their client since) at once; past it an `initialize` gets `503`
    /// with `Retry-After` too. An `initialize` flood fills this cap, not
    /// [`HttpServer::max_sessions`], so the memory it holds stays small while
    /// clients that complete their handshake keep their sessions. Default
    /// [`DEFAULT_MAX_PENDING_SESSIONS`] (1,000).
    pub fn max_pending_sessions(mut self, limit: usize) -> Self {
        self.max_pending_sessions = limit;
        self
    }

    /// How long a new session has, after its `initialize`, to send its next
    /// message (normally `notifications/initialized`) before it is closed.
    /// Default [`DEFAULT_INITIALIZE_TIMEOUT`] (10 s).
    pub fn initialize_timeout(mut self, timeout: Duration) -> Self {
        self.initialize_timeout = timeout;
        self
    }

    /// How long a session stays idle (no request or stream of it in flight, none
    /// since) before it hibernates (stateful mode): its rmcp worker, about 119 KB,
    /// is closed and only its `initialize` parameters are kept (under 1 KB); its
    /// next request restores it transparently (measured: about 110 µs of CPU, 1.5x
    /// a call). Whatever a handler from [`HttpServer::with_handler`] keeps per
    /// session beyond what [`McpServer`] keeps is lost then: such a server sets
    /// `None`.
    /// A session whose handler keeps state (it set a log level, subscribed to a
    /// resource, used tasks) never hibernates; nor does one with an open `GET`
    /// stream. A dormant session still counts in [`HttpServer::max_sessions`] and
    /// ends after [`HttpServer::session_idle_timeout`] like a live one. `None`:
    /// sessions never hibernate. Default [`DEFAULT_HIBERNATE_AFTER`] (5 s).
    pub fn hibernate_after(mut self, idle: Option<Duration>) -> Self {
        self.hibernate_after = idle;
        self
    }

    /// How long a session may stay idle, live or dormant, before it closes
    /// (stateful mode); its next request then gets `404 Not Found`. `None`: never
    /// (not for a server reachable by unknown clients). Default
    /// [`DEFAULT_SESSION_IDLE_TIMEOUT`] (5 minutes, rmcp's).
    pub fn session_idle_timeout(mut self, idle: Option<Duration>) -> Self {
        self.idle_timeout = idle;
        self
    }

    /// Limits each client's requests to the MCP endpoint (feature `rate-limit`;
    /// default: no limit): over the limit, `429 Too Many Requests` with
    /// `Retry-After`. See [`RateLimit`](super::rate_limit::RateLimit) for who a
    /// client is and what counts.
    #[cfg(feature = "rate-limit")]
    pub fn rate_limit(mut self, limit: super::rate_limit::RateLimit) -> Self {
        self.rate_limit = Some(limit);
        self
    }

    /// Records the endpoint's operations and sessions in `telemetry` (feature
    /// `telemetry`; default: none): the metrics and spans of the OpenTelemetry
    /// MCP conventions (see [`crate::telemetry`]). Serve its Prometheus text with
    /// `HttpServer::metrics_routes` (feature `axum`).
    #[cfg(feature = "telemetry")]
    pub fn telemetry(mut self, telemetry: crate::telemetry::Telemetry) -> Self {
        self.telemetry = Some(telemetry);
        self
    }

    /// `GET /metrics`, the Prometheus text of the telemetry set by
    /// [`HttpServer::telemetry`] (a new [`Telemetry`] is set when there is none,
    /// so call it before building the endpoint), as an axum router to merge next
    /// to [`HttpServer::into_router`]; see [`metrics_routes`].
    ///
    /// [`Telemetry`]: crate::telemetry::Telemetry
    /// [`metrics_routes`]: crate::telemetry::metrics_routes
    #[cfg(all(feature = "telemetry", feature = "axum"))]
    pub fn metrics_routes(&mut self) -> axum::Router {
        let telemetry = self
            .telemetry
            .get_or_insert_with(crate::telemetry::Telemetry::new)
            .clone();
        crate::telemetry::metrics_routes(telemetry)
    }

    /// Keeps the sessions' records (stateful mode: their `initialize`, their owner)
    /// in `store` instead of this process's memory ([`crate::state`]). With a shared
    /// store (`mcpdesc::state::RedisState`, feature `redis`), every instance using
    /// it serves every session: a session opened on one is restored on another at
    /// its first request there, transparently for the client, so instances can sit
    /// behind a plain round-robin balancer. The records' time to live is
    /// [`HttpServer::session_idle_timeout`].
    ///
    /// A store that keeps tasks ([`StateStore::keeps_tasks`]; `RedisState` does)
    /// keeps the MCP 2025-11-25 tasks too, in both modes: `tasks/*` work on every
    /// instance, `tasks/cancel` reaches the handler wherever it runs, a task whose
    /// instance stopped ends `failed` after its lease ([`HttpServer::task_lease`]),
    /// and a stateless server serves tasks (the `tasks` capability and
    /// `execution.taskSupport` come back). See "Tasks across instances" in
    /// `docs/serving.md`.
    pub fn shared_state(mut self, store: Arc<dyn StateStore>) -> Self {
        self.state = Some(store);
        self
    }

    /// How long the lease of a task running on this instance lasts (a store that
    /// keeps tasks, [`HttpServer::shared_state`]): it is renewed every third of it
    /// while the handler runs, and a task whose instance stopped ends `failed`
    /// ("the instance running this task stopped") this long after its last
    /// renewal at most. Default 10 s.
    pub fn task_lease(mut self, lease: Duration) -> Self {
        self.task_lease = lease;
        self
    }

    /// Relays `changes` (a router's [`Router::changes`]) to the other instances
    /// sharing the store of [`HttpServer::shared_state`]: for a hand-written
    /// handler given to [`HttpServer::with_handler`] (the router of
    /// [`HttpServer::new`] and of [`HttpServer::enforce_security_of`] is relayed
    /// without it). An announcement on any instance then reaches the subscribed
    /// sessions of every instance (`crate::state`).
    pub fn relay_changes(mut self, changes: ChangeNotifier) -> Self {
        self.changes = Some(changes);
        self
    }

    /// The path of the MCP endpoint (default [`MCP_PATH`], `/mcp`) in
    /// [`HttpServer::bind`] and `HttpServer::into_router` (feature `axum`).
    ///
    /// [`MCP_PATH`]: super::defaults::MCP_PATH
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.gate.path = path.into();
        self
    }

    /// The drain switch of the endpoint this builder makes (graceful shutdown of
    /// [`HttpServer::into_service`] and `HttpServer::into_router`).
    pub fn drain(&self) -> Drain {
        self.drain.clone()
    }

    /// `GET /healthz` (liveness) and `GET /readyz` (readiness: `503` once the
    /// endpoint drains) for the endpoint this builder makes, as an axum router to
    /// merge next to [`HttpServer::into_router`]; see [`health_routes`].
    ///
    /// [`health_routes`]: super::health::health_routes
    #[cfg(feature = "axum")]
    pub fn health_routes(&self) -> axum::Router {
        super::health::health_routes(self.drain())
    }

    fn with_errors(mut self, errors: Vec<RouterError>) -> Self {
        self.errors = errors;
        self
    }

    /// Completes `tools/list` answers from `listings` (what rmcp's `Tool` type drops,
    /// see the module docs).
    pub fn restore_tool_members(mut self, listings: ToolListings) -> Self {
        self.listings = Some(listings);
        self
    }

    /// The hosts (`name` or `name:port`) whose `Host` header is answered; every other
    /// request gets `403 Forbidden`. The default is loopback only.
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.config = self.config.with_allowed_hosts(hosts);
        self
    }

    /// Answers any `Host`. Not for a server reachable from a browser: it opens the
    /// door to DNS rebinding.
    pub fn allow_any_host(mut self) -> Self {
        self.config = self.config.disable_allowed_hosts();
        self
    }

    /// Prefers `application/json` responses over SSE streams where rmcp allows it:
    /// in stateless mode, for a request whose handler sends nothing before its
    /// answer.
    pub fn json_response(mut self, enabled: bool) -> Self {
        self.config = self.config.with_json_response(enabled);
        self
    }

    /// The largest request body accepted; a larger one gets `413 Payload Too Large`.
    pub fn max_request_body_bytes(mut self, limit: usize) -> Self {
        self.config = self.config.with_max_request_body_bytes(limit);
        self
    }

    /// Serves without sessions (see the module docs for what that gives up).
    pub fn stateless(mut self, enabled: bool) -> Self {
        self.config = self.config.with_legacy_session_mode(!enabled);
        self
    }

    /// The interval of SSE keep-alive comments (`None`: none). Default 15 s.
    pub fn sse_keep_alive(mut self, interval: Option<Duration>) -> Self {
        self.config = self.config.with_sse_keep_alive(interval);
        self
    }

    /// The MCP endpoint as a tower service (see [`McpHttpService`]); errors as
    /// [`HttpServer::bind`] does for a router with registration errors or security
    /// it cannot enforce.
    pub fn into_service(self) -> Result<McpHttpService, Error> {
        Ok(self.build(None)?.0)
    }

    /// The MCP endpoint at the configured path (default `/mcp`) and the Protected
    /// Resource Metadata routes (when the description declares security), as an
    /// axum router to merge into an application:
    ///
    /// ```no_run
    /// # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
    /// let app = axum::Router::new()
    ///     .route("/healthz", axum::routing::get(|| async { "ok" }))
    ///     .merge(mcpdesc::http::HttpServer::new(router).into_router()?);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "axum")]
    pub fn into_router(self) -> Result<axum::Router, Error> {
        let path = self.gate.path.clone();
        let (service, gate) = self.build(None)?;
        let mut router = axum::Router::new().route_service(&path, service);
        if let Some(gate) = gate {
            for route in gate.metadata_paths() {
                let gate = gate.clone();
                router = router.route(
                    &route,
                    axum::routing::any(move |request: axum::extract::Request| {
                        let gate = gate.clone();
                        async move { gate.metadata(request.method(), request.headers()) }
                    }),
                );
            }
        }
        Ok(router)
    }

    /// The service and the gate (for the metadata routes).
    fn build(
        self,
        bound: Option<SocketAddr>,
    ) -> Result<(McpHttpService, Option<Arc<Gate>>), Error> {
        if !self.errors.is_empty() {
            return Err(Error::InvalidRouter(self.errors));
        }
        let stateful = self.config.legacy_session_mode;
        let mut config = self
            .config
            .with_cancellation_token(self.shutdown.child_token());
        let limit = config.max_request_body_bytes;
        // A local server accepts loopback origins (see `origin.rs`).
        let local = match bound {
            Some(addr) => addr.ip().is_loopback(),
            None => {
                let hosts = &config.allowed_hosts;
                !hosts.is_empty() && hosts.iter().all(|h| origin::is_loopback_host(h))
            }
        };
        // Whose change notifications cross instances (`changes`).
        let changes = self
            .changes
            .clone()
            .or_else(|| self.security.as_ref().map(|router| router.changes()));
        let gate = match self.security {
            Some(router) => Gate::new(router, self.gate, bound)
                .map_err(Error::Security)?
                .map(Arc::new),
            None => None,
        };
        let mut inner = LocalSessionManager::default();
        // The events of SSE streams in the shared store, when it keeps them
        // (`events`): a client resumes a stream on any instance.
        if let Some(store) = self.state.as_ref().filter(|store| store.keeps_events()) {
            inner = inner.with_event_store(Arc::new(SharedEvents {
                store: store.clone(),
            }));
        }
        // The handshake timeout is ours (it covers the message after `initialize`);
        // rmcp's covers only the wait for `initialize` itself.
        inner.session_config.init_timeout = Some(self.initialize_timeout);
        inner.session_config.keep_alive = self.idle_timeout;
        // Hibernation (`hibernate`): rmcp's session store is the dormant sessions'
        // bookkeeping; a dormant session expires after rmcp's idle timeout.
        let hibernation = self.hibernate_after.filter(|_| stateful).map(|after| {
            let schedule = hibernate::Schedule {
                after,
                expire_after: self.idle_timeout,
            };
            (schedule, self.shutdown.clone())
        });
        let dormant = hibernation
            .is_some()
            .then(|| Arc::new(dormant::Dormant::new()));
        // Tasks in a store that keeps them, in both modes (`shared_tasks`).
        let shared_tasks = self
            .state
            .as_ref()
            .filter(|store| store.keeps_tasks())
            .map(|store| {
                Arc::new(SharedTasks::new(
                    store.clone(),
                    self.task_lease,
                    self.shutdown.clone(),
                ))
            });
        // The sessions' records: their owners, and with a shared store what
        // restores them on any instance (`binding`, `shared`).
        let binding = stateful.then(|| {
            let store = self
                .state
                .unwrap_or_else(|| Arc::new(MemoryState::new()) as Arc<dyn StateStore>);
            Arc::new(Binding::new(store, self.idle_timeout, gate.is_some()))
        });
        match &binding {
            Some(binding) if binding.shared() => {
                config.session_store = Some(Arc::new(SharedSessions {
                    dormant: dormant.clone(),
                    binding: binding.clone(),
                }));
            }
            _ => {
                if let Some(dormant) = &dormant {
                    config.session_store = Some(dormant.clone());
                }
            }
        }
        // This server's id in what it publishes to the other instances.
        let origin = relay::origin_id();
        if let (Some(binding), Some(changes)) = (&binding, &changes) {
            if binding.shared() {
                super::changes::relay(
                    changes,
                    binding.store().clone(),
                    origin.clone(),
                    self.shutdown.clone(),
                );
            }
        }
        // A session's messages cross instances with a shared store (`relay`).
        let relay = binding
            .as_ref()
            .filter(|binding| binding.shared())
            .map(|binding| Arc::new(Relay::new(binding.store().clone(), origin)));
        let inner = Arc::new(inner);
        if let Some(relay) = &relay {
            relay.start(Arc::downgrade(&inner), self.shutdown.clone());
        }
        let manager = Arc::new(hibernate::Manager {
            inner,
            dormant,
            binding: binding.clone(),
            relay,
            #[cfg(feature = "telemetry")]
            telemetry: self.telemetry.clone(),
        });
        let sessions = stateful.then(|| {
            Arc::new(sessions::Sessions::new(
                manager.clone(),
                self.max_sessions,
                self.max_pending_sessions,
                self.initialize_timeout,
                hibernation,
            ))
        });
        let factory = self.factory;
        let rmcp = StreamableHttpService::new(move || Ok(factory()), manager, config);
        let app = service::App {
            rmcp: Box::new(move |request| {
                let rmcp = rmcp.clone();
                Box::pin(async move { rmcp.handle(request).await })
            }),
            // No session keeps a task: a stateless server lists no task support
            // (unless a shared store keeps them).
            listings: match stateful || shared_tasks.is_some() {
                true => self.listings,
                false => self.listings.map(ToolListings::without_tasks),
            },
            limit,
            gate: gate.clone(),
            origins: origin::Origins::new(self.origins).with_loopback(local),
            sessions,
            binding,
            shared_tasks,
            drain: self.drain,
            #[cfg(feature = "rate-limit")]
            rate_limit: self
                .rate_limit
                .as_ref()
                .map(|limit| Arc::new(super::rate_limit::Limiter::new(limit))),
            #[cfg(feature = "telemetry")]
            telemetry: self.telemetry,
        };
        let service = McpHttpService { app: Arc::new(app) };
        Ok((service, gate))
    }

    /// Binds `addr` (port 0 picks a free port; see [`BoundHttpServer::local_addr`]).
    pub async fn bind(self, addr: impl ToSocketAddrs) -> Result<BoundHttpServer, Error> {
        if !self.errors.is_empty() {
            return Err(Error::InvalidRouter(self.errors));
        }
        let listener = HttpListener::bind(addr).await?.limits(self.limits.clone());
        let local_addr = listener.local_addr();
        let path: Arc<str> = Arc::from(self.gate.path.as_str());
        let shutdown = self.shutdown.clone();
        let (service, gate) = self.build(Some(local_addr))?;
        Ok(BoundHttpServer::new(
            listener, local_addr, service, gate, path, shutdown,
        ))
    }

    /// Binds `addr` and serves until the process ends.
    pub async fn serve(self, addr: impl ToSocketAddrs) -> Result<(), Error> {
        self.bind(addr).await?.run().await
    }
}
