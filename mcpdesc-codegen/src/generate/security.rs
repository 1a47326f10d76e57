//! The security side of the generated module: `info::SECURITY` (the description's
//! security for the runtime), the `Authenticator` trait with one method per security
//! scheme a requirement names, and its dispatch in `router(server)`.
//!
//! For a description with an `oauth2` scheme `games-oauth` and an `apiKey` scheme
//! `api-key` (header `X-API-Key`), both named by some Security Requirement, the
//! emitted code has this shape:
//!
//! ```text
//! pub trait Authenticator: Send + Sync {
//!     /// `games-oauth` (oauth2): verifies an OAuth 2.0 access token ...
//!     fn authenticate_games_oauth(&self, token: &str, request: &::mcpdesc::auth::AuthRequest)
//!         -> impl Future<Output = Result<::mcpdesc::auth::Principal, ::mcpdesc::auth::AuthError>> + Send;
//!     /// `api-key` (apiKey in the header `X-API-Key`): verifies an API key.
//!     fn authenticate_api_key(&self, key: &str, request: &::mcpdesc::auth::AuthRequest)
//!         -> impl Future<Output = ...> + Send;
//! }
//! pub trait Handlers: AnalyzeGame + ... + Send + Sync + 'static {}    // every handler trait
//! pub trait Server: Handlers + Authenticator {}
//! pub fn router<S: Server>(server: S) -> ::mcpdesc::Router {
//!     // handlers_router(server) + .authenticator(dispatch on the credential's scheme)
//! }
//! pub fn router_behind_gateway<S: Handlers>(server: S) -> ::mcpdesc::Router {
//!     // handlers_router(server) + .without_authentication()
//! }
//! ```
//!
//! The method parameter follows the scheme's credential: `token: &str` for
//! `oauth2`, `openIdConnect` and `http` `bearer`; `key: &str` for `apiKey`;
//! `credentials: &::mcpdesc::auth::BasicCredentials` for `http` `basic`;
//! `credentials: &str` (as sent) for another `http` scheme. Method names are
//! `authenticate_{scheme}` in snake case, numbered from 2 when two schemes give the
//! same name. Without a requirement that names a scheme, nothing here is emitted but
//! `info::SECURITY`, and `router` needs no authenticator.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub use super::ir::security::{declaration_json, CredentialKind, SchemeIr, SecurityIr};

/// The parameter a scheme's method takes for its credential.
fn parameter(rt: &TokenStream, kind: CredentialKind) -> TokenStream {
    match kind {
        CredentialKind::Bearer => quote!(token: &str),
        CredentialKind::ApiKey => quote!(key: &str),
        CredentialKind::Basic => quote!(credentials: &#rt::auth::BasicCredentials),
        CredentialKind::Other => quote!(credentials: &str),
    }
}

/// `pub trait Authenticator` (nothing when no requirement names a scheme).
pub fn emit_trait(rt: &TokenStream, ir: &SecurityIr) -> TokenStream {
    if !ir.needs_authenticator() {
        return TokenStream::new();
    }
    let methods = ir.schemes.iter().map(|s| {
        let method = format_ident!("{}", s.method);
        let param = parameter(rt, s.credential);
        let doc = &s.doc;
        quote! {
            #(#[doc = #doc])*
            fn #method(
                &self,
                #param,
                request: &#rt::auth::AuthRequest,
            ) -> impl ::core::future::Future<
                Output = ::core::result::Result<#rt::auth::Principal, #rt::auth::AuthError>,
            > + Send;
        }
    });
    quote! {
        /// Verifies the credentials of the description's security schemes, one method
        /// per scheme a Security Requirement names. `router(server)` needs it, like a
        /// handler trait: over HTTP every request's credentials are verified with it
        /// before anything else, and each primitive's effective requirement (its own
        /// `security`, else the transport's, else the root's) is checked against the
        /// principals it returns before the handler runs (see `mcpdesc::auth`). A
        /// server behind a gateway that authenticates every request itself uses
        /// `router_behind_gateway(server)` instead.
        #[allow(dead_code)]
        pub trait Authenticator: Send + Sync {
            #(#methods)*
        }
    }
}

/// The argument of `.authenticator(...)` in `router`: a dispatch from the
/// credential's scheme to its method.
pub fn emit_dispatch(rt: &TokenStream, ir: &SecurityIr) -> TokenStream {
    let arms = ir.schemes.iter().map(|s| {
        let name = &s.name;
        let method = format_ident!("{}", s.method);
        let (pattern, argument) = match s.credential {
            CredentialKind::Bearer => (quote!(#rt::auth::Secret::Bearer(secret)), quote!(secret)),
            CredentialKind::ApiKey => (quote!(#rt::auth::Secret::ApiKey(secret)), quote!(secret)),
            CredentialKind::Basic => (quote!(#rt::auth::Secret::Basic(secret)), quote!(secret)),
            CredentialKind::Other => (
                quote!(#rt::auth::Secret::Other { credentials: secret, .. }),
                quote!(secret),
            ),
        };
        quote! {
            (#name, #pattern) => {
                Authenticator::#method(&*server, #argument, credential.request()).await
            }
        }
    });
    quote! {
        #rt::auth::from_fn(move |credential: #rt::auth::Credential| {
            let server = #rt::__private::Arc::clone(&server);
            #rt::__private::boxed(async move {
                match (credential.scheme(), credential.secret()) {
                    #(#arms)*
                    _ => ::core::result::Result::Err(#rt::auth::AuthError::rejected(
                        "the credential is not of the kind its security scheme declares",
                    )),
                }
            })
        })
    }
}

/// `impl Authenticator for ExampleServer`: the mock holds no credentials and rejects
/// every one.
pub fn emit_example_impl(rt: &TokenStream, ir: &SecurityIr) -> TokenStream {
    if !ir.needs_authenticator() {
        return TokenStream::new();
    }
    let methods = ir.schemes.iter().map(|s| {
        let method = format_ident!("{}", s.method);
        let param = match s.credential {
            CredentialKind::Bearer => quote!(_token: &str),
            CredentialKind::ApiKey => quote!(_key: &str),
            CredentialKind::Basic => quote!(_credentials: &#rt::auth::BasicCredentials),
            CredentialKind::Other => quote!(_credentials: &str),
        };
        quote! {
            async fn #method(
                &self,
                #param,
                _request: &#rt::auth::AuthRequest,
            ) -> ::core::result::Result<#rt::auth::Principal, #rt::auth::AuthError> {
                ::core::result::Result::Err(#rt::auth::AuthError::rejected(
                    "the example mock accepts no credentials",
                ))
            }
        }
    });
    quote! {
        /// The mock holds no credentials: every one is rejected, so over HTTP only
        /// public primitives answer. Serve `router_behind_gateway(ExampleServer::new())`
        /// to skip authentication, or `mcpdesc serve-mock --token` for test credentials.
        impl Authenticator for ExampleServer {
            #(#methods)*
        }
    }
}
