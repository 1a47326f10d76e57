//! The `tools/list` write-back (see the module docs of `super`): the answer to a
//! `tools/list` request, JSON or one event of an SSE stream, completed with
//! [`ToolListings::restore`] before it leaves.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{ready, Context as TaskContext, Poll};

use bytes::{Bytes, BytesMut};
use http::{header, HeaderMap, Response};
use http_body_util::{BodyExt, Full};
use hyper::body::{Body, Frame};
use serde_json::Value;

use super::body::HttpBody;
use super::probe::Probe;
use crate::protocol::version::ProtocolVersion;
use crate::server::adapter::listing::ToolListings;

/// A `tools/list` request whose answer needs the write-back, or an `initialize`
/// whose answer may carry the `tasks` capability (`tasks::wire::outbound`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ListingRequest {
    id: Value,
    version: ProtocolVersion,
    initialize: bool,
}

/// The id of an `initialize` request, whose answer goes through
/// `tasks::wire::outbound`.
pub(crate) fn initialize_request(probe: &Probe) -> Option<ListingRequest> {
    if probe.method.as_deref() != Some("initialize") {
        return None;
    }
    Some(ListingRequest {
        id: probe.id.clone()?,
        version: ProtocolVersion::V2025_11_25,
        initialize: true,
    })
}

/// The id and protocol version of a `tools/list` request: the version the
/// request's `_meta` names, else its `MCP-Protocol-Version` header, else 2025-03-26
/// (rmcp's order and default).
pub(crate) fn tools_list_request(headers: &HeaderMap, probe: &Probe) -> Option<ListingRequest> {
    if probe.method.as_deref() != Some("tools/list") {
        return None;
    }
    let id = probe.id.clone()?;
    let from_meta = probe.meta_version.as_deref();
    let from_header = headers
        .get("mcp-protocol-version")
        .and_then(|v| v.to_str().ok());
    let version = match from_meta.or(from_header) {
        Some(name) => name.parse().ok()?,
        None => ProtocolVersion::V2025_03_26,
    };
    Some(ListingRequest {
        id,
        version,
        initialize: false,
    })
}

/// Completes the answer to `target` in a JSON body or an SSE stream.
pub(crate) async fn restore_in_response(
    response: Response<HttpBody>,
    target: ListingRequest,
    listings: Option<ToolListings>,
) -> Response<HttpBody> {
    let content_type = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let (mut parts, body) = response.into_parts();
    if content_type.starts_with("application/json") {
        // A JSON answer is one finished message.
        let bytes = match body.collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(never) => match never {},
        };
        let bytes = restore_message(&bytes, &target, listings.as_ref()).unwrap_or(bytes);
        parts.headers.remove(header::CONTENT_LENGTH);
        Response::from_parts(parts, Full::new(bytes).boxed())
    } else if content_type.starts_with("text/event-stream") {
        let body = SseRestore {
            inner: body,
            buffer: BytesMut::new(),
            target: Some((target, listings)),
        };
        Response::from_parts(parts, body.boxed())
    } else {
        Response::from_parts(parts, body)
    }
}

/// The JSON-RPC message `bytes` completed by [`ToolListings::restore`] when it
/// answers `target`; `None` when it is another message or nothing was added.
fn restore_message(
    bytes: &[u8],
    target: &ListingRequest,
    listings: Option<&ToolListings>,
) -> Option<Bytes> {
    let mut message: Value = serde_json::from_slice(bytes).ok()?;
    if message.get("id") != Some(&target.id) {
        return None;
    }
    if target.initialize {
        return crate::tasks::wire::outbound(bytes).map(Bytes::from);
    }
    let result = message.get_mut("result")?;
    if !listings?.restore(target.version, result) {
        return None;
    }
    serde_json::to_vec(&message).ok().map(Bytes::from)
}

/// An SSE body in which the event answering a `tools/list` request is completed;
/// every other event passes through unchanged, and once that event is seen the rest
/// of the stream passes through as it comes.
struct SseRestore {
    inner: HttpBody,
    /// Bytes of events not yet complete.
    buffer: BytesMut,
    /// The request to answer; `None` once done.
    target: Option<(ListingRequest, Option<ToolListings>)>,
}

impl SseRestore {
    /// The complete events in the buffer, the answering one completed; `None` when
    /// no event is complete yet.
    fn complete_events(&mut self) -> Option<Bytes> {
        // rmcp ends every event with a blank line ("\n\n").
        let end = self.buffer.windows(2).rposition(|w| w == b"\n\n")? + 2;
        let region = self.buffer.split_to(end);
        let mut out = BytesMut::with_capacity(region.len());
        let mut rest: &[u8] = &region;
        while let Some(at) = rest.windows(2).position(|w| w == b"\n\n") {
            // The event's lines, each with its "\n".
            let (event, next) = (&rest[..=at], &rest[at + 2..]);
            rest = next;
            for line in event.split_inclusive(|b| *b == b'\n') {
                match self.restore_line(line) {
                    Some(restored) => out.extend_from_slice(&restored),
                    None => out.extend_from_slice(line),
                }
            }
            out.extend_from_slice(b"\n");
        }
        Some(out.freeze())
    }

    /// A `data:` line carrying the answer, completed (and the target done); `None`
    /// for any other line.
    fn restore_line(&mut self, line: &[u8]) -> Option<Vec<u8>> {
        let (target, listings) = self.target.as_ref()?;
        let data = line.strip_prefix(b"data:")?;
        let data = data.strip_prefix(b" ").unwrap_or(data).trim_ascii_end();
        let message = restore_message(data, target, listings.as_ref())?;
        self.target = None;
        let mut restored = Vec::with_capacity(message.len() + 7);
        restored.extend_from_slice(b"data: ");
        restored.extend_from_slice(&message);
        restored.push(b'\n');
        Some(restored)
    }
}

impl Body for SseRestore {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut TaskContext<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let this = &mut *self;
        loop {
            if this.target.is_none() {
                if !this.buffer.is_empty() {
                    let rest = this.buffer.split().freeze();
                    return Poll::Ready(Some(Ok(Frame::data(rest))));
                }
                return Pin::new(&mut this.inner).poll_frame(cx);
            }
            match ready!(Pin::new(&mut this.inner).poll_frame(cx)) {
                None => {
                    // The stream ended before the answer: pass on what is left.
                    this.target = None;
                }
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => {
                        this.buffer.extend_from_slice(&data);
                        if let Some(events) = this.complete_events() {
                            return Poll::Ready(Some(Ok(Frame::data(events))));
                        }
                    }
                    Err(other) => return Poll::Ready(Some(Ok(other))),
                },
                Some(Err(never)) => match never {},
            }
        }
    }
}
