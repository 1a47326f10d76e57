//! The MCP server over the official Rust SDK (`rmcp`): a [`ServerHandler`] for a
//! [`Router`], a [`ClientPeer`] over rmcp's client handle, and [`serve_stdio`].
//!
//! # Known limits of this adapter
//!
//! - rmcp 3.11's `Tool` type has no `execution` member. [`McpServer`] puts the members
//!   rmcp's types drop back into the `tools/list` answer (see [`McpServer`]), so
//!   `execution.taskSupport` (MCP 2025-11-25) reaches the client as
//!   [`Router::list_tools`] has it.
//! - MCP 2026-07-28 has no server-to-client requests during a call; it carries client
//!   input through input-required results (MRTR). [`McpServer`] serves them by
//!   replaying the handler: a [`Context`] request with no answer yet ends the round
//!   with an input-required result ([`ClientError::InputRequired`] inside the
//!   handler), and the client's retry runs the handler again with the answers. Code
//!   before a handler's last client request therefore runs once per round. The
//!   `requestState` format and the checks on it are in `input_rounds.rs`.
//!   [`RmcpClientPeer`] itself refuses requests in a 2026-07-28 session.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rmcp::model as m;
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, Service, ServiceError, ServiceExt};
use serde_json::{json, Map, Value};

use crate::client_capabilities;
use crate::input_rounds::{InputRequired, InputRounds};
use crate::{
    BoxFuture, ClientError, ClientPeer, Context, Error, ProtocolError, ProtocolVersion, Router,
    ToolResult,
};

/// An rmcp [`Service`] that serves a [`Router`]: server info and instructions from
/// the description, the tools capability, `tools/list` for the negotiated version and
/// `tools/call` through the router.
///
/// The MCP lifecycle (version negotiation, per-request metadata, result shapes per
/// version) is rmcp's: requests go through rmcp's own [`ServerHandler`] dispatch. One
/// thing is added on the way out: rmcp's `Tool` type has fields only for the members it
/// knows, so a `tools/list` answer would lose the others (today `execution`, MCP
/// 2025-11-25). The answer is written back as JSON with every member of the router's
/// listing that rmcp left out, so the client sees the tool as the description declares
/// it for the negotiated version.
///
/// Use it with any rmcp transport:
///
/// ```no_run
/// # async fn f(router: mcpdesc::Router) -> Result<(), Box<dyn std::error::Error>> {
/// use mcpdesc::rmcp::ServiceExt;
///
/// let (server_end, _client_end) = tokio::io::duplex(64 * 1024);
/// let running = mcpdesc::McpServer::new(router).serve(server_end).await?;
/// running.waiting().await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct McpServer {
    handler: RouterHandler,
}

impl McpServer {
    /// Wraps a router.
    pub fn new(router: Router) -> Self {
        McpServer {
            handler: RouterHandler {
                router: Arc::new(router),
                listings: Arc::new(
                    ProtocolVersion::ALL
                        .iter()
                        .map(|_| OnceLock::new())
                        .collect(),
                ),
            },
        }
    }

    /// The wrapped router.
    pub fn router(&self) -> &Router {
        &self.handler.router
    }
}

