//! The mark of a request to a server without sessions ([`HttpServer::stateless`]),
//! which the HTTP layer leaves in the request for the handler.
//!
//! A handler cannot tell the two modes apart from the request alone: `initialize`
//! names no session in either, and rmcp answers it through the handler in both. So
//! the HTTP layer puts [`Stateless`] in the extensions of each request's
//! `http::request::Parts`, which rmcp hands to the handler in the request context's
//! extensions; [`McpServer`](crate::McpServer) reads it to leave out what no session
//! would keep (MCP 2025-11-25 tasks). A hand-written handler given to
//! [`HttpServer::with_handler`] that delegates to an `McpServer` passes the same
//! context on, so the mark reaches it too.
//!
//! [`HttpServer::stateless`]: super::HttpServer::stateless
//! [`HttpServer::with_handler`]: super::HttpServer::with_handler

/// The mark itself: present in a request's `Parts` extensions when the server keeps
/// no session.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stateless;
