//! Streamable HTTP sessions (feature `client-http`): rmcp's client worker (the MCP
//! session id, the standalone SSE stream, resumption, `DELETE` on close) over an HTTP
//! backend of ours that records raw results.
//!
//! rmcp lets a client bring its own backend through the `StreamableHttpClient` trait.
//! Its reqwest backend parses a JSON response body straight into rmcp's typed message,
//! where the members rmcp does not model are gone, so [`TappedClient`] sends the POSTs
//! itself (with reqwest): a JSON body is parsed once into JSON, noted in the session's
//! [`Tap`], then converted; an SSE body is parsed into events whose data is noted as
//! they pass. The GET stream and `DELETE` go through rmcp's reqwest backend (the GET
//! stream's events are noted too).

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures::stream::BoxStream;
use futures::{Stream, StreamExt, TryStreamExt};
use http::{HeaderName, HeaderValue, StatusCode};
use reqwest::header::{ACCEPT, CONTENT_TYPE, RETRY_AFTER, WWW_AUTHENTICATE};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ErrorData, ServerJsonRpcMessage};
use rmcp::transport::common::http_header::{
    EVENT_STREAM_MIME_TYPE, HEADER_SESSION_ID, JSON_MIME_TYPE,
};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, InsufficientScopeError, SseError, StreamableHttpClient,
    StreamableHttpClientTransportConfig, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use rmcp::transport::StreamableHttpClientTransport;
use serde::Deserialize;
use serde_json::Value;
use sse_stream::{Sse, SseStream};

use super::challenge::{AuthRefusal, Challenge};
use super::error::ConnectError;
use super::handshake::handshake;
use super::session::Options;
use super::session::Session;
use super::tap::Tap;

type HttpError = StreamableHttpError<reqwest::Error>;
type Events = BoxStream<'static, Result<Sse, SseError>>;

/// How much of an unusable body an error message quotes.
const BODY_PREVIEW: usize = 300;

/// Connects to the streamable HTTP endpoint `url`.
pub(crate) async fn connect(options: Options, url: &str) -> Result<Session, ConnectError> {
    let server = url.to_owned();
    if url.starts_with("https://") && !cfg!(feature = "client-https") {
        return Err(ConnectError::Options(format!(
            "`{url}` needs TLS: enable the `client-https` feature of the `mcpdesc` crate"
        )));
    }
    let mut headers = HashMap::new();
    for (name, value) in &options.headers {
        let name = HeaderName::try_from(name.as_str());
        let value = HeaderValue::try_from(value.as_str());
        let (Ok(name), Ok(value)) = (name, value) else {
            return Err(ConnectError::Options(format!(
                "the HTTP header `{}` is not a valid header",
                options
                    .headers
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join("`, `")
            )));
        };
        headers.insert(name, value);
    }
    let client = reqwest::Client::builder()
        .connect_timeout(options.connect_timeout)
        .build()
        .map_err(|e| ConnectError::Transport {
            server: server.clone(),
            message: e.to_string(),
        })?;
    let tap = Arc::new(Tap::default());
    let mut config = StreamableHttpClientTransportConfig::with_uri(url)
        .custom_headers(headers)
        .max_sse_event_size(options.max_message_bytes)
        .max_json_response_size(options.max_message_bytes)
        // An expired session is reported, not silently replaced: a contract check
        // must see it, and a new session would not have the old one's state.
        .reinit_on_expired_session(false);
    if let Some(token) = &options.bearer_token {
        config = config.auth_header(token.clone());
    }
    let backend = TappedClient {
        inner: client,
        tap: tap.clone(),
    };
    // A new transport per handshake attempt: a refused discovery has no session to
    // keep.
    let connection = || StreamableHttpClientTransport::with_client(backend.clone(), config.clone());
    handshake(options, connection, server, tap, None).await
}

/// The HTTP backend: reqwest, with every response noted in the session's tap.
#[derive(Clone)]
pub(crate) struct TappedClient {
    inner: reqwest::Client,
    tap: Arc<Tap>,
}

