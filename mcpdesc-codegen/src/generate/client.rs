//! The client side of the generated module: `Client`, one typed method per tool,
//! prompt, resource and resource template (only when [`Settings::side`] includes the
//! client).
//!
//! Each method names its types and spec and calls one generic function of
//! `mcpdesc::client::TypedClient` (scope check, input validation, the call, the
//! contract checks of the answer), so the code per tool is one line of body. For the
//! chess description the emitted code has this shape:
//!
//! ```text
//! /// A typed client of the described server ...
//! #[derive(Debug, Clone)]
//! pub struct Client { inner: ::mcpdesc::client::TypedClient }
//!
//! impl Client {
//!     pub fn new(session: ::mcpdesc::client::Session) -> Self;
//!     pub fn session(&self) -> &::mcpdesc::client::Session;
//!     pub fn validate_inputs(self, on: bool) -> Self;
//!
//!     /// Analyze Chess Game: ... (the handler trait's doc)
//!     pub async fn analyze_game(&self, input: types::AnalyzeGameInput)
//!         -> Result<types::AnalyzeGameOutput, ::mcpdesc::CallError>
//!     { self.inner.call_tool_output(&tools::analyze_game::SPEC, input).await }
//!     pub async fn analyze_game_with_content(&self, input: types::AnalyzeGameInput)
//!         -> Result<::mcpdesc::Typed<types::AnalyzeGameOutput>, ::mcpdesc::CallError>;
//!     pub async fn get_player_rating(&self, input: types::GetPlayerRatingInput)
//!         -> Result<::mcpdesc::ToolResult, ::mcpdesc::CallError>;
//!     pub async fn get_opening_study(&self, arguments: types::OpeningStudyArguments)
//!         -> Result<::mcpdesc::PromptResult, ::mcpdesc::CallError>;
//!     pub async fn read_leaderboard(&self) -> Result<::mcpdesc::ResourceResult, ::mcpdesc::CallError>;
//!     pub async fn read_opening(&self, variables: types::OpeningVariables)
//!         -> Result<::mcpdesc::ResourceResult, ::mcpdesc::CallError>;
//!     pub async fn complete_opening_study(&self, request: ::mcpdesc::CompletionRequest)
//!         -> Result<::mcpdesc::CompletionResult, ::mcpdesc::CallError>;
//! }
//! ```
//!
//! A tool that may run as a task (`execution.taskSupport` `optional` or `required` in
//! some variant) also gets `{method}_as_task(input)`, a `mcpdesc::client::TypedTask`
//! whose `result()` answers what `{method}` does. Protocol-scoped variants that share
//! one handler trait share one method too, which sends the declaration of the
//! negotiated version (`TypedClient::variant`).
//!
//! Method names are the handler traits' (`{method}`, `{method}_with_content`,
//! `get_{prompt}`, `read_{resource}`, `complete_{prompt}`), so one reads the same in
//! a server and in its client. The client's own methods (`new`, `session`,
//! `validate_inputs`) are reserved ([`naming::RESERVED_METHODS`]): a tool named `new`
//! gets `new_2` on both sides.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::{ModuleIr, ToolIr};
use super::naming;
use super::primitives::{CommonIr, PromptIr, ResourceIr, TemplateIr};
use super::runtime::runtime;
use super::server::trait_doc;
use crate::settings::Settings;
use mcpdesc_description::diagnostic::{Diagnostic, Severity};
use mcpdesc_description::rules;

