//! What can go wrong when connecting to a server and when sending it a request.

use std::time::Duration;

use serde_json::Value;

use super::challenge::{challenges_note, Challenge};
use crate::protocol::error::ProtocolError;
use crate::protocol::version::ProtocolVersion;

/// A session could not be established.
///
/// Every message names the server (the command line, or the URL) and, for a child
/// process, ends with the last lines it wrote on stderr, which usually say why.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The server process could not be started (program not found, not executable).
    #[error("could not start the MCP server `{server}`: {source}")]
    Spawn {
        /// The command line.
        server: String,
        /// The error of `spawn`.
        #[source]
        source: std::io::Error,
    },
    /// The server exited, or closed its side of the connection, before the handshake
    /// completed.
    #[error("the MCP server `{server}` {ended} before the handshake completed{}", stderr_note(.stderr))]
    Exited {
        /// The command line or URL.
        server: String,
        /// How it ended: `exited (exit status: 1)`, `closed its stdout`, ...
        ended: String,
        /// The last lines of its stderr (empty when unknown).
        stderr: String,
    },
    /// The server wrote something that is not a JSON-RPC message on stdout (MCP
    /// servers must write nothing else there; see
    /// `Options::tolerate_stdout_noise`).
    #[error("the MCP server `{server}` wrote {what} on stdout{}", stderr_note(.stderr))]
    NotJsonRpc {
        /// The command line.
        server: String,
        /// What it wrote: `a line that is not a JSON-RPC message: "..."`, ...
        what: String,
        /// The last lines of its stderr.
        stderr: String,
    },
    /// The handshake did not complete within the connect timeout.
    #[error("the MCP server `{server}` did not complete the handshake within {}{}", seconds(*.after), stderr_note(.stderr))]
    Timeout {
        /// The command line or URL.
        server: String,
        /// The connect timeout.
        after: Duration,
        /// The last lines of its stderr.
        stderr: String,
    },
    /// The server answered the handshake with a JSON-RPC error.
    #[error("the MCP server `{server}` rejected the handshake: {error}")]
    Rejected {
        /// The command line or URL.
        server: String,
        /// The error.
        error: Box<ProtocolError>,
    },
    /// The server chose a protocol version the session does not accept (or one this
    /// crate does not know).
    #[error("the MCP server `{server}` chose protocol version `{chosen}`, which is not one of the accepted versions ({})", versions(.accepted))]
    Version {
        /// The command line or URL.
        server: String,
        /// The version the server answered with.
        chosen: String,
        /// The versions the session accepts.
        accepted: Vec<ProtocolVersion>,
    },
    /// The server broke the handshake (an answer that is not a handshake result, no
    /// common protocol version, ...).
    #[error("the MCP server `{server}` broke the handshake: {message}")]
    Handshake {
        /// The command line or URL.
        server: String,
        /// What went wrong.
        message: String,
    },
    /// The transport failed (an HTTP connection refused, an I/O error, ...).
    #[error("could not connect to the MCP server `{server}`: {message}")]
    Transport {
        /// The command line or URL.
        server: String,
        /// What failed.
        message: String,
    },
    /// The server answered the handshake with `401 Unauthorized`: it needs
    /// credentials (say an `Authorization: Bearer` header in
    /// `Options::header`, feature `client-http`), or refused the ones sent.
    #[error("the MCP server `{server}` refused the connection with 401 Unauthorized: it needs credentials (an `Authorization` header){}", challenges_note(.challenges))]
    Unauthorized {
        /// The URL.
        server: String,
        /// The challenges of its `WWW-Authenticate` header.
        challenges: Vec<Challenge>,
    },
    /// The server answered the handshake with `403 Forbidden`: the credentials are
    /// valid but lack what the endpoint requires.
    #[error("the MCP server `{server}` refused the connection with 403 Forbidden{}{}", scopes_note(.scopes), challenges_note(.challenges))]
    Forbidden {
        /// The URL.
        server: String,
        /// The scopes the server asks for (its challenges' `scope`), when it says.
        scopes: Vec<String>,
        /// The challenges of its `WWW-Authenticate` header.
        challenges: Vec<Challenge>,
    },
    /// The options are not usable (no accepted protocol version, a bad header).
    #[error("{0}")]
    Options(String),
}

