//! The address of the client a request came from, as the HTTP listener accepted
//! its connection ([`PeerAddr`], in the request's extensions): what a per-client
//! rate limit keys anonymous requests on.

use std::net::SocketAddr;

/// The peer address of a request's connection, put in the request's extensions by
/// the listener of `HttpServer::bind`/`serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PeerAddr(pub(crate) SocketAddr);

/// The peer address of a request, when the listener of `HttpServer::bind`/`serve`
/// accepted its connection (an application serving `into_service`/`into_router`
/// itself has its own way to say; a rate limit's key function can read it from the
/// request's extensions).
#[cfg_attr(not(feature = "rate-limit"), allow(dead_code))]
pub(crate) fn peer_addr(extensions: &http::Extensions) -> Option<SocketAddr> {
    extensions.get::<PeerAddr>().map(|PeerAddr(addr)| *addr)
}
