//! The server side of prompts, resources and resource templates: their metadata
//! modules, one handler trait each, their registrations in `router(server)`, and the
//! typed arguments and variables structs of the `types` module.
//!
//! For a prompt `city_briefing` (arguments `city`, required, and `audience`) with
//! completion examples, a resource `leaderboard` and a level-1 template
//! `chess://games/{game_id}` named `game_detail`, the emitted code has this shape:
//!
//! ```text
//! pub mod types {
//!     /// Arguments of the `city_briefing` prompt.
//!     #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq, Eq)]
//!     pub struct CityBriefingArguments {
//!         pub city: ::std::string::String,
//!         #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
//!         pub audience: ::std::option::Option<::std::string::String>,
//!     }
//!     /// Variables of the `game_detail` resource template (`chess://games/{game_id}`).
//!     pub struct GameDetailVariables { pub game_id: ::std::string::String }
//! }
//! // SPEC holds the scope and the resolved declaration (title, description, mimeType, ...)
//! pub mod prompts { pub mod city_briefing { NAME, SPEC } }
//! pub mod resources { pub mod leaderboard { URI, SPEC } }
//! pub mod resource_templates { pub mod game_detail { URI_TEMPLATE, SPEC } }
//! pub trait CityBriefingPrompt: Send + Sync {
//!     fn get_city_briefing(&self, arguments: types::CityBriefingArguments, cx: ::mcpdesc::Context)
//!         -> impl Future<Output = Result<::mcpdesc::PromptResult, ::mcpdesc::RequestError>> + Send;
//!     fn complete_city_briefing(&self, request: ::mcpdesc::CompletionRequest, cx: ::mcpdesc::Context)
//!         -> impl Future<Output = Result<::mcpdesc::CompletionResult, ::mcpdesc::RequestError>> + Send;
//! }
//! pub trait LeaderboardResource: Send + Sync {
//!     fn read_leaderboard(&self, cx: ::mcpdesc::Context)
//!         -> impl Future<Output = Result<::mcpdesc::ResourceResult, ::mcpdesc::RequestError>> + Send;
//! }
//! pub trait GameDetailTemplate: Send + Sync {
//!     fn read_game_detail(&self, uri: String, variables: types::GameDetailVariables, cx: ::mcpdesc::Context)
//!         -> impl Future<Output = Result<::mcpdesc::ResourceResult, ::mcpdesc::RequestError>> + Send;
//! }
//! ```
//!
//! A template beyond RFC 6570 level 1 gets no struct: its `variables` parameter is one
//! raw `String` (see `mcpdesc::UriTemplate`). The completion method exists only for a
//! prompt or template that declares `completionExamples`; `Server` requires every trait,
//! so a missing implementation is a compile error.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::ModuleIr;
use super::literals::declaration_literal;
use super::primitives::{CommonIr, FieldIr, PromptIr, ResourceIr, TemplateIr};
use super::runtime::{runtime, versions};
use crate::settings::Settings;

/// The trait names of every prompt, resource and template, for the `Server` bounds.
pub fn trait_idents(ir: &ModuleIr) -> Vec<syn::Ident> {
    let p = &ir.primitives;
    p.prompts
        .iter()
        .map(|x| &x.common)
        .chain(p.resources.iter().map(|x| &x.common))
        .chain(p.resource_templates.iter().map(|x| &x.common))
        .map(|c| format_ident!("{}", c.names.trait_name))
        .collect()
}

