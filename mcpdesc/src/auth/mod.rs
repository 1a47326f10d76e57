//! Enforcing the description's security: who may call what.
//!
//! A description declares `securitySchemes` (`http` bearer or basic, `apiKey` in a
//! header, query parameter or cookie, `oauth2`, `openIdConnect`) and Security
//! Requirements at the root, per transport and per primitive. The runtime enforces
//! them on streamable HTTP (`mcpdesc::http`, feature `http`), following the MCP
//! authorization specification (2025-06-18 and later) and OAuth 2.0 Protected
//! Resource Metadata (RFC 9728).
//!
//! # The pieces
//!
//! - An [`Authenticator`] verifies a [`Credential`] and returns the [`Principal`]
//!   (subject, scopes, claims) or an [`AuthError`]. Generated code has a typed
//!   `Authenticator` trait with one method per scheme, which the generated `Server`
//!   requires like a tool trait; [`StaticTokens`] is a fixed table for tests and
//!   `mcpdesc serve-mock --token`. With the feature `jwt`, `jwt::JwtAuthenticator`
//!   verifies JWT access tokens against the issuer's JWKS (the `jwt` module).
//! - The [`Router`](crate::server::router::Router) holds the description's security
//!   ([`Router::security`], generated code passes it) and
//!   the authenticator ([`Router::authenticator`]), or
//!   an explicit opt-out ([`Router::without_authentication`],
//!   generated `router_behind_gateway`) for a server behind a gateway that checks
//!   every request itself.
//! - A handler reads the principal from its `Context`
//!   ([`Context::principal`](crate::server::context::Context::principal)).
//!
//! # The effective requirement
//!
//! Per the specification's precedence, by replacement, never by merging: the
//! primitive's own `security`, else the served transport's, else the root's, else
//! nothing ([`Router::effective_security`]). The
//! served transport is the description's HTTP transport entry for the request's
//! protocol version: by default the first `streamable-http` entry whose scope has the
//! version (else the first `sse` one), or the entry whose `url` the server names
//! ([`TransportChoice`]). A requirement is satisfied by one of its alternatives (OR),
//! each needing every scheme it names to have authenticated the request (AND), each
//! principal holding the scopes listed. Not stating security, `security: []` and an
//! alternative `{}` all make a requirement public.
//!
//! Requests are mapped to what they touch: `tools/call` (the tool), `prompts/get`
//! (the prompt), `resources/read` (the resource with that URI, else the template it
//! expands), `completion/complete` (the prompt or template completed). Every other
//! request, and a name the server does not have, gets the *endpoint requirement*
//! ([`Router::endpoint_security`]): what lets the
//! caller do anything at all, so a caller who can do nothing is refused at
//! `initialize`, the way MCP clients expect to discover authorization.
//!
//! # Over HTTP
//!
//! Before anything else, before rmcp looks at the session, the request's credentials
//! are taken from where the active schemes say (`Authorization: Bearer` for
//! `oauth2`, `openIdConnect` and `http` `bearer`; `Authorization: Basic` for `http`
//! `basic`; the API key's header, query parameter or cookie) and each is verified.
//! Then:
//!
//! | situation | answer |
//! |---|---|
//! | no credential where the requirement needs one | `401`, a `WWW-Authenticate` challenge per scheme the requirement names |
//! | a credential no scheme accepts (unknown, expired...) | `401`, `error="invalid_token"` |
//! | a malformed `Authorization` header, two of them, a scheme nothing declared, an access token in the URL query, an API key in another place than its scheme says | `401`, `error="invalid_request"` |
//! | every scheme authenticated, a scope missing | `403`, `Bearer error="insufficient_scope", scope="..."` |
//! | the authenticator could not decide ([`AuthError::unavailable`]) and no scheme accepted the credential, or the requirement needs the undecided scheme | `503` |
//! | request headers over the limit | `431` from hyper, before any of this |
//!
//! Challenges: `Bearer resource_metadata="<metadata URL>", scope="..."` for
//! `oauth2`, `openIdConnect` and `http` `bearer`; `Basic realm="<server name>",
//! charset="UTF-8"`; for an `apiKey` scheme (HTTP has no standard challenge for it)
//! `ApiKey realm="<server name>", in="header", name="X-API-Key"` naming where the key
//! goes; another `http` scheme gets `<Scheme> realm="<server name>"`.
//!
//! **Per-primitive requirements are answered with HTTP statuses too.** The server
//! reads the JSON-RPC body (it reads whole bodies anyway, under the body limit), finds
//! what the request touches and answers `401`/`403` before rmcp dispatches it, as
//! the MCP authorization specification expects for insufficient scopes. The
//! protocol version comes from the request's `_meta`, else its
//! `MCP-Protocol-Version` header; when neither says and the primitive's variants
//! disagree about security, the decision is left to the handler adapter, which knows
//! the session's version and refuses with the JSON-RPC error
//! [`FORBIDDEN_CODE`] (data: `status` 401 or 403, `error`, `scope`). The adapter
//! checks every call again either way, so a handler never runs when refused.
//!
//! Credentials are removed from the request once verified: rmcp and the handlers
//! never see them (no token passthrough), and no log line of this crate or of rmcp
//! can show one. [`Credential`]'s `Debug` output hides the secret.
//!
//! **Listings are not filtered.** `tools/list`, `prompts/list`, `resources/list`
//! and `resources/templates/list` show every primitive to whoever passes the
//! endpoint requirement. The description is the public contract already, and a
//! client must see a tool to ask for the scope it needs (the 403's `scope` is how
//! it learns which): hiding it would make step-up authorization impossible.
//!
//! # Protected Resource Metadata
//!
//! An HTTP server that enforces security serves RFC 9728 metadata at
//! `/.well-known/oauth-protected-resource` and at the path-suffixed form
//! `/.well-known/oauth-protected-resource/mcp`:
//!
//! - `resource`: the URL set in code (`HttpServer::resource_url`), else the served
//!   transport's declared `url`, else the URL the request reached (`http://<Host>/mcp`);
//! - `authorization_servers`: set in code (`HttpServer::authorization_servers`),
//!   else derived without any network access: the origin (`scheme://host[:port]`) of
//!   every URL of every `oauth2` flow (`authorizationUrl`, `tokenUrl`, `refreshUrl`),
//!   and for `openIdConnect` the issuer its `openIdConnectUrl` names: the URL without
//!   `/.well-known/openid-configuration` (or the RFC 8414 forms
//!   `/.well-known/oauth-authorization-server{path}` and
//!   `/.well-known/openid-configuration{path}`), else its origin; schemes in name
//!   order, duplicates dropped;
//! - `scopes_supported`: every scope of the `oauth2` scope catalogues and every scope
//!   a requirement names for an `oauth2` or `openIdConnect` scheme, sorted;
//! - `bearer_methods_supported: ["header"]`, and `resource_name` (`info.title`, else
//!   `info.name`).
//!
//! # On stdio
//!
//! MCP's stdio transport carries no credentials, and the MCP authorization
//! specification says stdio servers should not follow it but take credentials from
//! their environment. The process runs with the rights of the user who started it,
//! for the client that started it. So `serve_stdio` does not enforce the
//! description's security: every primitive is served and handlers see no principal.
//! A server that must not run without a credential checks its environment before
//! serving. An [`McpServer`] served through another rmcp
//! transport does enforce (with no credentials, only public primitives can be
//! called) unless told that the transport is trusted
//! ([`McpServer::trusted_transport`]).
//!
//! # Not done
//!
//! Sessions are not bound to the principal that opened them: every request is
//! authenticated on its own, so a session id alone grants nothing.
//!
//! [`Router::security`]: crate::server::router::Router::security
//! [`Router::authenticator`]: crate::server::router::Router::authenticator
//! [`Router::without_authentication`]: crate::server::router::Router::without_authentication
//! [`Router::effective_security`]: crate::server::router::Router::effective_security
//! [`Router::endpoint_security`]: crate::server::router::Router::endpoint_security
//! [`McpServer`]: crate::server::adapter::mcp_server::McpServer
//! [`McpServer::trusted_transport`]: crate::server::adapter::mcp_server::McpServer::trusted_transport

pub(crate) mod authenticator;
pub(crate) mod credential;
pub(crate) mod declaration;
#[cfg(feature = "jwt")]
pub mod jwt;
pub(crate) mod policy;
pub(crate) mod principal;
pub(crate) mod requirement;

// RFC 9728 Protected Resource Metadata, served over HTTP (`http/security/`).
pub use authenticator::{from_fn, Authenticator, StaticTokens};
pub use credential::{AuthRequest, BasicCredentials, Credential, Secret};
pub use declaration::{
    ApiKeyLocation, OAuthFlow, SchemeKind, SecurityDeclaration, SecurityScheme, TransportChoice,
    TransportEntry,
};
pub use policy::{Target, FORBIDDEN_CODE};
pub use principal::{AuthError, AuthErrorKind, Authentication, Principal};
pub use requirement::{Alternative, Requirement, Verdict};

#[cfg(feature = "http")]
pub use crate::http::security::metadata;
