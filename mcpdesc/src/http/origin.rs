//! The `Origin` check (DNS rebinding, MCP streamable HTTP) and CORS for the
//! origins a server allows.
//!
//! A request with no `Origin` (any non-browser client) passes. A request whose
//! `Origin` is present and not allowed gets `403 Forbidden` before anything else
//! runs. A preflight (`OPTIONS`) from an allowed origin is answered `204` without
//! authentication; every other answer to an allowed origin carries
//! `Access-Control-Allow-Origin` (that origin, never `*`) and exposes the headers a
//! browser client needs to read.
//!
//! A local server also accepts loopback origins (`http://localhost:PORT`,
//! `http://127.0.0.1:PORT`, `http://[::1]:PORT`, any port, `https` too) without
//! being told: a DNS rebinding attack comes from a page whose origin is a *foreign*
//! name that resolves to a loopback address, never from a loopback origin, and
//! local tools (the MCP Inspector, the official conformance suite) send one. A
//! server is local when it is bound to a loopback address, or, when it does not
//! bind itself (`into_service`, `into_router`), when every host it answers is a
//! loopback name (the default `allowed_hosts`).

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
    /// Whether loopback origins are allowed too (a local server).
    loopback: bool,
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
        Origins {
            allowed,
            loopback: false,
        }
    }

    /// The same set, plus every loopback origin when `loopback`.
    pub(crate) fn with_loopback(mut self, loopback: bool) -> Origins {
        self.loopback = loopback;
        self
    }

    /// The verdict on `headers`' `Origin`.
    pub(crate) fn check(&self, headers: &HeaderMap) -> OriginCheck {
        let Some(value) = headers.get(header::ORIGIN) else {
            return OriginCheck::Absent;
        };
        let allowed = value.to_str().is_ok_and(|origin| {
            let origin = normalize(origin);
            self.allowed.binary_search(&origin).is_ok()
                || (self.loopback && is_loopback_origin(&origin))
        });
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

/// Whether the normalized `origin` is `http(s)://` and a loopback host, any port.
fn is_loopback_origin(origin: &str) -> bool {
    let Some(authority) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    !authority.contains(['/', '@', '?', '#']) && is_loopback_host(authority)
}

/// Whether `host` (a name or address, with or without a port; IPv6 in brackets
/// when a port follows) is `localhost` or a loopback address.
pub(crate) fn is_loopback_host(host: &str) -> bool {
    let host = host.trim();
    let name = match host.strip_prefix('[') {
        // `[::1]` or `[::1]:8080`.
        Some(rest) => match rest.split_once(']') {
            Some((inside, port)) if port.is_empty() || port.starts_with(':') => inside,
            _ => return false,
        },
        // A bare IPv6 address has several colons; a name or IPv4 address at most one.
        None if host.matches(':').count() > 1 => host,
        None => host.split(':').next().unwrap_or(host),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
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
    fn a_local_server_allows_loopback_origins_only() {
        let local = Origins::new(["https://app.example.com".to_owned()]).with_loopback(true);
        for origin in [
            "http://localhost:6274",
            "http://LOCALHOST",
            "http://127.0.0.1:3000",
            "http://127.1.2.3:3000",
            "https://[::1]:8443",
            "https://app.example.com",
        ] {
            assert!(
                matches!(local.check(&with_origin(origin)), OriginCheck::Allowed(_)),
                "{origin}"
            );
        }
        for origin in [
            "http://evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.evil.example:80",
            "http://10.0.0.1:3000",
            "file://localhost",
            "null",
            "http://[::2]:80",
        ] {
            assert!(
                matches!(local.check(&with_origin(origin)), OriginCheck::Refused),
                "{origin}"
            );
        }
        let public = Origins::new(Vec::<String>::new());
        assert!(matches!(
            public.check(&with_origin("http://localhost:6274")),
            OriginCheck::Refused
        ));
    }

    #[test]
    fn loopback_hosts() {
        for host in [
            "localhost",
            "localhost:80",
            "127.0.0.1",
            "::1",
            "[::1]",
            "[::1]:3000",
        ] {
            assert!(is_loopback_host(host), "{host}");
        }
        for host in [
            "example.com",
            "0.0.0.0",
            "[::1",
            "[::1]x",
            "192.168.0.1:80",
            "",
        ] {
            assert!(!is_loopback_host(host), "{host}");
        }
    }

    #[test]
    fn no_origin_is_allowed_by_default() {
        assert!(matches!(
            Origins::default().check(&with_origin("http://localhost:3000")),
            OriginCheck::Refused
        ));
    }
}
