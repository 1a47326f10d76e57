//! The description's security over real HTTP (loopback, hyper client): 401 with
//! `resource_metadata`, unknown tokens, scopes per tool (the refused handler never
//! runs: counters), Protected Resource Metadata, the principal in `Context`, every
//! scheme type (bearer, oauth2, openIdConnect, apiKey in header/query/cookie,
//! basic), per-transport security, `security: []` and `[{}]`, malformed and
//! misplaced credentials, oversized headers, and the adapter's JSON-RPC refusal when
//! the HTTP layer cannot know the session's version.
//!
//! Files: `support.rs` and `games.rs` (the servers), `bearer.rs`, `schemes.rs`,
//! `transports.rs`, `adapter.rs`, `primitives.rs`, `stdio.rs`.

#![cfg(feature = "http")]

#[path = "../support/wire.rs"]
mod wire;

mod adapter;
mod bearer;
mod games;
mod primitives;
mod schemes;
mod stdio;
mod support;
mod transports;