impl Service<RoleServer> for McpServer {
    async fn handle_request(
        &self,
        request: m::ClientRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ServerResult, ErrorData> {
        // Read before `context` moves into rmcp's dispatch.
        let listing_version = match request {
            m::ClientRequest::ListToolsRequest(_) => negotiated(&context).ok(),
            _ => None,
        };
        let result = Service::handle_request(&self.handler, request, context).await?;
        Ok(match listing_version {
            Some(version) => restore_dropped_members(result, self.handler.listing(version)),
            None => result,
        })
    }

    async fn handle_notification(
        &self,
        notification: m::ClientNotification,
        context: NotificationContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Service::handle_notification(&self.handler, notification, context).await
    }

    fn get_info(&self) -> m::ServerConfig {
        ServerHandler::get_info(&self.handler)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [m::ProtocolVersion]> {
        ServerHandler::supported_protocol_versions(&self.handler)
    }
}

/// Writes a `tools/list` answer back as JSON with the members of the router's listing
/// (`native`, the tools as [`Router::list_tools`] projects them for the session's
/// version) that rmcp's `Tool` type dropped. Members rmcp kept are left as rmcp wrote
/// them; nested objects are completed the same way. An answer that lost nothing is
/// returned unchanged.
fn restore_dropped_members(result: m::ServerResult, native: &[Value]) -> m::ServerResult {
    let m::ServerResult::ListToolsResult(list) = &result else {
        return result;
    };
    let Ok(mut wire) = serde_json::to_value(list) else {
        return result;
    };
    let by_name: HashMap<&str, &Value> = native
        .iter()
        .filter_map(|tool| Some((tool.get("name")?.as_str()?, tool)))
        .collect();
    let mut restored = false;
    for tool in wire
        .get_mut("tools")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let declared = tool
            .get("name")
            .and_then(Value::as_str)
            .and_then(|n| by_name.get(n));
        if let Some(declared) = declared {
            restored |= fill_missing(tool, declared);
        }
    }
    if restored {
        m::ServerResult::CustomResult(m::CustomResult::new(wire))
    } else {
        result
    }
}

/// Adds to `wire` every object member `declared` has and `wire` lacks, recursively
/// through objects and through arrays of the same length. Returns whether it added any.
fn fill_missing(wire: &mut Value, declared: &Value) -> bool {
    match (wire, declared) {
        (Value::Object(wire), Value::Object(declared)) => fill_missing_members(wire, declared),
        (Value::Array(wire), Value::Array(declared)) if wire.len() == declared.len() => wire
            .iter_mut()
            .zip(declared)
            .fold(false, |added, (w, d)| fill_missing(w, d) | added),
        _ => false,
    }
}

fn fill_missing_members(wire: &mut Map<String, Value>, declared: &Map<String, Value>) -> bool {
    let mut added = false;
    for (key, value) in declared {
        match wire.get_mut(key) {
            Some(kept) => added |= fill_missing(kept, value),
            None => {
                wire.insert(key.clone(), value.clone());
                added = true;
            }
        }
    }
    added
}

/// rmcp's [`ServerHandler`] over the router; [`McpServer`] wraps it as a [`Service`].
#[derive(Debug, Clone)]
struct RouterHandler {
    router: Arc<Router>,
    /// `Router::list_tools` per version (in [`ProtocolVersion::ALL`] order), computed on
    /// first use: the router no longer changes once served, and both the rmcp answer
    /// and the write-back of dropped members read the listing.
    listings: Arc<Vec<OnceLock<Vec<Value>>>>,
}

impl RouterHandler {
    /// The router's `tools/list` projection for `version`.
    fn listing(&self, version: ProtocolVersion) -> &[Value] {
        let index = ProtocolVersion::ALL.iter().position(|v| *v == version);
        match index.and_then(|i| self.listings.get(i)) {
            Some(cell) => cell.get_or_init(|| self.router.list_tools(version)),
            // Every version is in `ALL`; nothing to cache otherwise.
            None => &[],
        }
    }

