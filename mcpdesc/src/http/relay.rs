//! A session's messages across instances (a shared store): what makes a session whose
//! requests land on several instances behave as one.
//!
//! With plain round robin, one session's messages spread over the instances: the
//! client's `GET` stream (where rmcp sends what is not the answer to a request: log
//! messages, server requests of their own) is held by one instance, a `tools/call` runs
//! on another, and the client's `notifications/cancelled` for that call, or its answer to
//! an elicitation the call asked for, may land on a third. Each instance runs its own
//! worker for the session (restored from the store), so without help each of those
//! messages would reach a worker that knows nothing of it. Two relays fix that, both
//! through the store's relay channel ([`StateStore::publish_relayed`],
//! [`StateStore::relay_feed`]):
//!
//! - **Client to server.** A notification (other than `notifications/initialized`) or a
//!   response the client posts is handed to this instance's worker and relayed; every
//!   other instance where the session is live hands it to its worker too. The worker
//!   running the request concerned acts on it (a cancellation stops the handler, an
//!   elicitation's answer resumes it); the others ignore an id they do not know, as
//!   rmcp does.
//! - **Server to client.** On an instance where the session is live but the client holds
//!   no `GET` stream, a *pump* takes the worker's standalone stream (rmcp's "common
//!   channel") and relays what comes out of it; the instance holding the client's `GET`
//!   stream merges what it hears for that session into the stream. When the client's
//!   `GET` comes to an instance with a pump, the pump stops first, so the client's
//!   stream becomes the worker's standalone stream (rmcp then replays its last messages
//!   to it, as it does for any reconnecting `GET`). Change notifications
//!   (`list_changed`, `resources/updated`) are not pumped: every instance delivers them
//!   to its own sessions from the change feed (`super::changes`), the instance holding
//!   the client's stream included, so pumping them would deliver them twice.
//!
//! A pump ends with its worker (the session hibernates or ends here). Relayed messages
//! are best-effort, like the notifications they carry: a store that is down loses them
//! (the request that posted them is answered as usual).
//!
//! [`StateStore::publish_relayed`]: crate::state::StateStore::publish_relayed
//! [`StateStore::relay_feed`]: crate::state::StateStore::relay_feed

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context as TaskContext, Poll};

use futures::{Stream, StreamExt};
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::state::{RelayDirection, RelayedMessage, StateStore};

/// How many relayed messages a client's `GET` stream holds before it drops new ones
/// (a client that reads nothing for that long has lost its stream anyway).
const LISTENER_CAPACITY: usize = 64;

/// The relays of one HTTP server (see the module docs).
pub(crate) struct Relay {
    store: Arc<dyn StateStore>,
    /// This server's id in relayed messages.
    origin: String,
    /// Sessions whose client's `GET` stream this instance holds.
    listeners: Mutex<HashMap<Arc<str>, Listener>>,
    /// Sessions live here whose standalone stream a pump relays.
    pumps: Mutex<HashMap<Arc<str>, Pump>>,
    /// Serializes starting and stopping pumps (two requests racing to start one would
    /// leave the second a shadow stream that hears nothing).
    pumping: tokio::sync::Mutex<()>,
    /// Tells listeners and pumps apart across replacements.
    generation: AtomicU64,
}

struct Listener {
    generation: u64,
    sender: tokio::sync::mpsc::Sender<ServerSseMessage>,
}

struct Pump {
    generation: u64,
    task: JoinHandle<()>,
}

impl Relay {
    /// The relays of a server with the shared `store`, its messages signed `origin`.
    pub(crate) fn new(store: Arc<dyn StateStore>, origin: String) -> Relay {
        Relay {
            store,
            origin,
            listeners: Mutex::new(HashMap::new()),
            pumps: Mutex::new(HashMap::new()),
            pumping: tokio::sync::Mutex::new(()),
            generation: AtomicU64::new(0),
        }
    }

