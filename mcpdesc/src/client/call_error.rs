//! [`CallError`]: why a typed client call gave no typed answer.

use std::fmt;

use serde_json::Value;

use super::challenge::{challenges_note, Challenge};
use super::error::{scopes_note, RequestError};
use crate::protocol::content::Content;
use crate::protocol::error::ProtocolError;
use crate::protocol::result::ToolResult;
use crate::protocol::version::ProtocolVersion;

/// One place where a value breaks a schema or a Rust type: a JSON pointer and what is
/// wrong there.
///
/// For a [`CallError::Contract`] the pointer is inside the server's result object
/// (`/structuredContent/evaluation`); for a [`CallError::InvalidInput`] inside the
/// arguments (`/depth`). The empty pointer is the whole value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The JSON pointer.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl Violation {
    /// A violation at `pointer`.
    pub fn new(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Violation {
            pointer: pointer.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "`{at}`: {}", self.message)
    }
}

/// What a typed client's call returns: the answer, or the [`CallError`] that stopped it.
pub type CallResult<T> = Result<T, CallError>;

/// Why a call of a generated `Client` (or of a `TypedClient`)
/// did not give its typed answer.
///
/// ```
/// use mcpdesc::{CallError, ToolResult};
///
/// let err = CallError::Tool { name: "analyze_game".into(), result: Box::new(ToolResult::error("no moves")) };
/// assert_eq!(err.to_string(), "the tool `analyze_game` failed: no moves");
/// assert_eq!(err.tool_result().unwrap().is_error, Some(true));
/// ```
///
/// The large members are boxed so that a `Result<T, CallError>` stays small.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// The tool ran and reported an error (`isError: true`); `result` holds the
    /// content blocks it returned.
    #[error("the tool `{name}` failed: {}", error_text(result))]
    Tool {
        /// The tool name.
        name: String,
        /// The whole result, as the server sent it.
        result: Box<ToolResult>,
    },
    /// The server refused the request with a JSON-RPC error (an unknown tool, invalid
    /// params, an internal error, ...).
    #[error("`{name}` was refused: {error}")]
    Protocol {
        /// The tool, prompt, resource or template.
        name: String,
        /// The code, message and data of the error.
        error: Box<ProtocolError>,
    },
    /// The server's answer breaks the description: `structuredContent` does not match
    /// the `outputSchema` or does not fit the Rust type, a result lacks a member it
    /// must have. Each violation names its JSON pointer in the result.
    #[error("the answer to `{name}` breaks the description:\n{}", list(violations))]
    Contract {
        /// The tool, prompt, resource or template.
        name: String,
        /// Where and how.
        violations: Vec<Violation>,
        /// The result as received.
        result: Box<Value>,
    },
    /// The input breaks the tool's `inputSchema` (checked before anything is sent; see
    /// `validate_inputs`). Each violation names its JSON pointer in the arguments.
    #[error(
        "the input of `{name}` breaks its inputSchema (nothing was sent):\n{}",
        list(violations)
    )]
    InvalidInput {
        /// The tool.
        name: String,
        /// Where and how.
        violations: Vec<Violation>,
    },
    /// The description does not have it in the negotiated protocol version (nothing was
    /// sent).
    #[error("`{name}` is not available in MCP {version}: the description declares it for {} (nothing was sent)", versions(scope))]
    Unsupported {
        /// The tool, prompt, resource or template.
        name: String,
        /// The negotiated version.
        version: ProtocolVersion,
        /// The versions the description declares it for.
        scope: Vec<ProtocolVersion>,
    },
    /// The server asked for client input (an MCP 2026-07-28 `input_required` result:
    /// elicitation, sampling or roots), which this client does not provide.
    #[error("the server asked for client input to complete `{name}` (input_required), which this client does not provide")]
    InputRequired {
        /// The tool, prompt or resource.
        name: String,
        /// The result as received.
        result: Box<Value>,
    },
    /// The server refused the call with `401 Unauthorized` (HTTP): credentials are
    /// missing or not valid. `challenges` is what its `WWW-Authenticate` header asks
    /// for (scheme, `error`, `resource_metadata`, ...).
    #[error("`{name}` was refused with 401 Unauthorized: the server needs credentials (an `Authorization` header){}", challenges_note(challenges))]
    Unauthorized {
        /// The tool, prompt, resource or template.
        name: String,
        /// The challenges of the `WWW-Authenticate` header.
        challenges: Vec<Challenge>,
    },
    /// The server refused the call with `403 Forbidden` (HTTP): the credentials are
    /// valid but do not grant it; `scopes` are the scopes the server asks for.
    #[error(
        "`{name}` was refused with 403 Forbidden{}{}",
        scopes_note(scopes),
        challenges_note(challenges)
    )]
    Forbidden {
        /// The tool, prompt, resource or template.
        name: String,
        /// The scopes the server asks for (its challenges' `scope`), when it says.
        scopes: Vec<String>,
        /// The challenges of the `WWW-Authenticate` header.
        challenges: Vec<Challenge>,
    },
    /// The description says the primitive needs client capabilities (its
    /// `clientRequirements`) that this session did not declare (nothing was sent; a
    /// server would refuse it with `-32021` in MCP 2026-07-28).
    #[error("`{name}` needs the client capability {missing}, which this session did not declare (nothing was sent)")]
    MissingClientCapability {
        /// The tool, prompt, resource or template.
        name: String,
        /// The capabilities lacking, dotted (`elicitation.url, sampling`).
        missing: String,
        /// The lacking capabilities as an MCP capabilities object.
        required: Box<Value>,
    },
    /// A call as a task (a generated `Client`'s `{tool}_as_task`) that cannot be one
    /// in the negotiated protocol version: the tool's declaration for it does not say
    /// `execution.taskSupport` `optional` or `required` (MCP 2025-11-25 core tasks),
    /// or the server does not advertise the `tasks` capability for `tools/call`
    /// (nothing was sent).
    #[error("`{name}` cannot run as a task in MCP {version}: {reason} (nothing was sent)")]
    NoTask {
        /// The tool.
        name: String,
        /// The negotiated version.
        version: ProtocolVersion,
        /// Why.
        reason: String,
    },
    /// No answer came: a timeout, the server went away, a transport failure, or a
    /// malformed response.
    #[error("`{name}`: {error}")]
    Transport {
        /// The tool, prompt, resource or template.
        name: String,
        /// What happened.
        error: Box<RequestError>,
    },
}

