//! Typed elicitations: a form-mode Elicitation Declaration of the description as a
//! Rust type ([`FormElicitation`], implemented by the generated
//! `elicitations::<primitive>::<declaration>::Declaration`), sent through
//! [`Context::elicit_declared`] and answered as [`Elicited`]: accepted with the form
//! content in its generated type, declined, or cancelled.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::client_requests::{ElicitAction, ElicitRequest};
use super::context::Context;
use crate::protocol::error::ClientError;

/// A form-mode Elicitation Declaration: its message, its `requestedSchema` (JSON
/// text) and the Rust type of the form content (generated from the schema).
pub trait FormElicitation {
    /// The form content an accepting user sends.
    type Content: DeserializeOwned;
    /// The declaration's `message`.
    const MESSAGE: &'static str;
    /// The declaration's `requestedSchema`, as JSON text.
    const REQUESTED_SCHEMA: &'static str;
}

/// The user's answer to a typed elicitation.
#[derive(Debug, Clone, PartialEq)]
pub enum Elicited<T> {
    /// Accepted, with the form content.
    Accept(T),
    /// Declined.
    Decline,
    /// Cancelled (dismissed without a choice).
    Cancel,
}

impl<T> Elicited<T> {
    /// The content, when accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            Elicited::Accept(content) => Some(content),
            _ => None,
        }
    }
}

impl Context {
    /// Sends the form-mode elicitation `D` with its declared message.
    ///
    /// The content of an accepted form is read into `D::Content`; content that does
    /// not fit the type is [`ClientError::InvalidResponse`].
    pub async fn elicit_declared<D: FormElicitation>(
        &self,
    ) -> Result<Elicited<D::Content>, ClientError> {
        self.elicit_declared_with::<D>(D::MESSAGE).await
    }

    /// [`Context::elicit_declared`] with another message (the declaration's is
    /// representative: a handler may say more, such as the move in question).
    pub async fn elicit_declared_with<D: FormElicitation>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicited<D::Content>, ClientError> {
        const METHOD: &str = "elicitation/create";
        let requested_schema: Value =
            serde_json::from_str(D::REQUESTED_SCHEMA).map_err(|e| ClientError::InvalidRequest {
                method: METHOD,
                message: format!("the declared requestedSchema is not JSON: {e}"),
            })?;
        let answer = self
            .elicit(ElicitRequest::Form {
                message: message.into(),
                requested_schema,
            })
            .await?;
        match answer.action {
            ElicitAction::Accept => {
                let content = Value::Object(answer.content.unwrap_or_default());
                serde_json::from_value(content)
                    .map(Elicited::Accept)
                    .map_err(|e| ClientError::InvalidResponse {
                        method: METHOD,
                        message: format!("the accepted form content does not fit its type: {e}"),
                    })
            }
            ElicitAction::Decline => Ok(Elicited::Decline),
            ElicitAction::Cancel => Ok(Elicited::Cancel),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use futures::executor::block_on;
    use serde::Deserialize;
    use serde_json::json;

    use super::*;
    use crate::protocol::futures::BoxFuture;
    use crate::protocol::version::ProtocolVersion;
    use crate::server::context::ClientPeer;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Confirm {
        confirm: bool,
    }

    struct ConfirmDeclaration;
    impl FormElicitation for ConfirmDeclaration {
        type Content = Confirm;
        const MESSAGE: &'static str = "Sure?";
        const REQUESTED_SCHEMA: &'static str =
            r#"{"type": "object", "properties": {"confirm": {"type": "boolean"}}}"#;
    }

    /// A client that answers the one elicitation of the declaration with `response`,
    /// after checking its params (the scripted clients of `examples/` sit above the
    /// server, so this test brings its own).
    struct OneAnswer {
        response: Value,
        asked: Mutex<bool>,
    }

    impl ClientPeer for OneAnswer {
        fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
            assert_eq!(
                params,
                json!({"mode": "form", "message": "Sure?",
                    "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}}})
            );
            *self.asked.lock().unwrap() = true;
            let response = self.response.clone();
            Box::pin(async move { Ok(response) })
        }
        fn create_message(&self, _params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
            Box::pin(async { Err(ClientError::Unsupported("no sampling here".into())) })
        }
        fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
            Box::pin(async { Err(ClientError::Unsupported("no roots here".into())) })
        }
    }

    fn answer(response: Value) -> Result<Elicited<Confirm>, ClientError> {
        let client = Arc::new(OneAnswer {
            response,
            asked: Mutex::new(false),
        });
        let cx = Context::with_peer(ProtocolVersion::V2025_11_25, client.clone());
        let outcome = block_on(cx.elicit_declared::<ConfirmDeclaration>());
        assert!(
            *client.asked.lock().unwrap(),
            "the elicitation was not sent"
        );
        outcome
    }

    #[test]
    fn answers_are_typed() {
        assert_eq!(
            answer(json!({"action": "accept", "content": {"confirm": true}})).unwrap(),
            Elicited::Accept(Confirm { confirm: true })
        );
        assert_eq!(
            answer(json!({"action": "decline"})).unwrap(),
            Elicited::Decline
        );
        assert_eq!(
            answer(json!({"action": "cancel"})).unwrap(),
            Elicited::Cancel
        );
        let err = answer(json!({"action": "accept", "content": {"confirm": "yes"}})).unwrap_err();
        assert!(err.to_string().contains("does not fit its type"), "{err}");
    }
}
