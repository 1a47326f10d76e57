//! A [`ClientPeer`] that plays the client side of a Tool Interaction Example.

use std::sync::Mutex;

use serde_json::Value;

use crate::protocol::error::ClientError;
use crate::protocol::futures::BoxFuture;
use crate::protocol::json::canonical;
use crate::server::context::ClientPeer;

/// A scripted client built from an interaction example's `steps`.
///
/// Each elicitation, sampling or roots request the tool sends is checked against the
/// next step's `request` and answered with the step's `response`:
///
/// - the step's `type` must be the kind of request (`elicitation`, `sampling`, `roots`);
/// - elicitation: `mode` (absent on the wire = `form`), `message`, and `requestedSchema`
///   (form mode) or `url` (URL mode) must equal the step's; the version-specific
///   `elicitationId` is ignored;
/// - sampling: the native params must equal the step's `request` (JSON equality after
///   [`canonical`]; a `_meta` the step does not show is request framing and ignored);
/// - roots: the request has no params.
///
/// A request beyond the last step, or one that does not match, fails with
/// [`ClientError::Rejected`] naming the step; the first such failure is also kept, so
/// [`ScriptedClient::finish`] reports it even when the tool swallowed the error.
/// `finish` also fails when steps were not consumed.
///
/// ```
/// use std::sync::Arc;
/// use mcpdesc::{testing::ScriptedClient, Context, ProtocolVersion};
/// use serde_json::json;
///
/// let steps = json!([{"type": "roots", "request": {}, "response": {"roots": [{"uri": "file:///w"}]}}]);
/// let client = Arc::new(ScriptedClient::new("tool `t`, interaction example `e`", "/tools/0/interactionExamples/e", &steps).unwrap());
/// let cx = Context::with_peer(ProtocolVersion::V2025_11_25, client.clone());
/// assert!(client.finish().unwrap_err().contains("step 0 (roots) was never requested"));
/// let roots = futures::executor::block_on(cx.list_roots()).unwrap();
/// assert_eq!(roots[0].uri, "file:///w");
/// client.finish().unwrap();
/// ```
#[derive(Debug)]
pub struct ScriptedClient {
    what: String,
    pointer: String,
    steps: Vec<Value>,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    next: usize,
    failure: Option<String>,
}

impl ScriptedClient {
    /// A client for `steps` (an array of step objects). `what` names the example in
    /// messages (`tool `x`, interaction example `y``), `pointer` is the example's
    /// pointer in the description (may be empty).
    pub fn new(what: &str, pointer: &str, steps: &Value) -> Result<Self, String> {
        let Some(steps) = steps.as_array() else {
            return Err(format!("{what} ({pointer}/steps): `steps` is not an array"));
        };
        Ok(ScriptedClient {
            what: what.to_owned(),
            pointer: pointer.to_owned(),
            steps: steps.clone(),
            state: Mutex::new(State::default()),
        })
    }

    /// The number of steps.
    pub fn steps(&self) -> usize {
        self.steps.len()
    }

    /// Checks that every step was requested and that no request failed.
    pub fn finish(&self) -> Result<(), String> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(failure) = &state.failure {
            return Err(failure.clone());
        }
        if state.next < self.steps.len() {
            let kind = step_kind(&self.steps[state.next]);
            return Err(format!(
                "{} ({}/steps/{}): step {} ({kind}) was never requested; the tool made {} of {} requests",
                self.what,
                self.pointer,
                state.next,
                state.next,
                state.next,
                self.steps.len()
            ));
        }
        Ok(())
    }

    fn take(
        &self,
        kind: &'static str,
        method: &'static str,
        params: &Value,
    ) -> Result<Value, ClientError> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let i = state.next;
        let outcome = match self.steps.get(i) {
            None => Err(format!(
                "{} ({}/steps): an extra {kind} request after the last step (the example has {} steps): {params}",
                self.what,
                self.pointer,
                self.steps.len()
            )),
            Some(step) => self
                .matches(kind, step, params)
                .map(|()| step.get("response").cloned().unwrap_or(Value::Null))
                .map_err(|why| {
                    format!(
                        "{} ({}/steps/{i}): step {i} does not match the tool's {kind} request: {why}",
                        self.what, self.pointer
                    )
                }),
        };
        state.next += 1;
        outcome.map_err(|message| {
            state.failure.get_or_insert_with(|| message.clone());
            ClientError::Rejected {
                method,
                code: -32603,
                message,
            }
        })
    }

    fn matches(&self, kind: &str, step: &Value, params: &Value) -> Result<(), String> {
        let step_type = step_kind(step);
        if step_type != kind {
            return Err(format!("the step is a `{step_type}` step"));
        }
        let request = step.get("request").cloned().unwrap_or(Value::Null);
        match kind {
            "elicitation" => {
                let mode = |v: &Value| {
                    v.get("mode")
                        .and_then(Value::as_str)
                        .unwrap_or("form")
                        .to_owned()
                };
                let (want, got) = (mode(&request), mode(params));
                if want != got {
                    return Err(format!("mode: expected `{want}`, got `{got}`"));
                }
                let members: &[&str] = if want == "url" {
                    &["message", "url"]
                } else {
                    &["message", "requestedSchema"]
                };
                for m in members {
                    let (w, g) = (
                        request.get(*m).map(canonical),
                        params.get(*m).map(canonical),
                    );
                    if w != g {
                        return Err(format!(
                            "{m}: expected {}, got {}",
                            w.map_or("(absent)".into(), |v| v.to_string()),
                            g.map_or("(absent)".into(), |v| v.to_string())
                        ));
                    }
                }
                Ok(())
            }
            "sampling" => {
                // `_meta` (a progress token rmcp adds, say) is request framing, not
                // part of the step, unless the step shows one.
                let mut got = params.clone();
                if request.get("_meta").is_none() {
                    if let Some(object) = got.as_object_mut() {
                        object.remove("_meta");
                    }
                }
                if canonical(&request) == canonical(&got) {
                    Ok(())
                } else {
                    Err(format!("params: expected {request}, got {got}"))
                }
            }
            _ => Ok(()),
        }
    }
}

impl ScriptedClient {
    /// Answers one entry of an MCP 2026-07-28 `inputRequests` map
    /// (`{"method": ..., "params": ...}`) from the next step, as the matching
    /// [`ClientPeer`] method does; an unknown method fails.
    pub async fn answer_input_request(&self, request: &Value) -> Result<Value, ClientError> {
        let params = request.get("params").cloned().unwrap_or(Value::Null);
        match request.get("method").and_then(Value::as_str) {
            Some("elicitation/create") => self.elicit(params).await,
            Some("sampling/createMessage") => self.create_message(params).await,
            Some("roots/list") => self.list_roots().await,
            other => {
                let message = format!(
                    "{} ({}/steps): an input request of method {other:?}, which no step answers",
                    self.what, self.pointer
                );
                let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
                state.failure.get_or_insert_with(|| message.clone());
                Err(ClientError::Unsupported(message))
            }
        }
    }
}

fn step_kind(step: &Value) -> &str {
    step.get("type").and_then(Value::as_str).unwrap_or("?")
}

impl ClientPeer for ScriptedClient {
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self.take("elicitation", "elicitation/create", &params);
        Box::pin(async move { answer })
    }

    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self.take("sampling", "sampling/createMessage", &params);
        Box::pin(async move { answer })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self.take("roots", "roots/list", &Value::Null);
        Box::pin(async move { answer })
    }
}
