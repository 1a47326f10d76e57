//! Who a request is: the [`Principal`] an authenticator returns for a credential,
//! the [`Authentication`] of a request (one principal per scheme that verified a
//! credential), and [`AuthError`], an authenticator's refusal.

use std::collections::BTreeSet;
use std::fmt;

use serde_json::{Map, Value};

/// Who presented a credential, and what they may do: a subject, the scopes granted
/// (OAuth 2.0 / OpenID Connect scopes; for API keys and HTTP authentication whatever
/// the authenticator grants) and any claims worth keeping for handlers.
///
/// ```
/// use mcpdesc::auth::Principal;
///
/// // A verified access token whose `scope` claim was "games:read games:write".
/// let p = Principal::new("user-42")
///     .with_scopes("games:read games:write".split_whitespace())
///     .with_claim("tenant", "acme".into());
/// assert!(p.has_scope("games:write"));
/// assert_eq!(p.claim("tenant"), Some(&serde_json::json!("acme")));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    subject: String,
    scopes: BTreeSet<String>,
    claims: Map<String, Value>,
}

impl Principal {
    /// A principal with no scopes and no claims.
    pub fn new(subject: impl Into<String>) -> Self {
        Principal {
            subject: subject.into(),
            scopes: BTreeSet::new(),
            claims: Map::new(),
        }
    }

    /// The same principal with these scopes granted too.
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes.extend(scopes.into_iter().map(Into::into));
        self
    }

    /// The same principal with a claim (replacing one of the same name).
    pub fn with_claim(mut self, name: impl Into<String>, value: Value) -> Self {
        self.claims.insert(name.into(), value);
        self
    }

    /// The subject (a user id, a client id, an API key's owner...).
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The scopes granted, sorted.
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        self.scopes.iter().map(String::as_str)
    }

    /// Whether `scope` is granted.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.contains(scope)
    }

    /// Every claim.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }

    /// One claim.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.claims.get(name)
    }
}

/// What a request authenticated: for each security scheme whose credential was
/// verified, the principal its authenticator returned (in the order the schemes
/// were checked).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Authentication {
    entries: Vec<(String, Principal)>,
}

impl Authentication {
    /// Records that `scheme` authenticated `principal` (replacing an earlier one of
    /// the same scheme).
    pub fn push(&mut self, scheme: impl Into<String>, principal: Principal) {
        let scheme = scheme.into();
        match self.position(&scheme) {
            Some(at) => self.entries[at].1 = principal,
            None => self.entries.push((scheme, principal)),
        }
    }

    /// Whether nothing was authenticated (an anonymous request).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The `(scheme, principal)` pairs.
    pub fn entries(&self) -> &[(String, Principal)] {
        &self.entries
    }

    /// The principal `scheme` authenticated.
    pub fn principal(&self, scheme: &str) -> Option<&Principal> {
        self.position(scheme).map(|at| &self.entries[at].1)
    }

    pub(crate) fn position(&self, scheme: &str) -> Option<usize> {
        self.entries.iter().position(|(s, _)| s == scheme)
    }
}

/// Why an authenticator did not return a principal.
///
/// - [`AuthError::rejected`]: the credential is not valid (unknown, expired,
///   revoked, issued for another resource...). The client gets `401 Unauthorized`
///   with `error="invalid_token"` and the message as `error_description`; send
///   nothing there you would not show the caller.
/// - [`AuthError::unavailable`]: the authenticator could not decide (its identity
///   provider is down...). The client gets `503 Service Unavailable`; the message
///   is not sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthError {
    kind: AuthErrorKind,
    message: String,
}

/// The two kinds of [`AuthError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthErrorKind {
    /// The credential is not valid: 401.
    Rejected,
    /// The credential could not be checked: 503.
    Unavailable,
}

impl AuthError {
    /// The credential is not valid.
    pub fn rejected(message: impl Into<String>) -> Self {
        AuthError {
            kind: AuthErrorKind::Rejected,
            message: message.into(),
        }
    }

    /// The credential could not be checked.
    pub fn unavailable(message: impl Into<String>) -> Self {
        AuthError {
            kind: AuthErrorKind::Unavailable,
            message: message.into(),
        }
    }

    /// Which kind of refusal.
    pub fn kind(&self) -> AuthErrorKind {
        self.kind
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AuthError {}
