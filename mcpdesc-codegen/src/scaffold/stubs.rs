//! Handler stubs: one `impl` block per trait the generator emits for a description,
//! each required method an `async fn` whose body returns a "not implemented" error.
//!
//! The stubs are read off the generated module itself (the server side, parsed with
//! `syn`), not rebuilt from the description: trait names, method names, argument and
//! result types are exactly those the generator emits, `Authenticator` included when
//! the description declares security, so the stubs cannot drift from the contract.
//!
//! ```text
//! impl contract::Greet for Service {
//!     async fn greet(&self, input: types::GreetInput, cx: ::mcpdesc::Context)
//!         -> Result<types::GreetOutput, ::mcpdesc::ToolError> {
//!         Err(::mcpdesc::ToolError::new("not implemented: Greet::greet (src/handlers.rs)"))
//!     }
//! }
//! ```

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use crate::generate::{self, GenerateError};
use crate::settings::{Settings, Side};
use mcpdesc_description::description::Description;

/// The handler traits of `desc` (as `generate` would emit them with `settings`'
/// protocol version) implemented for `stub.self_type` with "not implemented" bodies,
/// as formatted Rust items.
///
/// The items name the traits as `{module}::Trait` and the generated types as
/// `types::Name`: the file they go into has `use crate::{module}::{self, types};`.
/// `stub.location` is where the stubs live (say `src/handlers.rs`), named in each
/// error message so a failing test points at the body to write. A `module` or
/// `self_type` that is not a Rust path is a [`GenerateError::Settings`].
pub fn impl_blocks(
    desc: &Description,
    settings: &Settings,
    stub: &Stub<'_>,
) -> Result<String, GenerateError> {
    let settings = settings.clone().side(Side::Server).tests(false);
    let generated = generate::generate_tokens(desc, &settings)?;
    let file: syn::File = syn::parse_str(&generated.code)
        .map_err(|e| GenerateError::Internal(format!("generated code does not parse: {e}")))?;
    let mut items = Vec::new();
    for item in &file.items {
        if let syn::Item::Trait(t) = item {
            items.extend(impl_block(t, stub)?);
        }
    }
    let file: syn::File = syn::parse2(quote!(#(#items)*))
        .map_err(|e| GenerateError::Internal(format!("stubs do not parse: {e}")))?;
    Ok(prettyplease::unparse(&file))
}

/// What the stubs implement and where they live.
#[derive(Debug, Clone, Copy)]
pub struct Stub<'a> {
    /// The type that implements the traits (`Service`).
    pub self_type: &'a str,
    /// The module holding the generated code, as the stubs' file names it (`contract`).
    pub module: &'a str,
    /// The file of the stubs, named in the "not implemented" messages.
    pub location: &'a str,
}

/// `impl module::Trait for SelfType { .. }` with one stub per required method; `None`
/// for a trait without required methods (`Handlers`, `Server`: blanket-implemented).
fn impl_block(t: &syn::ItemTrait, stub: &Stub<'_>) -> Result<Option<TokenStream>, GenerateError> {
    let trait_name = &t.ident;
    let mut methods = Vec::new();
    for item in &t.items {
        if let syn::TraitItem::Fn(f) = item {
            if f.default.is_none() {
                methods.push(stub_method(t, f, stub)?);
            }
        }
    }
    if methods.is_empty() {
        return Ok(None);
    }
    let path = |text: &str| {
        syn::parse_str::<syn::Path>(text).map_err(|e| {
            GenerateError::Settings(format!("stubs: {text:?} is not a Rust path: {e}"))
        })
    };
    let (module, self_type) = (path(stub.module)?, path(stub.self_type)?);
    // A trait the description marks deprecated still has to be implemented.
    let allow = t
        .attrs
        .iter()
        .any(|a| a.path().is_ident("deprecated"))
        .then(|| quote!(#[allow(deprecated)]));
    Ok(Some(quote! {
        #allow
        impl #module::#trait_name for #self_type {
            #(#methods)*
        }
    }))
}

/// One required method as an `async fn` returning the error of its result type.
fn stub_method(
    t: &syn::ItemTrait,
    f: &syn::TraitItemFn,
    stub: &Stub<'_>,
) -> Result<TokenStream, GenerateError> {
    let message = format!(
        "not implemented: {}::{} ({})",
        t.ident, f.sig.ident, stub.location
    );
    let shape = match &f.sig.output {
        syn::ReturnType::Type(_, ty) => result_of(ty, &message),
        syn::ReturnType::Default => None,
    };
    // Every required method the generator emits returns one of the futures below; a
    // new shape must be taught here rather than stubbed with a panic.
    let (output, error) = shape.ok_or_else(|| {
        GenerateError::Internal(format!(
            "no stub for {}::{}: its return type is not a future the stubs know",
            t.ident, f.sig.ident
        ))
    })?;
    let name = &f.sig.ident;
    let inputs = &f.sig.inputs;
    let generics = &f.sig.generics;
    Ok(quote! {
        async fn #name #generics (#inputs) -> #output {
            #error
        }
    })
}

/// The `async fn` result type of a trait method's `impl ...` return type and the
/// expression of its "not implemented" error:
/// - `impl ToolFuture<T>`: `Result<T, ToolError>`, a tool error (the caller sees it
///   as an `isError` result);
/// - `impl RequestFuture<T>`: `Result<T, RequestError>`, an internal error;
/// - `impl Future<Output = Result<Principal, AuthError>> + Send` (the
///   `Authenticator`): a rejected credential (`401`);
/// - anything else: `None`.
fn result_of(ty: &syn::Type, message: &str) -> Option<(TokenStream, TokenStream)> {
    let syn::Type::ImplTrait(bounds) = ty else {
        return None;
    };
    for bound in &bounds.bounds {
        let syn::TypeParamBound::Trait(bound) = bound else {
            continue;
        };
        let Some(last) = bound.path.segments.last() else {
            continue;
        };
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            continue;
        };
        let mut prefix = bound.path.clone();
        prefix.segments.pop();
        let runtime = prefix.to_token_stream();
        match (last.ident.to_string().as_str(), args.args.first()) {
            ("ToolFuture", Some(syn::GenericArgument::Type(t))) => {
                return Some((
                    quote!(Result<#t, #runtime ToolError>),
                    quote!(Err(#runtime ToolError::new(#message))),
                ));
            }
            ("RequestFuture", Some(syn::GenericArgument::Type(t))) => {
                return Some((
                    quote!(Result<#t, #runtime RequestError>),
                    quote!(Err(#runtime RequestError::new(#message))),
                ));
            }
            ("Future", Some(syn::GenericArgument::AssocType(output))) => {
                let out = &output.ty;
                return Some((out.to_token_stream(), auth_error(out, message)?));
            }
            _ => {}
        }
    }
    None
}

/// `Err(AuthError::rejected(message))` when `output` is `Result<_, path::AuthError>`.
fn auth_error(output: &syn::Type, message: &str) -> Option<TokenStream> {
    let syn::Type::Path(path) = output else {
        return None;
    };
    let last = path.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let syn::GenericArgument::Type(syn::Type::Path(error)) = args.args.iter().nth(1)? else {
        return None;
    };
    (error.path.segments.last()?.ident == "AuthError")
        .then(|| quote!(Err(#error::rejected(#message))))
}