/// A request of an established session failed without a result.
///
/// A JSON-RPC error answer is [`RequestError::Protocol`]: the server is alive and
/// said no. The others mean no answer came.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum RequestError {
    /// The server answered with a JSON-RPC error.
    #[error("`{method}` failed: {error}")]
    Protocol {
        /// The request method.
        method: String,
        /// The code, message and data of the error.
        error: ProtocolError,
    },
    /// No answer within the request timeout (the request was cancelled with
    /// `notifications/cancelled`).
    #[error("`{method}` got no answer within {}", seconds(*.after))]
    Timeout {
        /// The request method.
        method: String,
        /// The timeout.
        after: Duration,
    },
    /// The connection ended before the answer came: the server exited, wrote
    /// something that is not JSON-RPC, or the session was closed.
    #[error("`{method}` got no answer: {cause}")]
    Disconnected {
        /// The request method.
        method: String,
        /// What ended the connection, with the server's stderr tail when known.
        cause: String,
    },
    /// The request could not be sent (an HTTP error, for one).
    #[error("`{method}` could not be sent: {message}")]
    Transport {
        /// The request method.
        method: String,
        /// What failed.
        message: String,
    },
    /// The server refused the request with `401 Unauthorized` (HTTP): credentials
    /// are missing or not valid.
    #[error("`{method}` was refused with 401 Unauthorized: the server needs credentials (an `Authorization` header){}", challenges_note(.challenges))]
    Unauthorized {
        /// The request method.
        method: String,
        /// The challenges of its `WWW-Authenticate` header.
        challenges: Vec<Challenge>,
    },
    /// The server refused the request with `403 Forbidden` (HTTP): the credentials
    /// are valid but do not grant what the request needs (`insufficient_scope`).
    #[error("`{method}` was refused with 403 Forbidden{}{}", scopes_note(.scopes), challenges_note(.challenges))]
    Forbidden {
        /// The request method.
        method: String,
        /// The scopes the server asks for (its challenges' `scope`), when it says.
        scopes: Vec<String>,
        /// The challenges of its `WWW-Authenticate` header.
        challenges: Vec<Challenge>,
    },
    /// The answer does not have the shape the method defines (a listing without
    /// its array, a cursor that repeats, ...).
    #[error("`{method}` answered with a malformed result: {message}")]
    InvalidResult {
        /// The request method.
        method: String,
        /// What is wrong.
        message: String,
        /// The result as received.
        result: Value,
    },
}

impl RequestError {
    /// The JSON-RPC error, when the server answered with one.
    pub fn protocol_error(&self) -> Option<&ProtocolError> {
        match self {
            RequestError::Protocol { error, .. } => Some(error),
            _ => None,
        }
    }

    /// The request method.
    pub fn method(&self) -> &str {
        match self {
            RequestError::Protocol { method, .. }
            | RequestError::Timeout { method, .. }
            | RequestError::Disconnected { method, .. }
            | RequestError::Transport { method, .. }
            | RequestError::Unauthorized { method, .. }
            | RequestError::Forbidden { method, .. }
            | RequestError::InvalidResult { method, .. } => method,
        }
    }
}

/// `: it requires the scopes a, b` when the server named them.
pub(crate) fn scopes_note(scopes: &[String]) -> String {
    if scopes.is_empty() {
        String::new()
    } else {
        format!(
            ": it requires the scope{} {}",
            if scopes.len() == 1 { "" } else { "s" },
            scopes.join(", ")
        )
    }
}

/// `; its stderr ended with:\n...` when there is a tail.
pub(crate) fn stderr_note(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        String::new()
    } else {
        format!("; its stderr ended with:\n{stderr}")
    }
}

fn seconds(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs.fract() == 0.0 {
        format!("{secs:.0} s")
    } else {
        format!("{secs} s")
    }
}

fn versions(list: &[ProtocolVersion]) -> String {
    list.iter()
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
