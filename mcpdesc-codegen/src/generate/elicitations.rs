//! Typed elicitations: the `elicitations` module, one module per tool with Elicitation
//! Declarations and one per declaration in it.
//!
//! A form-mode declaration's `requestedSchema` goes through the same preparation and
//! typify pass as tool inputs (its type is `types::{Tool}{Declaration}Elicitation`);
//! its module has the message, the schema, the content type and `Declaration`, the
//! [`FormElicitation`](../../../mcpdesc/trait.FormElicitation.html) a handler sends
//! with `cx.elicit_declared::<Declaration>()` (or `ask(&cx)`), answered as
//! `Elicited<Content>`: accept with typed content, decline or cancel. A renamed form
//! property renames the content type's field, so a handler that reads it stops
//! compiling. A URL-mode declaration's module has its message and static URL.
//!
//! ```text
//! pub mod elicitations {
//!     pub mod record_game_result {
//!         pub mod confirm_unusual {
//!             pub const MESSAGE: &str = "...";
//!             pub const REQUESTED_SCHEMA: &str = "{...}";
//!             pub type Content = super::super::types::RecordGameResultConfirmUnusualElicitation;
//!             pub struct Declaration;
//!             impl ::mcpdesc::FormElicitation for Declaration { ... }
//!             pub async fn ask(cx: &::mcpdesc::Context) -> Result<::mcpdesc::Elicited<Content>, ::mcpdesc::ClientError>;
//!         }
//!     }
//! }
//! ```

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::ir::{ModuleIr, ToolIr};
use super::naming::{self, NameAllocator};
use super::prepare::{self, Options, PreparedSchema};
use crate::diagnostic::Diagnostic;
use crate::pointer::Pointer;
use crate::settings::Settings;

/// One Elicitation Declaration of a tool.
#[derive(Debug, Clone)]
pub struct ElicitationIr {
    /// The tool's name.
    pub tool: String,
    /// The tool's module in `elicitations` (its method name).
    pub tool_module: String,
    /// The declaration's `name`.
    pub name: String,
    /// Its module (snake_case, unique in the tool's module).
    pub module: String,
    /// `message`.
    pub message: String,
    /// The static `url` of a URL-mode declaration.
    pub url: Option<String>,
    /// Form mode: the `requestedSchema` as JSON and its content type.
    pub form: Option<FormIr>,
}

/// The form of a form-mode declaration.
#[derive(Debug, Clone)]
pub struct FormIr {
    /// The resolved `requestedSchema`.
    pub schema: Value,
    /// Its use site (`/tools/0/elicitations/1/requestedSchema`).
    pub pointer: Pointer,
    /// The Rust type name code uses.
    pub type_name: String,
    /// typify's copy.
    pub prepared: PreparedSchema,
}

