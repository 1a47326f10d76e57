//! The server side of the generated module: description constants, one handler trait
//! per tool, the `Server` trait and `router(server)`.
//!
//! For a description with tools `analyze_game` (with an `outputSchema`) and
//! `get_player_rating` (without), the emitted code has this shape:
//!
//! ```text
//! /// The description's `info` and `instructions`.
//! pub mod info {
//!     pub const NAME: &str = "chess-server";
//!     pub const VERSION: &str = "1.0.0";
//!     pub const TITLE: Option<&str> = Some("Chess Analysis Server");
//!     pub const DESCRIPTION: Option<&str> = ...;
//!     pub const WEBSITE_URL: Option<&str> = None;
//!     pub const INSTRUCTIONS: Option<&str> = Some("Use analyze_game ...");
//!     pub const PROTOCOL_VERSIONS: &[::mcpdesc::ProtocolVersion] = &[...];
//!     pub const CAPABILITIES: Option<&str> = Some(r#"[{"logging":{}}]"#); // or None
//!     pub fn server_info() -> ::mcpdesc::ServerInfo { ... }
//! }
//! /// Per-tool metadata: the name, and the spec (scope, resolved declaration) as data.
//! pub mod tools {
//!     pub mod analyze_game {
//!         pub const NAME: &str = "analyze_game";
//!         pub const SPEC: ::mcpdesc::ToolSpec =
//!             ::mcpdesc::ToolSpec::new(NAME, &[...], r#"{"name":"analyze_game",...}"#);
//!     }
//! }
//! /// Analyze Chess Game: Analyze a chess game from PGN notation ...
//! // `impl ToolFuture<T>`: a `Send` future of `Result<T, ToolError>`; implement it with
//! // `async fn analyze_game(&self, ...) -> Result<types::AnalyzeGameOutput, ToolError>`
//! pub trait AnalyzeGame: Send + Sync {
//!     fn analyze_game(&self, input: types::AnalyzeGameInput, cx: ::mcpdesc::Context)
//!         -> impl ::mcpdesc::ToolFuture<types::AnalyzeGameOutput>;
//!     /// Override to return content blocks beside the typed output.
//!     fn analyze_game_with_content(&self, input: ..., cx: ...)
//!         -> impl ::mcpdesc::ToolFuture<::mcpdesc::Typed<types::AnalyzeGameOutput>>
//!     { ::mcpdesc::__private::typed(self.analyze_game(input, cx)) }
//! }
//! pub trait GetPlayerRating: Send + Sync {
//!     fn get_player_rating(&self, input: types::GetPlayerRatingInput, cx: ::mcpdesc::Context)
//!         -> impl ::mcpdesc::ToolFuture<::mcpdesc::ToolResult>;
//! }
//! /// Implemented for every type that implements all tool traits.
//! pub trait Server: AnalyzeGame + GetPlayerRating + Send + Sync + 'static {}
//! impl<T: AnalyzeGame + GetPlayerRating + Send + Sync + 'static> Server for T {}
//! pub fn router<S: Server>(server: S) -> ::mcpdesc::Router {
//!     let server = ::mcpdesc::__private::Arc::new(server);
//!     ::mcpdesc::Router::new(info::server_info())
//!         .security(info::SECURITY)
//!         // one line per tool; the runtime's generic helper parses, calls, shapes
//!         .tool(tools::analyze_game::SPEC, ::mcpdesc::__private::tool_output(&server,
//!             |s, input, cx| async move { AnalyzeGame::analyze_game_with_content(&*s, input, cx).await }))
//!         .tool(tools::get_player_rating::SPEC, ::mcpdesc::__private::tool_result(&server,
//!             |s, input, cx| async move { GetPlayerRating::get_player_rating(&*s, input, cx).await }))
//! }
//! ```

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::{ModuleIr, ServerIr, ToolIr};
use super::literals::declaration_literal;
use super::primitive_server;
use super::runtime::{runtime, versions};
use super::security;
use crate::settings::Settings;

