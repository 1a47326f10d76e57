//! The error types: tool execution errors, protocol errors, client request errors,
//! router construction errors and serving errors.

use std::fmt;

use serde_json::Value;

use super::content::Content;
use super::version::ProtocolVersion;

/// A tool execution error: the tool ran and failed in a way the caller should see.
///
/// It becomes an `isError: true` result whose first content block is the message as
/// text, followed by any extra blocks. Any `std::error::Error` converts into it, so a
/// handler can use `?`:
///
/// ```
/// use mcpdesc::{ToolError, ToolResult};
///
/// fn parse(depth: &str) -> Result<u32, ToolError> {
///     Ok(depth.parse::<u32>()?)
/// }
/// let err = parse("deep").unwrap_err();
/// assert_eq!(err.message(), "invalid digit found in string");
/// let result: ToolResult = err.into();
/// assert_eq!(result.is_error, Some(true));
/// ```
///
/// `ToolError` deliberately does not implement `std::error::Error` itself: that is what
/// lets every error type convert into it with `?`.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    pub(crate) message: String,
    pub(crate) content: Vec<Content>,
}

impl ToolError {
    /// An error with a message.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError {
            message: message.into(),
            content: Vec::new(),
        }
    }

    /// The same error with an extra content block after the message.
    pub fn with_content(mut self, block: Content) -> Self {
        self.content.push(block);
        self
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The extra content blocks.
    pub fn content(&self) -> &[Content] {
        &self.content
    }

    /// The error of arguments that passed the input schema but do not deserialize into
    /// the tool's input type (generated code calls this through
    /// `parse_arguments`).
    pub fn invalid_arguments(error: &serde_json::Error) -> Self {
        ToolError::new(format!("Invalid arguments: {error}"))
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for ToolError {
    fn from(error: E) -> Self {
        ToolError::new(error.to_string())
    }
}

/// A JSON-RPC protocol error: the request could not be routed to a tool at all.
///
/// ```
/// let e = mcpdesc::ProtocolError::invalid_params("unknown tool `x`");
/// assert_eq!(e.code, -32602);
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message} (JSON-RPC error {code})")]
pub struct ProtocolError {
    /// The JSON-RPC error code.
    pub code: i32,
    /// The message.
    pub message: String,
    /// Optional structured data.
    pub data: Option<Value>,
}

impl ProtocolError {
    /// JSON-RPC "Invalid params".
    pub const INVALID_PARAMS: i32 = -32602;
    /// JSON-RPC "Internal error".
    pub const INTERNAL_ERROR: i32 = -32603;

    /// An "Invalid params" (-32602) error, as MCP uses for an unknown tool.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        ProtocolError {
            code: Self::INVALID_PARAMS,
            message: message.into(),
            data: None,
        }
    }

    /// An "Internal error" (-32603) error.
    pub fn internal(message: impl Into<String>) -> Self {
        ProtocolError {
            code: Self::INTERNAL_ERROR,
            message: message.into(),
            data: None,
        }
    }
}

