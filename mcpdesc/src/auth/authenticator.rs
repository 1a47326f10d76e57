//! The runtime's authenticator interface and [`StaticTokens`], a fixed table of test
//! credentials (what `mcpdesc serve-mock --token` uses).

use std::fmt;

use super::credential::{Credential, Secret};
use super::principal::{AuthError, Principal};
use crate::protocol::futures::BoxFuture;

/// Verifies a credential and says who presented it.
///
/// Generated code implements it over the description's `Authenticator` trait (one
/// method per security scheme); a hand-built `Router` takes any
/// implementation, a closure included:
///
/// ```
/// use mcpdesc::auth::{AuthError, Credential, Principal, Secret};
///
/// let authenticator = |credential: Credential| -> mcpdesc::BoxFuture<'static, Result<Principal, AuthError>> {
///     Box::pin(async move {
///         match credential.secret() {
///             Secret::Bearer(token) if token == "let-me-in" => {
///                 Ok(Principal::new("tester").with_scopes(["games:read"]))
///             }
///             _ => Err(AuthError::rejected("unknown token")),
///         }
///     })
/// };
/// # let _: &dyn mcpdesc::auth::Authenticator = &authenticator;
/// ```
///
/// It runs before anything else of a request, once per credential the request
/// carries (a bearer token shared by several bearer-type schemes is verified for
/// each); it should be quick, or cache.
pub trait Authenticator: Send + Sync + 'static {
    /// The principal `credential` belongs to, or why there is none.
    fn authenticate<'a>(
        &'a self,
        credential: Credential,
    ) -> BoxFuture<'a, Result<Principal, AuthError>>;
}

impl<F> Authenticator for F
where
    F: Fn(Credential) -> BoxFuture<'static, Result<Principal, AuthError>> + Send + Sync + 'static,
{
    fn authenticate<'a>(
        &'a self,
        credential: Credential,
    ) -> BoxFuture<'a, Result<Principal, AuthError>> {
        self(credential)
    }
}

/// An authenticator from a closure; the closure's signature is inferred from this
/// function's bound (what generated code passes to
/// `Router::authenticator`).
///
/// ```
/// use mcpdesc::auth::{AuthError, Principal, Secret};
///
/// let authenticator = mcpdesc::auth::from_fn(|credential| {
///     Box::pin(async move {
///         match credential.secret() {
///             Secret::ApiKey(key) if key == "k-1" => Ok(Principal::new("ops")),
///             _ => Err(AuthError::rejected("unknown key")),
///         }
///     })
/// });
/// let router = mcpdesc::Router::new(mcpdesc::ServerInfo::new("demo", "1.0.0")).authenticator(authenticator);
/// # let _ = router;
/// ```
pub fn from_fn<F>(authenticate: F) -> F
where
    F: Fn(Credential) -> BoxFuture<'static, Result<Principal, AuthError>> + Send + Sync + 'static,
{
    authenticate
}

/// A fixed table of credentials, for tests and mocks: a bearer token, an API key or
/// the credentials of another HTTP scheme equal to a token of the table, or HTTP
/// Basic credentials whose *password* equals one (any user name; it becomes the
/// principal's subject), authenticate the token's principal. Every scheme accepts
/// every token of the table. Comparisons take the same time whatever the input.
///
/// ```
/// use mcpdesc::auth::{AuthRequest, Authenticator, Credential, Principal, Secret, StaticTokens};
///
/// let tokens = StaticTokens::new()
///     .token("reader-token", Principal::new("reader").with_scopes(["games:read"]));
/// let credential = Credential::new("oauth", Secret::Bearer("reader-token".into()), AuthRequest::default());
/// let principal = futures::executor::block_on(tokens.authenticate(credential)).unwrap();
/// assert!(principal.has_scope("games:read"));
/// ```
#[derive(Clone, Default)]
pub struct StaticTokens {
    tokens: Vec<(String, Principal)>,
}

impl StaticTokens {
    /// An empty table (every credential is rejected).
    pub fn new() -> Self {
        StaticTokens::default()
    }

    /// The same table with `token` authenticating `principal`.
    pub fn token(mut self, token: impl Into<String>, principal: Principal) -> Self {
        self.tokens.push((token.into(), principal));
        self
    }

    /// How many tokens the table holds.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    fn find(&self, presented: &str) -> Option<&Principal> {
        let mut found = None;
        // Compare with every entry, without stopping early.
        for (token, principal) in &self.tokens {
            if constant_time_eq(token.as_bytes(), presented.as_bytes()) && found.is_none() {
                found = Some(principal);
            }
        }
        found
    }
}

impl fmt::Debug for StaticTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticTokens")
            .field(
                "principals",
                &self.tokens.iter().map(|(_, p)| p).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Authenticator for StaticTokens {
    fn authenticate<'a>(
        &'a self,
        credential: Credential,
    ) -> BoxFuture<'a, Result<Principal, AuthError>> {
        let found = match credential.secret() {
            Secret::Bearer(token) | Secret::ApiKey(token) => self.find(token).cloned(),
            Secret::Other { credentials, .. } => self.find(credentials).cloned(),
            Secret::Basic(basic) => self.find(basic.password()).map(|p| {
                let mut principal = Principal::new(basic.user());
                principal = principal.with_scopes(p.scopes().map(str::to_owned));
                for (name, value) in p.claims() {
                    principal = principal.with_claim(name.clone(), value.clone());
                }
                principal
            }),
        };
        Box::pin(async move { found.ok_or_else(|| AuthError::rejected("unknown credential")) })
    }
}

/// Equality of two byte strings in a time that depends on their lengths only.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut difference = a.len() ^ b.len();
    for (i, x) in a.iter().enumerate() {
        let y = b.get(i).copied().unwrap_or(0);
        difference |= usize::from(x ^ y);
    }
    difference == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::credential::{AuthRequest, BasicCredentials};

    fn run(tokens: &StaticTokens, secret: Secret) -> Result<Principal, AuthError> {
        futures::executor::block_on(tokens.authenticate(Credential::new(
            "s",
            secret,
            AuthRequest::default(),
        )))
    }

    #[test]
    fn static_tokens() {
        let tokens = StaticTokens::new()
            .token("abc", Principal::new("one").with_scopes(["r"]))
            .token("xyz", Principal::new("two"));
        assert_eq!(
            run(&tokens, Secret::Bearer("abc".into()))
                .unwrap()
                .subject(),
            "one"
        );
        assert_eq!(
            run(&tokens, Secret::ApiKey("xyz".into()))
                .unwrap()
                .subject(),
            "two"
        );
        assert!(run(&tokens, Secret::Bearer("ab".into())).is_err());
        assert!(run(&tokens, Secret::Bearer("abcd".into())).is_err());
        let basic = run(&tokens, Secret::Basic(BasicCredentials::new("ana", "abc"))).unwrap();
        assert_eq!(basic.subject(), "ana");
        assert!(basic.has_scope("r"));
        assert!(!format!("{tokens:?}").contains("abc"));
    }

    #[test]
    fn constant_time_eq_is_equality() {
        assert!(constant_time_eq(b"", b""));
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
        assert!(!constant_time_eq(b"ab", b"abc"));
    }
}
