//! JWT bearer tokens (feature `jwt`): [`JwtAuthenticator`] verifies signed access
//! tokens against the issuer's JSON Web Key Set, fetched from a JWKS URL and cached
//! (`keys.rs`), or a static set; the principal comes from the claims (`claims.rs`).
//!
//! ```no_run
//! use mcpdesc::auth::jwt::JwtAuthenticator;
//!
//! let tokens = JwtAuthenticator::from_jwks_url(
//!     "https://id.example.com/.well-known/jwks.json",
//!     "https://id.example.com/",
//! );
//! let router = mcpdesc::Router::new(mcpdesc::ServerInfo::new("demo", "1.0.0")).authenticator(tokens);
//! # let _ = router;
//! ```
//!
//! What a token must be to be accepted:
//!
//! - a JWS signed with RS256, ES256 or EdDSA (settable: [`JwtAuthenticator::algorithms`]);
//!   `alg: none` and the HMAC algorithms (`HS*`) are always refused, so a token
//!   "signed" with the public key as an HMAC secret gets nowhere;
//! - signed by a key of the set: the one its `kid` names (an unknown `kid` refetches
//!   the JWKS, at most once per [refetch interval](JwtAuthenticator::refetch_interval)),
//!   or without a `kid` any key of the set for its algorithm; a key whose `alg` names
//!   another algorithm, or whose `use` is not `sig`, is not used;
//! - `iss` equal to the issuer; `aud` naming the audience: by default the protected
//!   resource's URL ([`AuthRequest::resource`](crate::auth::AuthRequest::resource),
//!   RFC 8707 and the MCP authorization specification), else the ones set with
//!   [`JwtAuthenticator::audience`]; compared as exact strings;
//! - `exp` in the future and `nbf` (if any) in the past, with a leeway of 60 seconds
//!   by default ([`JwtAuthenticator::leeway`]);
//! - a non-empty string `sub`: the principal's subject.
//!
//! The scopes are those of `scope` (space separated) and `scp` (an array, or a space
//! separated string); every claim is kept in the principal.
//!
//! A token refused for any of these reasons is an [`AuthError::rejected`](crate::auth::AuthError::rejected): over HTTP a
//! `401` whose `WWW-Authenticate` carries `error="invalid_token"`. When no key set
//! can be had at all (the JWKS URL unreachable and nothing cached), the refusal is
//! [`AuthError::unavailable`](crate::auth::AuthError::unavailable) (`503`): the token was not judged.
//!
//! The JWKS is fetched with reqwest: plain `http://` URLs with the `jwt` feature;
//! `https://` ones need a TLS stack (feature `jwt-https`, or `client-https`).

mod authenticator;
mod claims;
mod keys;

pub use authenticator::{
    JwtAuthenticator, DEFAULT_ALGORITHMS, DEFAULT_FETCH_TIMEOUT, DEFAULT_LEEWAY, DEFAULT_MAX_AGE,
    DEFAULT_REFETCH_INTERVAL,
};
/// A JSON Web Key Set (re-exported from `jsonwebtoken`), for [`JwtAuthenticator::from_keys`].
pub use jsonwebtoken::jwk::JwkSet;
/// The signature algorithms (re-exported from `jsonwebtoken`).
pub use jsonwebtoken::Algorithm;
