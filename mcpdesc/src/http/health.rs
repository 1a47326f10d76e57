//! Health probes for an orchestrator or a load balancer (feature `axum`):
//! `GET /healthz` (liveness) and `GET /readyz` (readiness), answered from the
//! endpoint's [`Drain`] switch.

use axum::http::StatusCode;
use axum::routing::get;

use super::drain::Drain;

/// The path of the liveness probe: `200 ok` while the process serves.
pub const HEALTHZ_PATH: &str = "/healthz";
/// The path of the readiness probe: `200 ready`, `503 draining` once a drain has
/// started.
pub const READYZ_PATH: &str = "/readyz";

/// `GET /healthz` and `GET /readyz` (and `HEAD`) as an axum router to merge into an
/// application, following the endpoint that `drain` switches off (`HttpServer::drain`,
/// [`McpHttpService::drain`](super::service::McpHttpService::drain);
/// `HttpServer::health_routes` is this function on its own switch):
///
/// - `/healthz` answers `200 ok` as long as the process answers at all, draining
///   included: a liveness probe that failed during a drain would have the instance
///   killed before its requests in flight finish.
/// - `/readyz` answers `200 ready`, and `503 Service Unavailable` with the body
///   `draining` from the moment [`Drain::shutdown`] starts, so that a load
///   balancer sends no new work to an instance that would refuse it.
///
/// Both answer `text/plain` and carry `Cache-Control: no-store`; they touch no
/// session and no MCP state, so they stay cheap at any probe rate.
///
/// ```no_run
/// # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
/// let server = mcpdesc::http::HttpServer::new(router);
/// let app = server
///     .health_routes()
///     .merge(server.into_router()?);
/// # Ok(()) }
/// ```
pub fn health_routes(drain: Drain) -> axum::Router {
    axum::Router::new()
        .route(HEALTHZ_PATH, get(|| async { probe(StatusCode::OK, "ok") }))
        .route(
            READYZ_PATH,
            get(move || {
                let draining = drain.is_draining();
                async move {
                    if draining {
                        probe(StatusCode::SERVICE_UNAVAILABLE, "draining")
                    } else {
                        probe(StatusCode::OK, "ready")
                    }
                }
            }),
        )
}

/// A probe's answer; `no-store` keeps a caching proxy from answering for the
/// instance.
fn probe(status: StatusCode, body: &'static str) -> impl axum::response::IntoResponse {
    (
        status,
        [(axum::http::header::CACHE_CONTROL, "no-store")],
        body,
    )
}