    /// Starts reading the store's relay feed for `manager`'s sessions, until
    /// `shutdown` or the manager's end. Does nothing when the store has no feed, or
    /// outside a Tokio runtime (a warning).
    pub(crate) fn start(
        self: &Arc<Self>,
        manager: Weak<LocalSessionManager>,
        shutdown: CancellationToken,
    ) {
        if tokio::runtime::Handle::try_current().is_err() {
            tracing::warn!("mcpdesc: session messages are not relayed between instances: the HTTP server was built outside a Tokio runtime");
            return;
        }
        let Some(mut feed) = self.store.relay_feed() else {
            return;
        };
        let relay = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let relayed = tokio::select! {
                    relayed = feed.recv() => match relayed {
                        Some(relayed) => relayed,
                        None => return,
                    },
                    _ = shutdown.cancelled() => return,
                };
                let (Some(relay), Some(manager)) = (relay.upgrade(), manager.upgrade()) else {
                    return;
                };
                if relayed.origin != relay.origin {
                    relay.receive(&manager, relayed).await;
                }
            }
        });
    }

    /// What another instance relayed.
    async fn receive(&self, manager: &LocalSessionManager, relayed: RelayedMessage) {
        let session: SessionId = Arc::from(relayed.session.as_str());
        match relayed.direction {
            RelayDirection::Server => {
                // Only a worker live here can be running the request concerned.
                if !manager.has_session(&session).await.unwrap_or(false) {
                    return;
                }
                let Ok(message) = serde_json::from_value::<ClientJsonRpcMessage>(relayed.message)
                else {
                    return;
                };
                if let Err(error) = manager.accept_message(&session, message).await {
                    tracing::debug!(%error, "mcpdesc: a relayed client message found no session worker");
                }
            }
            RelayDirection::Client => {
                let sender = {
                    let listeners = self.listeners.lock().unwrap_or_else(|e| e.into_inner());
                    match listeners.get(&session) {
                        Some(listener) => listener.sender.clone(),
                        None => return,
                    }
                };
                let Ok(message) = serde_json::from_value::<ServerJsonRpcMessage>(relayed.message)
                else {
                    return;
                };
                let mut event = ServerSseMessage::from_message(message);
                event.event_id = relayed.event_id;
                if sender.try_send(event).is_err() {
                    tracing::debug!("mcpdesc: a relayed message was dropped (the client's stream is full or gone)");
                }
            }
        }
    }

    /// Relays `message`, which the client posted for `session`, to the other
    /// instances, unless only this instance's worker needs it.
    pub(crate) async fn client_message(&self, session: &SessionId, message: &ClientJsonRpcMessage) {
        let relayed = match message {
            ClientJsonRpcMessage::Notification(notification) => !matches!(
                notification.notification,
                ClientNotification::InitializedNotification(_)
            ),
            ClientJsonRpcMessage::Response(_) | ClientJsonRpcMessage::Error(_) => true,
            ClientJsonRpcMessage::Request(_) => false,
        };
        if relayed {
            self.publish(session, RelayDirection::Server, message, None)
                .await;
        }
    }

    async fn publish(
        &self,
        session: &SessionId,
        direction: RelayDirection,
        message: &impl serde::Serialize,
        event_id: Option<String>,
    ) {
        let Ok(message) = serde_json::to_value(message) else {
            return;
        };
        let relayed = RelayedMessage {
            origin: self.origin.clone(),
            session: session.to_string(),
            direction,
            message,
            event_id,
        };
        if let Err(error) = self.store.publish_relayed(&relayed).await {
            tracing::warn!(%error, "mcpdesc: a session message did not reach the other instances");
        }
    }

    /// Whether `session` has a pump or a client's stream here.
    fn covered(&self, session: &SessionId) -> bool {
        self.listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(session)
            || self
                .pumps
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(session)
                .is_some_and(|pump| !pump.task.is_finished())
    }

    /// Makes sure what `session`'s worker here sends on its standalone stream reaches
    /// the client: it does when the client's stream is here; otherwise a pump relays
    /// it. Called for every request of a session live here.
    pub(crate) async fn cover(
        self: &Arc<Self>,
        manager: &LocalSessionManager,
        session: &SessionId,
    ) {
        if self.covered(session) {
            return;
        }
        let _pumping = self.pumping.lock().await;
        if self.covered(session) {
            return;
        }
        let Ok(stream) = manager.create_standalone_stream(session).await else {
            return;
        };
        let generation = self.generation.fetch_add(1, Ordering::Relaxed);
        let relay = self.clone();
        let id = session.clone();
        let task = tokio::spawn(async move {
            let mut stream = std::pin::pin!(stream);
            while let Some(event) = stream.next().await {
                let Some(message) = event.message else {
                    continue;
                };
                if !is_change(&message) {
                    relay
                        .publish(&id, RelayDirection::Client, &*message, event.event_id)
                        .await;
                }
            }
            // The worker ended (hibernated, closed): forget the pump.
            let mut pumps = relay.pumps.lock().unwrap_or_else(|e| e.into_inner());
            if pumps.get(&id).is_some_and(|p| p.generation == generation) {
                pumps.remove(&id);
            }
        });
        self.pumps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(session.clone(), Pump { generation, task });
    }

    /// Stops `session`'s pump, if any, and waits until its stream is gone, so that the
    /// next standalone stream rmcp opens for the session is its primary one.
    async fn stop_pump(&self, session: &SessionId) {
        let pump = self
            .pumps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(session);
        if let Some(pump) = pump {
            pump.task.abort();
            let _ = pump.task.await;
        }
    }

    /// The client's `GET` stream of `session`: stops the session's pump, opens the
    /// worker's standalone stream with `open`, and merges what other instances relay
    /// for the session into it. The stream ends when the worker's does.
    pub(crate) async fn listen<S, E>(
        self: &Arc<Self>,
        session: &SessionId,
        open: impl std::future::Future<Output = Result<S, E>>,
    ) -> Result<Merged<S>, E>
    where
        S: Stream<Item = ServerSseMessage> + Send + Sync + 'static,
    {
        let _pumping = self.pumping.lock().await;
        self.stop_pump(session).await;
        let inner = open.await?;
        let generation = self.generation.fetch_add(1, Ordering::Relaxed);
        let (sender, relayed) = tokio::sync::mpsc::channel(LISTENER_CAPACITY);
        self.listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(session.clone(), Listener { generation, sender });
        Ok(Merged {
            inner: Box::pin(inner),
            relayed,
            _registered: Registered {
                relay: self.clone(),
                session: session.clone(),
                generation,
            },
        })
    }

    /// Forgets `session` (it ended here).
    pub(crate) fn forget(&self, session: &SessionId) {
        if let Some(pump) = self
            .pumps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(session)
        {
            pump.task.abort();
        }
        self.listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(session);
    }
}

