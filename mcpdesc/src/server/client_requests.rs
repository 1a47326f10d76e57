//! The requests a handler sends its client through the [`Context`]: elicitation
//! (form and URL mode, the params of each version), sampling and roots.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::context::Context;
use crate::protocol::content::Meta;
use crate::protocol::error::ClientError;
use crate::protocol::version::ProtocolVersion;

/// An elicitation request.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitRequest {
    /// Form mode (2025-06-18 and later): the client asks the user to fill in a form.
    Form {
        /// What the user is asked for.
        message: String,
        /// The restricted form schema (an object of primitive properties).
        requested_schema: Value,
    },
    /// URL mode (2025-11-25 and later): the client sends the user to a URL.
    Url {
        /// Why the user should open the URL.
        message: String,
        /// The URL.
        url: String,
        /// The elicitation id (2025-11-25 requires one; one is generated when `None`).
        elicitation_id: Option<String>,
    },
}

/// The user's decision on an elicitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    /// The user accepted (and, in form mode, filled in the form).
    Accept,
    /// The user declined.
    Decline,
    /// The user dismissed the request.
    Cancel,
}

/// The client's answer to an elicitation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ElicitResponse {
    /// The user's decision.
    pub action: ElicitAction,
    /// The form content, for an accepted form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
    /// Result `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// One root the client exposes (`roots/list`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Literal `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

#[derive(Deserialize)]
struct RootsResult {
    roots: Vec<Root>,
}

impl Context {
    /// Asks the client for elicitation.
    ///
    /// Fails with [`ClientError::Unsupported`] when the negotiated version lacks
    /// elicitation (before 2025-06-18) or the requested mode (URL mode before 2025-11-25).
    /// The params follow the version: 2025-06-18 sends no `mode` member, 2025-11-25
    /// sends an `elicitationId` in URL mode.
    pub async fn elicit(&self, request: ElicitRequest) -> Result<ElicitResponse, ClientError> {
        const METHOD: &str = "elicitation/create";
        let v = self.protocol_version();
        if !v.has_elicitation() {
            return Err(ClientError::Unsupported(format!(
                "elicitation is not defined for MCP {v}"
            )));
        }
        let params = match request {
            ElicitRequest::Form {
                message,
                requested_schema,
            } => {
                let mut params = json!({"message": message, "requestedSchema": requested_schema});
                if v.has_url_elicitation() {
                    params["mode"] = json!("form");
                }
                params
            }
            ElicitRequest::Url {
                message,
                url,
                elicitation_id,
            } => {
                if !v.has_url_elicitation() {
                    return Err(ClientError::Unsupported(format!(
                        "URL-mode elicitation is not defined for MCP {v}"
                    )));
                }
                let mut params = json!({"mode": "url", "message": message, "url": url});
                // 2026-07-28 dropped the id; 2025-11-25 requires it.
                if v == ProtocolVersion::V2025_11_25 || elicitation_id.is_some() {
                    params["elicitationId"] =
                        json!(elicitation_id.unwrap_or_else(new_elicitation_id));
                }
                params
            }
        };
        let result = self.peer(METHOD)?.elicit(params).await?;
        serde_json::from_value(result).map_err(|e| ClientError::InvalidResponse {
            method: METHOD,
            message: e.to_string(),
        })
    }

    /// Asks the client to fill in a form described by `requested_schema`.
    pub async fn elicit_form(
        &self,
        message: impl Into<String>,
        requested_schema: Value,
    ) -> Result<ElicitResponse, ClientError> {
        self.elicit(ElicitRequest::Form {
            message: message.into(),
            requested_schema,
        })
        .await
    }

    /// Asks the client to send the user to `url` (2025-11-25 and later).
    pub async fn elicit_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<ElicitResponse, ClientError> {
        self.elicit(ElicitRequest::Url {
            message: message.into(),
            url: url.into(),
            elicitation_id: None,
        })
        .await
    }

    /// Asks the client to sample a model (`sampling/createMessage`) with the native
    /// params of the negotiated version, and returns the native result.
    ///
    /// ```no_run
    /// # async fn f(cx: mcpdesc::Context) -> Result<(), mcpdesc::ClientError> {
    /// let answer = cx.create_message(serde_json::json!({
    ///     "messages": [{"role": "user", "content": {"type": "text", "text": "Name a chess opening"}}],
    ///     "maxTokens": 50
    /// })).await?;
    /// println!("{}", answer["content"]["text"]);
    /// # Ok(()) }
    /// ```
    pub async fn create_message(&self, params: Value) -> Result<Value, ClientError> {
        self.peer("sampling/createMessage")?
            .create_message(params)
            .await
    }

