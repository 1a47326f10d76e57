//! The MCP server over the official Rust SDK (`rmcp`): [`McpServer`], an rmcp
//! [`ServerHandler`] for a [`Router`]; [`RestoreDropped`], the service that serves it
//! with every member of its tools; [`serve_stdio`]; and the [`ClientPeer`] and
//! [`Notifier`] over rmcp's client handle.
//!
//! # Known limits of this adapter
//!
//! - rmcp 3.11's `Tool` type has no `execution` member. A `tools/list` answer gets
//!   the members rmcp's types drop written back (see [`ToolListings`]): over stdio by
//!   [`RestoreDropped`], over HTTP by the `http` module. A handler served by another
//!   rmcp transport without either loses them.
//! - MCP 2026-07-28 has no server-to-client requests during a call; it carries client
//!   input through input-required results (MRTR). [`McpServer`] serves them by
//!   replaying the handler: a [`Context`] request with no answer yet ends the round
//!   with an input-required result ([`ClientError::InputRequired`] inside the
//!   handler), and the client's retry runs the handler again with the answers. Code
//!   before a handler's last client request therefore runs once per round. The
//!   `requestState` format and the checks on it are in `input_rounds.rs`; what
//!   cancellation, progress and logging do across rounds is in [`Context`]'s docs.
//!   [`RmcpClientPeer`] itself refuses requests in a 2026-07-28 session.
//! - Cancellation is cooperative: `notifications/cancelled` cancels the call's
//!   [`Context`]; the handler's future is not dropped (it may hold state that must
//!   not be left half-updated), and rmcp sends no answer for a cancelled request.
//!
//! One job per file: `mcp_server.rs` ([`McpServer`](mcp_server::McpServer), its
//! settings, [`RestoreDropped`](mcp_server::RestoreDropped), `serve_stdio`),
//! `request.rs` (what a request gets: its version's capabilities, the session's
//! registration and log level, the handler's `Context`, the security check),
//! `handler.rs` (rmcp's `ServerHandler`: each MCP request through the router),
//! `tasks.rs` (`tasks/*` and task-augmented calls), `peer.rs` (the client of a
//! request as `ClientPeer` and `Notifier`), `convert.rs` (between rmcp's types and
//! the router's JSON), `listing.rs` (the tool listings and the members rmcp drops),
//! `http_marks.rs` (what the HTTP layer leaves in a request for the handler),
//! `shared_tasks.rs` (feature `http`: tasks kept in a shared store, served by every
//! instance);
//! `kept.rs` (a session's log level and subscriptions in a shared store, for a
//! restore on another instance).

pub(crate) mod convert;
pub(crate) mod handler;
pub(crate) mod http_marks;
mod kept;
pub(crate) mod listing;
pub(crate) mod mcp_server;
pub(crate) mod peer;
pub(crate) mod request;
#[cfg(feature = "http")]
pub(crate) mod shared_tasks;
pub(crate) mod tasks;
