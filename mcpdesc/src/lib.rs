//! Runtime support for Rust code generated from MCP Description documents.
//!
//! The code generator turns a description into Rust types, one handler trait per tool
//! and a `router(server)` function. That code calls into this crate:
//!
//! - [`Router`] lists the tools per negotiated protocol version and dispatches
//!   `tools/call`: it checks the arguments against each tool's original `inputSchema`,
//!   contains handler panics, and (by default in debug builds) checks structured output
//!   against the `outputSchema`. It serves prompts, resources, resource templates and
//!   completions the same way ([`primitives`]): lists per version, `prompts/get`,
//!   `resources/read` (URIs matched against RFC 6570 templates, [`UriTemplate`]) and
//!   `completion/complete`, with the JSON-RPC errors MCP asks for bad requests, and the
//!   capabilities per version.
//! - [`ToolResult`], [`Content`] and [`ToolError`] model tool results in the MCP shape;
//!   [`ToolResult::to_wire`] produces the exact shape of one protocol version.
//! - [`Context`] carries the negotiated [`ProtocolVersion`], a [`ClientPeer`] handle
//!   for elicitation, sampling and roots, the call's cancellation, and progress and log
//!   notifications ([`Notifier`]).
//! - With the `rmcp` feature (on by default), [`serve_stdio`] serves a router as an MCP
//!   server over stdio through the official Rust SDK, and [`McpServer`] is the rmcp
//!   `ServerHandler` of a router, for any rmcp transport and for hand-written handlers
//!   that serve the generated tools beside their own.
//! - With the `http` feature, `serve_http` and `http::HttpServer` serve streamable HTTP
//!   at `/mcp` (rmcp's `StreamableHttpService` on hyper), enforcing the description's
//!   security ([`auth`]: authenticators, Security Requirements, 401/403 challenges,
//!   Protected Resource Metadata); a handler reads the caller in
//!   [`Context::principal`].
//! - With the `client` feature (`client-http`, `client-https` for streamable HTTP),
//!   `client::Session` calls any MCP server and returns the JSON it sent.
//!
//! # Features
//!
//! A server crate compiles only what it serves; everything else is asked for by name.
//!
//! - `rmcp` (default): [`serve_stdio`] and [`McpServer`] over the official Rust SDK.
//! - `http`: `serve_http` and `http::HttpServer` (streamable HTTP on hyper);
//!   `axum` adds `HttpServer::into_router()`.
//! - `macros`: the `mcpdesc!` macro. The `build.rs` front end
//!   (`mcpdesc_codegen::Builder` with [`include_generated!`]) does not need it.
//! - `client`: `client::Session` and the generated typed `Client`; `client-http` and
//!   `client-https` add streamable HTTP (`http://`, then TLS). It turns on
//!   `full-validation`, since a client checks against any server's schemas.
//! - `full-validation`: the `jsonschema` crate (with its two regex engines) for tool
//!   schemas the built-in validator does not check whole: `pattern`,
//!   `patternProperties`, `propertyNames`, `multipleOf`, `if`/`then`/`else`,
//!   `unevaluated*`, `prefixItems`, `contains`, `dependent*`, `$id`/`$anchor`, remote
//!   `$ref`s, and `format` in draft-07 (the list is in `docs/generated-code.md`).
//!   Shape-only schemas are checked without it, with the same messages; generated
//!   code that needs it does not compile without it and names the tool and keyword.
//!
//! # Serving a router
//!
//! ```no_run
//! # #[cfg(feature = "rmcp")]
//! # async fn run() -> Result<(), mcpdesc::Error> {
//! use mcpdesc::{Router, ServerInfo, ToolResult, ToolSpec};
//!
//! const PING: ToolSpec = ToolSpec::new("ping", &[], r#"{"name": "ping", "inputSchema": {"type": "object"}}"#);
//! let router = Router::new(ServerInfo::new("demo", "1.0.0"))
//!     .tool(PING, |_args, _cx| Box::pin(async { Ok(ToolResult::text("pong")) }));
//! mcpdesc::serve_stdio(router).await
//! # }
//! ```
//!
//! # What generated code may rely on
//!
//! Generated code uses only these paths (all absolute, starting with `::mcpdesc::`):
//!
//! - the public API: [`Router::new`], [`Router::tool`], [`ToolSpec`] (or
//!   [`ToolSpec::new`]), [`ServerInfo`] (every field, or `..Default::default()`),
//!   [`ProtocolVersion`] variants, [`Context`], [`ToolResult`] (`from_output`,
//!   `from_typed`), [`Typed`], [`ToolError`], [`BoxFuture`], [`parse_arguments`],
//!   [`include_generated!`]; for prompts, resources, templates and completions
//!   [`Router::prompt`], [`Router::resource`], [`Router::resource_template`],
//!   [`Router::completion`], [`PromptSpec::new`],
//!   [`ResourceSpec::new`], [`ResourceTemplateSpec::new`], [`CompletionTarget`],
//!   [`CompletionRequest`], [`PromptResult`], [`ResourceResult`], [`CompletionResult`],
//!   [`RequestError`]; for security [`Router::security`], [`Router::authenticator`],
//!   [`Router::without_authentication`], [`auth::from_fn`], [`auth::Credential`],
//!   [`auth::Secret`], [`auth::AuthRequest`], [`auth::BasicCredentials`],
//!   [`auth::Principal`], [`auth::AuthError`];
//! - `::mcpdesc::__private::{serde, serde_json, futures}`: the exact crate versions this
//!   runtime was built with, so generated `#[derive(::mcpdesc::__private::serde::...)]`
//!   code needs no direct dependency (use `#[serde(crate = "::mcpdesc::__private::serde")]`);
//! - `::mcpdesc::__private::{Arc, Box, boxed, parse_arguments, parse_request}`.
//!
//! - the typed client (feature `client`): `client::Session`,
//!   `client::TypedClient` (`new`, `session`, `validate_inputs`, `call_tool`,
//!   `call_tool_output`, `call_tool_typed`, `get_prompt`, `read_resource`,
//!   `read_resource_template`, `read_resource_template_uri`, `complete`), `CallError`,
//!   and `::mcpdesc::__private::requires_client!`, which wraps the generated `Client`
//!   (one compile error naming the feature when it is off);
//! - `::mcpdesc::__private::full_validation!`: one compile error naming the tool
//!   schemas that need the `full-validation` feature when it is off;
//! - the example support: [`testing`] (checks of Tool Examples and of prompt, resource,
//!   template and completion examples, [`testing::RequestExample`],
//!   [`testing::ScriptedClient`], the contract check) and [`mock`] ([`mock::ExampleBook`],
//!   the deterministic mock, [`mock::Target`], [`mock::Specs`]);
//!   `::mcpdesc::__private::block_on` runs a future in a generated `#[test]`;
//! - the implementation tests (generated with a test server): [`implementation`]
//!   (`check_example`, `check_interaction_example`, `check_prompt_example`,
//!   `check_resource_example`, `check_template_example`, `check_completion_example`,
//!   [`implementation::Compare`]) and [`testing::first_difference`].
//!
//! Everything else in `__private` may change without notice.

