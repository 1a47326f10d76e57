//! What a handler tells the client while it runs: progress (`notifications/progress`)
//! and log messages (`notifications/message`), and the [`Notifier`] they go through.
//!
//! `Context::progress` and
//! `Context::log` decide *whether* to send (a progress token
//! was given, the value increased, the level is wanted); a [`Notifier`] only sends.

use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::protocol::error::ClientError;
use crate::protocol::futures::BoxFuture;
use crate::protocol::version::ProtocolVersion;

/// The severity of a log message: the RFC 5424 levels MCP uses, least severe first,
/// so levels compare with `<`.
///
/// ```
/// use mcpdesc::LogLevel;
///
/// assert!(LogLevel::Warning > LogLevel::Info);
/// assert_eq!(serde_json::to_value(LogLevel::Warning).unwrap(), "warning");
/// assert_eq!("error".parse::<LogLevel>().unwrap(), LogLevel::Error);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// General information.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warning conditions.
    Warning,
    /// Error conditions.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, least severe first.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The wire name, e.g. `"warning"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl std::fmt::Display for LogLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for LogLevel {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        LogLevel::ALL
            .into_iter()
            .find(|level| level.as_str() == text)
            .ok_or_else(|| format!("unknown log level `{text}`"))
    }
}

/// Sends notifications to the client of a call.
///
/// The `rmcp` feature implements it over the live connection; a test can record:
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use mcpdesc::{BoxFuture, ClientError, Context, Notifier, ProtocolVersion};
/// use serde_json::{json, Value};
///
/// #[derive(Default)]
/// struct Recorder(Mutex<Vec<(&'static str, Value)>>);
/// impl Notifier for Recorder {
///     fn notify(&self, method: &'static str, params: Value) -> BoxFuture<'_, Result<(), ClientError>> {
///         self.0.lock().unwrap().push((method, params));
///         Box::pin(async { Ok(()) })
///     }
/// }
///
/// let sent = Arc::new(Recorder::default());
/// let cx = Context::new(ProtocolVersion::V2025_11_25)
///     .with_notifier(sent.clone())
///     .with_progress_token(json!("t-1"));
/// futures::executor::block_on(cx.progress(1.0, Some(4.0), Some("ply 1")));
/// assert_eq!(
///     sent.0.lock().unwrap()[0],
///     ("notifications/progress", json!({"progressToken": "t-1", "progress": 1.0, "total": 4.0, "message": "ply 1"}))
/// );
/// ```
pub trait Notifier: Send + Sync {
    /// Sends one notification: `method` is `notifications/progress` or
    /// `notifications/message`, `params` its native params.
    fn notify(&self, method: &'static str, params: Value)
        -> BoxFuture<'_, Result<(), ClientError>>;
}

/// The progress reporting of one call: the client's token and the last value sent
/// (MCP requires each notification's `progress` to be greater than the last).
#[derive(Debug)]
pub(crate) struct ProgressState {
    pub token: Value,
    last: Mutex<Option<f64>>,
}

impl ProgressState {
    pub fn new(token: Value) -> Self {
        ProgressState {
            token,
            last: Mutex::new(None),
        }
    }

    /// The params of a progress notification, or `None` when `progress` does not
    /// increase on the last value sent (or is not a finite number).
    pub fn params(
        &self,
        version: ProtocolVersion,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) -> Option<Value> {
        if !progress.is_finite() {
            return None;
        }
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_some_and(|last| progress <= last) {
            return None;
        }
        *last = Some(progress);
        let mut params = json!({"progressToken": self.token, "progress": progress});
        if let Some(total) = total.filter(|t| t.is_finite()) {
            params["total"] = json!(total);
        }
        // `message` exists from MCP 2025-03-26 on.
        if let Some(message) = message.filter(|_| version >= ProtocolVersion::V2025_03_26) {
            params["message"] = json!(message);
        }
        Some(params)
    }
}

/// The params of a log message notification.
pub(crate) fn log_params(level: LogLevel, logger: Option<&str>, data: Value) -> Value {
    let mut params = json!({"level": level, "data": data});
    if let Some(logger) = logger {
        params["logger"] = json!(logger);
    }
    params
}
