//! [`JwtAuthenticator`]: JWT bearer tokens verified against a key set, the claims
//! checked, the principal made.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey, Validation};
use serde_json::{Map, Value};

use super::claims;
use super::keys::{self, KeySource, RemoteKeys, Timing};
use crate::auth::authenticator::Authenticator;
use crate::auth::credential::{Credential, Secret};
use crate::auth::principal::{AuthError, Principal};
use crate::protocol::futures::BoxFuture;

/// The algorithms accepted unless [`JwtAuthenticator::algorithms`] says otherwise.
pub const DEFAULT_ALGORITHMS: [Algorithm; 3] =
    [Algorithm::RS256, Algorithm::ES256, Algorithm::EdDSA];
/// The default clock leeway for `exp` and `nbf`.
pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(60);
/// The default shortest time between two JWKS fetches caused by unknown key ids.
pub const DEFAULT_REFETCH_INTERVAL: Duration = Duration::from_secs(30);
/// The default age after which a cached JWKS is fetched again.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(3600);
/// The default bound of one JWKS fetch.
pub const DEFAULT_FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// An [`Authenticator`] for JWT bearer tokens: what it accepts is told in the
/// `mcpdesc::auth::jwt` module docs.
///
/// Every credential that is not a bearer token is rejected.
pub struct JwtAuthenticator {
    keys: KeySource,
    issuer: String,
    audience: Option<Vec<String>>,
    leeway: Duration,
    algorithms: Vec<Algorithm>,
}

impl JwtAuthenticator {
    /// Tokens of `issuer`, verified with the keys of the JWKS at `url` (fetched on
    /// first use, then cached).
    pub fn from_jwks_url(url: impl Into<String>, issuer: impl Into<String>) -> Self {
        let timing = Timing {
            max_age: DEFAULT_MAX_AGE,
            refetch_interval: DEFAULT_REFETCH_INTERVAL,
            timeout: DEFAULT_FETCH_TIMEOUT,
        };
        Self::with_source(
            KeySource::Remote(RemoteKeys::new(url.into(), timing)),
            issuer,
        )
    }

    /// Tokens of `issuer`, verified with the keys of `keys` (never refetched).
    pub fn from_keys(keys: JwkSet, issuer: impl Into<String>) -> Self {
        Self::with_source(KeySource::Static(Arc::new(keys)), issuer)
    }

    fn with_source(keys: KeySource, issuer: impl Into<String>) -> Self {
        JwtAuthenticator {
            keys,
            issuer: issuer.into(),
            audience: None,
            leeway: DEFAULT_LEEWAY,
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
        }
    }

    /// Accept tokens whose `aud` names any of `audiences` instead of the protected
    /// resource's URL.
    pub fn audience<S: Into<String>>(mut self, audiences: impl IntoIterator<Item = S>) -> Self {
        self.audience = Some(audiences.into_iter().map(Into::into).collect());
        self
    }

