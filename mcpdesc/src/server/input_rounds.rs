//! Client input in MCP 2026-07-28: input-required results (MRTR, SEP-2322).
//!
//! From 2026-07-28 on a server sends no request to the client during a `tools/call`.
//! When a tool needs the client (elicitation, sampling, roots), the server answers the
//! call with an input-required result listing the requests; the client fulfils them and
//! calls the tool again with the answers (`inputResponses`) and the `requestState` it
//! was given.
//!
//! Handlers stay plain `async fn`s that `await` [`Context`] requests, so
//! the runtime *replays* them: [`InputRounds`] is the [`ClientPeer`] of a 2026-07-28
//! call. The handler's requests are numbered in the order it makes them; a request
//! whose answer is known (from an earlier round, carried in `requestState`, or from
//! this round's `inputResponses`) gets that answer at once; a request with no answer
//! yet fails with [`ClientError::InputRequired`] and is recorded. When the handler
//! returns and something was recorded, the adapter discards the handler's result and
//! answers with an input-required result: the recorded requests keyed with the key
//! the handler named ([`Context::input_key`](super::context::Context::input_key)) or else
//! `input-{n}`, and a new `requestState`. On the retry the handler runs again from
//! the start.
//!
//! The same rounds serve `prompts/get` and `resources/read` (rmcp's
//! `GetPromptResponse` and `ReadResourceResponse` have the input-required form); the
//! state names such a request `prompts/get NAME` or `resources/read URI` where it names
//! a tool, so that no state crosses from one kind of request to another.
//!
//! Decisions (MCP leaves them to the server):
//! - **Replay, not suspension.** Nothing is kept on the server between rounds, so
//!   code a handler runs before its last client request runs once per round: keep it
//!   free of side effects, or idempotent.
//! - **`requestState`** is JSON: a format tag, the tool name, a fingerprint of the
//!   canonical arguments (64-bit FNV-1a), the keys asked for, and every answer so far.
//!   It holds nothing but the client's own answers, so a client that edits it can only
//!   change answers it could have given anyway; the tool name and fingerprint stop a
//!   state from being replayed against another call. A state that does not parse or
//!   does not fit the call is refused as invalid params; an `inputResponses` entry
//!   that was not asked for is ignored, as SEP-2322 says servers should.
//! - A request the client did not declare the capability for fails at once with
//!   [`ClientError::Unsupported`], as in earlier versions; it is never sent.
//!
//! [`Context`]: super::context::Context

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::context::ClientPeer;
use crate::protocol::client_capabilities;
use crate::protocol::error::ClientError;
use crate::protocol::futures::BoxFuture;
use crate::protocol::json::canonical;

/// The format tag of a `requestState` this runtime wrote.
const STATE_FORMAT: &str = "mcpdesc-input-rounds/2";

/// The `requestState` of an input-required result, as JSON.
#[derive(Debug, Serialize, Deserialize)]
struct RequestState {
    format: String,
    tool: String,
    /// [`fingerprint`] of the call's arguments.
    arguments: String,
    /// The `inputRequests` keys of the round that wrote this state, with the number
    /// of the request each names.
    asked: BTreeMap<String, usize>,
    /// Every answer so far, by request number.
    answers: BTreeMap<usize, Value>,
}

/// The requests a round could not answer, to send as an input-required result.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct InputRequired {
    /// `inputRequests`: key → `{"method": ..., "params": ...}`.
    pub requests: BTreeMap<String, Value>,
    /// The `requestState` the client echoes on its retry.
    pub request_state: String,
}

/// The [`ClientPeer`] of one `tools/call` round in MCP 2026-07-28 (see the module docs).
#[derive(Debug)]
pub(crate) struct InputRounds {
    round: Arc<Round>,
}

/// The state of one round, shared with the keyed peers of
/// [`Context::input_key`](super::context::Context::input_key).
#[derive(Debug)]
struct Round {
    tool: String,
    arguments: String,
    capabilities: Option<Value>,
    answers: BTreeMap<usize, Value>,
    next: AtomicUsize,
    /// Requests with no answer yet: number → (key, request object).
    pending: Mutex<BTreeMap<usize, (String, Value)>>,
}

/// The peer of [`ClientPeer::keyed`]: the round's, naming its requests `key`.
#[derive(Debug)]
struct Keyed {
    round: Arc<Round>,
    key: String,
}

