//! Per-client rate limits on the MCP endpoint (feature `rate-limit`): a
//! [`RateLimit`] given to `HttpServer::rate_limit`, enforced with `governor`'s keyed
//! GCRA limiter.
//!
//! Every HTTP request to the endpoint counts (`POST`, the `GET` stream, `DELETE`),
//! after authentication (so the key can be the principal) and before its body is
//! read (a refused request costs nothing more). A client over its limit gets `429
//! Too Many Requests` with `Retry-After` (whole seconds, at least 1) and the request
//! never reaches rmcp. CORS preflights and requests the `Origin` check refuses are
//! not counted.
//!
//! The client is, by default ([`RateLimit::key`] changes it), the subject of the
//! request's principal when a security scheme authenticated it (`sub:SUBJECT`), else
//! the peer's IP address (`ip:ADDRESS`; the port is not part of it, every connection
//! has its own), else `unknown` (one bucket for every client the server cannot tell
//! apart). Behind a reverse proxy every anonymous request has the proxy's address:
//! set a key reading the header the proxy writes (`X-Forwarded-For`, `Forwarded`),
//! and only when the proxy is the only way in.

use std::fmt;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use http::header::{HeaderValue, RETRY_AFTER};
use http::request::Parts;
use http::{HeaderMap, Response, StatusCode};

use super::body::{text, HttpBody};
use super::peer::peer_addr;
use crate::auth::principal::Principal;
use crate::server::adapter::http_marks::RequestSecurity;

/// How often (in checked requests) the limiter forgets clients that are back to a
/// full allowance, so that its memory follows the clients seen recently.
const CLEANUP_EVERY: u64 = 4096;

/// The key function of a [`RateLimit`].
type KeyFn = dyn Fn(&RateLimitClient<'_>) -> String + Send + Sync;

/// A per-client limit on requests to the MCP endpoint (see the module docs of
/// `mcpdesc::http`, "Rate limits").
///
/// ```
/// use mcpdesc::http::RateLimit;
///
/// // 50 requests per second per client, bursts of up to 100.
/// let limit = RateLimit::per_second(50).unwrap().burst(100).unwrap();
/// // Every client behind the same API gateway tenant header shares a budget.
/// let limit = limit.key(|client| {
///     client
///         .headers
///         .get("x-tenant")
///         .and_then(|v| v.to_str().ok())
///         .map_or_else(|| client.default_key(), |tenant| format!("tenant:{tenant}"))
/// });
/// # let _ = limit;
/// ```
#[derive(Clone)]
pub struct RateLimit {
    per_second: NonZeroU32,
    burst: NonZeroU32,
    key: Arc<KeyFn>,
}

/// What a [`RateLimit`]'s key function sees of a request.
#[derive(Debug, Clone, Copy)]
pub struct RateLimitClient<'a> {
    /// The first principal the request's credentials authenticated, if any.
    pub principal: Option<&'a Principal>,
    /// The address of the connection's peer, when the server's own listener accepted
    /// it (`HttpServer::bind`, `serve`).
    pub peer: Option<SocketAddr>,
    /// The request's headers (credentials already removed).
    pub headers: &'a HeaderMap,
    /// The request's extensions (an axum application served with
    /// `into_make_service_with_connect_info` finds its `ConnectInfo` here).
    pub extensions: &'a http::Extensions,
}

impl RateLimitClient<'_> {
    /// The default key: `sub:SUBJECT`, else `ip:ADDRESS`, else `unknown`.
    pub fn default_key(&self) -> String {
        match (self.principal, self.peer) {
            (Some(principal), _) => format!("sub:{}", principal.subject()),
            (None, Some(peer)) => format!("ip:{}", peer.ip()),
            (None, None) => "unknown".to_owned(),
        }
    }
}

impl RateLimit {
    /// `requests` per second per client, in bursts of up to `requests`; `None` for 0.
    pub fn per_second(requests: u32) -> Option<Self> {
        let per_second = NonZeroU32::new(requests)?;
        Some(RateLimit {
            per_second,
            burst: per_second,
            key: Arc::new(|client: &RateLimitClient<'_>| client.default_key()),
        })
    }

    /// The same limit letting a client send up to `requests` at once after a quiet
    /// spell (default: the per-second rate); `None` for 0.
    pub fn burst(mut self, requests: u32) -> Option<Self> {
        self.burst = NonZeroU32::new(requests)?;
        Some(self)
    }

    /// The same limit with clients told apart by `key` (default
    /// [`RateLimitClient::default_key`]).
    pub fn key(
        mut self,
        key: impl Fn(&RateLimitClient<'_>) -> String + Send + Sync + 'static,
    ) -> Self {
        self.key = Arc::new(key);
        self
    }
}

impl fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RateLimit")
            .field("per_second", &self.per_second)
            .field("burst", &self.burst)
            .finish_non_exhaustive()
    }
}

/// A [`RateLimit`] at work: the limiter and its clients' state.
pub(crate) struct Limiter {
    limiter: DefaultKeyedRateLimiter<String>,
    clock: DefaultClock,
    key: Arc<KeyFn>,
    checked: AtomicU64,
}

impl Limiter {
    pub(crate) fn new(limit: &RateLimit) -> Self {
        let quota = Quota::per_second(limit.per_second).allow_burst(limit.burst);
        let clock = DefaultClock::default();
        Limiter {
            limiter: RateLimiter::dashmap_with_clock(quota, clock.clone()),
            clock,
            key: limit.key.clone(),
            checked: AtomicU64::new(0),
        }
    }

    /// Counts the request of `parts`; `429` when its client is over the limit.
    pub(crate) fn check(
        &self,
        parts: &Parts,
        security: Option<&RequestSecurity>,
    ) -> Result<(), Box<Response<HttpBody>>> {
        let principal = security.and_then(|s| s.authentication.entries().first().map(|(_, p)| p));
        let client = RateLimitClient {
            principal,
            peer: peer_addr(&parts.extensions),
            headers: &parts.headers,
            extensions: &parts.extensions,
        };
        let key = (self.key)(&client);
        if self.checked.fetch_add(1, Ordering::Relaxed) % CLEANUP_EVERY == CLEANUP_EVERY - 1 {
            self.limiter.retain_recent();
        }
        match self.limiter.check_key(&key) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                Err(Box::new(too_many(seconds.max(1))))
            }
        }
    }
}

/// `429 Too Many Requests` with `Retry-After`.
fn too_many(retry_after_s: u64) -> Response<HttpBody> {
    let mut response = text(
        StatusCode::TOO_MANY_REQUESTS,
        format!("Too Many Requests: the rate limit is exceeded; retry after {retry_after_s} s"),
    );
    response
        .headers_mut()
        .insert(RETRY_AFTER, HeaderValue::from(retry_after_s));
    response
}
