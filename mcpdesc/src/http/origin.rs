//! The `Origin` check (DNS rebinding, MCP streamable HTTP) and CORS for the
//! origins a server allows.
//!
//! A request with no `Origin` (any non-browser client) passes. A request whose
//! `Origin` is present and not allowed gets `403 Forbidden` before anything else
//! runs. A preflight (`OPTIONS`) from an allowed origin is answered `204` without
//! authentication; every other answer to an allowed origin carries
//! `Access-Control-Allow-Origin` (that origin, never `*`) and exposes the headers a
//! browser client needs to read.

use http::header::{self, HeaderMap, HeaderValue};
use http::{Response, StatusCode};

use super::body::{empty, HttpBody};

/// The methods of the MCP endpoint.
const ALLOW_METHODS: &str = "GET, POST, DELETE, OPTIONS";
/// The request headers an MCP client sends.
const ALLOW_HEADERS: &str =
    "Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID";
/// The response headers an MCP client reads.
const EXPOSE_HEADERS: &str = "Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate";
/// How long a browser may cache a preflight answer (seconds).
const MAX_AGE: &str = "600";

/// The allowed origins, normalized (`scheme://host[:port]`, lower case, no
/// trailing slash).
#[derive(Debug, Clone, Default)]
pub(crate) struct Origins {
    allowed: Vec<String>,
}

/// What the `Origin` header of a request says.
pub(crate) enum OriginCheck {
    /// No `Origin`: not a browser's cross-origin request.
    Absent,
    /// An allowed origin (the header's value, echoed in CORS answers).
    Allowed(HeaderValue),
    /// A present origin that is not allowed.
    Refused,
}

impl Origins {
    /// The set of `origins`.
    pub(crate) fn new(origins: impl IntoIterator<Item = String>) -> Origins {
        let mut allowed: Vec<String> = origins.into_iter().map(|o| normalize(&o)).collect();
        allowed.sort();
        allowed.dedup();
        Origins { allowed }
    }

    /// The verdict on `headers`' `Origin`.
    pub(crate) fn check(&self, headers: &HeaderMap) -> OriginCheck {
        let Some(value) = headers.get(header::ORIGIN) else {
            return OriginCheck::Absent;
        };
        let allowed = value
            .to_str()
            .is_ok_and(|origin| self.allowed.binary_search(&normalize(origin)).is_ok());
        if allowed {
            OriginCheck::Allowed(value.clone())
        } else {
            OriginCheck::Refused
        }
    }
}

/// `scheme://host[:port]` in lower case, without a trailing slash or the default
/// port of its scheme.
fn normalize(origin: &str) -> String {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    for (scheme, port) in [("http://", ":80"), ("https://", ":443")] {
        if origin.starts_with(scheme) {
            if let Some(bare) = origin.strip_suffix(port) {
                return bare.to_owned();
            }
        }
    }
    origin
}

/// `403 Forbidden` for a foreign origin.
pub(crate) fn forbidden() -> Response<HttpBody> {
    super::body::text(
        StatusCode::FORBIDDEN,
        "Forbidden: the request's Origin is not allowed".into(),
    )
}

/// The `204` answer to a preflight from `origin`.
pub(crate) fn preflight(origin: &HeaderValue) -> Response<HttpBody> {
    let mut response = empty(StatusCode::NO_CONTENT);
    decorate(&mut response, origin);
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(ALLOW_METHODS),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(ALLOW_HEADERS),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static(MAX_AGE),
    );
    response
}

/// Adds the CORS headers of an answer to `origin`.
pub(crate) fn decorate(response: &mut Response<HttpBody>, origin: &HeaderValue) {
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSE_HEADERS),
    );
    headers.append(header::VARY, HeaderValue::from_static("Origin"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_origin(origin: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        headers
    }

    #[test]
    fn origins_match_after_normalizing() {
        let origins = Origins::new(["https://App.example.com:443/".to_owned()]);
        assert!(matches!(
            origins.check(&with_origin("https://app.example.com")),
            OriginCheck::Allowed(_)
        ));
        assert!(matches!(
            origins.check(&with_origin("https://app.example.com:8443")),
            OriginCheck::Refused
        ));
        assert!(matches!(
            origins.check(&HeaderMap::new()),
            OriginCheck::Absent
        ));
    }

    #[test]
    fn no_origin_is_allowed_by_default() {
        assert!(matches!(
            Origins::default().check(&with_origin("http://localhost:3000")),
            OriginCheck::Refused
        ));
    }
}
