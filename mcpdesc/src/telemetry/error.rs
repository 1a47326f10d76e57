//! What can go wrong setting telemetry up or flushing it.

/// A telemetry error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TelemetryError {
    /// The OTLP exporters could not be built (a malformed endpoint URL, say), or
    /// an export failed while flushing or shutting down.
    #[error("OTLP export: {0}")]
    Otlp(String),
}
