//! The session's answers to the server's client-input requests (`elicitation/create`,
//! `sampling/createMessage`, `roots/list`, sent during a call before MCP 2026-07-28).
//!
//! The session's rmcp client handler is a [`SessionHandler`]: it declares the
//! capabilities of `Options::client_capabilities`
//! and hands each client-input request to the [`ClientPeer`] set with
//! `Session::answer_client_input` (a scripted
//! client replaying an interaction example's steps, for one). The params given to it
//! are the JSON the server sent, recorded off the wire by the tap (rmcp's typed
//! parse would normalize them), so a comparison with an example is exact. With no
//! peer set, a request is refused with a JSON-RPC error: the session answers nothing
//! it was not told to.

// Sampling and roots are deprecated by SEP-2577 in rmcp, still part of MCP 2025-x.
#![allow(deprecated)]

use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientConfig, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams,
    ElicitResult, ErrorCode, ErrorData, ListRootsResult, RequestId,
};
use rmcp::service::RequestContext;
use rmcp::{ClientHandler, RoleClient};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::tap::Tap;
use crate::protocol::error::ClientError;
use crate::protocol::futures::BoxFuture;
use crate::server::context::ClientPeer;

/// Who answers the client-input requests of a session, if anyone.
#[derive(Default)]
pub(crate) struct Answers {
    peer: Mutex<Option<Arc<dyn ClientPeer>>>,
}

impl std::fmt::Debug for Answers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Answers")
            .field("set", &self.peer().is_some())
            .finish()
    }
}

impl Answers {
    /// Sets (or with `None` removes) the peer that answers.
    pub(crate) fn set(&self, peer: Option<Arc<dyn ClientPeer>>) {
        *self.peer.lock().unwrap_or_else(|e| e.into_inner()) = peer;
    }

    fn peer(&self) -> Option<Arc<dyn ClientPeer>> {
        self.peer.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// The rmcp client handler of a `Session`: its `initialize` params
/// and the [`Answers`] to client-input requests.
#[derive(Debug, Clone)]
pub(crate) struct SessionHandler {
    pub(crate) config: ClientConfig,
    pub(crate) answers: Arc<Answers>,
    pub(crate) tap: Arc<Tap>,
}

impl SessionHandler {
    /// The params of request `id` as the server sent them (from the tap), or as rmcp
    /// parsed them when the tap has no record.
    fn params(&self, id: &RequestId, typed: &impl Serialize) -> Value {
        self.tap
            .take_server_request(id)
            .unwrap_or_else(|| serde_json::to_value(typed).unwrap_or(Value::Null))
    }

    async fn answer<T: DeserializeOwned>(
        &self,
        method: &'static str,
        ask: impl FnOnce(Arc<dyn ClientPeer>) -> BoxFuture<'static, Result<Value, ClientError>>,
    ) -> Result<T, ErrorData> {
        let Some(peer) = self.answers.peer() else {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("this client answers no `{method}` request now"),
                None,
            ));
        };
        let answer = ask(peer).await.map_err(|e| match e {
            ClientError::Rejected { code, message, .. } => {
                ErrorData::new(ErrorCode(code), message, None)
            }
            other => ErrorData::internal_error(other.to_string(), None),
        })?;
        serde_json::from_value(answer).map_err(|e| {
            ErrorData::internal_error(format!("the answer to `{method}` is malformed: {e}"), None)
        })
    }
}

impl ClientHandler for SessionHandler {
    fn get_info(&self) -> ClientConfig {
        self.config.clone()
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let params = self.params(&context.id, &request);
        self.answer("elicitation/create", |peer| {
            Box::pin(async move { peer.elicit(params).await })
        })
        .await
    }

    async fn create_message(
        &self,
        request: CreateMessageRequestParams,
        context: RequestContext<RoleClient>,
    ) -> Result<CreateMessageResult, ErrorData> {
        let params = self.params(&context.id, &request);
        self.answer("sampling/createMessage", |peer| {
            Box::pin(async move { peer.create_message(params).await })
        })
        .await
    }

    async fn list_roots(
        &self,
        context: RequestContext<RoleClient>,
    ) -> Result<ListRootsResult, ErrorData> {
        // `roots/list` has no params worth comparing; its record is dropped.
        let _ = self.tap.take_server_request(&context.id);
        self.answer("roots/list", |peer| {
            Box::pin(async move { peer.list_roots().await })
        })
        .await
    }
}
