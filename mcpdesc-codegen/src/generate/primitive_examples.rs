//! The example side of prompts, resources and resource templates: their example data,
//! their part of the example book, and the `ExampleServer` impls of their traits.
//!
//! ```text
//! pub mod prompt_examples {
//!     pub mod city_briefing {
//!         // ALL.examples, ALL.completion_examples (name, pointer, request, result);
//!         // ALL.arguments(name), ALL.typed_arguments(name), ALL.result(name)
//!         pub const ALL: ::mcpdesc::testing::RequestExamples<types::CityBriefingArguments> =
//!             ::mcpdesc::testing::RequestExamples::new(&[...], &[...]);
//!     }
//! }
//! pub mod resource_examples { pub mod leaderboard { ALL } }             // ALL.result(name)
//! pub mod resource_template_examples { pub mod game_detail { ALL } }    // ALL.uri(name), ALL.result(name)
//! impl CityBriefingPrompt for ExampleServer { .. }   // answers from the book
//! ```
//!
//! The request of each example is stored in the form the runtime mock compares (see
//! `mcpdesc::testing::RequestExample`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::ModuleIr;
use super::literals::raw_str;
use super::primitives::{CommonIr, RequestExampleIr, TemplateIr};

fn stored(rt: &TokenStream, examples: &[RequestExampleIr]) -> Vec<TokenStream> {
    examples
        .iter()
        .map(|e| {
            let name = &e.name;
            let pointer = e.pointer.as_str();
            let request = raw_str(&e.request.to_string());
            let result = raw_str(&e.result.to_string());
            quote!(#rt::testing::RequestExample { name: #name, pointer: #pointer, request: #request, result: #result })
        })
        .collect()
}

fn module_ident(c: &CommonIr) -> syn::Ident {
    format_ident!("{}", c.names.snake)
}

/// `prompt_examples`, `resource_examples` and `resource_template_examples` (each only
/// when the description has that kind).
pub fn emit_modules(rt: &TokenStream, ir: &ModuleIr) -> TokenStream {
    let p = &ir.primitives;
    let mut out = TokenStream::new();
    // Each item is one constant; the accessors are the runtime's
    // (`mcpdesc::testing::RequestExamples`).
    let all =
        |args: TokenStream, examples: &[RequestExampleIr], completions: &[RequestExampleIr]| {
            let examples = stored(rt, examples);
            let completions = stored(rt, completions);
            quote! {
                /// The examples (`ALL.examples`) and completion examples
                /// (`ALL.completion_examples`) in name order, with accessors (see
                /// `mcpdesc::testing::RequestExamples`).
                pub const ALL: #rt::testing::RequestExamples<#args> =
                    #rt::testing::RequestExamples::new(&[#(#examples),*], &[#(#completions),*]);
            }
        };
    if !p.prompts.is_empty() {
        let modules = p.prompts.iter().map(|x| {
            let module = module_ident(&x.common);
            let doc = format!("Examples of the `{}` prompt.", x.common.name);
            let ty = format_ident!(
                "{}",
                x.common.names.type_name.as_deref().unwrap_or("Arguments")
            );
            let all = all(
                quote!(super::super::types::#ty),
                &x.examples,
                &x.completion_examples,
            );
            quote! {
                #[doc = #doc]
                pub mod #module {
                    #all
                }
            }
        });
        out.extend(quote! {
            /// The description's Prompt Examples and prompt completion examples, by
            /// prompt (`request` is the `arguments`; `ALL.arguments(name)`,
            /// `ALL.typed_arguments(name)`, `ALL.result(name)`). Examples are
            /// illustrative, not promises of live behaviour.
            pub mod prompt_examples {
                // A crate rarely reads every example.
                #![allow(dead_code)]
                #(#modules)*
            }
        });
    }
    if !p.resources.is_empty() {
        let modules = p.resources.iter().map(|x| {
            let module = module_ident(&x.common);
            let doc = format!("Examples of the `{}` resource.", x.common.name);
            let all = all(quote!(#rt::testing::NoArguments), &x.examples, &[]);
            quote! {
                #[doc = #doc]
                pub mod #module {
                    #all
                }
            }
        });
        out.extend(quote! {
            /// The description's Resource Examples, by resource (`request` is the
            /// resource's URI; `ALL.result(name)`).
            pub mod resource_examples {
                // A crate rarely reads every example.
                #![allow(dead_code)]
                #(#modules)*
            }
        });
    }
    if !p.resource_templates.is_empty() {
        let modules = p.resource_templates.iter().map(|x| {
            let module = module_ident(&x.common);
            let doc = format!("Examples of the `{}` resource template.", x.common.name);
            let all = all(
                quote!(#rt::testing::NoArguments),
                &x.examples,
                &x.completion_examples,
            );
            quote! {
                #[doc = #doc]
                pub mod #module {
                    #all
                }
            }
        });
        out.extend(quote! {
            /// The description's Resource Template Examples and template completion
            /// examples, by resource template (`request` is the `uri`; `ALL.uri(name)`,
            /// `ALL.result(name)`).
            pub mod resource_template_examples {
                // A crate rarely reads every example.
                #![allow(dead_code)]
                #(#modules)*
            }
        });
    }
    out
}

/// The `ExampleBook` calls of every prompt, resource and template (for `book()`,
/// inside the `examples` module).
pub fn book_entries(ir: &ModuleIr) -> TokenStream {
    let mut out = TokenStream::new();
    for x in &ir.primitives.prompts {
        let m = module_ident(&x.common);
        out.extend(quote! {
            .prompt(
                super::prompts::#m::NAME,
                super::prompts::#m::SPEC.scope,
                super::prompt_examples::#m::ALL.examples,
                super::prompt_examples::#m::ALL.completion_examples,
            )
        });
    }
    for x in &ir.primitives.resources {
        let m = module_ident(&x.common);
        out.extend(quote! {
            .resource(
                super::resources::#m::URI,
                super::resources::#m::SPEC.scope,
                super::resource_examples::#m::ALL.examples,
            )
        });
    }
    for x in &ir.primitives.resource_templates {
        let m = module_ident(&x.common);
        out.extend(quote! {
            .resource_template(
                super::resource_templates::#m::URI_TEMPLATE,
                super::resource_templates::#m::SPEC.scope,
                super::resource_template_examples::#m::ALL.examples,
                super::resource_template_examples::#m::ALL.completion_examples,
            )
        });
    }
    out
}

/// The `Specs` of the whole description, for `ExampleServer::router`.
pub fn specs(rt: &TokenStream, ir: &ModuleIr) -> TokenStream {
    let tools = ir.tools.iter().map(|t| {
        let m = format_ident!("{}", t.module);
        quote!(tools::#m::SPEC)
    });
    let prompts = ir.primitives.prompts.iter().map(|x| {
        let m = module_ident(&x.common);
        quote!(prompts::#m::SPEC)
    });
    let resources = ir.primitives.resources.iter().map(|x| {
        let m = module_ident(&x.common);
        quote!(resources::#m::SPEC)
    });
    let templates = ir.primitives.resource_templates.iter().map(|x| {
        let m = module_ident(&x.common);
        quote!(resource_templates::#m::SPEC)
    });
    quote! {
        #rt::mock::Specs {
            tools: &[#(#tools),*],
            prompts: &[#(#prompts),*],
            resources: &[#(#resources),*],
            resource_templates: &[#(#templates),*],
        }
    }
}

fn complete_impl(rt: &TokenStream, c: &CommonIr, target: TokenStream) -> TokenStream {
    let method = format_ident!("complete_{}", c.names.snake);
    quote! {
        async fn #method(
            &self,
            request: #rt::CompletionRequest,
            cx: #rt::Context,
        ) -> ::core::result::Result<#rt::CompletionResult, #rt::RequestError> {
            self.book.respond_completion(&#target, &request, &cx)
        }
    }
}

fn template_variables_type(t: &TemplateIr) -> TokenStream {
    match (&t.variables, &t.common.names.type_name) {
        (Some(_), Some(ty)) => {
            let ty = format_ident!("{}", ty);
            quote!(types::#ty)
        }
        _ => quote!(::std::string::String),
    }
}

/// `impl XPrompt for ExampleServer` and the like: each answers from the book.
pub fn emit_impls(rt: &TokenStream, ir: &ModuleIr) -> TokenStream {
    let mut out = TokenStream::new();
    for x in &ir.primitives.prompts {
        let c = &x.common;
        let m = module_ident(c);
        let trait_name = format_ident!("{}", c.names.trait_name);
        let method = format_ident!("get_{}", c.names.snake);
        let ty = format_ident!("{}", c.names.type_name.as_deref().unwrap_or("Arguments"));
        let complete = (!x.completion_examples.is_empty()).then(|| {
            complete_impl(
                rt,
                c,
                quote!(#rt::CompletionTarget::prompt(prompts::#m::NAME)),
            )
        });
        out.extend(quote! {
            #[allow(deprecated)]
            impl #trait_name for ExampleServer {
                async fn #method(
                    &self,
                    arguments: types::#ty,
                    cx: #rt::Context,
                ) -> ::core::result::Result<#rt::PromptResult, #rt::RequestError> {
                    let arguments = #rt::testing::to_object(&arguments)?;
                    self.book.respond_prompt(prompts::#m::NAME, &arguments, &cx)
                }
                #complete
            }
        });
    }
    for x in &ir.primitives.resources {
        let c = &x.common;
        let m = module_ident(c);
        let trait_name = format_ident!("{}", c.names.trait_name);
        let method = format_ident!("read_{}", c.names.snake);
        out.extend(quote! {
            #[allow(deprecated)]
            impl #trait_name for ExampleServer {
                async fn #method(
                    &self,
                    cx: #rt::Context,
                ) -> ::core::result::Result<#rt::ResourceResult, #rt::RequestError> {
                    self.book.respond_resource(resources::#m::URI, &cx)
                }
            }
        });
    }
    for x in &ir.primitives.resource_templates {
        let c = &x.common;
        let m = module_ident(c);
        let trait_name = format_ident!("{}", c.names.trait_name);
        let method = format_ident!("read_{}", c.names.snake);
        let variables = template_variables_type(x);
        let complete = (!x.completion_examples.is_empty()).then(|| {
            complete_impl(
                rt,
                c,
                quote!(#rt::CompletionTarget::resource_template(resource_templates::#m::URI_TEMPLATE)),
            )
        });
        out.extend(quote! {
            #[allow(deprecated)]
            impl #trait_name for ExampleServer {
                async fn #method(
                    &self,
                    uri: ::std::string::String,
                    _variables: #variables,
                    cx: #rt::Context,
                ) -> ::core::result::Result<#rt::ResourceResult, #rt::RequestError> {
                    self.book.respond_resource_template(resource_templates::#m::URI_TEMPLATE, &uri, &cx)
                }
                #complete
            }
        });
    }
    out
}
