//! Streamable HTTP serving (feature `http`): rmcp's `StreamableHttpService` on a
//! hyper HTTP/1.1 server, at path [`MCP_PATH`] (`/mcp`).
//!
//! ```no_run
//! # fn router() -> mcpdesc::Router { unimplemented!() }
//! #[tokio::main]
//! async fn main() -> Result<(), mcpdesc::Error> {
//!     // Serves http://127.0.0.1:8080/mcp until the process ends.
//!     mcpdesc::serve_http(router(), "127.0.0.1:8080").await
//! }
//! ```
//!
//! [`HttpServer`] sets the rest: the hosts it answers, JSON responses, the request
//! body limit, stateless mode, and a hand-written handler in place of
//! [`McpServer`]:
//!
//! ```no_run
//! # async fn f(router: mcpdesc::Router) -> Result<(), mcpdesc::Error> {
//! use mcpdesc::http::HttpServer;
//!
//! let server = HttpServer::new(router)
//!     .allowed_hosts(["mcp.example.com", "localhost"]) // behind a load balancer
//!     .max_request_body_bytes(1024 * 1024)
//!     .bind("0.0.0.0:8080")
//!     .await?;
//! eprintln!("serving {}", server.url());
//! server.run().await
//! # }
//! ```
//!
//! # What rmcp does and what this module adds
//!
//! rmcp implements the transport: sessions (`Mcp-Session-Id`), SSE streams, the
//! protocol-version header, the `Host` check against DNS rebinding, `413` for a body
//! over the limit, `404` for an unknown or closed session. This module adds the HTTP
//! server, the path, the defaults below, a request body limit enforced before rmcp
//! reads the body, and the write-back of the `tools/list` members rmcp's `Tool` type
//! drops (`execution`), so an HTTP client sees the same `tools/list` as a stdio one.
//!
//! # Defaults
//!
//! - **Hosts**: loopback only (`localhost`, `127.0.0.1`, `::1`, any port): a request
//!   whose `Host` header names another host gets `403 Forbidden`. A deployment behind
//!   a load balancer or on a public name sets [`HttpServer::allowed_hosts`].
//! - **Body limit**: [`DEFAULT_MAX_REQUEST_BODY_BYTES`] (4 MiB); a larger request
//!   gets `413 Payload Too Large` naming the limit.
//! - **Sessions**: stateful (rmcp's `legacy_session_mode`): `initialize` opens a
//!   session, later requests carry its `Mcp-Session-Id`; a request naming an unknown
//!   or closed session gets `404 Not Found` (the client then initializes again).
//!   Idle sessions close after rmcp's default 5 minutes.
//! - **Responses**: SSE streams (`text/event-stream`); [`HttpServer::json_response`]
//!   prefers plain JSON where rmcp allows it (stateless mode only).
//!
//! # Stateless mode
//!
//! [`HttpServer::stateless`] serves every request on its own, with no session, so
//! any instance behind a load balancer can answer any request. The limits, all from
//! the protocol: before MCP 2026-07-28 a stateless server
//! - gets no `notifications/cancelled` (a notification is not tied to a request
//!   stream; closing the request's HTTP connection still cancels the call),
//! - cannot receive client responses, so it cannot ask for elicitation, sampling or
//!   roots during a call ([`Context`](crate::Context) requests fail),
//! - keeps no `logging/setLevel` (the level of a later request is unknown: log
//!   messages are sent at every level),
//! - learns the protocol version of each request from its `MCP-Protocol-Version`
//!   header only (absent: 2025-03-26).
//!
//! MCP 2026-07-28 has no sessions at all: rmcp serves its requests statelessly in
//! either mode, and its client input, cancellation and log level ride in each
//! request (input-required rounds, the request's own stream, `_meta`).
//!
//! # Why the `execution` write-back happens on the wire
//!
//! rmcp's `StreamableHttpService` takes a bare `ServerHandler`, whose `list_tools`
//! returns rmcp's typed `ListToolsResult`; the handler cannot answer with raw JSON,
//! and the service calls it through rmcp's own dispatch, so the stdio wrapper
//! ([`RestoreDropped`](crate::RestoreDropped)) has no place there. The request and
//! response bodies do pass through this module: a `tools/list` request is noted
//! (its JSON-RPC id and protocol version: the request's `_meta` version, else its
//! `MCP-Protocol-Version` header, else 2025-03-26, the same order rmcp uses), and
//! the matching response, JSON or one event of the SSE stream, is completed with
//! [`ToolListings::restore`] before it leaves. Other responses stream through
//! untouched. The alternatives were worse: a raw-JSON handler path does not exist
//! in rmcp 3.11, and smuggling the members through a typed field would leak into
//! clients of any other transport.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context as TaskContext, Poll};
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http::{header, HeaderMap, Method, Request, Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame, Incoming};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServerHandler;
use serde_json::Value;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio_util::sync::CancellationToken;

