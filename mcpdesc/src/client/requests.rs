//! The raw requests of a [`Session`]: any request within a timeout, the primitives'
//! calls, listings over every page ([`Listing`]), and the errors they end with.

use std::collections::HashSet;
use std::time::Duration;

use rmcp::model::{ClientRequest, CustomRequest};
use rmcp::service::{PeerRequestOptions, ServiceError};
use serde_json::{json, Value};

use super::error::{stderr_note, RequestError};
use super::session::{process_end, protocol_error, Session};

/// A listing gathered over every page: the items in order and each page's whole
/// result (its `nextCursor`, `_meta`, anything else the server put there).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Listing {
    /// The items of every page (tools, prompts, resources or resource templates), as
    /// the server sent them.
    pub items: Vec<Value>,
    /// The result object of each page, in order.
    pub pages: Vec<Value>,
}

/// The most pages a listing follows before it reports a pagination loop.
const MAX_PAGES: usize = 10_000;

impl Session {
    /// Sends any request and returns its raw `result`, within the request timeout.
    pub async fn request(
        &self,
        method: &str,
        params: Option<Value>,
    ) -> Result<Value, RequestError> {
        self.request_within(method, params, self.inner.request_timeout)
            .await
    }

    /// [`Session::request`] with its own timeout.
    pub async fn request_within(
        &self,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) -> Result<Value, RequestError> {
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, params));
        let handle = match self
            .inner
            .peer
            .send_request_with_option(request, PeerRequestOptions::with_timeout(timeout))
            .await
        {
            Ok(handle) => handle,
            Err(e) => return Err(self.request_error(method, e).await),
        };
        let id = handle.id.clone();
        match handle.await_response().await {
            Ok(typed) => match &self.inner.tap {
                Some(tap) => tap.take_result(&id).ok_or_else(|| RequestError::Transport {
                    method: method.to_owned(),
                    message: "the response was not recorded off the wire".to_owned(),
                }),
                None => Ok(serde_json::to_value(typed).unwrap_or(Value::Null)),
            },
            Err(e) => {
                if let Some(tap) = &self.inner.tap {
                    tap.forget(&id);
                }
                Err(self.request_error(method, e).await)
            }
        }
    }

    /// `tools/call` with any `arguments` (they are sent as given, valid or not); the
    /// raw result. A tool error is a result (`isError: true`); an unknown tool is
    /// usually a [`RequestError::Protocol`].
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<Value, RequestError> {
        self.request(
            "tools/call",
            Some(json!({"name": name, "arguments": arguments})),
        )
        .await
    }

    /// `prompts/get` with any `arguments`; the raw result.
    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Result<Value, RequestError> {
        self.request(
            "prompts/get",
            Some(json!({"name": name, "arguments": arguments})),
        )
        .await
    }

    /// `resources/read`; the raw result.
    pub async fn read_resource(&self, uri: &str) -> Result<Value, RequestError> {
        self.request("resources/read", Some(json!({"uri": uri})))
            .await
    }

    /// `completion/complete` with the given params (`ref`, `argument`, `context`);
    /// the raw result.
    pub async fn complete(&self, params: Value) -> Result<Value, RequestError> {
        self.request("completion/complete", Some(params)).await
    }

    /// `ping` (MCP 2026-07-28 has none; the server's error comes back).
    pub async fn ping(&self) -> Result<(), RequestError> {
        self.request("ping", None).await.map(drop)
    }

    /// Every page of `tools/list`.
    pub async fn list_tools(&self) -> Result<Listing, RequestError> {
        self.list_all("tools/list", "tools").await
    }

    /// Every page of `prompts/list`.
    pub async fn list_prompts(&self) -> Result<Listing, RequestError> {
        self.list_all("prompts/list", "prompts").await
    }

    /// Every page of `resources/list`.
    pub async fn list_resources(&self) -> Result<Listing, RequestError> {
        self.list_all("resources/list", "resources").await
    }

    /// Every page of `resources/templates/list`.
    pub async fn list_resource_templates(&self) -> Result<Listing, RequestError> {
        self.list_all("resources/templates/list", "resourceTemplates")
            .await
    }

    /// Follows `nextCursor` until a page has none. A cursor seen before, a cursor
    /// that is not a string, or a page without its `member` array is an
    /// [`RequestError::InvalidResult`].
    async fn list_all(&self, method: &str, member: &str) -> Result<Listing, RequestError> {
        let mut listing = Listing::default();
        let mut seen = HashSet::new();
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor.as_ref().map(|c| json!({"cursor": c}));
            let page = self.request(method, params).await?;
            let invalid = |message: String, page: &Value| RequestError::InvalidResult {
                method: method.to_owned(),
                message,
                result: page.clone(),
            };
            let Some(items) = page.get(member).and_then(Value::as_array) else {
                return Err(invalid(format!("the page has no `{member}` array"), &page));
            };
            listing.items.extend(items.iter().cloned());
            let next = match page.get("nextCursor") {
                None | Some(Value::Null) => None,
                Some(Value::String(next)) => Some(next.clone()),
                Some(_) => return Err(invalid("`nextCursor` is not a string".to_owned(), &page)),
            };
            listing.pages.push(page);
            let Some(next) = next else {
                return Ok(listing);
            };
            if !seen.insert(next.clone()) || listing.pages.len() >= MAX_PAGES {
                let page = listing.pages.pop().unwrap_or_default();
                return Err(invalid(
                    format!("the cursor `{next}` leads back to a page already listed (or past {MAX_PAGES} pages)"),
                    &page,
                ));
            }
            cursor = Some(next);
        }
    }

    async fn request_error(&self, method: &str, error: ServiceError) -> RequestError {
        let method = method.to_owned();
        match error {
            ServiceError::McpError(error) => RequestError::Protocol {
                method,
                error: protocol_error(error),
            },
            ServiceError::Timeout { timeout } => RequestError::Timeout {
                method,
                after: timeout,
            },
            ServiceError::TransportClosed | ServiceError::Cancelled { .. } => {
                RequestError::Disconnected {
                    method,
                    cause: self.disconnect_cause().await,
                }
            }
            other => {
                if self.inner.process.is_some() && !self.is_alive() {
                    RequestError::Disconnected {
                        method,
                        cause: self.disconnect_cause().await,
                    }
                } else {
                    match self.inner.tap.as_ref().and_then(|t| t.take_refusal()) {
                        Some(refusal) if refusal.status == 401 => RequestError::Unauthorized {
                            method,
                            challenges: refusal.challenges,
                        },
                        Some(refusal) => RequestError::Forbidden {
                            method,
                            scopes: refusal.scopes(),
                            challenges: refusal.challenges,
                        },
                        None => RequestError::Transport {
                            method,
                            message: other.to_string(),
                        },
                    }
                }
            }
        }
    }

    /// Why the connection ended, as precisely as known.
    async fn disconnect_cause(&self) -> String {
        let process = self.inner.process.as_ref();
        let cause = match (self.inner.tap.as_ref().and_then(|t| t.hangup()), process) {
            (Some(hangup), _) => format!("the server wrote {} on stdout", hangup.describe()),
            (None, Some(process)) => format!("the server {}", process_end(process).await),
            (None, None) if self.inner.service.try_lock().is_ok_and(|s| s.is_none()) => {
                "the session was closed".to_owned()
            }
            (None, None) => "the connection closed".to_owned(),
        };
        let stderr = match process {
            Some(process) => process.settled_stderr_tail().await,
            None => String::new(),
        };
        format!("{cause}{}", stderr_note(&stderr))
    }
}