impl CallError {
    /// The result of a tool error.
    pub fn tool_result(&self) -> Option<&ToolResult> {
        match self {
            CallError::Tool { result, .. } => Some(result),
            _ => None,
        }
    }

    /// The JSON-RPC error of a refused request.
    pub fn protocol_error(&self) -> Option<&ProtocolError> {
        match self {
            CallError::Protocol { error, .. } => Some(error),
            _ => None,
        }
    }

    /// The violations of a contract violation or an invalid input.
    pub fn violations(&self) -> &[Violation] {
        match self {
            CallError::Contract { violations, .. } | CallError::InvalidInput { violations, .. } => {
                violations
            }
            _ => &[],
        }
    }

    /// The error of a request that got no answer, or a JSON-RPC error as a
    /// [`CallError::Protocol`].
    pub(crate) fn from_request(name: &str, error: RequestError) -> Self {
        match error {
            RequestError::Protocol { error, .. } => CallError::Protocol {
                name: name.to_owned(),
                error: Box::new(error),
            },
            RequestError::Unauthorized { challenges, .. } => CallError::Unauthorized {
                name: name.to_owned(),
                challenges,
            },
            RequestError::Forbidden {
                scopes, challenges, ..
            } => CallError::Forbidden {
                name: name.to_owned(),
                scopes,
                challenges,
            },
            error => CallError::Transport {
                name: name.to_owned(),
                error: Box::new(error),
            },
        }
    }
}

/// The text of an error result: its text blocks joined, or a note.
fn error_text(result: &ToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|c| match c {
            Content::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect();
    if texts.is_empty() {
        "(no text content)".to_owned()
    } else {
        texts.join("\n")
    }
}

fn list(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(|v| format!("- {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn versions(list: &[ProtocolVersion]) -> String {
    list.iter()
        .map(|v| v.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