impl InputRounds {
    /// The peer for a call of `tool` (or a prompt or resource request named as the
    /// module docs say) with `arguments`, resuming from the call's
    /// `requestState` and `inputResponses` (both absent on a first call).
    /// `capabilities` are the client's declared capabilities as JSON, when known.
    ///
    /// Fails with a message for the client when the state or the responses do not
    /// belong to this call.
    pub fn resume(
        tool: &str,
        arguments: Option<&Value>,
        request_state: Option<&str>,
        input_responses: BTreeMap<String, Value>,
        capabilities: Option<Value>,
    ) -> Result<Self, String> {
        let fingerprint = fingerprint(arguments);
        let mut answers = BTreeMap::new();
        let mut asked = BTreeMap::new();
        if let Some(state) = request_state {
            let state: RequestState = serde_json::from_str(state)
                .ok()
                .filter(|s: &RequestState| s.format == STATE_FORMAT)
                .ok_or("`requestState` was not written by this server")?;
            if state.tool != tool || state.arguments != fingerprint {
                return Err(format!(
                    "`requestState` belongs to another call than this `{tool}` call: retry with the original name and arguments"
                ));
            }
            answers = state.answers;
            asked = state.asked;
        }
        // An entry that was not asked for is ignored (SEP-2322: servers SHOULD).
        for (key, answer) in input_responses {
            if let Some(number) = asked.get(&key) {
                answers.insert(*number, answer);
            }
        }
        Ok(InputRounds {
            round: Arc::new(Round {
                tool: tool.to_owned(),
                arguments: fingerprint,
                capabilities,
                answers,
                next: AtomicUsize::new(0),
                pending: Mutex::new(BTreeMap::new()),
            }),
        })
    }

    /// What to answer instead of the handler's result: `None` when every request the
    /// handler made had an answer.
    pub fn input_required(&self) -> Option<InputRequired> {
        let round = &self.round;
        let pending = round.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.is_empty() {
            return None;
        }
        let requests: BTreeMap<String, Value> = pending
            .values()
            .map(|(key, request)| (key.clone(), request.clone()))
            .collect();
        let state = RequestState {
            format: STATE_FORMAT.to_owned(),
            tool: round.tool.clone(),
            arguments: round.arguments.clone(),
            asked: pending
                .iter()
                .map(|(n, (key, _))| (key.clone(), *n))
                .collect(),
            answers: round.answers.clone(),
        };
        Some(InputRequired {
            requests,
            // A map of strings, numbers and JSON values always serializes.
            request_state: serde_json::to_string(&state).unwrap_or_default(),
        })
    }
}

impl Round {
    /// The answer to the next request, or records it as pending under `key` (else
    /// `input-{n}`; a key already pending gets `-{n}` appended).
    fn ask(
        &self,
        key: Option<&str>,
        method: &'static str,
        capability: &[&str],
        params: Option<Value>,
    ) -> Result<Value, ClientError> {
        client_capabilities::require(self.capabilities.as_ref(), method, capability)?;
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        if let Some(answer) = self.answers.get(&number) {
            return Ok(answer.clone());
        }
        let mut request = json!({ "method": method });
        if let Some(params) = params {
            request["params"] = params;
        }
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let key = match key {
            Some(key) if !pending.values().any(|(k, _)| k == key) => key.to_owned(),
            Some(key) => format!("{key}-{number}"),
            None => format!("input-{number}"),
        };
        pending.insert(number, (key, request));
        Err(ClientError::InputRequired { method })
    }

    fn elicit(&self, key: Option<&str>, params: Value) -> Result<Value, ClientError> {
        let needed = client_capabilities::for_elicitation(&params);
        self.ask(key, "elicitation/create", needed, Some(params))
    }
}

impl ClientPeer for InputRounds {
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self.round.elicit(None, params);
        Box::pin(async move { answer })
    }

    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self
            .round
            .ask(None, "sampling/createMessage", &["sampling"], Some(params));
        Box::pin(async move { answer })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self.round.ask(None, "roots/list", &["roots"], None);
        Box::pin(async move { answer })
    }

    fn keyed(&self, key: &str) -> Option<Arc<dyn ClientPeer>> {
        Some(Arc::new(Keyed {
            round: self.round.clone(),
            key: key.to_owned(),
        }))
    }
}

impl ClientPeer for Keyed {
    fn elicit(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self.round.elicit(Some(&self.key), params);
        Box::pin(async move { answer })
    }

