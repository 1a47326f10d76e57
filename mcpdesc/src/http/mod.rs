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
//! [`McpServer`](crate::server::adapter::mcp_server::McpServer):
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
//! - **Origins**: a request with an `Origin` header (a browser's) gets `403` unless
//!   the origin is allowed ([`HttpServer::allowed_origins`]). A local server, bound
//!   to a loopback address (or, not binding itself, answering loopback hosts only),
//!   also allows every loopback origin (`http://localhost:PORT`,
//!   `http://127.0.0.1:PORT`, `http://[::1]:PORT`): DNS rebinding comes from foreign
//!   names, and local tools such as the MCP Inspector send these.
//! - **Body limit**: [`DEFAULT_MAX_REQUEST_BODY_BYTES`] (4 MiB); a larger request
//!   gets `413 Payload Too Large` naming the limit.
//! - **Sessions**: stateful (rmcp's `legacy_session_mode`): `initialize` opens a
//!   session, later requests carry its `Mcp-Session-Id`; a request naming an unknown
//!   or closed session gets `404 Not Found` (the client then initializes again).
//!   Idle sessions close after [`DEFAULT_SESSION_IDLE_TIMEOUT`] (5 minutes); after
//!   [`DEFAULT_HIBERNATE_AFTER`] (5 s) of idleness a session hibernates (see
//!   [`HttpServer::hibernate_after`]).
//! - **Rate limit**: none; [`HttpServer::rate_limit`] (feature `rate-limit`) sets a
//!   per-client limit answered with `429` and `Retry-After` (see `RateLimit`).
//! - **Health**: none of its own; `HttpServer::health_routes` (feature `axum`)
//!   gives `/healthz` (liveness, `200` while the process serves) and `/readyz`
//!   (`503` once a drain starts) to merge into an application.
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
//!   roots during a call ([`Context`](crate::server::context::Context) requests fail),
//! - keeps no `logging/setLevel` (the level of a later request is unknown: log
//!   messages are sent at every level),
//! - learns the protocol version of each request from its `MCP-Protocol-Version`
//!   header only (absent: 2025-03-26),
//! - keeps no MCP 2025-11-25 task: [`McpServer`] advertises no `tasks` capability,
//!   lists no `execution.taskSupport`, calls every tool plainly (a `required` one
//!   too) and answers a task-augmented call as the plain call, as a server without
//!   the capability must; `tasks/*` are `-32601`. It learns the mode from a mark
//!   this module leaves in each request's `http::request::Parts` extensions, which
//!   rmcp passes to the handler.
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
//! ([`RestoreDropped`]) has no place there. The request and
//! response bodies do pass through this module: a `tools/list` request is noted
//! (its JSON-RPC id and protocol version: the request's `_meta` version, else its
//! `MCP-Protocol-Version` header, else 2025-03-26, the same order rmcp uses), and
//! the matching response, JSON or one event of the SSE stream, is completed with
//! [`ToolListings::restore`] before it leaves. Other responses stream through
//! untouched. The alternatives were worse: a raw-JSON handler path does not exist
//! in rmcp 3.11, and smuggling the members through a typed field would leak into
//! clients of any other transport.
//!
//! [`McpServer`]: crate::server::adapter::mcp_server::McpServer
//! [`RestoreDropped`]: crate::server::adapter::mcp_server::RestoreDropped
//! [`ToolListings::restore`]: crate::server::adapter::listing::ToolListings::restore

mod binding;
mod body;
mod bound;
mod changes;
mod defaults;
mod dormant;
mod drain;
mod events;
#[cfg(feature = "axum")]
mod health;
mod hibernate;
mod listener;
mod observe;
mod origin;
mod peer;
mod probe;
#[cfg(feature = "rate-limit")]
mod rate_limit;
pub(crate) mod reading;
mod relay;
mod restore;
pub(crate) mod security;
mod server;
mod service;
mod sessions;
mod shared;

pub use body::HttpBody;
pub use bound::BoundHttpServer;
pub use defaults::{DEFAULT_MAX_REQUEST_BODY_BYTES, MCP_PATH};
pub use drain::{Drain, DrainReport};
#[cfg(feature = "axum")]
pub use health::{health_routes, HEALTHZ_PATH, READYZ_PATH};
pub use listener::{
    ConnectionLimits, HttpListener, DEFAULT_HEADER_READ_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_HEADER_BYTES,
};
#[cfg(feature = "rate-limit")]
pub use rate_limit::{RateLimit, RateLimitClient};
pub use server::{serve_http, HttpServer};
pub use service::McpHttpService;
pub use sessions::{
    DEFAULT_HIBERNATE_AFTER, DEFAULT_INITIALIZE_TIMEOUT, DEFAULT_MAX_PENDING_SESSIONS,
    DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_TIMEOUT,
};