/// The derives of the arguments and variables structs: serde, `Clone`, `Debug`,
/// `PartialEq`, `Eq`, then the settings' extra derives that are not among them.
fn derives(settings: &Settings) -> TokenStream {
    const BASE: [&str; 4] = ["Clone", "Debug", "PartialEq", "Eq"];
    let extra = settings.extra_derives().iter().filter_map(|d| {
        let last = d.rsplit("::").next().unwrap_or(d);
        if BASE.contains(&last) || last == "Serialize" || last == "Deserialize" {
            return None;
        }
        syn::parse_str::<syn::Path>(d).ok()
    });
    quote!(#[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq, Eq #(, #extra)*)])
}

fn fields(fields: &[FieldIr]) -> Vec<TokenStream> {
    fields
        .iter()
        .map(|f| {
            let ident = format_ident!("{}", f.field);
            let doc = f.doc.as_ref().map(|d| quote!(#[doc = #d]));
            let rename = (f.field != f.name).then(|| {
                let name = &f.name;
                quote!(#[serde(rename = #name)])
            });
            if f.required {
                quote! { #doc #rename pub #ident: ::std::string::String, }
            } else {
                quote! {
                    #doc
                    #rename
                    #[serde(default, skip_serializing_if = "::std::option::Option::is_none")]
                    pub #ident: ::std::option::Option<::std::string::String>,
                }
            }
        })
        .collect()
}

/// The arguments and variables structs, for the `types` module.
pub fn emit_types(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    let derives = derives(settings);
    let prompts = ir.primitives.prompts.iter().map(|p| {
        let ty = format_ident!(
            "{}",
            p.common.names.type_name.as_deref().unwrap_or("Arguments")
        );
        let doc = format!(
            " Arguments of the `{}` prompt{}.",
            p.common.name,
            title_suffix(&p.common)
        );
        let fields = fields(&p.arguments);
        quote! {
            #[doc = #doc]
            #derives
            pub struct #ty { #(#fields)* }
        }
    });
    let templates = ir.primitives.resource_templates.iter().filter_map(|t| {
        let variables = t.variables.as_ref()?;
        let ty = format_ident!(
            "{}",
            t.common.names.type_name.as_deref().unwrap_or("Variables")
        );
        let doc = format!(
            " Variables of the `{}` resource template (`{}`), from the URI read.",
            t.common.name, t.uri_template
        );
        let fields = fields(variables);
        Some(quote! {
            #[doc = #doc]
            #derives
            pub struct #ty { #(#fields)* }
        })
    });
    quote! { #(#prompts)* #(#templates)* }
}

fn title_suffix(c: &CommonIr) -> String {
    c.title
        .as_ref()
        .map(|t| format!(" ({t})"))
        .unwrap_or_default()
}

/// The trait's doc: `Title: description` (else ``The `name` kind.``), then what it
/// implements.
fn trait_doc(c: &CommonIr, kind: &str, implements: String) -> Vec<String> {
    let head = match (&c.title, &c.description) {
        (Some(t), Some(d)) => format!("{t}: {d}"),
        (Some(t), None) => t.clone(),
        (None, Some(d)) => d.clone(),
        (None, None) => format!("The `{}` {kind}.", c.name),
    };
    let mut lines: Vec<String> = head.lines().map(str::to_owned).collect();
    lines.push(String::new());
    lines.push(implements);
    if let Some(line) = mcpdesc_description::view::variant_doc(c.variant, c.scope) {
        lines.push(String::new());
        lines.push(line);
    }
    lines
}

fn deprecated(c: &CommonIr, kind: &str) -> Option<TokenStream> {
    let note = format!("the description marks this {kind} as deprecated");
    c.deprecated.then(|| quote!(#[deprecated(note = #note)]))
}

/// The completion method of a trait.
fn complete_method(rt: &TokenStream, c: &CommonIr, kind: &str) -> TokenStream {
    let method = format_ident!("complete_{}", c.names.snake);
    let doc = format!(
        "Handles `completion/complete` for an argument of the {kind} `{}`: the router checked that `request.argument` is one of its {}.",
        c.name,
        if kind == "prompt" { "arguments" } else { "variables" }
    );
    quote! {
        #[doc = #doc]
        fn #method(
            &self,
            request: #rt::CompletionRequest,
            cx: #rt::Context,
        ) -> impl #rt::RequestFuture<#rt::CompletionResult>;
    }
}

fn prompt_trait(rt: &TokenStream, p: &PromptIr) -> TokenStream {
    let c = &p.common;
    let name = format_ident!("{}", c.names.trait_name);
    let method = format_ident!("get_{}", c.names.snake);
    let ty = format_ident!("{}", c.names.type_name.as_deref().unwrap_or("Arguments"));
    let docs = trait_doc(c, "prompt", format!("Implements the prompt `{}`.", c.name));
    let method_doc = format!(
        "Handles `prompts/get` for `{}`: the router checked that every required argument is present.",
        c.name
    );
    let complete = (!p.completion_examples.is_empty()).then(|| complete_method(rt, c, "prompt"));
    let deprecated = deprecated(c, "prompt");
    quote! {
        #(#[doc = #docs])*
        #deprecated
        #[allow(dead_code)]
        pub trait #name: Send + Sync {
            #[doc = #method_doc]
            fn #method(
                &self,
                arguments: types::#ty,
                cx: #rt::Context,
            ) -> impl #rt::RequestFuture<#rt::PromptResult>;
            #complete
        }
    }
}

fn resource_trait(rt: &TokenStream, r: &ResourceIr) -> TokenStream {
    let c = &r.common;
    let name = format_ident!("{}", c.names.trait_name);
    let method = format_ident!("read_{}", c.names.snake);
    let docs = trait_doc(
        c,
        "resource",
        format!("Implements the resource `{}` (`{}`).", c.name, r.uri),
    );
    let method_doc = format!("Handles `resources/read` of `{}`.", r.uri);
    let deprecated = deprecated(c, "resource");
    quote! {
        #(#[doc = #docs])*
        #deprecated
        #[allow(dead_code)]
        pub trait #name: Send + Sync {
            #[doc = #method_doc]
            fn #method(
                &self,
                cx: #rt::Context,
            ) -> impl #rt::RequestFuture<#rt::ResourceResult>;
        }
    }
}

/// The Rust type of a template's variables: its struct, or `String` beyond level 1.
fn variables_type(t: &TemplateIr) -> TokenStream {
    match (&t.variables, &t.common.names.type_name) {
        (Some(_), Some(ty)) => {
            let ty = format_ident!("{}", ty);
            quote!(types::#ty)
        }
        _ => quote!(::std::string::String),
    }
}

fn template_trait(rt: &TokenStream, t: &TemplateIr) -> TokenStream {
    let c = &t.common;
    let name = format_ident!("{}", c.names.trait_name);
    let method = format_ident!("read_{}", c.names.snake);
    let docs = trait_doc(
        c,
        "resource template",
        format!(
            "Implements the resource template `{}` (`{}`).",
            c.name, t.uri_template
        ),
    );
    let variables = variables_type(t);
    let method_doc = match t.variables {
        Some(_) => format!(
            "Handles `resources/read` of a URI of `{}`: `uri` is the URI read, `variables` the values of its variables.",
            t.uri_template
        ),
        None => format!(
            "Handles `resources/read` of a URI of `{}`: `uri` is the URI read, `variables` the raw text of its expressions (the template goes beyond RFC 6570 level 1).",
            t.uri_template
        ),
    };
    let complete =
        (!t.completion_examples.is_empty()).then(|| complete_method(rt, c, "resource template"));
    let deprecated = deprecated(c, "resource template");
    quote! {
        #(#[doc = #docs])*
        #deprecated
        #[allow(dead_code)]
        pub trait #name: Send + Sync {
            #[doc = #method_doc]
            fn #method(
                &self,
                uri: ::std::string::String,
                variables: #variables,
                cx: #rt::Context,
            ) -> impl #rt::RequestFuture<#rt::ResourceResult>;
            #complete
        }
    }
}

/// The scope and declaration arguments of a primitive's `Spec::new(KEY, scope,
/// declaration)`: the facts of the declaration (title, description, MIME type,
/// deprecation) are read from the declaration, not repeated as constants.
fn spec_args(rt: &TokenStream, c: &CommonIr) -> TokenStream {
    let scope = versions(rt, c.scope);
    let declaration = declaration_literal(&c.declaration);
    quote!(#scope, #declaration)
}

/// Emits the metadata modules, and the handler traits when the server side is
/// generated (nothing for a description without prompts, resources and templates).
pub fn emit(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    let rt = runtime(settings);
    let p = &ir.primitives;
    let mut out = TokenStream::new();
    if !p.prompts.is_empty() {
        let metas = p.prompts.iter().map(|x| {
            let module = format_ident!("{}", x.common.names.snake);
            let doc = format!("Metadata of the `{}` prompt.", x.common.name);
            let name = &x.common.name;
            let args = spec_args(&rt, &x.common);
            quote! {
                #[doc = #doc]
                pub mod #module {
                    /// `name`.
                    pub const NAME: &str = #name;
                    /// What the router registers for this prompt.
                    pub const SPEC: #rt::PromptSpec = #rt::PromptSpec::new(NAME, #args);
                }
            }
        });
        out.extend(quote! {
            /// Per-prompt metadata from the description: name, effective protocol scope,
            /// and the resolved declaration the router lists.
            pub mod prompts {
                // A crate rarely reads every constant.
                #![allow(dead_code)]
                #(#metas)*
            }
        });
    }
    if !p.resources.is_empty() {
        let metas = p.resources.iter().map(|x| {
            let module = format_ident!("{}", x.common.names.snake);
            let doc = format!("Metadata of the `{}` resource.", x.common.name);
            let args = spec_args(&rt, &x.common);
            let uri = &x.uri;
            quote! {
                #[doc = #doc]
                pub mod #module {
                    /// `uri`: what `resources/read` asks for.
                    pub const URI: &str = #uri;
                    /// What the router registers for this resource.
                    pub const SPEC: #rt::ResourceSpec = #rt::ResourceSpec::new(URI, #args);
                }
            }
        });
        out.extend(quote! {
            /// Per-resource metadata from the description: URI, name, effective protocol
            /// scope, and the resolved declaration the router lists.
            pub mod resources {
                // A crate rarely reads every constant.
                #![allow(dead_code)]
                #(#metas)*
            }
        });
    }
    if !p.resource_templates.is_empty() {
        let metas = p.resource_templates.iter().map(|x| {
            let module = format_ident!("{}", x.common.names.snake);
            let doc = format!("Metadata of the `{}` resource template.", x.common.name);
            let args = spec_args(&rt, &x.common);
            let uri_template = &x.uri_template;
            quote! {
                #[doc = #doc]
                pub mod #module {
                    /// `uriTemplate` (RFC 6570).
                    pub const URI_TEMPLATE: &str = #uri_template;
                    /// What the router registers for this resource template.
                    pub const SPEC: #rt::ResourceTemplateSpec =
                        #rt::ResourceTemplateSpec::new(URI_TEMPLATE, #args);
                }
            }
        });
        out.extend(quote! {
            /// Per-resource-template metadata from the description: URI template, name,
            /// effective protocol scope, and the resolved declaration the router lists.
            pub mod resource_templates {
                // A crate rarely reads every constant.
                #![allow(dead_code)]
                #(#metas)*
            }
        });
    }
    if !settings.generated_side().server() {
        return out;
    }
    for x in &p.prompts {
        out.extend(prompt_trait(&rt, x));
    }
    for x in &p.resources {
        out.extend(resource_trait(&rt, x));
    }
    for x in &p.resource_templates {
        out.extend(template_trait(&rt, x));
    }
    out
}