/// A random id for this server in relayed messages: the process's random hasher
/// keys, its id, the time and a counter (two servers in one process differ).
pub(crate) fn origin_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static SERVERS: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    let server = SERVERS.fetch_add(1, Ordering::Relaxed);
    hasher.write_u64(server);
    format!("{:016x}-{}-{server}", hasher.finish(), std::process::id())
}

/// A client's `GET` stream: the worker's standalone stream, and what other instances
/// relay for the session ([`Relay::listen`]). It ends when the worker's stream does.
pub(crate) struct Merged<S> {
    inner: Pin<Box<S>>,
    relayed: tokio::sync::mpsc::Receiver<ServerSseMessage>,
    _registered: Registered,
}

impl<S: Stream<Item = ServerSseMessage>> Stream for Merged<S> {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Option<Self::Item>> {
        match self.inner.as_mut().poll_next(cx) {
            Poll::Ready(next) => Poll::Ready(next),
            Poll::Pending => match self.relayed.poll_recv(cx) {
                Poll::Ready(Some(event)) => Poll::Ready(Some(event)),
                // The sender lives in the listener table; it is gone only once this
                // stream was replaced there: the worker's stream still decides.
                Poll::Ready(None) | Poll::Pending => Poll::Pending,
            },
        }
    }
}

/// A listener's entry, removed when its stream is dropped (unless a newer stream of
/// the session replaced it).
struct Registered {
    relay: Arc<Relay>,
    session: SessionId,
    generation: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut listeners = self
            .relay
            .listeners
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if listeners
            .get(&self.session)
            .is_some_and(|l| l.generation == self.generation)
        {
            listeners.remove(&self.session);
        }
    }
}

/// Whether `message` is a change notification (delivered by every instance from the
/// change feed, never pumped).
fn is_change(message: &ServerJsonRpcMessage) -> bool {
    use rmcp::model::ServerNotification as N;
    matches!(
        message,
        ServerJsonRpcMessage::Notification(n) if matches!(
            n.notification,
            N::ResourceUpdatedNotification(_)
                | N::ResourceListChangedNotification(_)
                | N::ToolListChangedNotification(_)
                | N::PromptListChangedNotification(_)
        )
    )
}