fn opt_str(value: &Option<String>) -> TokenStream {
    match value {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// Emits `info`, `tools` and the primitives' metadata modules, then (when the server
/// side is generated, see [`Settings::side`]) the handler traits, `Server` and
/// `router`.
pub fn emit(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    let rt = runtime(settings);
    let info = emit_info(&rt, &ir.server);
    let metas = ir.tools.iter().map(|t| emit_tool_meta(&rt, t));
    let primitives = primitive_server::emit(ir, settings);
    let (traits, authenticator, server, router) = if settings.generated_side().server() {
        let router = emit_router(&rt, ir, settings);
        let validation = super::validation::emit(&rt, ir);
        (
            // A handler group's trait comes with its first variant.
            ir.tools
                .iter()
                .filter(|t| t.handler_of.is_none())
                .map(|t| emit_trait(&rt, t))
                .collect(),
            security::emit_trait(&rt, &ir.security),
            emit_server_trait(ir),
            quote! { #validation #router },
        )
    } else {
        (
            Vec::new(),
            TokenStream::new(),
            TokenStream::new(),
            TokenStream::new(),
        )
    };
    quote! {
        #info

        /// Per-tool metadata from the description: `NAME`, and `SPEC` with the
        /// effective protocol scope (`SPEC.scope`) and the declaration the router serves
        /// (`SPEC.declaration`, with `$componentRef`s substituted; read its members with
        /// `SPEC.text("/title")`, `SPEC.flag("/annotations/readOnlyHint")`).
        pub mod tools {
            // A crate rarely reads every constant.
            #![allow(dead_code)]
            #(#metas)*
        }

        #(#traits)*
        #primitives
        #authenticator
        #server
        #router
    }
}

/// `pub mod info { NAME, VERSION, ..., server_info() }`.
fn emit_info(rt: &TokenStream, server: &ServerIr) -> TokenStream {
    let name = &server.name;
    let version = &server.version;
    let title = opt_str(&server.title);
    let description = opt_str(&server.description);
    let website = opt_str(&server.website_url);
    let instructions = opt_str(&server.instructions);
    let versions = versions(rt, server.protocol_versions);
    let capabilities = opt_str(&server.capabilities);
    let security = opt_str(&server.security);
    quote! {
        /// The description's `info`, `instructions` and protocol versions.
        pub mod info {
            // A crate rarely reads every constant.
            #![allow(dead_code)]
            /// `info.name`.
            pub const NAME: &str = #name;
            /// `info.version`.
            pub const VERSION: &str = #version;
            /// `info.title`.
            pub const TITLE: ::core::option::Option<&str> = #title;
            /// `info.description`.
            pub const DESCRIPTION: ::core::option::Option<&str> = #description;
            /// `info.websiteUrl`.
            pub const WEBSITE_URL: ::core::option::Option<&str> = #website;
            /// `instructions`: lasting guidance for using the server.
            pub const INSTRUCTIONS: ::core::option::Option<&str> = #instructions;
            /// The protocol versions the generated server serves.
            pub const PROTOCOL_VERSIONS: &[#rt::ProtocolVersion] = #versions;
            /// The description's `capabilities` (its Capabilities Objects, as JSON), when
            /// it declares them; the router advertises what they declare and the server
            /// implements (see `mcpdesc::Router::capabilities`).
            pub const CAPABILITIES: ::core::option::Option<&str> = #capabilities;
            /// The description's security (`securitySchemes`, root `security`, each
            /// transport's `type`, `url`, `protocolVersions` and `security`), as JSON,
            /// when it declares security schemes; the router enforces it over HTTP
            /// (see `mcpdesc::auth`).
            pub const SECURITY: ::core::option::Option<&str> = #security;

            /// The `ServerInfo` the router announces at initialization.
            pub fn server_info() -> #rt::ServerInfo {
                #rt::ServerInfo {
                    name: ::std::string::String::from(NAME),
                    version: ::std::string::String::from(VERSION),
                    title: TITLE.map(::std::string::String::from),
                    description: DESCRIPTION.map(::std::string::String::from),
                    website_url: WEBSITE_URL.map(::std::string::String::from),
                    instructions: INSTRUCTIONS.map(::std::string::String::from),
                    protocol_versions: PROTOCOL_VERSIONS,
                    capabilities: CAPABILITIES,
                }
            }
        }
    }
}

/// `pub mod <method_name> { NAME, SPEC }` inside `tools`: the facts of the tool are
/// data (the scope and the resolved declaration inside `SPEC`), read through the
/// runtime's `ToolSpec` accessors rather than one constant each.
///
/// ```text
/// /// Metadata of the `analyze_game` tool.
/// pub mod analyze_game {
///     /// The tool's name on the wire.
///     pub const NAME: &str = "analyze_game";
///     /// What the router registers for this tool.
///     pub const SPEC: ::mcpdesc::ToolSpec = ::mcpdesc::ToolSpec::new(NAME, &[...], r#"{...}"#);
/// }
/// ```
fn emit_tool_meta(rt: &TokenStream, tool: &ToolIr) -> TokenStream {
    let module = format_ident!("{}", tool.module);
    let name = &tool.name;
    let scope = versions(rt, tool.scope);
    let declaration = declaration_literal(&tool.declaration);
    let doc = format!("Metadata of the `{name}` tool.");
    quote! {
        #[doc = #doc]
        pub mod #module {
            /// The tool's name on the wire.
            pub const NAME: &str = #name;
            /// What the router registers for this tool.
            pub const SPEC: #rt::ToolSpec = #rt::ToolSpec::new(NAME, #scope, #declaration);
        }
    }
}

/// The trait's doc: `Title: description`, then the hints that are set.
pub(crate) fn trait_doc(tool: &ToolIr) -> Vec<String> {
    let mut lines = Vec::new();
    let head = match (&tool.title, &tool.description) {
        (Some(t), Some(d)) => format!("{t}: {d}"),
        (Some(t), None) => t.clone(),
        (None, Some(d)) => d.clone(),
        (None, None) => format!("The `{}` tool.", tool.name),
    };
    lines.extend(head.lines().map(str::to_owned));
    lines.push(String::new());
    lines.push(format!("Implements the tool `{}`.", tool.name));
    if tool.shared_handler {
        lines.push(String::new());
        lines.push(format!(
            "One handler for the protocol-scoped variants of `{}` for {}: their declarations differ only in what the router serves about them (description, annotations, execution...), not in this handler's types. Each variant keeps its own `tools::…::SPEC`, examples and example tests; the router serves each session the declaration of its version.",
            tool.name, tool.handler_scope
        ));
        // Their annotations may differ: each variant's `SPEC` has its own.
        return lines;
    }
    if let Some(line) = mcpdesc_description::view::variant_doc(tool.variant, tool.scope) {
        lines.push(String::new());
        lines.push(line);
    }
    if let Some(a) = &tool.annotations {
        let mut hints = Vec::new();
        let mut hint = |v: Option<bool>, yes: &str, no: &str| {
            if let Some(b) = v {
                hints.push(if b { yes.to_owned() } else { no.to_owned() });
            }
        };
        hint(a.read_only_hint, "read-only", "may modify its environment");
        hint(a.destructive_hint, "may be destructive", "not destructive");
        hint(a.idempotent_hint, "idempotent", "not idempotent");
        hint(a.open_world_hint, "open world", "closed world");
        if !hints.is_empty() {
            lines.push(String::new());
            lines.push(format!(
                "Annotations (advisory hints): {}.",
                hints.join(", ")
            ));
        }
    }
    lines
}

/// One handler trait.
fn emit_trait(rt: &TokenStream, tool: &ToolIr) -> TokenStream {
    let trait_name = format_ident!("{}", tool.names.trait_name);
    let method = format_ident!("{}", tool.names.method_name);
    let input = tool.input.rust_type(quote!(types));
    let docs = trait_doc(tool);
    let deprecated = tool
        .deprecated
        .then(|| quote!(#[deprecated(note = "the description marks this tool as deprecated")]));
    let name = &tool.name;
    match &tool.output {
        Some(output) => {
            let output = output.rust_type(quote!(types));
            let with_content = format_ident!("{}", tool.names.content_method);
            let method_doc = format!("Handles `tools/call` for `{name}`: the output becomes `structuredContent` and a text block of its JSON.");
            quote! {
                #(#[doc = #docs])*
                #deprecated
                #[allow(dead_code)]
                pub trait #trait_name: Send + Sync {
                    #[doc = #method_doc]
                    fn #method(&self, input: #input, cx: #rt::Context) -> impl #rt::ToolFuture<#output>;

                    /// What the router calls; override it to add content blocks (`Typed::with_content`).
                    fn #with_content(&self, input: #input, cx: #rt::Context) -> impl #rt::ToolFuture<#rt::Typed<#output>> {
                        #rt::__private::typed(self.#method(input, cx))
                    }
                }
            }
        }
        None => {
            let method_doc =
                format!("Handles `tools/call` for `{name}` and returns the whole result.");
            quote! {
                #(#[doc = #docs])*
                #deprecated
                #[allow(dead_code)]
                pub trait #trait_name: Send + Sync {
                    #[doc = #method_doc]
                    fn #method(&self, input: #input, cx: #rt::Context) -> impl #rt::ToolFuture<#rt::ToolResult>;
                }
            }
        }
    }
}