/// The declarations of every tool, their form schemas prepared for typify (type names
/// claimed from `types`).
pub fn build(
    tools: &[ToolIr],
    options: Options,
    types: &mut NameAllocator,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ElicitationIr> {
    let mut out = Vec::new();
    for tool in tools {
        let Some(list) = tool
            .declaration
            .get("elicitations")
            .and_then(Value::as_array)
        else {
            continue;
        };
        let mut modules = BTreeSet::new();
        for (k, declaration) in list.iter().enumerate() {
            let text = |m: &str| declaration.get(m).and_then(Value::as_str);
            let Some(name) = text("name") else {
                continue;
            };
            let mut module = naming::snake_case(name);
            while !modules.insert(module.clone()) {
                module.push('_');
            }
            let form = match (text("mode"), declaration.get("requestedSchema")) {
                (Some("form"), Some(schema)) => {
                    let pointer = tool
                        .pointer
                        .key("elicitations")
                        .index(k)
                        .key("requestedSchema");
                    let wanted = naming::type_name(
                        &format!("{}{}", tool.names.trait_name, naming::upper_camel(name)),
                        "Elicitation",
                    );
                    let type_name = types.claim(&wanted);
                    let doc = format!(
                        "Form content of the `{name}` elicitation of the `{}` tool.",
                        tool.name
                    );
                    let prepared = prepare::prepare(
                        schema,
                        &pointer,
                        &type_name,
                        Some(&doc),
                        options,
                        types,
                        diagnostics,
                    );
                    Some(FormIr {
                        schema: schema.clone(),
                        pointer,
                        type_name,
                        prepared,
                    })
                }
                _ => None,
            };
            out.push(ElicitationIr {
                tool: tool.name.clone(),
                tool_module: tool.names.method_name.clone(),
                name: name.to_owned(),
                module,
                message: text("message").unwrap_or_default().to_owned(),
                url: text("url").map(str::to_owned),
                form,
            });
        }
    }
    out
}

/// Emits the `elicitations` module (server side only: a handler sends them), or
/// nothing when no tool declares one.
pub fn emit(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    if ir.elicitations.is_empty() || !settings.generated_side().server() {
        return TokenStream::new();
    }
    let rt = super::server::runtime(settings);
    let mut tools: Vec<(&str, Vec<TokenStream>)> = Vec::new();
    for e in &ir.elicitations {
        let item = declaration(e, &rt);
        match tools.last_mut() {
            Some((module, items)) if *module == e.tool_module => items.push(item),
            _ => tools.push((&e.tool_module, vec![item])),
        }
    }
    let modules = tools.into_iter().map(|(module, items)| {
        let ident = format_ident!("{}", module);
        let doc = format!(" The Elicitation Declarations of the `{module}` tool.");
        quote! {
            #[doc = #doc]
            pub mod #ident {
                #(#items)*
            }
        }
    });
    quote! {
        #[doc = " The Elicitation Declarations of the tools: typed form content, message, and the call that sends each (`Context::elicit_declared`)."]
        pub mod elicitations {
            // A handler uses the declarations it sends; the others stay unused.
            #![allow(dead_code)]
            #(#modules)*
        }
    }
}

fn declaration(e: &ElicitationIr, rt: &TokenStream) -> TokenStream {
    let ident = format_ident!("{}", e.module);
    let doc = format!(
        " The `{}` Elicitation Declaration of the `{}` tool.",
        e.name, e.tool
    );
    let message = &e.message;
    let Some(form) = &e.form else {
        let url = match &e.url {
            Some(url) => quote! { ::std::option::Option::Some(#url) },
            None => quote! { ::std::option::Option::None },
        };
        return quote! {
            #[doc = #doc]
            pub mod #ident {
                #[doc = " The declaration's message."]
                pub const MESSAGE: &str = #message;
                #[doc = " The declaration's static URL, if it has one (URL mode)."]
                pub const URL: ::std::option::Option<&str> = #url;
            }
        };
    };
    let schema = form.schema.to_string();
    let ty = format_ident!("{}", form.type_name);
    quote! {
        #[doc = #doc]
        pub mod #ident {
            #[doc = " The declaration's message."]
            pub const MESSAGE: &str = #message;
            #[doc = " The declaration's `requestedSchema`, as JSON."]
            pub const REQUESTED_SCHEMA: &str = #schema;
            #[doc = " The form content an accepting user sends."]
            pub type Content = super::super::super::types::#ty;
            #[doc = " The declaration, for `Context::elicit_declared::<Declaration>()`."]
            #[derive(Debug, Clone, Copy)]
            pub struct Declaration;
            impl #rt::FormElicitation for Declaration {
                type Content = Content;
                const MESSAGE: &'static str = MESSAGE;
                const REQUESTED_SCHEMA: &'static str = REQUESTED_SCHEMA;
            }
            #[doc = " Sends the elicitation with the declared message: accepted with the typed content, declined or cancelled."]
            pub async fn ask(cx: &#rt::Context) -> ::std::result::Result<#rt::Elicited<Content>, #rt::ClientError> {
                cx.elicit_declared::<Declaration>().await
            }
        }
    }
}
