//! What a request gets from the [`McpServer`] that serves it: its version's
//! capabilities, the session's registration and log level, the handler's
//! [`Context`], and the check of the description's security.

use std::sync::Arc;

use rmcp::service::RequestContext;
use rmcp::{model as m, ErrorData, RoleServer};
use serde_json::{json, Value};

use super::convert::{capabilities_json, negotiated};
use super::http_marks::{request_security, stateless_http};
use super::mcp_server::McpServer;
use super::peer::{RequestClient, RmcpNotifier};
use crate::auth;
use crate::protocol::version::{to_rmcp_version, ProtocolVersion};
use crate::server::context::{ClientPeer, Context};
use crate::server::input_rounds::InputRounds;
use crate::server::notifications::{LogLevel, Notifier};
use crate::server::subscriptions::SessionLink;
use crate::tasks::wire;

impl McpServer {
    pub(super) fn versions(&self) -> Vec<m::ProtocolVersion> {
        self.router
            .info()
            .protocol_versions
            .iter()
            .copied()
            .map(to_rmcp_version)
            .collect()
    }

    /// The server capabilities of `version`, as rmcp's type; without `tasks` when
    /// `stateless` (no session would keep a task).
    pub(super) fn capabilities(
        &self,
        version: ProtocolVersion,
        stateless: bool,
    ) -> m::ServerCapabilities {
        // The router's capabilities are native MCP JSON; rmcp's type reads them all
        // but `tasks`, which rides in `experimental` to the transport, where
        // `tasks::wire::outbound` moves it back.
        let mut native = self.router.capabilities(version);
        if let Some(tasks) = native.as_object_mut().and_then(|c| c.remove("tasks")) {
            if !stateless {
                native["experimental"][wire::CAPABILITY_KEY] = tasks;
            }
        }
        serde_json::from_value(native).unwrap_or_default()
    }

    /// This session in the router's change registry, registered on first use with
    /// the client of `context` (the session's peer: notifications sent through it
    /// outside a request go to the session's standalone stream).
    pub(super) fn join(
        &self,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) -> &SessionLink {
        self.session.link.get_or_init(|| {
            let notifier = Arc::new(RmcpNotifier::new(context.peer.clone()));
            let link = Arc::new(SessionLink::new(
                version,
                self.router.list_changed(version),
                notifier,
            ));
            self.router.changes().register(&link);
            link
        })
    }

    /// The least severe level the client wants in this request, or `None` when
    /// [`Context::log`] must send nothing (see there).
    pub(super) fn log_level(
        &self,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) -> Option<LogLevel> {
        if !self.router.logging(version) {
            return None;
        }
        if version >= ProtocolVersion::V2026_07_28 {
            let level = context.meta.log_level()?;
            return serde_json::to_value(level)
                .ok()
                .and_then(|v| serde_json::from_value(v).ok());
        }
        let set = self.join(version, context).level();
        Some(set.unwrap_or(LogLevel::Debug))
    }

    /// The [`Context`] of a `tools/call`: client requests through `peer`, the
    /// call's cancellation token, its progress token and the client's log level.
    ///
    /// `rounds` carries client input in MCP 2026-07-28; otherwise client requests go
    /// to the request's rmcp client.
    pub(crate) fn context(
        &self,
        version: ProtocolVersion,
        rounds: Option<Arc<InputRounds>>,
        context: &RequestContext<RoleServer>,
        auth: Option<CallAuth>,
    ) -> Context {
        let declared = context.client_capabilities();
        // A client that sent no capabilities declared none.
        let declared_json = capabilities_json(declared.as_ref()).unwrap_or_else(|| json!({}));
        let client = Arc::new(RequestClient::new(context.peer.clone(), version, declared));
        let peer: Arc<dyn ClientPeer> = match rounds {
            Some(rounds) => rounds,
            None => client.clone(),
        };
        let notifier: Arc<dyn Notifier> = client;
        let mut cx = Context::for_request(version, peer, context.ct.clone(), notifier)
            .with_log_level(self.log_level(version, context))
            .with_client_capabilities(declared_json)
            .with_changes(self.router.changes());
        if let Some(token) = context.meta.get_progress_token() {
            if let Ok(token) = serde_json::to_value(token) {
                cx = cx.with_progress_token(token);
            }
        }
        if let Some((authentication, principal)) = auth {
            cx = cx.with_authentication(authentication, principal);
        }
        cx
    }
}