/// `pub trait Server: A + B + Send + Sync + 'static {}` and its blanket impl; with
/// security requirements, `Handlers` (every handler trait) and `Server: Handlers +
/// Authenticator`.
fn emit_server_trait(ir: &ModuleIr) -> TokenStream {
    let bounds: Vec<_> = ir
        .tools
        .iter()
        .filter(|t| t.handler_of.is_none())
        .map(|t| format_ident!("{}", t.names.trait_name))
        .chain(primitive_server::trait_idents(ir))
        .collect();
    if ir.security.needs_authenticator() {
        return quote! {
            /// Implemented for every type that implements all handler traits (tools,
            /// prompts, resources, resource templates): what `router_behind_gateway`
            /// needs.
            #[allow(deprecated, dead_code)]
            pub trait Handlers: #(#bounds +)* Send + Sync + 'static {}
            #[allow(deprecated)]
            impl<T: #(#bounds +)* Send + Sync + 'static> Handlers for T {}

            /// Implemented for every type that implements all handler traits and the
            /// `Authenticator` of the description's security schemes: what `router`
            /// needs.
            #[allow(dead_code)]
            pub trait Server: Handlers + Authenticator {}
            impl<T: Handlers + Authenticator> Server for T {}
        };
    }
    quote! {
        /// Implemented for every type that implements all handler traits (tools,
        /// prompts, resources, resource templates).
        #[allow(deprecated, dead_code)]
        pub trait Server: #(#bounds +)* Send + Sync + 'static {}
        #[allow(deprecated)]
        impl<T: #(#bounds +)* Send + Sync + 'static> Server for T {}
    }
}

