//! The client of a served request over rmcp's handle: [`RmcpClientPeer`] for the
//! requests a handler sends it, [`RmcpNotifier`] for its notifications.

use rmcp::{model as m, Peer, RoleServer, ServiceError};
use serde_json::Value;

use super::convert::capabilities_json;
use crate::protocol::client_capabilities;
use crate::protocol::error::ClientError;
use crate::protocol::futures::BoxFuture;
use crate::protocol::version::ProtocolVersion;
use crate::server::context::ClientPeer;
use crate::server::notifications::Notifier;

/// A [`ClientPeer`] over rmcp's handle to the connected client.
///
/// It checks that the client declared the capability a request needs (MCP forbids
/// sending the request otherwise) and maps rmcp's errors to [`ClientError`].
#[derive(Debug, Clone)]
pub struct RmcpClientPeer {
    peer: Peer<RoleServer>,
    version: ProtocolVersion,
    /// The client's capabilities, when known.
    capabilities: ClientCapabilities,
}

/// The client's declared capabilities as an [`RmcpClientPeer`] got them. The adapter
/// keeps rmcp's type and writes it as JSON only when a handler sends a client request:
/// most calls send none, and the conversion was a cost of every call.
#[derive(Debug, Clone)]
pub(super) enum ClientCapabilities {
    /// As JSON ([`RmcpClientPeer::new`]).
    Json(Option<Value>),
    /// As rmcp read them for the request (its `_meta`, else the session's
    /// `initialize`).
    Rmcp(Option<m::ClientCapabilities>),
}

impl RmcpClientPeer {
    /// A peer for a session of `version`; `capabilities` are the client's declared
    /// capabilities (as JSON), when known.
    pub fn new(
        peer: Peer<RoleServer>,
        version: ProtocolVersion,
        capabilities: Option<Value>,
    ) -> Self {
        RmcpClientPeer {
            peer,
            version,
            capabilities: ClientCapabilities::Json(capabilities),
        }
    }

    fn check(&self, method: &'static str, capability: &[&str]) -> Result<(), ClientError> {
        if self.version >= ProtocolVersion::V2026_07_28 {
            return Err(ClientError::Unsupported(format!(
                "`{method}` cannot be sent during a call in MCP {}: that version carries client input through input-required results, which `McpServer` serves by replaying the handler",
                self.version
            )));
        }
        match &self.capabilities {
            ClientCapabilities::Json(declared) => {
                client_capabilities::require(declared.as_ref(), method, capability)
            }
            ClientCapabilities::Rmcp(declared) => {
                let declared = capabilities_json(declared.as_ref());
                client_capabilities::require(declared.as_ref(), method, capability)
            }
        }
    }
}

fn service_error(method: &'static str, error: ServiceError) -> ClientError {
    match error {
        ServiceError::McpError(e) => ClientError::Rejected {
            method,
            code: e.code.0,
            message: e.message.into_owned(),
        },
        ServiceError::UnexpectedResponse => ClientError::InvalidResponse {
            method,
            message: "unexpected result type".into(),
        },
        other => ClientError::Transport {
            method,
            message: other.to_string(),
        },
    }
}

fn to_json<T: serde::Serialize>(method: &'static str, value: &T) -> Result<Value, ClientError> {
    serde_json::to_value(value).map_err(|e| ClientError::InvalidResponse {
        method,
        message: e.to_string(),
    })
}

fn from_json<T: serde::de::DeserializeOwned>(
    method: &'static str,
    params: Value,
) -> Result<T, ClientError> {
    serde_json::from_value(params).map_err(|e| ClientError::InvalidRequest {
        method,
        message: e.to_string(),
    })
}