impl McpServer {
    /// The version of a `resources/subscribe` or `resources/unsubscribe`, when the
    /// description declares `resources.subscribe` for it (else `-32601`) and the
    /// request belongs to a session that can be notified later (else `-32600`: a
    /// stateless HTTP request has no session to remember the subscription in).
    pub(super) fn subscription_version(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> Result<ProtocolVersion, ErrorData> {
        let version = negotiated(context)?;
        if !self.router.subscribe(version) {
            return Err(ErrorData::new(
                m::ErrorCode::METHOD_NOT_FOUND,
                "resources/subscribe is not declared by this server for this protocol version",
                None,
            ));
        }
        if stateless_http(context) {
            return Err(ErrorData::invalid_request(
                "resources/subscribe needs a session: this server serves HTTP without sessions",
                None,
            ));
        }
        Ok(version)
    }

    /// Checks the effective Security Requirement of `target` (see [`crate::auth`])
    /// before anything of the request runs: what the caller authenticated, for the
    /// handler's [`Context`], or the JSON-RPC error [`auth::policy::FORBIDDEN_CODE`].
    ///
    /// `target` is only built when security is enforced (it allocates, and a trusted
    /// transport needs none).
    pub(crate) fn authorize(
        &self,
        target: impl FnOnce() -> auth::policy::Target,
        version: ProtocolVersion,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<CallAuth>, ErrorData> {
        if self.trusted || !self.router.enforces_security() {
            return Ok(None);
        }
        let target = target();
        let (authentication, choice) = match request_security(context) {
            Some((authentication, choice)) => (authentication, choice),
            None => (
                Arc::default(),
                auth::declaration::TransportChoice::default(),
            ),
        };
        let requirement = self
            .router
            .effective_security_ref(&target, version, &choice);
        // Only a refusal names what was refused.
        let what = || match &target {
            auth::policy::Target::Tool(name) => format!("the tool `{name}`"),
            auth::policy::Target::Prompt(name) => format!("the prompt `{name}`"),
            auth::policy::Target::Resource(uri) => format!("the resource `{uri}`"),
            auth::policy::Target::Completion(target) => {
                format!("the {} `{}`", target.kind(), target.id())
            }
            auth::policy::Target::Endpoint => "this request".to_owned(),
        };
        match requirement.evaluate(&authentication) {
            auth::requirement::Verdict::Allowed { principal } => {
                Ok(Some((authentication, principal)))
            }
            auth::requirement::Verdict::Unauthenticated => Err(ErrorData::new(
                m::ErrorCode(auth::policy::FORBIDDEN_CODE),
                format!(
                    "Unauthorized: {} needs authentication ({requirement})",
                    what()
                ),
                Some(json!({"status": 401, "error": "unauthorized"})),
            )),
            auth::requirement::Verdict::InsufficientScope { scopes } => Err(ErrorData::new(
                m::ErrorCode(auth::policy::FORBIDDEN_CODE),
                format!(
                    "Forbidden: {} needs the scope(s) {}",
                    what(),
                    scopes.join(" ")
                ),
                Some(
                    json!({"status": 403, "error": "insufficient_scope", "scope": scopes.join(" ")}),
                ),
            )),
        }
    }

    /// The [`Context`] of a `prompts/get`, `resources/read` or `completion/complete`:
    /// as a `tools/call`'s (cancellation, progress token, log level), with the client
    /// through rmcp before MCP 2026-07-28 and through `rounds` (input-required results,
    /// as for `tools/call`) from 2026-07-28 on. `completion/complete` has no
    /// input-required result in 2026-07-28: a client request from a completion handler
    /// fails there with [`ClientError::Unsupported`].
    pub(super) fn primitive_context(
        &self,
        version: ProtocolVersion,
        rounds: Option<Arc<InputRounds>>,
        context: &RequestContext<RoleServer>,
        auth: Option<CallAuth>,
    ) -> Context {
        self.context(version, rounds, context, auth)
    }

    /// The input rounds of a `prompts/get` or `resources/read` in MCP 2026-07-28 (else
    /// `None`): `call` names the request in its `requestState` (`prompts/get NAME`,
    /// `resources/read URI`), so that a state is not replayed against another request.
    pub(super) fn primitive_rounds(
        version: ProtocolVersion,
        call: &str,
        arguments: Option<&Value>,
        request_state: Option<&str>,
        input_responses: Option<m::InputResponses>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Option<Arc<InputRounds>>, ErrorData> {
        if version < ProtocolVersion::V2026_07_28 {
            return Ok(None);
        }
        InputRounds::resume(
            call,
            arguments,
            request_state,
            input_responses.unwrap_or_default(),
            capabilities_json(context.client_capabilities().as_ref()),
        )
        .map(|rounds| Some(Arc::new(rounds)))
        .map_err(|message| ErrorData::invalid_params(message, None))
    }
}

/// What a call authenticated, and which principal satisfied its requirement.
type CallAuth = (Arc<auth::principal::Authentication>, Option<usize>);