impl StreamableHttpClient for TappedClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<StreamableHttpPostResponse, HttpError> {
        self.post(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<StreamableHttpPostResponse, HttpError> {
        let mut limits = StreamableHttpResponseLimits::default();
        limits.max_sse_event_size = max_sse_event_size;
        self.post(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, HttpError> {
        self.post(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            limits,
        )
        .await
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), HttpError> {
        self.inner
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<Events, HttpError> {
        let events = self
            .inner
            .get_stream(uri, session_id, last_event_id, auth_header, custom_headers)
            .await?;
        Ok(self.tapped(events))
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<Events, HttpError> {
        let events = self
            .inner
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(self.tapped(events))
    }
}

impl TappedClient {
    /// Notes each event's data in the tap as it passes.
    fn tapped(&self, events: Events) -> Events {
        let tap = self.tap.clone();
        events
            .inspect(move |event| {
                if let Ok(Sse {
                    data: Some(data), ..
                }) = event
                {
                    if let Ok(value) = serde_json::from_str::<Value>(data) {
                        tap.note_incoming(&value);
                    }
                }
            })
            .boxed()
    }

    /// One POST of the streamable HTTP transport.
    async fn post(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> Result<StreamableHttpPostResponse, HttpError> {
        self.tap.note_outgoing(&message);
        let body = serde_json::to_vec(&message)?;
        let mut request = self
            .inner
            .post(uri.as_ref())
            .header(
                ACCEPT,
                format!("{JSON_MIME_TYPE}, {EVENT_STREAM_MIME_TYPE}"),
            )
            .header(CONTENT_TYPE, JSON_MIME_TYPE);
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        for (name, value) in custom_headers {
            request = request.header(name, value);
        }
        if let Some(session_id) = &session_id {
            request = request.header(HEADER_SESSION_ID, session_id.as_ref());
        }
        let response = request.body(body).send().await?;
        let status = response.status();
        if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
            // The session turns the transport error rmcp makes of it into a typed
            // refusal (`RequestError::Unauthorized`, `ConnectError::Forbidden`...).
            let header = response
                .headers()
                .get_all(WWW_AUTHENTICATE)
                .iter()
                .filter_map(|v| v.to_str().ok())
                .collect::<Vec<_>>()
                .join(", ");
            self.tap.note_refusal(AuthRefusal {
                status: status.as_u16(),
                challenges: Challenge::parse_all(&header),
            });
        }
        if let Some(challenge) = response
            .headers()
            .get(WWW_AUTHENTICATE)
            .and_then(|v| v.to_str().ok())
        {
            match status {
                StatusCode::UNAUTHORIZED => {
                    return Err(StreamableHttpError::AuthRequired(AuthRequiredError::new(
                        challenge.to_owned(),
                    )))
                }
                StatusCode::FORBIDDEN => {
                    return Err(StreamableHttpError::InsufficientScope(
                        InsufficientScopeError::new(challenge.to_owned(), None),
                    ))
                }
                _ => {}
            }
        }
        if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        if status == StatusCode::NOT_FOUND && session_id.is_some() {
            return Err(StreamableHttpError::SessionExpired);
        }
        let new_session = response
            .headers()
            .get(HEADER_SESSION_ID)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let is = |mime: &str| {
            content_type
                .as_deref()
                .is_some_and(|ct| media_type_is(ct, mime))
        };

        if status.is_success() && is(EVENT_STREAM_MIME_TYPE) {
            let bytes = response.bytes_stream().map_err(std::io::Error::other);
            let limited = EventSizeLimit::new(bytes, limits.max_sse_event_size);
            let events = SseStream::from_bytes_stream(limited).boxed();
            return Ok(StreamableHttpPostResponse::Sse(
                self.tapped(events),
                new_session,
            ));
        }
        let body = read_body(response, limits.max_json_response_size).await?;
        let awaits_answer = matches!(message, ClientJsonRpcMessage::Request(_));
        if status.is_success() && body.is_empty() && !awaits_answer {
            return Ok(StreamableHttpPostResponse::Accepted);
        }
        let parsed = serde_json::from_slice::<Value>(&body).ok();
        if let Some(value) = &parsed {
            if status.is_success() || value.get("error").is_some() {
                self.tap.note_incoming(value);
            }
        }
        let rpc = parsed
            .as_ref()
            .and_then(|v| ServerJsonRpcMessage::deserialize(v).ok());
        if status.is_success() {
            if !is(JSON_MIME_TYPE) {
                return Err(StreamableHttpError::UnexpectedContentType(content_type));
            }
            return match rpc {
                Some(message) => Ok(StreamableHttpPostResponse::Json(message, new_session)),
                None => Err(StreamableHttpError::UnexpectedServerResponse(
                    format!(
                        "HTTP {status} with a body that is not a JSON-RPC message: {}",
                        preview(&body)
                    )
                    .into(),
                )),
            };
        }
        // A failure status: a JSON-RPC error in the body is the answer.
        if let Some(error @ ServerJsonRpcMessage::Error(_)) = rpc {
            return Ok(StreamableHttpPostResponse::Json(error, new_session));
        }
        // A server older than MCP 2026-07-28 may refuse `server/discover` with a bare
        // client error; as a JSON-RPC error it lets the handshake fall back to
        // `initialize` (rmcp's own backend does the same).
        if let ClientJsonRpcMessage::Request(request) = &message {
            let discover = matches!(request.request, ClientRequest::DiscoverRequest(_));
            if discover
                && session_id.is_none()
                && status.is_client_error()
                && !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN)
            {
                let error = ErrorData::invalid_request(
                    format!(
                        "server/discover rejected with HTTP {status}: {}",
                        preview(&body)
                    ),
                    None,
                );
                return Ok(StreamableHttpPostResponse::Json(
                    ServerJsonRpcMessage::error(error, Some(request.id.clone())),
                    None,
                ));
            }
        }
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            return Err(HttpStatusError::new(status.as_u16(), retry_after).into());
        }
        Err(StreamableHttpError::UnexpectedServerResponse(
            format!("HTTP {status}: {}", preview(&body)).into(),
        ))
    }
}

/// Whether a `Content-Type` value names `mime` (parameters and case ignored).
fn media_type_is(content_type: &str, mime: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(mime))
}

/// The whole body, refused beyond `max` bytes.
async fn read_body(response: reqwest::Response, max: usize) -> Result<Vec<u8>, HttpError> {
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
    }
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk?;
        if chunk.len() > max.saturating_sub(body.len()) {
            return Err(StreamableHttpError::ResponseBodyTooLarge { max_size: max });
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The start of a body, for a message.
fn preview(body: &[u8]) -> String {
    if body.is_empty() {
        return "<empty body>".to_owned();
    }
    super::tap::shorten(&String::from_utf8_lossy(body), BODY_PREVIEW)
}

/// A byte stream that fails when one SSE event grows past a limit (counted between
/// blank lines, whichever of `\n`, `\r\n` or `\r` ends the lines), so that a server
/// cannot make the client buffer an endless event.
struct EventSizeLimit<S> {
    inner: S,
    max: usize,
    /// Bytes of the current event.
    event: usize,
    /// Bytes of the current line.
    line: usize,
    /// The previous byte was `\r` (a following `\n` ends the same line).
    after_cr: bool,
    failed: bool,
}

impl<S> EventSizeLimit<S> {
    fn new(inner: S, max: usize) -> Self {
        EventSizeLimit {
            inner,
            max,
            event: 0,
            line: 0,
            after_cr: false,
            failed: false,
        }
    }

    /// Counts `chunk`; `false` once the current event is too large.
    fn admit(&mut self, chunk: &[u8]) -> bool {
        for &byte in chunk {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = byte == b'\r';
                    if self.line == 0 {
                        self.event = 0;
                    }
                    self.line = 0;
                }
                _ => {
                    self.after_cr = false;
                    self.line += 1;
                    self.event += 1;
                    if self.event > self.max {
                        return false;
                    }
                }
            }
        }
        true
    }
}

impl<S> Stream for EventSizeLimit<S>
where
    S: Stream<Item = Result<Bytes, std::io::Error>> + Unpin,
{
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.failed {
            return Poll::Ready(None);
        }
        match self.inner.poll_next_unpin(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                if self.admit(&chunk) {
                    Poll::Ready(Some(Ok(chunk)))
                } else {
                    self.failed = true;
                    let max = self.max;
                    Poll::Ready(Some(Err(std::io::Error::other(format!(
                        "an SSE event is larger than {max} bytes"
                    )))))
                }
            }
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_size_is_counted_between_blank_lines() {
        let mut limit = EventSizeLimit::new(
            futures::stream::empty::<Result<Bytes, std::io::Error>>(),
            10,
        );
        assert!(limit.admit(b"data: 1234\n\n"));
        assert!(limit.admit(b"data: 1234\r\n\r\n"));
        assert!(limit.admit(b"data: 12\r\rdata: 1234\n\n"));
        // Two lines of one event add up.
        assert!(!limit.admit(b"data: 1\ndata: 2\n\n"));
    }

    #[test]
    fn media_types() {
        assert!(media_type_is(
            "application/json; charset=utf-8",
            JSON_MIME_TYPE
        ));
        assert!(media_type_is("Text/Event-Stream", EVENT_STREAM_MIME_TYPE));
        assert!(!media_type_is("application/jsonl", JSON_MIME_TYPE));
    }
}