impl ClientPeer for RmcpClientPeer {
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        const METHOD: &str = "elicitation/create";
        Box::pin(async move {
            self.check(METHOD, client_capabilities::for_elicitation(&params))?;
            let params: m::ElicitRequestParams = from_json(METHOD, params)?;
            let result = self
                .peer
                .create_elicitation(params)
                .await
                .map_err(|e| service_error(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        const METHOD: &str = "sampling/createMessage";
        Box::pin(async move {
            self.check(METHOD, &["sampling"])?;
            #[allow(deprecated)] // Sampling is deprecated only from MCP 2026-07-28 on.
            let result = {
                let params: m::CreateMessageRequestParams = from_json(METHOD, params)?;
                self.peer.create_message(params).await
            };
            let result = result.map_err(|e| service_error(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
        const METHOD: &str = "roots/list";
        Box::pin(async move {
            self.check(METHOD, &["roots"])?;
            #[allow(deprecated)] // Roots are deprecated only from MCP 2026-07-28 on.
            let result = self.peer.list_roots().await;
            let result = result.map_err(|e| service_error(METHOD, e))?;
            to_json(METHOD, &result)
        })
    }
}

/// A [`Notifier`] over rmcp's handle to the connected client.
#[derive(Debug, Clone)]
pub struct RmcpNotifier {
    peer: Peer<RoleServer>,
}

impl RmcpNotifier {
    /// A notifier sending to `peer`.
    pub fn new(peer: Peer<RoleServer>) -> Self {
        RmcpNotifier { peer }
    }
}

impl Notifier for RmcpNotifier {
    fn notify(
        &self,
        method: &'static str,
        params: Value,
    ) -> BoxFuture<'_, Result<(), ClientError>> {
        notify_peer(&self.peer, method, params)
    }
}

/// The client of one served request, for its client requests ([`ClientPeer`], as
/// [`RmcpClientPeer`]) and its notifications ([`Notifier`], as [`RmcpNotifier`]): one
/// allocation and one `Peer` clone per request rather than one of each per role.
#[derive(Debug)]
pub(super) struct RequestClient(RmcpClientPeer);

impl RequestClient {
    /// The client of a request of `version`, with the capabilities rmcp read for it.
    pub(super) fn new(
        peer: Peer<RoleServer>,
        version: ProtocolVersion,
        declared: Option<m::ClientCapabilities>,
    ) -> Self {
        RequestClient(RmcpClientPeer {
            peer,
            version,
            capabilities: ClientCapabilities::Rmcp(declared),
        })
    }
}

impl ClientPeer for RequestClient {
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        self.0.elicit(params)
    }

    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        self.0.create_message(params)
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
        self.0.list_roots()
    }
}

impl Notifier for RequestClient {
    fn notify(
        &self,
        method: &'static str,
        params: Value,
    ) -> BoxFuture<'_, Result<(), ClientError>> {
        notify_peer(&self.0.peer, method, params)
    }
}

/// Sends a handler's notification (`notifications/progress` or
/// `notifications/message`) or a change notification ([`ChangeNotifier`]) to
/// the client behind `peer`.
///
/// [`ChangeNotifier`]: crate::server::subscriptions::ChangeNotifier
fn notify_peer<'a>(
    peer: &'a Peer<RoleServer>,
    method: &'static str,
    params: Value,
) -> BoxFuture<'a, Result<(), ClientError>> {
    Box::pin(async move {
        let sent = match method {
            "notifications/progress" => {
                let params: m::ProgressNotificationParam = from_json(method, params)?;
                peer.notify_progress(params).await
            }
            // rmcp deprecates logging for MCP 2026-07-28 (SEP-2577); the
            // versions before it have the notification.
            #[allow(deprecated)]
            "notifications/message" => {
                let params: m::LoggingMessageNotificationParam = from_json(method, params)?;
                peer.notify_logging_message(params).await
            }
            "notifications/resources/updated" => {
                let params: m::ResourceUpdatedNotificationParam = from_json(method, params)?;
                peer.notify_resource_updated(params).await
            }
            "notifications/tools/list_changed" => peer.notify_tool_list_changed().await,
            "notifications/prompts/list_changed" => peer.notify_prompt_list_changed().await,
            "notifications/resources/list_changed" => peer.notify_resource_list_changed().await,
            _ => {
                return Err(ClientError::InvalidRequest {
                    method,
                    message: "not a notification a handler sends".into(),
                })
            }
        };
        sent.map_err(|e| service_error(method, e))
    })
}
