//! The router's security as data: what a request asks for ([`Target`]), how a router
//! authenticates, and the declaration and authenticator it holds; the JSON-RPC code
//! of a refusal. The `Router`'s methods over them are in the server
//! (`server/security.rs`).

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::authenticator::Authenticator;
use super::declaration::SecurityDeclaration;
use super::requirement::Requirement;
use crate::protocol::completions::CompletionTarget;

/// The JSON-RPC error code of a call the handler adapter refuses for security
/// (when HTTP could not answer with a status, see the module docs). Its `data` is
/// `{"status": 401 | 403, "error": "invalid_token" | "insufficient_scope",
/// "scope": "..."}`.
pub const FORBIDDEN_CODE: i32 = -32003;

/// What a request asks for, as far as security goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `tools/call` of the tool with this name.
    Tool(String),
    /// `prompts/get` of the prompt with this name.
    Prompt(String),
    /// `resources/read` of this URI (a resource, else the template it expands).
    Resource(String),
    /// `completion/complete` for a prompt or template: that primitive's requirement.
    Completion(CompletionTarget),
    /// Anything else (`initialize`, the lists, `ping`, notifications, a session's
    /// `GET` stream or `DELETE`): the endpoint's requirement
    /// (`Router::endpoint_security`).
    Endpoint,
}

/// How a router authenticates.
#[derive(Clone, Default)]
pub(crate) enum AuthMode {
    /// Nothing said yet: a router whose description declares requirements does not
    /// start on HTTP.
    #[default]
    Unset,
    /// Credentials are verified with this.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Authenticator(Arc<dyn Authenticator>),
    /// Credentials are not checked (behind a gateway, or a mock without tokens).
    Disabled,
}

/// The security a `Router` was given.
#[derive(Clone, Default)]
pub(crate) struct RouterSecurity {
    pub(crate) declaration: Option<Arc<SecurityDeclaration>>,
    pub(crate) mode: AuthMode,
}

impl fmt::Debug for RouterSecurity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mode = match self.mode {
            AuthMode::Unset => "unset",
            AuthMode::Authenticator(_) => "authenticator",
            AuthMode::Disabled => "without authentication",
        };
        f.debug_struct("RouterSecurity")
            .field("declared", &self.declaration.is_some())
            .field("mode", &mode)
            .finish()
    }
}

impl RouterSecurity {
    pub(crate) fn declaration(&self) -> Option<&SecurityDeclaration> {
        self.declaration.as_deref()
    }

    // Only HTTP verifies credentials.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn authenticator(&self) -> Option<&Arc<dyn Authenticator>> {
        match &self.mode {
            AuthMode::Authenticator(a) => Some(a),
            _ => None,
        }
    }
}

/// A primitive declaration's own `security`, checked against the router's security
/// declaration when it has one.
pub(crate) fn declared_requirement(
    security: Option<&SecurityDeclaration>,
    declaration: &Map<String, Value>,
) -> Result<Option<Requirement>, String> {
    let Some(value) = declaration.get("security") else {
        return Ok(None);
    };
    let requirement = Requirement::parse(value).map_err(|e| format!("its `security`: {e}"))?;
    if let Some(security) = security {
        security
            .check(&requirement)
            .map_err(|e| format!("its `security`: {e}"))?;
    }
    Ok(Some(requirement))
}