#![warn(missing_docs)]

pub mod auth;
#[cfg(feature = "client")]
pub mod client;
mod examples;
mod features;
#[cfg(feature = "http")]
pub mod http;
mod protocol;
mod schema;
mod server;
#[cfg(feature = "http")]
pub mod state;
pub mod tasks;
#[cfg(feature = "telemetry")]
pub mod telemetry;

// The public modules that live in the folder of their role, at their old paths.
#[cfg(feature = "rmcp")]
pub use examples::implementation;
pub use examples::{mock, testing};
pub use protocol::{client_requirements, projection, prompts, resources};
pub use server::primitives;

#[cfg(feature = "http")]
pub use http::serve_http;

// The root API, from the modules that define it.
#[cfg(feature = "client")]
pub use client::call_error::{CallError, CallResult, Violation};
pub use protocol::completions::{
    Completion, CompletionRequest, CompletionResult, CompletionTarget, MAX_COMPLETION_VALUES,
};
pub use protocol::content::{
    Annotations, BlobResourceContents, Content, EmbeddedResource, Icon, MediaContent, Meta,
    ResourceContents, ResourceLink, Role, TextContent, TextResourceContents,
};
pub use protocol::error::{
    ClientError, Error, ProtocolError, RequestError, RouterError, ToolError,
};
pub use protocol::futures::{BoxFuture, RequestFuture, ToolFuture};
pub use protocol::result::{ToolResult, Typed};
pub use protocol::uri_template::UriTemplate;
pub use protocol::version::{ProtocolVersion, UnknownProtocolVersion};
pub use server::client_requests::{ElicitAction, ElicitRequest, ElicitResponse, Root};
pub use server::context::{ClientPeer, Context};
pub use server::elicited::{Elicited, FormElicitation};
pub use server::handlers::parse_arguments;
pub use server::notifications::{LogLevel, Notifier};
pub use server::router::{Handler, Router, ServerInfo, ToolSpec};
pub use server::subscriptions::ChangeNotifier;
// Shown as re-exports of the public modules' items, where the docs list them.
#[doc(no_inline)]
pub use primitives::{CompletionHandler, PromptHandler, ResourceHandler, ResourceTemplateHandler};
#[doc(no_inline)]
pub use prompts::{PromptMessage, PromptResult, PromptSpec};
#[doc(no_inline)]
pub use resources::{CacheScope, ResourceResult, ResourceSpec, ResourceTemplateSpec};
pub use tasks::{TaskLimits, TaskSupport};
/// The cancellation token of a call (see [`Context::cancelled`]); the type rmcp
/// cancels when the client sends `notifications/cancelled`.
pub use tokio_util::sync::CancellationToken;