    fn versions(&self) -> Vec<m::ProtocolVersion> {
        self.router
            .info()
            .protocol_versions
            .iter()
            .copied()
            .map(to_rmcp_version)
            .collect()
    }
}

impl RouterHandler {
    /// The [`Context`] of a `prompts/get`, `resources/read` or `completion/complete`:
    /// the client through rmcp before MCP 2026-07-28 (from 2026-07-28 on, client input
    /// comes through input-required results, which only `tools/call` serves).
    fn primitive_context(
        &self,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) -> Context {
        if version >= ProtocolVersion::V2026_07_28 {
            return Context::new(version);
        }
        let capabilities = context
            .client_capabilities()
            .and_then(|c| serde_json::to_value(c).ok());
        Context::with_peer(
            version,
            Arc::new(RmcpClientPeer {
                peer: context.peer.clone(),
                version,
                capabilities,
            }),
        )
    }
}

/// The router's capabilities for `version` as rmcp's type.
fn capabilities(router: &Router, version: ProtocolVersion) -> m::ServerCapabilities {
    serde_json::from_value(Value::Object(router.capabilities(version))).unwrap_or_default()
}

/// Native list items as rmcp's types; an item rmcp cannot represent is an internal
/// error naming it (only a declaration the validator rejects gets there).
fn from_values<T: serde::de::DeserializeOwned>(
    items: Vec<Value>,
    what: &str,
) -> Result<Vec<T>, ErrorData> {
    items
        .into_iter()
        .map(|item| {
            serde_json::from_value(item.clone()).map_err(|e| {
                ErrorData::internal_error(format!("the {what} {item} cannot be listed: {e}"), None)
            })
        })
        .collect()
}

/// A result's wire JSON as rmcp's type.
fn from_wire<T: serde::de::DeserializeOwned>(wire: Value, what: &str) -> Result<T, ErrorData> {
    serde_json::from_value(wire)
        .map_err(|e| ErrorData::internal_error(format!("the {what} cannot be sent: {e}"), None))
}

/// Serves `router` as an MCP server on stdin/stdout until the client disconnects.
///
/// Must run inside a Tokio runtime. Refuses to start when the router has registration
/// errors ([`Error::InvalidRouter`]), so a broken tool is noticed at start-up rather
/// than at its first call.
///
/// ```no_run
/// # fn router() -> mcpdesc::Router { unimplemented!() }
/// #[tokio::main]
/// async fn main() -> Result<(), mcpdesc::Error> {
///     mcpdesc::serve_stdio(router()).await
/// }
/// ```
pub async fn serve_stdio(router: Router) -> Result<(), Error> {
    if !router.errors().is_empty() {
        return Err(Error::InvalidRouter(router.errors().to_vec()));
    }
    let running = McpServer::new(router)
        .serve(rmcp::transport::stdio())
        .await
        .map_err(|e| Error::Initialize(e.to_string()))?;
    match running.waiting().await {
        Ok(rmcp::service::QuitReason::JoinError(e)) => Err(Error::Session(e.to_string())),
        Ok(_) => Ok(()),
        Err(e) => Err(Error::Session(e.to_string())),
    }
}

fn to_rmcp_version(version: ProtocolVersion) -> m::ProtocolVersion {
    match version {
        ProtocolVersion::V2024_11_05 => m::ProtocolVersion::V_2024_11_05,
        ProtocolVersion::V2025_03_26 => m::ProtocolVersion::V_2025_03_26,
        ProtocolVersion::V2025_06_18 => m::ProtocolVersion::V_2025_06_18,
        ProtocolVersion::V2025_11_25 => m::ProtocolVersion::V_2025_11_25,
        ProtocolVersion::V2026_07_28 => m::ProtocolVersion::V_2026_07_28,
    }
}

/// The protocol version of the request: the one negotiated at `initialize`, or the one
/// a 2026-07-28 request names in its `_meta`.
fn negotiated(context: &RequestContext<RoleServer>) -> Result<ProtocolVersion, ErrorData> {
    let version = context.protocol_version().ok_or_else(|| {
        ErrorData::invalid_request("no MCP protocol version was negotiated", None)
    })?;
    version.as_str().parse().map_err(|_| {
        ErrorData::invalid_request(format!("unsupported MCP protocol version {version}"), None)
    })
}

fn to_error_data(error: ProtocolError) -> ErrorData {
    ErrorData::new(m::ErrorCode(error.code), error.message, error.data)
}

/// rmcp's `Tool` needs object schemas; a boolean `outputSchema` (possible in
/// 2026-07-28) is written as the equivalent object schema.
fn to_rmcp_tool(mut tool: Value) -> Result<m::Tool, String> {
    if let Some(schema) = tool.get_mut("outputSchema") {
        if let Value::Bool(accepts) = *schema {
            *schema = if accepts {
                json!({})
            } else {
                json!({"not": {}})
            };
        }
    }
    serde_json::from_value(tool).map_err(|e| e.to_string())
}

impl ServerHandler for RouterHandler {
    fn get_info(&self) -> m::ServerConfig {
        let info = self.router.info();
        let mut implementation = m::Implementation::new(info.name.clone(), info.version.clone());
        if let Some(title) = &info.title {
            implementation = implementation.with_title(title.clone());
        }
        if let Some(description) = &info.description {
            implementation = implementation.with_description(description.clone());
        }
        if let Some(url) = &info.website_url {
            implementation = implementation.with_website_url(url.clone());
        }
        // `initialize` answers with the negotiated version's capabilities; this is the
        // newest version's (discovery and the fallback answer use it).
        let newest = info
            .protocol_versions
            .iter()
            .max()
            .copied()
            .unwrap_or(ProtocolVersion::LATEST);
        let mut config = m::ServerConfig::new(capabilities(&self.router, newest))
            .with_server_info(implementation);
        if let Some(instructions) = &info.instructions {
            config = config.with_instructions(instructions.clone());
        }
        // The fallback answer to `initialize`: the newest version we speak; rmcp
        // replaces it with an older one when it has no handshake.
        if let Some(newest) = info.protocol_versions.iter().max() {
            config = config.with_protocol_version(to_rmcp_version(*newest));
        }
        config
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [m::ProtocolVersion]> {
        Cow::Owned(self.versions())
    }

    async fn initialize(
        &self,
        request: m::InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        if let Ok(version) = result.protocol_version.as_str().parse::<ProtocolVersion>() {
            result.capabilities = capabilities(&self.router, version);
        }
        Ok(result)
    }

    async fn list_prompts(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListPromptsResult, ErrorData> {
        let version = negotiated(&context)?;
        let prompts = from_values(self.router.list_prompts(version), "prompt")?;
        Ok(m::ListPromptsResult::with_all_items(prompts))
    }

    async fn get_prompt(
        &self,
        request: m::GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::GetPromptResponse, ErrorData> {
        let version = negotiated(&context)?;
        let cx = self.primitive_context(version, &context);
        let result = self
            .router
            .get_prompt(&request.name, request.arguments, cx)
            .await
            .map_err(to_error_data)?;
        from_wire(result.to_wire(version), "prompt result").map(m::GetPromptResponse::Complete)
    }

    async fn list_resources(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListResourcesResult, ErrorData> {
        let version = negotiated(&context)?;
        let resources = from_values(self.router.list_resources(version), "resource")?;
        Ok(m::ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListResourceTemplatesResult, ErrorData> {
        let version = negotiated(&context)?;
        let templates = from_values(
            self.router.list_resource_templates(version),
            "resource template",
        )?;
        Ok(m::ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: m::ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ReadResourceResponse, ErrorData> {
        let version = negotiated(&context)?;
        let cx = self.primitive_context(version, &context);
        let result = self
            .router
            .read_resource(&request.uri, cx)
            .await
            .map_err(to_error_data)?;
        from_wire(result.to_wire(version), "read result").map(m::ReadResourceResponse::Complete)
    }

    async fn complete(
        &self,
        request: m::CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CompleteResult, ErrorData> {
        let version = negotiated(&context)?;
        let target = match &request.r#ref {
            m::Reference::Prompt(p) => crate::CompletionTarget::prompt(p.name.clone()),
            m::Reference::Resource(r) => crate::CompletionTarget::resource_template(r.uri.clone()),
            #[allow(unreachable_patterns)] // rmcp's enum is non-exhaustive.
            _ => {
                return Err(ErrorData::invalid_params(
                    "unknown completion reference type",
                    None,
                ))
            }
        };
        let mut completion =
            crate::CompletionRequest::new(request.argument.name, request.argument.value);
        if let Some(arguments) = request.context.and_then(|c| c.arguments) {
            completion.context = arguments.into_iter().collect();
        }
        let cx = self.primitive_context(version, &context);
        let result = self
            .router
            .complete(&target, completion, cx)
            .await
            .map_err(to_error_data)?;
        from_wire(result.to_wire(version), "completion result")
    }

    async fn list_tools(
        &self,
        _request: Option<m::PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<m::ListToolsResult, ErrorData> {
        let version = negotiated(&context)?;
        let mut tools = Vec::new();
        for native in self.listing(version) {
            let name = native["name"].as_str().unwrap_or_default();
            match to_rmcp_tool(native.clone()) {
                Ok(tool) => tools.push(tool),
                // Only a declaration the description validator rejects gets here.
                Err(e) => eprintln!("mcpdesc: tool `{name}` left out of tools/list: {e}"),
            }
        }
        Ok(m::ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: m::CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<m::CallToolResponse, ErrorData> {
        let version = negotiated(&context)?;
        let capabilities = context
            .client_capabilities()
            .and_then(|c| serde_json::to_value(c).ok());
        let arguments = request.arguments.map(Value::Object);
        // From 2026-07-28 on there are no server-to-client requests during a call:
        // client input goes through input-required results, and the handler is
        // replayed (input_rounds.rs).
        let rounds = if version >= ProtocolVersion::V2026_07_28 {
            let rounds = InputRounds::resume(
                &request.name,
                arguments.as_ref(),
                request.request_state.as_deref(),
                request.input_responses.unwrap_or_default(),
                capabilities.clone(),
            )
            .map_err(|message| ErrorData::invalid_params(message, None))?;
            Some(Arc::new(rounds))
        } else {
            None
        };
        let peer: Arc<dyn ClientPeer> = match &rounds {
            Some(rounds) => rounds.clone(),
            None => Arc::new(RmcpClientPeer {
                peer: context.peer.clone(),
                version,
                capabilities,
            }),
        };
        let cx = Context::with_peer(version, peer);
        let result = self
            .router
            .call_tool(&request.name, arguments, cx)
            .await
            .map_err(to_error_data)?;
        if let Some(input) = rounds.and_then(|rounds| rounds.input_required()) {
            return to_input_required(input).map(m::CallToolResponse::InputRequired);
        }
        to_complete(result, version)
    }
}

/// A tool result as rmcp's completed `tools/call` response for `version`.
fn to_complete(
    result: ToolResult,
    version: ProtocolVersion,
) -> Result<m::CallToolResponse, ErrorData> {
    let wire = result.to_wire(version);
    let result: m::CallToolResult = serde_json::from_value(wire).map_err(|e| {
        ErrorData::internal_error(format!("the tool result cannot be sent: {e}"), None)
    })?;
    Ok(m::CallToolResponse::Complete(result))
}

/// The requests a round left unanswered as rmcp's input-required result.
fn to_input_required(input: InputRequired) -> Result<m::InputRequiredResult, ErrorData> {
    let mut requests = m::InputRequests::new();
    for (key, request) in input.requests {
        let request = serde_json::from_value(request).map_err(|e| {
            ErrorData::internal_error(
                format!("the input request `{key}` cannot be sent: {e}"),
                None,
            )
        })?;
        requests.insert(key, request);
    }
    Ok(m::InputRequiredResult::new(
        Some(requests),
        Some(input.request_state),
    ))
}

/// A [`ClientPeer`] over rmcp's handle to the connected client.
///
/// It checks that the client declared the capability a request needs (MCP forbids
/// sending the request otherwise) and maps rmcp's errors to [`ClientError`].
#[derive(Debug, Clone)]
pub struct RmcpClientPeer {
    peer: Peer<RoleServer>,
    version: ProtocolVersion,
    /// The client's capabilities as JSON, when known.
    capabilities: Option<Value>,
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
            capabilities,
        }
    }

    fn check(&self, method: &'static str, capability: &[&str]) -> Result<(), ClientError> {
        if self.version >= ProtocolVersion::V2026_07_28 {
            return Err(ClientError::Unsupported(format!(
                "`{method}` cannot be sent during a call in MCP {}: that version carries client input through input-required results, which `McpServer` serves by replaying the handler",
                self.version
            )));
        }
        client_capabilities::require(self.capabilities.as_ref(), method, capability)
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