    /// The clock leeway for `exp` and `nbf` (default [`DEFAULT_LEEWAY`]).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// The signature algorithms accepted (default [`DEFAULT_ALGORITHMS`]). The HMAC
    /// algorithms are dropped from the list: a resource server verifying with public
    /// keys must never accept them.
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|a| a.family() != AlgorithmFamily::Hmac)
            .collect();
        self
    }

    /// The shortest time between two JWKS fetches caused by an unknown key id or a
    /// failed fetch (default [`DEFAULT_REFETCH_INTERVAL`]); no effect on a static set.
    pub fn refetch_interval(self, interval: Duration) -> Self {
        self.timing(|t| t.refetch_interval = interval)
    }

    /// The age after which a cached JWKS is fetched again before use (default
    /// [`DEFAULT_MAX_AGE`]); no effect on a static set.
    pub fn max_age(self, max_age: Duration) -> Self {
        self.timing(|t| t.max_age = max_age)
    }

    /// The bound of one JWKS fetch (default [`DEFAULT_FETCH_TIMEOUT`]).
    pub fn fetch_timeout(self, timeout: Duration) -> Self {
        self.timing(|t| t.timeout = timeout)
    }

    fn timing(mut self, change: impl FnOnce(&mut Timing)) -> Self {
        if let KeySource::Remote(remote) = &mut self.keys {
            let mut timing = remote.timing();
            change(&mut timing);
            remote.set_timing(timing);
        }
        self
    }

    /// The issuer whose tokens are accepted.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// Verifies `token` for the protected resource `resource`.
    pub async fn verify(&self, token: &str, resource: &str) -> Result<Principal, AuthError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| AuthError::rejected(format!("malformed token: {}", reason(e.kind()))))?;
        let alg = header.alg;
        if !self.algorithms.contains(&alg) {
            return Err(AuthError::rejected(format!(
                "the algorithm {alg:?} is not accepted"
            )));
        }
        let unavailable = |e: keys::FetchError| AuthError::unavailable(e.0);
        let mut set = self.keys.current().await.map_err(unavailable)?;
        if let Some(kid) = &header.kid {
            if set.find(kid).is_none() {
                // The issuer may have rotated its keys since the set was fetched.
                if let Some(refreshed) = self.keys.refreshed(&set).await {
                    set = refreshed.map_err(unavailable)?;
                }
            }
        }
        let candidates: Vec<&Jwk> = match &header.kid {
            Some(kid) => set.find(kid).into_iter().collect(),
            None => set.keys.iter().collect(),
        };
        let validation = self.validation(alg, resource);
        let mut last = AuthError::rejected(match &header.kid {
            Some(_) => "no key of the issuer has the token's `kid`",
            None => "no key of the issuer verifies the token",
        });
        for jwk in candidates.into_iter().filter(|jwk| usable(jwk, alg)) {
            let Ok(key) = DecodingKey::from_jwk(jwk) else {
                continue;
            };
            match jsonwebtoken::decode::<Map<String, Value>>(token, &key, &validation) {
                Ok(data) => return claims::principal(data.claims),
                Err(e) => last = AuthError::rejected(reason(e.kind())),
            }
        }
        Err(last)
    }

    fn validation(&self, alg: Algorithm, resource: &str) -> Validation {
        let mut validation = Validation::new(alg);
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        match &self.audience {
            Some(audiences) => validation.set_audience(audiences),
            None => validation.set_audience(&[resource]),
        }
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation
    }
}

/// Whether `jwk` may verify a token signed with `alg`: not a symmetric key, meant
/// for signatures, and of the token's algorithm when it names one.
fn usable(jwk: &Jwk, alg: Algorithm) -> bool {
    let signing = !matches!(
        jwk.common.public_key_use,
        Some(PublicKeyUse::Encryption | PublicKeyUse::Other(_))
    );
    let same_alg = jwk
        .common
        .key_algorithm
        .is_none_or(|k| Algorithm::try_from(k).ok() == Some(alg));
    signing && same_alg && jwk.is_supported()
}

/// What went wrong, in words a client may see.
fn reason(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
        ErrorKind::InvalidIssuer => "the token was issued by another issuer".into(),
        ErrorKind::InvalidAudience => "the token was issued for another audience".into(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}`"),
        ErrorKind::InvalidClaimFormat(claim) => format!("the token's `{claim}` is malformed"),
        ErrorKind::InvalidAlgorithm | ErrorKind::InvalidAlgorithmName => {
            "the token's algorithm is not accepted".into()
        }
        _ => "the token is not a valid JWT".into(),
    }
}

impl fmt::Debug for JwtAuthenticator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keys = match &self.keys {
            KeySource::Static(set) => format!("{} static key(s)", set.keys.len()),
            KeySource::Remote(remote) => format!("JWKS {}", remote.url()),
        };
        f.debug_struct("JwtAuthenticator")
            .field("keys", &keys)
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("leeway", &self.leeway)
            .field("algorithms", &self.algorithms)
            .finish()
    }
}

impl Authenticator for JwtAuthenticator {
    fn authenticate<'a>(
        &'a self,
        credential: Credential,
    ) -> BoxFuture<'a, Result<Principal, AuthError>> {
        Box::pin(async move {
            match credential.secret() {
                Secret::Bearer(token) => self.verify(token, credential.request().resource()).await,
                _ => Err(AuthError::rejected("a JWT bearer token is expected")),
            }
        })
    }
}
