//! The Prometheus scrape endpoint, `GET /metrics`, as an axum router (feature
//! `axum`).

use axum::http::header;
use axum::routing::get;

use super::handle::Telemetry;
use super::metrics::PROMETHEUS_CONTENT_TYPE;

/// The path of the scrape endpoint.
pub const METRICS_PATH: &str = "/metrics";

/// `GET /metrics` (and `HEAD`) answering `telemetry`'s Prometheus text, as an axum
/// router to merge next to `HttpServer::into_router` (`HttpServer::metrics_routes`
/// is this function on the server's own telemetry). The answer carries
/// `Cache-Control: no-store`; it reads the histograms under their locks, briefly.
///
/// ```no_run
/// # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
/// use mcpdesc::telemetry::{metrics_routes, Telemetry};
///
/// let telemetry = Telemetry::from_env("my-server")?;
/// let server = mcpdesc::http::HttpServer::new(router).telemetry(telemetry.clone());
/// let app = metrics_routes(telemetry).merge(server.into_router()?);
/// # Ok(()) }
/// ```
pub fn metrics_routes(telemetry: Telemetry) -> axum::Router {
    axum::Router::new().route(
        METRICS_PATH,
        get(move || {
            let text = telemetry.prometheus_text();
            async move {
                (
                    [
                        (header::CONTENT_TYPE, PROMETHEUS_CONTENT_TYPE),
                        (header::CACHE_CONTROL, "no-store"),
                    ],
                    text,
                )
            }
        }),
    )
}