/// The failure of a request the server sent to the client through a
/// `Context` (elicitation, sampling, roots).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ClientError {
    /// The context has no client connection (for example in a unit test).
    #[error("no client connected: `{0}` cannot be sent")]
    NotConnected(&'static str),
    /// The negotiated protocol version or the client's capabilities do not allow it.
    #[error("{0}")]
    Unsupported(String),
    /// The request could not be built from the given params.
    #[error("the params of `{method}` are malformed: {message}")]
    InvalidRequest {
        /// The request method.
        method: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The client answered with a JSON-RPC error.
    #[error("the client answered `{method}` with error {code}: {message}")]
    Rejected {
        /// The request method.
        method: &'static str,
        /// The JSON-RPC error code.
        code: i32,
        /// The message.
        message: String,
    },
    /// The connection failed or closed.
    #[error("`{method}` failed: {message}")]
    Transport {
        /// The request method.
        method: &'static str,
        /// What happened.
        message: String,
    },
    /// MCP 2026-07-28: the request has no answer yet. The call ends with an
    /// input-required result and the handler runs again, from the start, when the
    /// client retries with the answer (see the adapter's docs on input rounds).
    /// A handler should pass this error on (`?`); whatever it returns instead is
    /// discarded for this round.
    #[error("`{method}` needs the client's answer first: the call ends with an input-required result and runs again when the client retries with the answer")]
    InputRequired {
        /// The request method.
        method: &'static str,
    },
    /// The client's answer does not have the expected shape.
    #[error("the client's answer to `{method}` is malformed: {message}")]
    InvalidResponse {
        /// The request method.
        method: &'static str,
        /// What is wrong.
        message: String,
    },
}

/// A problem found while building a `Router`; the declaration
/// concerned is not registered.
///
/// ```
/// let e = mcpdesc::RouterError { kind: "prompt", name: "brief".into(), message: "no name".into() };
/// assert_eq!(e.to_string(), "prompt `brief`: no name");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} `{name}`: {message}")]
pub struct RouterError {
    /// What was registered: `"tool"`, `"prompt"`, `"resource"`, `"resource template"`,
    /// `"completion"` or `"capabilities"`.
    pub kind: &'static str,
    /// Its identity: the tool or prompt name, the resource URI, the URI template.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

/// Why a `prompts/get`, `resources/read` or `completion/complete` handler could not
/// answer: the request ends with a JSON-RPC error.
///
/// Any `std::error::Error` converts into it as an internal error (-32603), so a handler
/// can use `?`; [`RequestError::invalid_params`] and [`RequestError::resource_not_found`]
/// say that the request itself is at fault.
///
/// ```
/// use mcpdesc::RequestError;
///
/// fn read(path: &str) -> Result<String, RequestError> {
///     Ok(std::fs::read_to_string(path)?)
/// }
/// let err = read("/no/such/file").unwrap_err();
/// assert_eq!(err.code(), -32603);
/// assert_eq!(RequestError::resource_not_found("x:///a").code(), -32002);
/// ```
///
/// Like [`ToolError`], it does not implement `std::error::Error` itself, which is what
/// lets every error type convert into it.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestError {
    code: i32,
    message: String,
    data: Option<Value>,
}

impl RequestError {
    /// MCP's "Resource not found" code before 2026-07-28 (from 2026-07-28 on, the router
    /// sends -32602 instead, as that version asks).
    pub const RESOURCE_NOT_FOUND: i32 = -32002;

    /// An internal error (-32603) with a message.
    pub fn new(message: impl Into<String>) -> Self {
        RequestError {
            code: ProtocolError::INTERNAL_ERROR,
            message: message.into(),
            data: None,
        }
    }

    /// "Invalid params" (-32602): the request's arguments are wrong.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        RequestError {
            code: ProtocolError::INVALID_PARAMS,
            message: message.into(),
            data: None,
        }
    }

    /// "Resource not found" for `uri`, with `{"uri": uri}` as data.
    pub fn resource_not_found(uri: &str) -> Self {
        RequestError {
            code: Self::RESOURCE_NOT_FOUND,
            message: format!("Resource not found: `{uri}`"),
            data: Some(serde_json::json!({ "uri": uri })),
        }
    }

    /// The same error with another message.
    pub fn with_message(mut self, message: impl Into<String>) -> Self {
        self.message = message.into();
        self
    }

    /// The same error with structured data.
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The JSON-RPC error code.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The structured data, if any.
    pub fn data(&self) -> Option<&Value> {
        self.data.as_ref()
    }

    /// The JSON-RPC error sent for `version`: "Resource not found" is -32602 from MCP
    /// 2026-07-28 on.
    pub fn into_protocol_error(self, version: ProtocolVersion) -> ProtocolError {
        let code = match self.code {
            Self::RESOURCE_NOT_FOUND if version >= ProtocolVersion::V2026_07_28 => {
                ProtocolError::INVALID_PARAMS
            }
            code => code,
        };
        ProtocolError {
            code,
            message: self.message,
            data: self.data,
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: std::error::Error> From<E> for RequestError {
    fn from(error: E) -> Self {
        RequestError::new(error.to_string())
    }
}

/// An error of serving a router.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The router was built with errors (see `Router::errors`).
    #[error("the router has {} error(s):\n{}", .0.len(), .0.iter().map(|e| format!("  - {e}")).collect::<Vec<_>>().join("\n"))]
    InvalidRouter(Vec<RouterError>),
    /// The MCP session could not be established.
    #[error("the MCP session could not start: {0}")]
    Initialize(String),
    /// The MCP session ended abnormally.
    #[error("the MCP session failed: {0}")]
    Session(String),
    /// The HTTP server could not start or stopped (feature `http`).
    #[error("the HTTP server failed: {0}")]
    Http(String),
    /// The description's security cannot be enforced as configured (feature
    /// `http`): no authenticator, or an unknown transport URL.
    #[error("the HTTP server cannot enforce the description's security: {0}")]
    Security(String),
}
