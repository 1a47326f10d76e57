//! [`Telemetry`]: the metrics, the spans and their export, shared by every clone.

use std::fmt;
use std::sync::Arc;

use opentelemetry::global::{self, BoxedTracer};
use opentelemetry::metrics::MeterProvider;
use opentelemetry::trace::TracerProvider;

use super::error::TelemetryError;
use super::metrics::Metrics;
use super::operation::Operation;
use super::otlp::{Endpoint, Otlp, OTEL_EXPORTER_OTLP_ENDPOINT};
use super::sessions::SessionClock;
use super::spans::Spans;

/// The instrumentation scope's name on every span and instrument.
const SCOPE: &str = "mcpdesc";

/// Metrics and spans of an MCP HTTP endpoint in the OpenTelemetry semantic
/// conventions for MCP (see the module docs). Give a clone to
/// `HttpServer::telemetry`; serve its Prometheus text with
/// [`Telemetry::prometheus_text`] (or `HttpServer::metrics_routes`, feature
/// `axum`). Cheap to clone: clones share everything.
#[derive(Clone)]
pub struct Telemetry {
    inner: Arc<Inner>,
}

struct Inner {
    metrics: Arc<Metrics>,
    spans: Spans,
    sessions: SessionClock,
    otlp: Option<Otlp>,
}

impl fmt::Debug for Telemetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Telemetry")
            .field("exports_otlp", &self.exports_otlp())
            .finish_non_exhaustive()
    }
}

impl Default for Telemetry {
    fn default() -> Self {
        Telemetry::new()
    }
}

impl Telemetry {
    /// Prometheus metrics, and spans and OpenTelemetry instruments on the
    /// application's global providers (`opentelemetry::global`: no-ops unless the
    /// application installed its own).
    pub fn new() -> Telemetry {
        Telemetry::build(
            &global::meter_provider().meter(SCOPE),
            global::tracer(SCOPE),
            None,
        )
    }

    /// As [`Telemetry::new`], and when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (and
    /// not empty), OTLP export over HTTP of the spans and metrics to it; the
    /// exporters honour the other `OTEL_EXPORTER_OTLP_*` variables (per-signal
    /// endpoints, headers, timeout) and `OTEL_SERVICE_NAME` overrides
    /// `service_name`. Errors when the exporters cannot be built from the
    /// variables.
    pub fn from_env(service_name: &str) -> Result<Telemetry, TelemetryError> {
        match std::env::var(OTEL_EXPORTER_OTLP_ENDPOINT) {
            Ok(endpoint) if !endpoint.trim().is_empty() => {
                Telemetry::exporting(Otlp::new(Endpoint::Environment, service_name)?)
            }
            _ => Ok(Telemetry::new()),
        }
    }

    /// Prometheus metrics, and OTLP export over HTTP to the collector at
    /// `endpoint`, a base URL (`http://localhost:4318`; spans go to
    /// `{endpoint}/v1/traces`, metrics to `{endpoint}/v1/metrics`), as the
    /// service `service_name`.
    pub fn with_otlp(endpoint: &str, service_name: &str) -> Result<Telemetry, TelemetryError> {
        Telemetry::exporting(Otlp::new(Endpoint::Base(endpoint), service_name)?)
    }

    fn exporting(otlp: Otlp) -> Result<Telemetry, TelemetryError> {
        let meter = otlp.metrics.meter(SCOPE);
        let tracer = BoxedTracer::new(Box::new(otlp.traces.tracer(SCOPE)));
        Ok(Telemetry::build(&meter, tracer, Some(otlp)))
    }

    fn build(
        meter: &opentelemetry::metrics::Meter,
        tracer: BoxedTracer,
        otlp: Option<Otlp>,
    ) -> Telemetry {
        Telemetry {
            inner: Arc::new(Inner {
                metrics: Metrics::new(meter),
                spans: Spans::new(tracer),
                sessions: SessionClock::default(),
                otlp,
            }),
        }
    }

    /// Whether spans and metrics are exported over OTLP by this value (rather
    /// than to the global providers).
    pub fn exports_otlp(&self) -> bool {
        self.inner.otlp.is_some()
    }

    /// The metrics in the OpenMetrics text format (which Prometheus scrapes; its
    /// content type is `PROMETHEUS_CONTENT_TYPE`).
    pub fn prometheus_text(&self) -> String {
        self.inner.metrics.encode()
    }

    /// Exports the buffered spans and metrics now (OTLP only; blocks until the
    /// exporters answer: call it from a blocking context).
    pub fn force_flush(&self) -> Result<(), TelemetryError> {
        match &self.inner.otlp {
            Some(otlp) => otlp.flush(),
            None => Ok(()),
        }
    }

    /// Exports what is buffered and stops the OTLP exporters (at the end of a
    /// drain; blocks as [`Telemetry::force_flush`] does).
    pub fn shutdown(&self) -> Result<(), TelemetryError> {
        match &self.inner.otlp {
            Some(otlp) => otlp.shutdown(),
            None => Ok(()),
        }
    }

    /// Records a finished operation: its histogram sample and its span.
    pub(crate) fn operation(&self, operation: &Operation<'_>) {
        self.inner.metrics.operation(operation);
        self.inner.spans.operation(operation);
    }

    /// Notes that session `id` opened.
    pub(crate) fn session_opened(&self, id: &str, version: Option<&str>) {
        self.inner.sessions.opened(id, version);
    }

    /// Records the end of session `id`, when it was opened here.
    pub(crate) fn session_ended(&self, id: &str) {
        if let Some((duration, version)) = self.inner.sessions.ended(id) {
            self.inner.metrics.session(duration, version.as_deref());
        }
    }
}