#[cfg(feature = "rmcp")]
pub use server::adapter::listing::ToolListings;
#[cfg(feature = "rmcp")]
pub use server::adapter::mcp_server::{serve_stdio, McpServer, RestoreDropped};
#[cfg(feature = "rmcp")]
pub use server::adapter::peer::{RmcpClientPeer, RmcpNotifier};

/// The re-exported `rmcp` crate (the version the adapter is built against).
#[cfg(feature = "rmcp")]
pub use rmcp;

/// Includes the code a `build.rs` generated into `$OUT_DIR/<name>.rs`.
///
/// ```ignore
/// mcpdesc::include_generated!("chess"); // include!(concat!(env!("OUT_DIR"), "/chess.rs"))
/// ```
#[macro_export]
macro_rules! include_generated {
    ($name:literal) => {
        ::core::include!(::core::concat!(::core::env!("OUT_DIR"), "/", $name, ".rs"));
    };
}

/// Generates the code of an MCP Description in place, at compile time; the other front
/// end is the `build.rs` helper `mcpdesc_codegen::Builder` with [`include_generated!`].
#[cfg(feature = "macros")]
pub use mcpdesc_macros::mcpdesc;

/// Without the `macros` feature, `mcpdesc!` is one compile error naming the feature
/// (not "cannot find macro").
#[cfg(not(feature = "macros"))]
#[doc(hidden)]
pub use crate::__mcpdesc_without_macros as mcpdesc;

/// Support for generated code; see the crate docs for the paths it may rely on.
#[doc(hidden)]
pub mod __private {
    pub use std::boxed::Box;
    pub use std::sync::Arc;

    pub use futures;
    pub use futures::executor::block_on;
    pub use serde;
    pub use serde_json;

    /// Generated code names the tool schemas only `jsonschema` checks (see
    /// [`full_validation!`](crate::__full_validation)).
    pub use crate::__full_validation as full_validation;
    /// The generated typed `Client` is wrapped in it: its items with the `client`
    /// feature, one compile error without (see [`requires_client!`](crate::__requires_client)).
    pub use crate::__requires_client as requires_client;
    pub use crate::server::handlers::{
        boxed, completion_handler, full_validator_keyword, output, parse_arguments, parse_request,
        prompt_handler, resource_handler, template_handler, tool_output, tool_result, typed,
    };
}