    fn create_message(&self, params: Value) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self.round.ask(
            Some(&self.key),
            "sampling/createMessage",
            &["sampling"],
            Some(params),
        );
        Box::pin(async move { answer })
    }

    fn list_roots(&self) -> BoxFuture<'_, Result<Value, ClientError>> {
        let answer = self
            .round
            .ask(Some(&self.key), "roots/list", &["roots"], None);
        Box::pin(async move { answer })
    }

    fn keyed(&self, key: &str) -> Option<Arc<dyn ClientPeer>> {
        Some(Arc::new(Keyed {
            round: self.round.clone(),
            key: key.to_owned(),
        }))
    }
}

/// 64-bit FNV-1a of the canonical JSON of the arguments, in hex: equal for the same
/// arguments whatever their member order, stable across processes and builds.
fn fingerprint(arguments: Option<&Value>) -> String {
    let text = arguments
        .map(|a| canonical(a).to_string())
        .unwrap_or_default();
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use futures::executor::block_on;

    use super::*;
    use crate::protocol::version::ProtocolVersion;
    use crate::server::client_requests::ElicitAction;
    use crate::server::context::Context;

    fn all_capabilities() -> Option<Value> {
        Some(json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}}))
    }

    /// A handler that asks for a confirmation, then for the roots.
    async fn handler(cx: Context) -> Result<String, ClientError> {
        let answer = cx
            .elicit_form("Play Nf3?", json!({"type": "object"}))
            .await?;
        let roots = cx.list_roots().await?;
        Ok(format!("{:?} in {}", answer.action, roots[0].uri))
    }

    fn round(
        state: Option<&str>,
        responses: &[(&str, Value)],
    ) -> Result<(Arc<InputRounds>, Result<String, ClientError>), String> {
        let responses = responses
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        let args = json!({"move": "Nf3", "depth": 2});
        let rounds = Arc::new(InputRounds::resume(
            "play",
            Some(&args),
            state,
            responses,
            all_capabilities(),
        )?);
        let cx = Context::with_peer(ProtocolVersion::V2026_07_28, rounds.clone());
        let outcome = block_on(handler(cx));
        Ok((rounds, outcome))
    }

    #[test]
    fn a_handler_is_replayed_until_every_request_has_an_answer() {
        // Round 1: the elicitation has no answer.
        let (rounds, outcome) = round(None, &[]).unwrap();
        assert_eq!(
            outcome,
            Err(ClientError::InputRequired {
                method: "elicitation/create"
            })
        );
        let first = rounds.input_required().unwrap();
        assert_eq!(
            first.requests,
            BTreeMap::from([(
                "input-0".to_owned(),
                json!({"method": "elicitation/create", "params": {
                    "mode": "form", "message": "Play Nf3?", "requestedSchema": {"type": "object"}}})
            )])
        );

        // Round 2: the elicitation is answered; the roots are asked for.
        let accept = json!({"action": "accept", "content": {}});
        let (rounds, outcome) = round(Some(&first.request_state), &[("input-0", accept)]).unwrap();
        assert!(
            matches!(
                outcome,
                Err(ClientError::InputRequired {
                    method: "roots/list"
                })
            ),
            "{outcome:?}"
        );
        let second = rounds.input_required().unwrap();
        assert_eq!(
            second.requests,
            BTreeMap::from([("input-1".to_owned(), json!({"method": "roots/list"}))])
        );

        // Round 3: everything is answered (the first answer comes from the state).
        let roots = json!({"roots": [{"uri": "file:///games"}]});
        let (rounds, outcome) = round(Some(&second.request_state), &[("input-1", roots)]).unwrap();
        assert_eq!(outcome.unwrap(), "Accept in file:///games");
        assert_eq!(rounds.input_required(), None);
    }

    #[test]
    fn answers_are_parsed_as_in_a_live_session() {
        let first = round(None, &[]).unwrap().0.input_required().unwrap();
        let args = json!({"move": "Nf3", "depth": 2});
        let responses = BTreeMap::from([("input-0".to_owned(), json!({"action": "decline"}))]);
        let rounds = InputRounds::resume(
            "play",
            Some(&args),
            Some(&first.request_state),
            responses,
            all_capabilities(),
        )
        .unwrap();
        let cx = Context::with_peer(ProtocolVersion::V2026_07_28, Arc::new(rounds));
        let answer = block_on(cx.elicit_form("Play Nf3?", json!({"type": "object"}))).unwrap();
        assert_eq!(answer.action, ElicitAction::Decline);
        let err = block_on(cx.list_roots()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`roots/list` needs the client's answer first: the call ends with an input-required result and runs again when the client retries with the answer"
        );
    }

    #[test]
    fn a_state_from_another_call_is_refused() {
        let state = round(None, &[]).unwrap().0.input_required().unwrap();
        let other_args = json!({"move": "e4"});
        let err = InputRounds::resume(
            "play",
            Some(&other_args),
            Some(&state.request_state),
            BTreeMap::new(),
            all_capabilities(),
        )
        .unwrap_err();
        assert!(err.contains("belongs to another call"), "{err}");
        let err = InputRounds::resume(
            "resign",
            None,
            Some(&state.request_state),
            BTreeMap::new(),
            all_capabilities(),
        )
        .unwrap_err();
        assert!(err.contains("belongs to another call"), "{err}");
        let err = round(Some("{\"forged\": true}"), &[]).unwrap_err();
        assert_eq!(err, "`requestState` was not written by this server");
    }

    #[test]
    fn an_unasked_input_response_is_ignored() {
        // SEP-2322: servers SHOULD ignore entries they did not ask for.
        let state = round(None, &[]).unwrap().0.input_required().unwrap();
        let (rounds, outcome) =
            round(Some(&state.request_state), &[("input-7", json!({}))]).unwrap();
        assert!(matches!(outcome, Err(ClientError::InputRequired { .. })));
        assert!(rounds
            .input_required()
            .unwrap()
            .requests
            .contains_key("input-0"));
        // Not asked yet at all: the handler asks as on a first call.
        let (rounds, _) = round(None, &[("input-0", json!({"action": "accept"}))]).unwrap();
        assert!(rounds.input_required().is_some());
    }

    #[test]
    fn a_handler_names_the_keys_of_its_inputs() {
        async fn named(cx: Context) -> Result<String, ClientError> {
            let who = cx
                .input_key("user_name")
                .elicit_form("Your name?", json!({"type": "object"}))
                .await?;
            let again = cx
                .input_key("user_name")
                .elicit_form("Really?", json!({"type": "object"}))
                .await?;
            Ok(format!("{:?} {:?}", who.action, again.action))
        }
        let run = |state: Option<&str>, responses: &[(&str, Value)]| {
            let responses = responses
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            let rounds = Arc::new(
                InputRounds::resume("greet", None, state, responses, all_capabilities()).unwrap(),
            );
            let cx = Context::with_peer(ProtocolVersion::V2026_07_28, rounds.clone());
            let outcome = block_on(named(cx));
            (rounds, outcome)
        };
        let (rounds, _) = run(None, &[]);
        let first = rounds.input_required().unwrap();
        assert_eq!(first.requests.keys().collect::<Vec<_>>(), ["user_name"]);
        let accept = json!({"action": "accept", "content": {}});
        let (rounds, _) = run(Some(&first.request_state), &[("user_name", accept.clone())]);
        let second = rounds.input_required().unwrap();
        // The key is free again in this round: each round's keys are its own.
        assert_eq!(second.requests.keys().collect::<Vec<_>>(), ["user_name"]);
        let (rounds, outcome) = run(Some(&second.request_state), &[("user_name", accept)]);
        assert_eq!(rounds.input_required(), None);
        assert_eq!(outcome.unwrap(), "Accept Accept");
    }

    #[test]
    fn the_fingerprint_ignores_member_order() {
        let a = json!({"move": "Nf3", "depth": 2});
        let b: Value = serde_json::from_str(r#"{"depth": 2.0, "move": "Nf3"}"#).unwrap();
        assert_eq!(fingerprint(Some(&a)), fingerprint(Some(&b)));
        assert_ne!(fingerprint(Some(&a)), fingerprint(None));
    }

    #[test]
    fn an_undeclared_capability_is_refused_without_asking() {
        let rounds = Arc::new(
            InputRounds::resume("play", None, None, BTreeMap::new(), Some(json!({}))).unwrap(),
        );
        let cx = Context::with_peer(ProtocolVersion::V2026_07_28, rounds.clone());
        let err = block_on(cx.list_roots()).unwrap_err();
        assert!(matches!(err, ClientError::Unsupported(_)), "{err:?}");
        assert_eq!(rounds.input_required(), None);
    }
}
