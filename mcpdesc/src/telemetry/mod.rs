//! Telemetry of an MCP HTTP endpoint in the OpenTelemetry semantic conventions for
//! MCP (feature `telemetry`; the conventions' status is "development").
//!
//! Give a [`Telemetry`] to `HttpServer::telemetry`, and every MCP request or
//! notification the endpoint answers is recorded:
//!
//! - **Metrics**: `mcp.server.operation.duration` (histogram, seconds) with
//!   `mcp.method.name`, `gen_ai.tool.name` (a `tools/call`) or `gen_ai.prompt.name`
//!   (a `prompts/get`), `error.type` on failure, `mcp.protocol.version` and
//!   `network.transport` (`tcp`); `mcp.server.session.duration` (histogram,
//!   seconds) when a session opened on this instance ends (a `DELETE`, the idle or
//!   handshake timeout, shutdown), with `mcp.protocol.version` and
//!   `network.transport`. Buckets: the conventions' advice, 10 ms to 300 s.
//!   `error.type` is the JSON-RPC error code (`-32602`), `tool_error` for a tool
//!   result with `isError: true`, the HTTP status of a request the endpoint
//!   refused after reading its method (`429`, `403`), `no_answer` when the client
//!   left before the answer. The session id, request id and subject are on spans
//!   only: as labels they would make one series per session.
//! - **Prometheus**: [`Telemetry::prometheus_text`], and `metrics_routes`
//!   (feature `axum`) at `METRICS_PATH` (`/metrics`), with the names as
//!   Prometheus spells them: `mcp_server_operation_duration_seconds` with the
//!   labels `mcp_method_name`, `gen_ai_tool_name`, `gen_ai_prompt_name`,
//!   `error_type`, `mcp_protocol_version`, `network_transport`;
//!   `mcp_server_session_duration_seconds`. The text is written by the Prometheus
//!   project's own Rust client library (`prometheus-client`), in the OpenMetrics
//!   format.
//! - **Spans**: one `SERVER` span per operation named `{mcp.method.name} {target}`
//!   (`tools/call get_weather`), continuing the caller's trace when the request's
//!   `params._meta` carries a W3C `traceparent`, with `mcp.session.id`,
//!   `jsonrpc.request.id` and the authenticated principal's subject as `user.id`.
//!   Never an argument, a result or a credential; nor a resource URI (a
//!   template's URI carries argument values).
//! - **Export**: to the application's global OpenTelemetry providers
//!   ([`Telemetry::new`]: nothing leaves the process unless the application
//!   installed exporting providers), or over OTLP/HTTP (protobuf) when
//!   `OTEL_EXPORTER_OTLP_ENDPOINT` is set ([`Telemetry::from_env`]) or to a given
//!   collector ([`Telemetry::with_otlp`]). Spans are batched (every 5 s, or at
//!   [`Telemetry::force_flush`] / [`Telemetry::shutdown`]); metrics are exported
//!   every 60 s (`OTEL_METRIC_EXPORT_INTERVAL`).
//!
//! ```no_run
//! # #[cfg(feature = "axum")]
//! # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
//! use mcpdesc::http::HttpServer;
//! use mcpdesc::telemetry::Telemetry;
//!
//! let telemetry = Telemetry::from_env("my-server")?;
//! let mut server = HttpServer::new(router).telemetry(telemetry.clone());
//! let app = server.metrics_routes().merge(server.into_router()?);
//! # let _ = app; Ok(()) }
//! ```

mod error;
mod handle;
mod metrics;
pub(crate) mod names;
pub(crate) mod operation;
mod otlp;
#[cfg(feature = "axum")]
mod prometheus;
mod sessions;
mod spans;

pub use error::TelemetryError;
pub use handle::Telemetry;
pub use metrics::PROMETHEUS_CONTENT_TYPE;
pub use otlp::OTEL_EXPORTER_OTLP_ENDPOINT;
#[cfg(feature = "axum")]
pub use prometheus::{metrics_routes, METRICS_PATH};