use crate::auth::gate::{Gate, GateSettings};
use crate::auth::TransportChoice;
use crate::{Error, McpServer, ProtocolVersion, Router, ToolListings};

/// The path of the MCP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// The default request body limit: 4 MiB (rmcp's default).
pub const DEFAULT_MAX_REQUEST_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The default limit of a request's head (request line and headers): 32 KiB.
pub const DEFAULT_MAX_HEADER_BYTES: usize = 32 * 1024;

pub(crate) type HttpBody = BoxBody<Bytes, Infallible>;

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
    errors: Vec<crate::RouterError>,
    config: StreamableHttpServerConfig,
    /// The router whose security the server enforces before rmcp.
    security: Option<Arc<Router>>,
    gate: GateSettings,
    max_header_bytes: usize,
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
            .field("max_header_bytes", &self.max_header_bytes)
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
        let mut http = HttpServer::with_handler(move || server.new_session())
            .restore_tool_members(listings)
            .with_errors(errors);
        http.security = Some(security);
        http
    }
}

impl<H: ServerHandler> HttpServer<H> {
    /// A server whose sessions are served by handlers from `factory`, called once per
    /// session (once per request in stateless mode). Use it to serve a hand-written
    /// handler that delegates its tools to an [`McpServer`]; give it that server's
    /// listings with [`HttpServer::restore_tool_members`].
    pub fn with_handler(factory: impl Fn() -> H + Send + Sync + 'static) -> Self {
        HttpServer {
            factory: Arc::new(factory),
            listings: None,
            errors: Vec::new(),
            config: StreamableHttpServerConfig::default()
                .with_max_request_body_bytes(DEFAULT_MAX_REQUEST_BODY_BYTES),
            security: None,
            gate: GateSettings::default(),
            max_header_bytes: DEFAULT_MAX_HEADER_BYTES,
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
    pub fn max_header_bytes(mut self, limit: usize) -> Self {
        self.max_header_bytes = limit;
        self
    }

    fn with_errors(mut self, errors: Vec<crate::RouterError>) -> Self {
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

    /// Binds `addr` (port 0 picks a free port; see [`BoundHttpServer::local_addr`]).
    pub async fn bind(self, addr: impl ToSocketAddrs) -> Result<BoundHttpServer, Error> {
        if !self.errors.is_empty() {
            return Err(Error::InvalidRouter(self.errors));
        }
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| Error::Http(format!("cannot listen: {e}")))?;
        let local_addr = listener
            .local_addr()
            .map_err(|e| Error::Http(format!("cannot read the bound address: {e}")))?;
        let shutdown = CancellationToken::new();
        let config = self.config.with_cancellation_token(shutdown.child_token());
        let limit = config.max_request_body_bytes;
        let gate = match self.security {
            Some(router) => Gate::new(router, self.gate, local_addr).map_err(Error::Security)?,
            None => None,
        };
        let factory = self.factory;
        let service = StreamableHttpService::new(
            move || Ok(factory()),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let app = Arc::new(App {
            service: Box::new(move |request| {
                let service = service.clone();
                Box::pin(async move { service.handle(request).await })
            }),
            listings: self.listings,
            limit,
            gate,
            max_header_bytes: self.max_header_bytes,
        });
        Ok(BoundHttpServer {
            listener,
            local_addr,
            app,
            shutdown,
        })
    }

    /// Binds `addr` and serves until the process ends.
    pub async fn serve(self, addr: impl ToSocketAddrs) -> Result<(), Error> {
        self.bind(addr).await?.run().await
    }
}

type Handle = Box<
    dyn Fn(Request<Full<Bytes>>) -> crate::BoxFuture<'static, Response<HttpBody>> + Send + Sync,
>;

/// What each connection calls: the path and body checks, rmcp's service, the
/// `tools/list` write-back.
struct App {
    service: Handle,
    listings: Option<ToolListings>,
    limit: usize,
    /// The description's security, when enforced.
    gate: Option<Gate>,
    max_header_bytes: usize,
}

/// A bound server, ready to [`run`](BoundHttpServer::run).
pub struct BoundHttpServer {
    listener: TcpListener,
    local_addr: SocketAddr,
    app: Arc<App>,
    shutdown: CancellationToken,
}

impl std::fmt::Debug for BoundHttpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoundHttpServer")
            .field("local_addr", &self.local_addr)
            .finish()
    }
}

impl BoundHttpServer {
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The MCP endpoint, `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.local_addr)
    }

    /// A token that stops the server (and closes its sessions) when cancelled.
    pub fn shutdown_token(&self) -> CancellationToken {
        self.shutdown.clone()
    }

    /// Accepts connections until [`BoundHttpServer::shutdown_token`] is cancelled.
    pub async fn run(self) -> Result<(), Error> {
        loop {
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                () = self.shutdown.cancelled() => return Ok(()),
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors and the like: wait, do not spin.
                    eprintln!("mcpdesc: accepting an HTTP connection failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let app = self.app.clone();
            let app_limits = app.max_header_bytes;
            let shutdown = self.shutdown.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request| {
                    let app = app.clone();
                    async move { Ok::<_, Infallible>(app.handle(request).await) }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .max_header_size(app_limits)
                    .serve_connection(TokioIo::new(stream), service);
                tokio::select! {
                    _ = connection => {}
                    () = shutdown.cancelled() => {}
                }
            });
        }
    }
}

impl App {
    async fn handle(&self, request: Request<Incoming>) -> Response<HttpBody> {
        if let Some(gate) = &self.gate {
            if gate.is_metadata_path(request.uri().path()) {
                return gate.metadata(request.method(), request.headers());
            }
        }
        if request.uri().path() != MCP_PATH {
            return text(
                StatusCode::NOT_FOUND,
                format!("Not Found: the MCP endpoint is {MCP_PATH}"),
            );
        }
        let (mut parts, body) = request.into_parts();
        // Authentication comes first: before the body is read, before rmcp looks at
        // the session.
        let security = match &self.gate {
            Some(gate) => match gate.authenticate(&mut parts).await {
                Ok(security) => Some(security),
                Err(refused) => return *refused,
            },
            None => None,
        };
        let body = match read_body(&parts.headers, body, self.limit).await {
            Ok(body) => body,
            Err(response) => return response,
        };
        if let (Some(gate), Some(security)) = (&self.gate, security) {
            if let Err(refused) = gate.authorize(&parts.headers, &body, &security) {
                return *refused;
            }
            parts.extensions.insert(security);
        }
        let listing = match parts.method {
            Method::POST => self
                .listings
                .as_ref()
                .and_then(|_| tools_list_request(&parts.headers, &body))
                .or_else(|| initialize_request(&body)),
            _ => None,
        };
        // MCP 2025-11-25 tasks through rmcp (`tasks::wire`), after the gate saw the
        // request as the client sent it.
        let body = match crate::tasks::wire::inbound(&body) {
            Some(rewritten) => Bytes::from(rewritten),
            None => body,
        };
        let response = (self.service)(Request::from_parts(parts, Full::new(body))).await;
        match listing {
            Some(target) => restore_in_response(response, target, self.listings.clone()).await,
            None => response,
        }
    }
}

fn text(status: StatusCode, message: String) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(Bytes::from(message)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

fn too_large(limit: usize) -> Response<HttpBody> {
    text(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("Payload Too Large: the request body exceeds the limit of {limit} bytes"),
    )
}

/// The whole request body, at most `limit` bytes.
async fn read_body(
    headers: &HeaderMap,
    mut body: Incoming,
    limit: usize,
) -> Result<Bytes, Response<HttpBody>> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large(limit));
    }
    let mut collected = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            text(
                StatusCode::BAD_REQUEST,
                format!("Bad Request: the request body could not be read: {e}"),
            )
        })?;
        if let Ok(data) = frame.into_data() {
            if data.len() > limit.saturating_sub(collected.len()) {
                return Err(too_large(limit));
            }
            collected.extend_from_slice(&data);
        }
    }
    Ok(collected.freeze())
}

/// A `tools/list` request whose answer needs the write-back, or an `initialize`
/// whose answer may carry the `tasks` capability (`tasks::wire::outbound`).
#[derive(Debug, Clone, PartialEq)]
struct ListingRequest {
    id: Value,
    version: ProtocolVersion,
    initialize: bool,
}

/// The id of an `initialize` request body.
fn initialize_request(body: &[u8]) -> Option<ListingRequest> {
    if !body.windows(10).any(|w| w == b"initialize") {
        return None;
    }
    let message: Value = serde_json::from_slice(body).ok()?;
    if message.get("method")?.as_str()? != "initialize" {
        return None;
    }
    Some(ListingRequest {
        id: message.get("id")?.clone(),
        version: ProtocolVersion::V2025_11_25,
        initialize: true,
    })
}

/// The id and protocol version of a `tools/list` request body: the version the
/// request's `_meta` names, else its `MCP-Protocol-Version` header, else 2025-03-26
/// (rmcp's order and default).
fn tools_list_request(headers: &HeaderMap, body: &[u8]) -> Option<ListingRequest> {
    // Most requests are not listings: skip parsing them.
    if !body.windows(10).any(|w| w == b"tools/list") {
        return None;
    }
    let message: Value = serde_json::from_slice(body).ok()?;
    if message.get("method")?.as_str()? != "tools/list" {
        return None;
    }
    let id = message.get("id")?.clone();
    let from_meta = message
        .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
        .and_then(Value::as_str);
    let from_header = headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok());
    let version = match from_meta.or(from_header) {
        Some(name) => name.parse().ok()?,
        None => ProtocolVersion::V2025_03_26,
    };
    Some(ListingRequest {
        id,
        version,
        initialize: false,
    })
}

/// Completes the answer to `target` in a JSON body or an SSE stream.
async fn restore_in_response(
    response: Response<HttpBody>,
    target: ListingRequest,
    listings: Option<ToolListings>,
) -> Response<HttpBody> {
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let (mut parts, body) = response.into_parts();
    if content_type.starts_with("application/json") {
        // A JSON answer is one finished message.
        let bytes = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(never) => match never {},
        };
        let bytes = restore_message(&bytes, &target, listings.as_ref()).unwrap_or(bytes);
        parts.headers.remove(header::CONTENT_LENGTH);
        Response::from_parts(parts, Full::new(bytes).boxed())
    } else if content_type.starts_with("text/event-stream") {
        let body = SseRestore {
            inner: body,
            buffer: BytesMut::new(),
            target: Some((target, listings)),
        };
        Response::from_parts(parts, body.boxed())
    } else {
        Response::from_parts(parts, body)
    }
}

/// The JSON-RPC message `bytes` completed by [`ToolListings::restore`] when it
/// answers `target`; `None` when it is another message or nothing was added.
fn restore_message(
    bytes: &[u8],
    target: &ListingRequest,
    listings: Option<&ToolListings>,
) -> Option<Bytes> {
    let mut message: Value = serde_json::from_slice(bytes).ok()?;
    if message.get("id") != Some(&target.id) {
        return None;
    }
    if target.initialize {
        return crate::tasks::wire::outbound(bytes).map(Bytes::from);
    }
    let result = message.get_mut("result")?;
    if !listings?.restore(target.version, result) {
        return None;
    }
    serde_json::to_vec(&message).ok().map(Bytes::from)
}

/// An SSE body in which the event answering a `tools/list` request is completed;
/// every other event passes through unchanged, and once that event is seen the rest
/// of the stream passes through as it comes.
struct SseRestore {
    inner: HttpBody,
    /// Bytes of events not yet complete.
    buffer: BytesMut,
    /// The request to answer; `None` once done.
    target: Option<(ListingRequest, Option<ToolListings>)>,
}

impl SseRestore {
    /// The complete events in the buffer, the answering one completed; `None` when
    /// no event is complete yet.
    fn complete_events(&mut self) -> Option<Bytes> {
        // rmcp ends every event with a blank line ("\n\n").
        let end = self.buffer.windows(2).rposition(|w| w == b"\n\n")? + 2;
        let region = self.buffer.split_to(end);
        let mut out = BytesMut::with_capacity(region.len());
        let mut rest: &[u8] = &region;
        while let Some(at) = rest.windows(2).position(|w| w == b"\n\n") {
            // The event's lines, each with its "\n".
            let (event, next) = (&rest[..=at], &rest[at + 2..]);
            rest = next;
            for line in event.split_inclusive(|b| *b == b'\n') {
                match self.restore_line(line) {
                    Some(restored) => out.extend_from_slice(&restored),
                    None => out.extend_from_slice(line),
                }
            }
            out.extend_from_slice(b"\n");
        }
        Some(out.freeze())
    }

    /// A `data:` line carrying the answer, completed (and the target done); `None`
    /// for any other line.
    fn restore_line(&mut self, line: &[u8]) -> Option<Vec<u8>> {
        let (target, listings) = self.target.as_ref()?;
        let data = line.strip_prefix(b"data:")?;
        let data = data.strip_prefix(b" ").unwrap_or(data).trim_ascii_end();
        let message = restore_message(data, target, listings.as_ref())?;
        self.target = None;
        let mut restored = Vec::with_capacity(message.len() + 7);
        restored.extend_from_slice(b"data: ");
        restored.extend_from_slice(&message);
        restored.push(b'\n');
        Some(restored)
    }
}

impl Body for SseRestore {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = &mut *self;
        loop {
            if this.target.is_none() {
                if !this.buffer.is_empty() {
                    let rest = this.buffer.split().freeze();
                    return Poll::Ready(Some(Ok(Frame::data(rest))));
                }
                return Pin::new(&mut this.inner).poll_frame(cx);
            }
            match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
                None => {
                    // The stream ended before the answer: pass on what is left.
                    this.target = None;
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => {
                        this.buffer.extend_from_slice(&data);
                        if let Some(events) = this.complete_events() {
                            return Poll::Ready(Some(Ok(Frame::data(events))));
                        }
                    }
                    Err(other) => return Poll::Ready(Some(Ok(other))),
                },
                Some(Err(never)) => match never {},
            }
        }
    }
}
