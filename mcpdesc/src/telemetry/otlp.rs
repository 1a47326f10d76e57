//! OTLP export over HTTP (protobuf): a tracer provider with a batch span
//! processor and a meter provider with a periodic reader, both on
//! `opentelemetry-otlp`'s exporters with reqwest's blocking client (the SDK runs
//! the batch processor and the reader on threads of their own, so no tokio
//! runtime is needed, and a process without one still exports).

use opentelemetry_otlp::{MetricExporter, SpanExporter, WithExportConfig};
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::trace::SdkTracerProvider;
use opentelemetry_sdk::Resource;

use super::error::TelemetryError;

/// The variable naming the OTLP endpoint's base URL (`http://collector:4318`);
/// the exporters append `/v1/traces` and `/v1/metrics`.
pub const OTEL_EXPORTER_OTLP_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";

/// The providers that export.
pub(crate) struct Otlp {
    pub(crate) traces: SdkTracerProvider,
    pub(crate) metrics: SdkMeterProvider,
}

/// Where to send.
pub(crate) enum Endpoint<'a> {
    /// This base URL: `{base}/v1/traces` and `{base}/v1/metrics`.
    Base(&'a str),
    /// What the `OTEL_EXPORTER_OTLP_*` variables say (the exporters read them:
    /// the base endpoint, the per-signal ones, headers, timeouts).
    Environment,
}

impl Otlp {
    /// Exporting providers for `endpoint`, the resource named `service_name`
    /// (unless `OTEL_SERVICE_NAME` says otherwise).
    pub(crate) fn new(endpoint: Endpoint<'_>, service_name: &str) -> Result<Otlp, TelemetryError> {
        let mut spans = SpanExporter::builder().with_http();
        let mut metrics = MetricExporter::builder().with_http();
        if let Endpoint::Base(base) = endpoint {
            let base = base.trim_end_matches('/');
            spans = spans.with_endpoint(format!("{base}/v1/traces"));
            metrics = metrics.with_endpoint(format!("{base}/v1/metrics"));
        }
        let spans = spans
            .build()
            .map_err(|e| TelemetryError::Otlp(e.to_string()))?;
        let metrics = metrics
            .build()
            .map_err(|e| TelemetryError::Otlp(e.to_string()))?;
        let resource = match std::env::var("OTEL_SERVICE_NAME") {
            Ok(name) if !name.is_empty() => Resource::builder().build(),
            _ => Resource::builder()
                .with_service_name(service_name.to_owned())
                .build(),
        };
        Ok(Otlp {
            traces: SdkTracerProvider::builder()
                .with_resource(resource.clone())
                .with_batch_exporter(spans)
                .build(),
            metrics: SdkMeterProvider::builder()
                .with_resource(resource)
                .with_periodic_exporter(metrics)
                .build(),
        })
    }

    /// Exports what is buffered now.
    pub(crate) fn flush(&self) -> Result<(), TelemetryError> {
        let traces = self.traces.force_flush();
        let metrics = self.metrics.force_flush();
        traces
            .and(metrics)
            .map_err(|e| TelemetryError::Otlp(e.to_string()))
    }

    /// Exports what is buffered and stops the exporters.
    pub(crate) fn shutdown(&self) -> Result<(), TelemetryError> {
        let traces = self.traces.shutdown();
        let metrics = self.metrics.shutdown();
        traces
            .and(metrics)
            .map_err(|e| TelemetryError::Otlp(e.to_string()))
    }
}
