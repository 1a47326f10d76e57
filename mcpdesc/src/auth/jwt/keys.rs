//! Where the verification keys come from: a static JSON Web Key Set, or a JWKS URL
//! fetched over HTTP and cached.
//!
//! The cache is refreshed when it is older than its maximum age, and when a token
//! names a key id (`kid`) the cached set does not have (the issuer rotated its keys),
//! at most once per refetch interval: a stream of tokens with made-up key ids cannot
//! make the server hammer the identity provider. One fetch runs at a time; requests
//! arriving meanwhile wait for it. When a fetch fails, the previous set (if any) stays
//! in use; with no set yet, the requests of the next refetch interval get the same
//! failure without a new fetch.

use std::sync::Arc;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use tokio::sync::Mutex;

/// The largest JWKS document read (a set of a few keys is a few KiB).
const MAX_JWKS_BYTES: usize = 1024 * 1024;

/// Why no key set could be had.
#[derive(Debug, Clone)]
pub(crate) struct FetchError(pub(crate) String);

/// The keys: fixed, or fetched from a URL and cached.
pub(crate) enum KeySource {
    /// A set given in code.
    Static(Arc<JwkSet>),
    /// A JWKS URL.
    Remote(RemoteKeys),
}

/// A JWKS URL, its HTTP client and its cache.
pub(crate) struct RemoteKeys {
    url: String,
    client: reqwest::Client,
    timing: Timing,
    cache: Mutex<Cache>,
}

/// How often the remote set is fetched.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timing {
    /// A cached set older than this is fetched again before use.
    pub(crate) max_age: Duration,
    /// The shortest time between two fetches caused by unknown key ids (or between
    /// two failed fetches).
    pub(crate) refetch_interval: Duration,
    /// The bound of one fetch.
    pub(crate) timeout: Duration,
}

#[derive(Default)]
struct Cache {
    keys: Option<Arc<JwkSet>>,
    fetched_at: Option<Instant>,
    attempted_at: Option<Instant>,
    /// Why the last fetch failed, while no set was ever fetched: repeated to the
    /// requests of the refetch interval instead of fetching for each.
    failure: Option<FetchError>,
}

impl RemoteKeys {
    pub(crate) fn new(url: String, timing: Timing) -> Self {
        RemoteKeys {
            url,
            client: reqwest::Client::new(),
            timing,
            cache: Mutex::new(Cache::default()),
        }
    }

    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    pub(crate) fn timing(&self) -> Timing {
        self.timing
    }

    pub(crate) fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
    }

    /// The cached set, fetched first when there is none or it is too old.
    pub(crate) async fn current(&self) -> Result<Arc<JwkSet>, FetchError> {
        let mut cache = self.cache.lock().await;
        let fresh = cache
            .fetched_at
            .is_some_and(|at| at.elapsed() < self.timing.max_age);
        match &cache.keys {
            Some(keys) if fresh => return Ok(keys.clone()),
            // A stale set: refresh it, unless a fetch was tried very recently.
            Some(keys) if !self.may_fetch(&cache) => return Ok(keys.clone()),
            // No set yet and the last fetch just failed: do not hammer the provider.
            None if !self.may_fetch(&cache) => {
                if let Some(failure) = &cache.failure {
                    return Err(failure.clone());
                }
            }
            _ => {}
        }
        self.fetch_into(&mut cache).await
    }

    /// The set after a refetch, when a token named a key id that `seen` (the set it
    /// was looked up in) lacks; the same set when another request refetched since, or
    /// when the last fetch is younger than the refetch interval.
    pub(crate) async fn refreshed(&self, seen: &Arc<JwkSet>) -> Result<Arc<JwkSet>, FetchError> {
        let mut cache = self.cache.lock().await;
        if let Some(keys) = &cache.keys {
            if !Arc::ptr_eq(keys, seen) || !self.may_fetch(&cache) {
                return Ok(keys.clone());
            }
        }
        self.fetch_into(&mut cache).await
    }

    fn may_fetch(&self, cache: &Cache) -> bool {
        cache
            .attempted_at
            .is_none_or(|at| at.elapsed() >= self.timing.refetch_interval)
    }

    async fn fetch_into(&self, cache: &mut Cache) -> Result<Arc<JwkSet>, FetchError> {
        cache.attempted_at = Some(Instant::now());
        match self.fetch().await {
            Ok(keys) => {
                let keys = Arc::new(keys);
                cache.keys = Some(keys.clone());
                cache.fetched_at = Some(Instant::now());
                cache.failure = None;
                Ok(keys)
            }
            // Keep serving the keys we had: the provider may be down for a moment.
            Err(e) => match &cache.keys {
                Some(keys) => Ok(keys.clone()),
                None => {
                    cache.failure = Some(e.clone());
                    Err(e)
                }
            },
        }
    }

    async fn fetch(&self) -> Result<JwkSet, FetchError> {
        let failed = |e: &dyn std::fmt::Display| FetchError(format!("JWKS {}: {e}", self.url));
        let response = self
            .client
            .get(&self.url)
            .header("accept", "application/json")
            .timeout(self.timing.timeout)
            .send()
            .await
            .map_err(|e| failed(&e))?;
        let status = response.status();
        if !status.is_success() {
            return Err(failed(&format_args!("HTTP status {status}")));
        }
        if response
            .content_length()
            .is_some_and(|n| n > MAX_JWKS_BYTES as u64)
        {
            return Err(failed(&"document too large"));
        }
        let body = response.bytes().await.map_err(|e| failed(&e))?;
        if body.len() > MAX_JWKS_BYTES {
            return Err(failed(&"document too large"));
        }
        serde_json::from_slice(&body).map_err(|e| failed(&e))
    }
}

impl KeySource {
    /// The current set.
    pub(crate) async fn current(&self) -> Result<Arc<JwkSet>, FetchError> {
        match self {
            KeySource::Static(keys) => Ok(keys.clone()),
            KeySource::Remote(remote) => remote.current().await,
        }
    }

    /// The set to look an unknown key id up in again (see [`RemoteKeys::refreshed`]);
    /// `None` for a static set, which never changes.
    pub(crate) async fn refreshed(
        &self,
        seen: &Arc<JwkSet>,
    ) -> Option<Result<Arc<JwkSet>, FetchError>> {
        match self {
            KeySource::Static(_) => None,
            KeySource::Remote(remote) => Some(remote.refreshed(seen).await),
        }
    }
}
