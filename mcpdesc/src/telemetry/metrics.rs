//! The two duration histograms of the conventions, recorded twice: into a
//! Prometheus registry (`prometheus-client`, scraped at `/metrics`) and into
//! OpenTelemetry instruments (exported over OTLP, or to the application's global
//! meter provider).
//!
//! Prometheus spells the names its own way: dots become underscores and the unit
//! is a suffix, so `mcp.server.operation.duration` (unit `s`) is
//! `mcp_server_operation_duration_seconds`, with the labels `mcp_method_name`,
//! `gen_ai_tool_name`, `gen_ai_prompt_name`, `error_type`, `mcp_protocol_version`
//! and `network_transport` (a label absent from an operation is left out).

use std::sync::Arc;
use std::time::Duration;

use opentelemetry::metrics::{Histogram as OtelHistogram, Meter};
use opentelemetry::KeyValue;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};

use super::names;
use super::operation::{Operation, Target};

/// The content type of the Prometheus text (`Telemetry::prometheus_text`): the
/// OpenMetrics text format, which Prometheus scrapes natively.
pub const PROMETHEUS_CONTENT_TYPE: &str =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// A Prometheus label set: `(name, value)` pairs in a fixed order.
type Labels = Vec<(&'static str, String)>;

/// A histogram family with the conventions' buckets.
type Durations = Family<Labels, Histogram, fn() -> Histogram>;

fn histogram() -> Histogram {
    Histogram::new(names::DURATION_BUCKETS)
}

/// The instruments of one `Telemetry`.
pub(crate) struct Metrics {
    registry: Registry,
    operations: Durations,
    sessions: Durations,
    otel_operations: OtelHistogram<f64>,
    otel_sessions: OtelHistogram<f64>,
}

impl Metrics {
    /// The instruments, registered in a new Prometheus registry and created on
    /// `meter`.
    pub(crate) fn new(meter: &Meter) -> Arc<Metrics> {
        let mut registry = Registry::default();
        let operations = Durations::new_with_constructor(histogram as fn() -> Histogram);
        let sessions = Durations::new_with_constructor(histogram as fn() -> Histogram);
        registry.register_with_unit(
            "mcp_server_operation_duration",
            "MCP request or notification duration as observed on the receiver",
            Unit::Seconds,
            operations.clone(),
        );
        registry.register_with_unit(
            "mcp_server_session_duration",
            "The duration of the MCP session as observed on the MCP server",
            Unit::Seconds,
            sessions.clone(),
        );
        let otel = |name: &'static str, description: &'static str| {
            meter
                .f64_histogram(name)
                .with_unit("s")
                .with_description(description)
                .with_boundaries(names::DURATION_BUCKETS.to_vec())
                .build()
        };
        Arc::new(Metrics {
            registry,
            operations,
            sessions,
            otel_operations: otel(
                names::OPERATION_DURATION,
                "MCP request or notification duration as observed on the receiver",
            ),
            otel_sessions: otel(
                names::SESSION_DURATION,
                "The duration of the MCP session as observed on the MCP server",
            ),
        })
    }

    /// Records one operation (its attributes are bounded: no session, request id
    /// or subject).
    pub(crate) fn operation(&self, operation: &Operation<'_>) {
        let mut labels: Vec<(&'static str, String)> =
            vec![(names::METHOD_NAME, operation.method.to_owned())];
        match operation.target {
            Target::Tool(name) => labels.push((names::TOOL_NAME, name.to_owned())),
            Target::Prompt(name) => labels.push((names::PROMPT_NAME, name.to_owned())),
            Target::None => {}
        }
        if let Some(error) = &operation.error_type {
            labels.push((names::ERROR_TYPE, error.clone()));
        }
        if let Some(version) = operation.protocol_version {
            labels.push((names::PROTOCOL_VERSION, version.to_owned()));
        }
        labels.push((names::NETWORK_TRANSPORT, names::TCP.to_owned()));
        self.record(
            &self.operations,
            &self.otel_operations,
            labels,
            operation.duration,
        );
    }

    /// Records the end of a session that lasted `duration`.
    pub(crate) fn session(&self, duration: Duration, protocol_version: Option<&str>) {
        let mut labels: Vec<(&'static str, String)> = Vec::new();
        if let Some(version) = protocol_version {
            labels.push((names::PROTOCOL_VERSION, version.to_owned()));
        }
        labels.push((names::NETWORK_TRANSPORT, names::TCP.to_owned()));
        self.record(&self.sessions, &self.otel_sessions, labels, duration);
    }

    fn record(
        &self,
        family: &Durations,
        otel: &OtelHistogram<f64>,
        labels: Vec<(&'static str, String)>,
        duration: Duration,
    ) {
        let seconds = duration.as_secs_f64();
        let attributes: Vec<KeyValue> = labels
            .iter()
            .map(|(name, value)| KeyValue::new(*name, value.clone()))
            .collect();
        otel.record(seconds, &attributes);
        // Prometheus label names have no dots.
        let labels: Labels = labels
            .into_iter()
            .map(|(name, value)| (prometheus_name(name), value))
            .collect();
        family.get_or_create(&labels).observe(seconds);
    }

    /// The registry in the OpenMetrics text format.
    pub(crate) fn encode(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// The Prometheus spelling of an attribute name of [`names`].
fn prometheus_name(name: &'static str) -> &'static str {
    match name {
        names::METHOD_NAME => "mcp_method_name",
        names::TOOL_NAME => "gen_ai_tool_name",
        names::PROMPT_NAME => "gen_ai_prompt_name",
        names::ERROR_TYPE => "error_type",
        names::PROTOCOL_VERSION => "mcp_protocol_version",
        names::NETWORK_TRANSPORT => "network_transport",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_names_have_a_prometheus_spelling() {
        for name in [
            names::METHOD_NAME,
            names::TOOL_NAME,
            names::PROMPT_NAME,
            names::ERROR_TYPE,
            names::PROTOCOL_VERSION,
            names::NETWORK_TRANSPORT,
        ] {
            assert_eq!(prometheus_name(name), name.replace('.', "_"));
        }
    }
}
