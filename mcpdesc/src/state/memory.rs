//! The default store: one process's memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;

use super::owner::Owner;
use super::store::{SessionRecord, StateError, StateStore};

/// Sessions' records in this process's memory (see the module docs of
/// `mcpdesc::state`): not shared, no time to live (a record is removed when its
/// session ends on this instance).
#[derive(Debug, Default)]
pub struct MemoryState {
    sessions: Mutex<HashMap<String, SessionRecord>>,
}

impl MemoryState {
    /// An empty store.
    pub fn new() -> MemoryState {
        MemoryState::default()
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<String, SessionRecord>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many sessions it holds.
    pub fn len(&self) -> usize {
        self.sessions().len()
    }

    /// Whether it holds no session.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[async_trait::async_trait]
impl StateStore for MemoryState {
    fn shared(&self) -> bool {
        false
    }

    async fn open_session(
        &self,
        id: &str,
        owner: Option<&Owner>,
        _: Option<Duration>,
    ) -> Result<(), StateError> {
        self.sessions().entry(id.to_owned()).or_default().owner = owner.cloned();
        Ok(())
    }

    async fn save_initialize(
        &self,
        id: &str,
        initialize: &Value,
        _: Option<Duration>,
    ) -> Result<(), StateError> {
        self.sessions().entry(id.to_owned()).or_default().initialize = Some(initialize.clone());
        Ok(())
    }

    async fn session(
        &self,
        id: &str,
        _: Option<Duration>,
    ) -> Result<Option<SessionRecord>, StateError> {
        Ok(self.sessions().get(id).cloned())
    }

    async fn claim_session(&self, id: &str, owner: &Owner) -> Result<Option<Owner>, StateError> {
        let mut sessions = self.sessions();
        let Some(record) = sessions.get_mut(id) else {
            return Ok(None);
        };
        Ok(Some(
            record.owner.get_or_insert_with(|| owner.clone()).clone(),
        ))
    }

    // ---- Session state kept for a restore (announcements: the trait's defaults,
    // one process delivers its own).

    async fn save_log_level(
        &self,
        id: &str,
        level: &str,
        _: Option<Duration>,
    ) -> Result<(), StateError> {
        if let Some(record) = self.sessions().get_mut(id) {
            record.log_level = Some(level.to_owned());
        }
        Ok(())
    }

    async fn save_subscription(
        &self,
        id: &str,
        uri: &str,
        subscribed: bool,
        _: Option<Duration>,
    ) -> Result<(), StateError> {
        if let Some(record) = self.sessions().get_mut(id) {
            let uris = &mut record.subscriptions;
            match (uris.binary_search_by(|u| u.as_str().cmp(uri)), subscribed) {
                (Err(at), true) => uris.insert(at, uri.to_owned()),
                (Ok(at), false) => {
                    uris.remove(at);
                }
                _ => {}
            }
        }
        Ok(())
    }

    async fn remove_session(&self, id: &str) -> Result<bool, StateError> {
        Ok(self.sessions().remove(id).is_some())
    }
}
