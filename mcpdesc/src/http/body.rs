//! The body of every answer of the HTTP layer ([`HttpBody`]) and the small answers
//! each part of the layer writes.

use std::convert::Infallible;

use bytes::Bytes;
use http::header::{self, HeaderValue};
use http::{Response, StatusCode};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full};

/// The body of every answer of the HTTP layer.
pub type HttpBody = BoxBody<Bytes, Infallible>;

/// A `text/plain` answer.
pub(crate) fn text(status: StatusCode, message: String) -> Response<HttpBody> {
    let mut response = Response::new(Full::new(Bytes::from(message)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// An answer without a body.
pub(crate) fn empty(status: StatusCode) -> Response<HttpBody> {
    let mut response = Response::new(Empty::new().boxed());
    *response.status_mut() = status;
    response
}

/// `503 Service Unavailable` with `Retry-After`.
pub(crate) fn unavailable(why: &str, retry_after_s: u32) -> Response<HttpBody> {
    let mut response = text(
        StatusCode::SERVICE_UNAVAILABLE,
        format!("Service Unavailable: {why}"),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_s));
    response
}

/// rmcp's answer to a request naming a session it does not know, byte for byte
/// (status, headers, body): also the answer to a session owned by another
/// principal, so that a session's existence does not leak.
pub(crate) fn session_not_found() -> Response<HttpBody> {
    let mut response =
        Response::new(Full::new(Bytes::from_static(b"Not Found: Session not found")).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}
