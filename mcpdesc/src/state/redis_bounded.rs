//! One Redis operation bounded by the store's timeout (feature `redis`): past it, or
//! when Redis refuses, a [`StateError`] (the request that needed it gets `503`).

use std::future::Future;
use std::time::Duration;

use super::store::StateError;

/// `operation`, bounded by `timeout`.
pub(super) async fn bounded<T>(
    timeout: Duration,
    operation: impl Future<Output = redis::RedisResult<T>>,
) -> Result<T, StateError> {
    match tokio::time::timeout(timeout, operation).await {
        Ok(result) => result.map_err(StateError::new),
        Err(_) => Err(StateError::new(format!(
            "Redis did not answer within {} ms",
            timeout.as_millis()
        ))),
    }
}