/// `pub fn router<S: Server>(server: S) -> Router`: one registration per tool that
/// parses the (already schema-validated) arguments into the input type, calls the
/// trait method and shapes the result.
fn emit_router(rt: &TokenStream, ir: &ModuleIr, settings: &Settings) -> TokenStream {
    let registrations = ir.tools.iter().map(|tool| {
        let trait_name = format_ident!("{}", tool.names.trait_name);
        let module = format_ident!("{}", tool.module);
        let (helper, method) = match &tool.output {
            Some(_) => (
                quote!(tool_output),
                format_ident!("{}", tool.names.content_method),
            ),
            None => (
                quote!(tool_result),
                format_ident!("{}", tool.names.method_name),
            ),
        };
        quote! {
            .tool(tools::#module::SPEC, #rt::__private::#helper(&server, |s, input, cx| async move {
                #trait_name::#method(&*s, input, cx).await
            }))
        }
    });
    let primitives = primitive_server::emit_registrations(ir, settings);
    // A description that serves nothing never reads `server` (an unused binding would
    // break `deny(warnings)`): the router drops it.
    let unused =
        (ir.tools.is_empty() && primitives.is_empty()).then(|| quote!(::core::mem::drop(server);));
    if ir.security.needs_authenticator() {
        let dispatch = security::emit_dispatch(rt, &ir.security);
        return quote! {
            /// The router of the handlers, with the description's security and no
            /// authenticator yet.
            #[allow(deprecated, dead_code)]
            fn handlers_router<S: Handlers>(server: #rt::__private::Arc<S>) -> #rt::Router {
                #unused
                #rt::Router::new(info::server_info())
                    .security(info::SECURITY)
                    #(#registrations)*
                    #primitives
            }

            /// A router that serves the description with `server`'s trait methods: the
            /// lists per negotiated protocol version, `tools/call` (argument validation
            /// against the original `inputSchema`, dispatch, result shaping), `prompts/get`,
            /// `resources/read`, `completion/complete`, and the capabilities. Over HTTP
            /// it enforces the description's security with `server`'s `Authenticator`
            /// (see `mcpdesc::auth`; stdio does not enforce it).
            #[allow(deprecated, dead_code)]
            pub fn router<S: Server>(server: S) -> #rt::Router {
                let server = #rt::__private::Arc::new(server);
                handlers_router(#rt::__private::Arc::clone(&server)).authenticator(#dispatch)
            }

            /// The same router **without authentication**: the description's security is
            /// not enforced, no Protected Resource Metadata is served and handlers see no
            /// principal. Only for a server behind a gateway that authenticates and
            /// authorizes every request itself.
            #[allow(deprecated, dead_code)]
            pub fn router_behind_gateway<S: Handlers>(server: S) -> #rt::Router {
                handlers_router(#rt::__private::Arc::new(server)).without_authentication()
            }
        };
    }
    quote! {
        /// A router that serves the description with `server`'s trait methods: the
        /// lists per negotiated protocol version, `tools/call` (argument validation
        /// against the original `inputSchema`, dispatch, result shaping), `prompts/get`,
        /// `resources/read`, `completion/complete`, and the capabilities.
        #[allow(deprecated, dead_code)]
        pub fn router<S: Server>(server: S) -> #rt::Router {
            let server = #rt::__private::Arc::new(server);
            #unused
            #rt::Router::new(info::server_info())
                .security(info::SECURITY)
                #(#registrations)*
                #primitives
        }
    }
}