/// `::mcpdesc::__private::{helper}(&server, |s, {params}, cx| async move { body })`:
/// the runtime's generic handler does the rest (parsing, boxing).
fn registration(
    rt: &TokenStream,
    helper: &str,
    params: TokenStream,
    body: TokenStream,
) -> TokenStream {
    let helper = format_ident!("{}", helper);
    quote! {
        #rt::__private::#helper(&server, |s, #params cx| async move { #body })
    }
}

/// The `.prompt(...)`, `.resource(...)`, `.resource_template(...)` and `.completion(...)`
/// registrations of `router(server)`.
pub fn emit_registrations(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    let rt = runtime(settings);
    let mut out = TokenStream::new();
    for p in &ir.primitives.prompts {
        let c = &p.common;
        let module = format_ident!("{}", c.names.snake);
        let trait_name = format_ident!("{}", c.names.trait_name);
        let method = format_ident!("get_{}", c.names.snake);
        let ty = format_ident!("{}", c.names.type_name.as_deref().unwrap_or("Arguments"));
        let handler = registration(
            &rt,
            "prompt_handler",
            quote!(arguments: types::#ty,),
            quote!(#trait_name::#method(&*s, arguments, cx).await),
        );
        out.extend(quote!(.prompt(prompts::#module::SPEC, #handler)));
        if !p.completion_examples.is_empty() {
            let complete = format_ident!("complete_{}", c.names.snake);
            let handler = registration(
                &rt,
                "completion_handler",
                quote!(request,),
                quote!(#trait_name::#complete(&*s, request, cx).await),
            );
            out.extend(quote! {
                .completion(
                    #rt::CompletionTarget::prompt(prompts::#module::NAME),
                    prompts::#module::SPEC.scope,
                    #handler,
                )
            });
        }
    }
    for r in &ir.primitives.resources {
        let c = &r.common;
        let module = format_ident!("{}", c.names.snake);
        let trait_name = format_ident!("{}", c.names.trait_name);
        let method = format_ident!("read_{}", c.names.snake);
        let handler = registration(
            &rt,
            "resource_handler",
            TokenStream::new(),
            quote!(#trait_name::#method(&*s, cx).await),
        );
        out.extend(quote!(.resource(resources::#module::SPEC, #handler)));
    }
    for t in &ir.primitives.resource_templates {
        let c = &t.common;
        let module = format_ident!("{}", c.names.snake);
        let trait_name = format_ident!("{}", c.names.trait_name);
        let method = format_ident!("read_{}", c.names.snake);
        let ty = variables_type(t);
        let handler = registration(
            &rt,
            "template_handler",
            quote!(uri, variables: #ty,),
            quote!(#trait_name::#method(&*s, uri, variables, cx).await),
        );
        out.extend(quote!(.resource_template(resource_templates::#module::SPEC, #handler)));
        if !t.completion_examples.is_empty() {
            let complete = format_ident!("complete_{}", c.names.snake);
            let handler = registration(
                &rt,
                "completion_handler",
                quote!(request,),
                quote!(#trait_name::#complete(&*s, request, cx).await),
            );
            out.extend(quote! {
                .completion(
                    #rt::CompletionTarget::resource_template(resource_templates::#module::URI_TEMPLATE),
                    resource_templates::#module::SPEC.scope,
                    #handler,
                )
            });
        }
    }
    out
}
