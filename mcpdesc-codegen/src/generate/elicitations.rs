//! Typed elicitations: the `elicitations` module, one module per primitive with
//! Elicitation Declarations and one per declaration in it.
//!
//! A form-mode declaration's `requestedSchema` goes through the same preparation and
//! typify pass as tool inputs (its type is `types::{Trait}{Declaration}Elicitation`,
//! `{Trait}` the primitive's trait name: `RecordGameResult`, `OpeningStudyPrompt`,
//! `BoardResource`, `OpeningTemplate`); its module has the message, the schema, the
//! content type and `Declaration`, the
//! [`FormElicitation`](../../../mcpdesc/trait.FormElicitation.html) a handler sends
//! with `cx.elicit_declared::<Declaration>()` (or `ask(&cx)`), answered as
//! `Elicited<Content>`: accept with typed content, decline or cancel. A renamed form
//! property renames the content type's field, so a handler that reads it stops
//! compiling. A URL-mode declaration's module has its message and static URL.
//!
//! Tools' modules sit directly in `elicitations` (`elicitations::<tool method>`);
//! prompts', resources' and templates' in one module per kind
//! (`elicitations::prompts::<name>`, `elicitations::resources::<name>`,
//! `elicitations::resource_templates::<name>`, named as the metadata modules
//! `prompts::<name>`, ...), so that a prompt named like a tool gets its own module.
//! No tool's module takes a kind module's name: tool methods never take `prompts`,
//! `resources` or `resource_templates` ([`super::naming::RESERVED_METHODS`]; a tool named
//! `prompts` has the method and module `prompts_2`).
//!
//! ```text
//! pub mod elicitations {
//!     pub mod record_game_result {
//!         pub mod confirm_unusual {
//!             pub const MESSAGE: &str = "...";
//!             pub const REQUESTED_SCHEMA: &str = "{...}";
//!             pub type Content = super::super::super::types::RecordGameResultConfirmUnusualElicitation;
//!             pub struct Declaration;
//!             impl ::mcpdesc::FormElicitation for Declaration { ... }
//!             pub async fn ask(cx: &::mcpdesc::Context) -> Result<::mcpdesc::Elicited<Content>, ::mcpdesc::ClientError>;
//!         }
//!     }
//!     pub mod prompts {
//!         pub mod opening_study {
//!             pub mod choose_side { /* the same items */ }
//!         }
//!     }
//! }
//! ```

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::ModuleIr;
use crate::settings::Settings;

pub use super::ir::elicitation::{ElicitationIr, FormIr, OwnerKind};

/// Emits the `elicitations` module (server side only: a handler sends them), or
/// nothing when no primitive declares one.
pub fn emit(ir: &ModuleIr, settings: &Settings) -> TokenStream {
    if ir.elicitations.is_empty() || !settings.generated_side().server() {
        return TokenStream::new();
    }
    let rt = super::runtime::runtime(settings);
    let mut tools = Vec::new();
    let mut kinds = Vec::new();
    for kind in [
        OwnerKind::Tool,
        OwnerKind::Prompt,
        OwnerKind::Resource,
        OwnerKind::Template,
    ] {
        let of_kind: Vec<&ElicitationIr> =
            ir.elicitations.iter().filter(|e| e.kind == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        // One level deeper in a kind module.
        let depth = if kind == OwnerKind::Tool { 3 } else { 4 };
        let modules = owner_modules(&of_kind, &rt, depth);
        match kind.module() {
            None => tools = modules,
            Some(name) => {
                let ident = format_ident!("{}", name);
                let doc = format!(" The Elicitation Declarations of the {}s.", kind.noun());
                kinds.push(quote! {
                    #[doc = #doc]
                    pub mod #ident {
                        #(#modules)*
                    }
                });
            }
        }
    }
    quote! {
        #[doc = " The Elicitation Declarations of the tools, prompts, resources and resource templates: typed form content, message, and the call that sends each (`Context::elicit_declared`)."]
        pub mod elicitations {
            // A handler uses the declarations it sends; the others stay unused.
            #![allow(dead_code)]
            #(#tools)*
            #(#kinds)*
        }
    }
}

/// One module per primitive of `list` (all of one kind, in order), holding its
/// declarations; `depth` is how many `super`s lead from a declaration's module to the
/// generated module.
fn owner_modules(list: &[&ElicitationIr], rt: &TokenStream, depth: usize) -> Vec<TokenStream> {
    let mut owners: Vec<(&ElicitationIr, Vec<TokenStream>)> = Vec::new();
    for e in list {
        let item = declaration(e, rt, depth);
        match owners.last_mut() {
            Some((first, items)) if first.owner_module == e.owner_module => items.push(item),
            _ => owners.push((e, vec![item])),
        }
    }
    owners
        .into_iter()
        .map(|(e, items)| {
            let ident = format_ident!("{}", e.owner_module);
            let doc = format!(
                " The Elicitation Declarations of the `{}` {}.",
                e.owner,
                e.kind.noun()
            );
            quote! {
                #[doc = #doc]
                pub mod #ident {
                    #(#items)*
                }
            }
        })
        .collect()
}

fn declaration(e: &ElicitationIr, rt: &TokenStream, depth: usize) -> TokenStream {
    let ident = format_ident!("{}", e.module);
    let doc = format!(
        " The `{}` Elicitation Declaration of the `{}` {}.",
        e.name,
        e.owner,
        e.kind.noun()
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
    let supers = (0..depth).map(|_| quote!(super::));
    quote! {
        #[doc = #doc]
        pub mod #ident {
            #[doc = " The declaration's message."]
            pub const MESSAGE: &str = #message;
            #[doc = " The declaration's `requestedSchema`, as JSON."]
            pub const REQUESTED_SCHEMA: &str = #schema;
            #[doc = " The form content an accepting user sends."]
            pub type Content = #(#supers)* types::#ty;
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