/// Emits `Client` (nothing when [`Settings::side`] leaves the client out).
pub fn emit(ir: &ModuleIr, settings: &Settings, diagnostics: &mut Vec<Diagnostic>) -> TokenStream {
    if !settings.generated_side().client() {
        return TokenStream::new();
    }
    let rt = runtime(settings);
    let mut taken: BTreeSet<String> = naming::RESERVED_METHODS
        .iter()
        .map(|s| s.to_string())
        .collect();
    for tool in &ir.tools {
        taken.insert(tool.names.method_name.clone());
        taken.insert(tool.names.content_method.clone());
    }
    let mut tools = Vec::new();
    for (i, t) in ir.tools.iter().enumerate() {
        if t.handler_of.is_some() {
            continue;
        }
        tools.push(tool_methods(&rt, t, spec_of(ir, i)));
        if runs_as_task(ir, i) {
            let name = format!("{}_as_task", t.names.method_name);
            if let Some(method) = claim_tool(&mut taken, name, t, diagnostics) {
                tools.push(task_method(&rt, t, method, spec_of(ir, i)));
            }
        }
    }
    let primitives = primitive_methods(&rt, ir, &mut taken, diagnostics);
    let server = &ir.server.name;
    let doc = format!(
        "A typed client of `{server}`: one method per tool, prompt, resource and resource template of the description, over any MCP session (`mcpdesc::client`: a spawned server's stdio, streamable HTTP, an rmcp client you run)."
    );
    quote! {
        #[doc = #doc]
        ///
        /// Each call is checked against the description before anything is sent (the
        /// negotiated protocol version must be in the item's scope, a tool's input must
        /// match its `inputSchema`) and its answer after: a JSON-RPC error, a tool error
        /// (`isError: true`), a `structuredContent` that breaks the `outputSchema` or the
        /// Rust type, and a lost connection are each a `mcpdesc::CallError` variant.
        /// A tool with `outputSchema` answers its typed `structuredContent`, checked
        /// against the schema (`{tool}_with_content` adds the content blocks and
        /// `_meta`); a tool without answers the whole result (a tool error is
        /// `CallError::Tool`). Cloning is cheap; the clones share the session.
        #[derive(Debug, Clone)]
        #[allow(dead_code, rustdoc::bare_urls, rustdoc::broken_intra_doc_links)]
        pub struct Client {
            inner: #rt::client::TypedClient,
        }

        #[allow(dead_code, deprecated)]
        // The methods' docs carry the description's text (links, HTML, URLs).
        #[allow(
            rustdoc::broken_intra_doc_links,
            rustdoc::private_intra_doc_links,
            rustdoc::invalid_html_tags,
            rustdoc::bare_urls,
            rustdoc::invalid_rust_codeblocks
        )]
        impl Client {
            /// A client over `session`, checking inputs against their `inputSchema`.
            pub fn new(session: #rt::client::Session) -> Self {
                Client { inner: #rt::client::TypedClient::new(session) }
            }

            /// The session (negotiated version, the server's handshake answer, raw
            /// requests).
            pub fn session(&self) -> &#rt::client::Session {
                self.inner.session()
            }

            /// Whether inputs are checked against their `inputSchema` before sending
            /// (on by default); off, the server sees whatever the input serializes to.
            pub fn validate_inputs(self, on: bool) -> Self {
                Client { inner: self.inner.validate_inputs(on) }
            }

            #(#tools)*
            #(#primitives)*
        }
    }
}

/// The trait's doc lines with the client's wording: "Calls the tool" instead of
/// "Implements the tool".
fn method_doc(lines: Vec<String>, implements: &str, calls: String) -> Vec<String> {
    lines
        .into_iter()
        .map(|line| {
            if line == implements {
                calls.clone()
            } else {
                line
            }
        })
        .collect()
}

