//! rmcp's session store over a shared [`crate::state::StateStore`]: what lets every instance
//! serve every session.
//!
//! rmcp stores a session's state after its handshake and, when a request names a
//! session its manager does not hold, loads it to start a worker with the same id
//! and replay the handshake (the mechanism hibernation uses, `super::dormant`).
//! Here a load that this instance's dormant table cannot answer (a session opened,
//! or last served, on another instance) is answered from the shared store, and the
//! restored session joins the table as live (it hibernates here like any other).

use std::sync::Arc;

use rmcp::model::InitializeRequestParams;
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};

use super::binding::Binding;
use super::dormant::Dormant;

/// rmcp's session store of an endpoint with a shared state.
pub(crate) struct SharedSessions {
    pub(crate) dormant: Option<Arc<Dormant>>,
    pub(crate) binding: Arc<Binding>,
}

#[async_trait::async_trait]
impl SessionStore for SharedSessions {
    async fn load(&self, id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        if let Some(dormant) = &self.dormant {
            if let Some(state) = dormant.load(id).await? {
                return Ok(Some(state));
            }
        }
        let binding = &self.binding;
        let Some(record) = binding.store().session(id, binding.ttl()).await? else {
            return Ok(None);
        };
        // Opened, but its handshake not stored yet: nothing to replay.
        if record.initialize.is_none() {
            return Ok(None);
        }
        // Its log level and subscriptions, for the replayed `initialize`
        // (`server/adapter/kept.rs`).
        binding.restored().put(id, &record);
        let Some(initialize) = record.initialize else {
            return Ok(None);
        };
        let params: InitializeRequestParams = serde_json::from_value(initialize)?;
        let state = SessionState::new(params);
        if let Some(dormant) = &self.dormant {
            dormant.store(id, &state).await?;
        }
        tracing::debug!("restoring a session from the shared state");
        Ok(Some(state))
    }

    async fn store(&self, id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        if let Some(dormant) = &self.dormant {
            dormant.store(id, state).await?;
        }
        let initialize = serde_json::to_value(&state.initialize_params)?;
        let binding = &self.binding;
        binding
            .store()
            .save_initialize(id, &initialize, binding.ttl())
            .await?;
        Ok(())
    }

    async fn delete(&self, id: &str) -> Result<(), SessionStoreError> {
        if let Some(dormant) = &self.dormant {
            dormant.delete(id).await?;
        }
        self.binding.deleted(id).await;
        Ok(())
    }
}