    /// Asks the client for its roots (`roots/list`).
    pub async fn list_roots(&self) -> Result<Vec<Root>, ClientError> {
        const METHOD: &str = "roots/list";
        let result = self.peer(METHOD)?.list_roots().await?;
        serde_json::from_value::<RootsResult>(result)
            .map(|r| r.roots)
            .map_err(|e| ClientError::InvalidResponse {
                method: METHOD,
                message: e.to_string(),
            })
    }
}

/// A process-unique elicitation id; only uniqueness within the session matters.
fn new_elicitation_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "mcpdesc-elicitation-{}",
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use futures::executor::block_on;

    use super::*;
    use crate::protocol::futures::BoxFuture;
    use crate::server::context::ClientPeer;

    /// Records every request and answers with fixed values.
    #[derive(Default)]
    struct Recorder(Mutex<Vec<(String, Value)>>);

    impl ClientPeer for Recorder {
        fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
            self.0.lock().unwrap().push(("elicit".into(), params));
            Box::pin(async { Ok(json!({"action": "decline"})) })
        }
        fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
            self.0.lock().unwrap().push(("sample".into(), params));
            Box::pin(async {
                Ok(
                    json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}),
                )
            })
        }
        fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
            Box::pin(async { Ok(json!({"roots": [{"uri": "file:///w", "name": "w"}]})) })
        }
    }

    #[test]
    fn no_client() {
        let cx = Context::new(ProtocolVersion::V2025_06_18);
        assert!(!cx.is_connected());
        let err = block_on(cx.elicit_form("x", json!({}))).unwrap_err();
        assert_eq!(err, ClientError::NotConnected("elicitation/create"));
        assert_eq!(
            err.to_string(),
            "no client connected: `elicitation/create` cannot be sent"
        );
    }

    #[test]
    fn elicitation_params_follow_the_version() {
        let peer = Arc::new(Recorder::default());
        let old = Context::with_peer(ProtocolVersion::V2025_06_18, peer.clone());
        let answer = block_on(old.elicit_form("Name?", json!({"type": "object"}))).unwrap();
        assert_eq!(answer.action, ElicitAction::Decline);
        assert!(matches!(
            block_on(old.elicit_url("Open", "https://example.invalid")),
            Err(ClientError::Unsupported(_))
        ));
        let new = Context::with_peer(ProtocolVersion::V2025_11_25, peer.clone());
        block_on(new.elicit_form("Name?", json!({"type": "object"}))).unwrap();
        block_on(new.elicit_url("Open", "https://example.invalid")).unwrap();
        let latest = Context::with_peer(ProtocolVersion::V2026_07_28, peer.clone());
        block_on(latest.elicit_url("Open", "https://example.invalid")).unwrap();

        let calls = peer.0.lock().unwrap();
        assert_eq!(
            calls[0].1,
            json!({"message": "Name?", "requestedSchema": {"type": "object"}})
        );
        assert_eq!(calls[1].1["mode"], "form");
        assert!(calls[2].1["elicitationId"]
            .as_str()
            .unwrap()
            .starts_with("mcpdesc-elicitation-"));
        assert!(calls[3].1.get("elicitationId").is_none());

        let too_old = Context::with_peer(ProtocolVersion::V2025_03_26, peer.clone());
        assert!(matches!(
            block_on(too_old.elicit_form("x", json!({}))),
            Err(ClientError::Unsupported(m)) if m == "elicitation is not defined for MCP 2025-03-26"
        ));
    }

    #[test]
    fn sampling_and_roots() {
        let cx = Context::with_peer(ProtocolVersion::V2025_03_26, Arc::new(Recorder::default()));
        let answer = block_on(cx.create_message(json!({"messages": [], "maxTokens": 1}))).unwrap();
        assert_eq!(answer["model"], "m");
        let roots = block_on(cx.list_roots()).unwrap();
        assert_eq!(roots[0].uri, "file:///w");
        assert_eq!(roots[0].name.as_deref(), Some("w"));
    }
}