fn deprecated(deprecated: bool, kind: &str) -> Option<TokenStream> {
    deprecated.then(|| {
        let note = format!("the description marks this {kind} as deprecated");
        quote!(#[deprecated(note = #note)])
    })
}

/// The spec a call of `tool`'s methods uses: its own, or for a handler group (one
/// method for several variants) the one of the negotiated version, picked by
/// `TypedClient::variant` (`?` refuses a version none of them serves).
fn spec_of(ir: &ModuleIr, me: usize) -> TokenStream {
    let tool = &ir.tools[me];
    if !tool.shared_handler {
        let module = format_ident!("{}", tool.module);
        return quote!(&tools::#module::SPEC);
    }
    let specs = ir
        .tools
        .iter()
        .enumerate()
        .filter(|(k, t)| *k == me || t.handler_of == Some(me))
        .map(|(_, t)| {
            let module = format_ident!("{}", t.module);
            quote!(&tools::#module::SPEC)
        });
    quote!(self.inner.variant(&[#(#specs),*])?)
}

/// Whether the tool `ir.tools[me]` (or a variant of its handler group) may run as a
/// task: `execution.taskSupport` `optional` or `required`.
fn runs_as_task(ir: &ModuleIr, me: usize) -> bool {
    ir.tools
        .iter()
        .enumerate()
        .filter(|(k, t)| *k == me || t.handler_of == Some(me))
        .any(|(_, t)| matches!(t.task_support.as_deref(), Some("optional" | "required")))
}

/// Claims a tool's extra client method (`{method}_as_task`); a name another method
/// already has is skipped with a warning.
fn claim_tool(
    taken: &mut BTreeSet<String>,
    name: String,
    tool: &ToolIr,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<syn::Ident> {
    if taken.insert(name.clone()) {
        return Some(format_ident!("{}", name));
    }
    diagnostics.push(Diagnostic::new(
        Severity::Warning,
        rules::CODEGEN,
        "client-method-name-taken",
        &tool.pointer.key("name"),
        format!(
            "the typed client has no `{name}` method for the tool `{}`: another method already has that name",
            tool.name
        ),
    ));
    None
}

/// `{method}_as_task(input)`: the call as a task (MCP 2025-11-25), a
/// `TypedTask` whose `result()` answers what `{method}` does.
fn task_method(
    rt: &TokenStream,
    tool: &ToolIr,
    method: syn::Ident,
    spec: TokenStream,
) -> TokenStream {
    let input = tool.input.rust_type(quote!(types));
    let name = &tool.name;
    let plain = &tool.names.method_name;
    let doc = format!(
        "Calls the tool `{name}` as a task (MCP 2025-11-25 `execution.taskSupport`): the task's handle, whose `status()` polls it, `cancel()` cancels it and `result()` waits for what `{plain}` answers. A version whose declaration does not run it as a task, or a server without the `tasks` capability, is `CallError::NoTask` (nothing sent)."
    );
    let deprecated = deprecated(tool.deprecated, "tool");
    let (output, call) = match &tool.output {
        Some(output) => {
            let output = output.rust_type(quote!(types));
            (quote!(#output), quote!(call_tool_output_as_task))
        }
        None => (quote!(#rt::ToolResult), quote!(call_tool_as_task)),
    };
    quote! {
        #[doc = #doc]
        #deprecated
        pub async fn #method(&self, input: #input) -> #rt::CallResult<#rt::client::TypedTask<#output>> {
            self.inner.#call(#spec, input).await
        }
    }
}

/// `{method}` (and `{method}_with_content` for a tool with an `outputSchema`).
fn tool_methods(rt: &TokenStream, tool: &ToolIr, spec: TokenStream) -> TokenStream {
    let method = format_ident!("{}", tool.names.method_name);
    let input = tool.input.rust_type(quote!(types));
    let name = &tool.name;
    let docs = method_doc(
        trait_doc(tool),
        &format!("Implements the tool `{name}`."),
        format!("Calls the tool `{name}`."),
    );
    let deprecated = deprecated(tool.deprecated, "tool");
    match &tool.output {
        Some(output) => {
            let output = output.rust_type(quote!(types));
            let with_content = format_ident!("{}", tool.names.content_method);
            let content_doc = format!(
                "Calls the tool `{name}`: the typed output with the content blocks and the result `_meta`."
            );
            quote! {
                #(#[doc = #docs])*
                #deprecated
                pub async fn #method(&self, input: #input) -> #rt::CallResult<#output> {
                    self.inner.call_tool_output(#spec, input).await
                }

                #[doc = #content_doc]
                #deprecated
                pub async fn #with_content(&self, input: #input) -> #rt::CallResult<#rt::Typed<#output>> {
                    self.inner.call_tool_typed(#spec, input).await
                }
            }
        }
        None => quote! {
            #(#[doc = #docs])*
            #deprecated
            pub async fn #method(&self, input: #input) -> #rt::CallResult<#rt::ToolResult> {
                self.inner.call_tool(#spec, input).await
            }
        },
    }
}

/// Claims `name` for a primitive's method; a name a tool method already has is
/// skipped with a warning (the primitive keeps its handler trait, the client has no
/// method for it).
fn claim(
    taken: &mut BTreeSet<String>,
    name: String,
    c: &CommonIr,
    kind: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<syn::Ident> {
    if taken.insert(name.clone()) {
        return Some(format_ident!("{}", name));
    }
    diagnostics.push(Diagnostic::new(
        Severity::Warning,
        rules::CODEGEN,
        "client-method-name-taken",
        &c.pointer.key("name"),
        format!(
            "the typed client has no `{name}` method for the {kind} `{}`: a tool's method already has that name",
            c.name
        ),
    ));
    None
}

/// `get_{prompt}`, `read_{resource}`, `read_{template}` and `complete_{...}`, in that
/// order (the order in which method names are claimed).
fn primitive_methods(
    rt: &TokenStream,
    ir: &ModuleIr,
    taken: &mut BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let p = &ir.primitives;
    for x in &p.prompts {
        prompt_methods(rt, x, taken, diagnostics, &mut out);
    }
    for x in &p.resources {
        resource_method(rt, x, taken, diagnostics, &mut out);
    }
    for x in &p.resource_templates {
        template_methods(rt, x, taken, diagnostics, &mut out);
    }
    out
}

/// A prompt's `get_{prompt}` and, with completion examples, its `complete_{prompt}`.
fn prompt_methods(
    rt: &TokenStream,
    x: &PromptIr,
    taken: &mut BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
    out: &mut Vec<TokenStream>,
) {
    let c = &x.common;
    let m = format_ident!("{}", c.names.snake);
    let ty = format_ident!("{}", c.names.type_name.as_deref().unwrap_or("Arguments"));
    let deprecated = deprecated(c.deprecated, "prompt");
    if let Some(method) = claim(
        taken,
        format!("get_{}", c.names.snake),
        c,
        "prompt",
        diagnostics,
    ) {
        let doc = primitive_doc(c, &format!("Gets the prompt `{}` (`prompts/get`).", c.name));
        out.push(quote! {
            #(#[doc = #doc])*
            #deprecated
            pub async fn #method(
                &self,
                arguments: types::#ty,
            ) -> ::core::result::Result<#rt::PromptResult, #rt::CallError> {
                self.inner.get_prompt(&prompts::#m::SPEC, arguments).await
            }
        });
    }
    if !x.completion_examples.is_empty() {
        let target = quote!(#rt::CompletionTarget::prompt(prompts::#m::NAME));
        out.extend(complete_method(
            rt,
            c,
            "prompt",
            target,
            quote!(prompts::#m::SPEC.scope),
            taken,
            diagnostics,
        ));
    }
}

/// A resource's `read_{resource}`.
fn resource_method(
    rt: &TokenStream,
    x: &ResourceIr,
    taken: &mut BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
    out: &mut Vec<TokenStream>,
) {
    let c = &x.common;
    let m = format_ident!("{}", c.names.snake);
    let deprecated = deprecated(c.deprecated, "resource");
    if let Some(method) = claim(
        taken,
        format!("read_{}", c.names.snake),
        c,
        "resource",
        diagnostics,
    ) {
        let doc = primitive_doc(
            c,
            &format!(
                "Reads the resource `{}` (`resources/read` of `{}`).",
                c.name, x.uri
            ),
        );
        out.push(quote! {
            #(#[doc = #doc])*
            #deprecated
            pub async fn #method(&self) -> ::core::result::Result<#rt::ResourceResult, #rt::CallError> {
                self.inner.read_resource(&resources::#m::SPEC).await
            }
        });
    }
}

/// A resource template's `read_{template}` (typed variables at level 1, else a URI)
/// and, with completion examples, its `complete_{template}`.
fn template_methods(
    rt: &TokenStream,
    x: &TemplateIr,
    taken: &mut BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
    out: &mut Vec<TokenStream>,
) {
    let c = &x.common;
    let m = format_ident!("{}", c.names.snake);
    let deprecated = deprecated(c.deprecated, "resource template");
    if let Some(method) = claim(
        taken,
        format!("read_{}", c.names.snake),
        c,
        "resource template",
        diagnostics,
    ) {
        let body = match (&x.variables, &c.names.type_name) {
            (Some(_), Some(ty)) => {
                let ty = format_ident!("{}", ty);
                let doc = primitive_doc(
                    c,
                    &format!(
                        "Reads the URI of the resource template `{}` (`{}`) for `variables`.",
                        c.name, x.uri_template
                    ),
                );
                quote! {
                    #(#[doc = #doc])*
                    #deprecated
                    pub async fn #method(
                        &self,
                        variables: types::#ty,
                    ) -> ::core::result::Result<#rt::ResourceResult, #rt::CallError> {
                        self.inner.read_resource_template(&resource_templates::#m::SPEC, variables).await
                    }
                }
            }
            _ => {
                let doc = primitive_doc(c, &format!("Reads `uri`, a URI of the resource template `{}` (`{}`, beyond RFC 6570 level 1: the caller builds the URI).", c.name, x.uri_template));
                quote! {
                    #(#[doc = #doc])*
                    #deprecated
                    pub async fn #method(
                        &self,
                        uri: &str,
                    ) -> ::core::result::Result<#rt::ResourceResult, #rt::CallError> {
                        self.inner.read_resource_template_uri(&resource_templates::#m::SPEC, uri).await
                    }
                }
            }
        };
        out.push(body);
    }
    if !x.completion_examples.is_empty() {
        let target =
            quote!(#rt::CompletionTarget::resource_template(resource_templates::#m::URI_TEMPLATE));
        out.extend(complete_method(
            rt,
            c,
            "resource template",
            target,
            quote!(resource_templates::#m::SPEC.scope),
            taken,
            diagnostics,
        ));
    }
}

/// `complete_{name}(request)`.
fn complete_method(
    rt: &TokenStream,
    c: &CommonIr,
    kind: &str,
    target: TokenStream,
    scope: TokenStream,
    taken: &mut BTreeSet<String>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<TokenStream> {
    let method = claim(
        taken,
        format!("complete_{}", c.names.snake),
        c,
        kind,
        diagnostics,
    )?;
    let doc = format!(
        "Asks for completions of an argument of the {kind} `{}` (`completion/complete`).",
        c.name
    );
    Some(quote! {
        #[doc = #doc]
        pub async fn #method(
            &self,
            request: #rt::CompletionRequest,
        ) -> ::core::result::Result<#rt::CompletionResult, #rt::CallError> {
            self.inner.complete(&#target, #scope, &request).await
        }
    })
}

/// `Title: description`, then what the method does.
fn primitive_doc(c: &CommonIr, does: &str) -> Vec<String> {
    let mut lines: Vec<String> = match (&c.title, &c.description) {
        (Some(t), Some(d)) => format!("{t}: {d}").lines().map(str::to_owned).collect(),
        (Some(t), None) => vec![t.clone()],
        (None, Some(d)) => d.lines().map(str::to_owned).collect(),
        (None, None) => Vec::new(),
    };
    if !lines.is_empty() {
        lines.push(String::new());
    }
    lines.push(does.to_owned());
    if let Some(line) = mcpdesc_description::view::variant_doc(c.variant, c.scope) {
        lines.push(String::new());
        lines.push(line);
    }
    lines
}
