//! Change notifications a server sends on its own: `notifications/resources/updated`
//! to the sessions subscribed to a URI (`resources/subscribe`), and
//! `notifications/{tools,prompts,resources}/list_changed` to every session whose
//! version declares `listChanged` for that list.
//!
//! [`ChangeNotifier`] is the handle an implementation uses: from a handler through
//! `Context::changes`, from anywhere else through
//! `Router::changes` (taken before the router is served).
//! Every clone reaches the same sessions.
//!
//! The transport adapter registers each session when it meets it (`initialize`, a
//! list request, `resources/subscribe`) with the [`Notifier`] that reaches its
//! client; the registry keeps only a weak reference, so a closed session drops out
//! on its own. Sending is best-effort: a session whose connection is gone is skipped.
//!
//! Across instances: an HTTP server whose state store is shared (`RedisState`)
//! gives the notifier a relay; every announcement then also goes to the other
//! instances sharing the store, which deliver it to their own sessions
//! ([`ChangeNotifier::deliver`]). The announcing instance delivers its own at once
//! and skips it when the store hands it back, so no session hears it twice.
//!
//! A session may have a worker on several instances at once (restored on each that
//! served one of its requests). What one of them changes of the session's state
//! (`resources/subscribe`, `resources/unsubscribe`, `logging/setLevel`) is
//! relayed the same way, as the internal announcements [`SESSION_SUBSCRIBE`],
//! [`SESSION_UNSUBSCRIBE`] and [`SESSION_LEVEL`] (params: the `session` id and the
//! `uri` or `level`; never sent to a client), so the session's other workers agree
//! with it: the one holding the client's standalone stream may well be another
//! instance's than the one that served the `resources/subscribe`.

use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use serde_json::{json, Value};

use super::notifications::{LogLevel, Notifier};
use crate::protocol::version::ProtocolVersion;

/// What one session's version declares: which lists announce their changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ListChanged {
    /// `tools.listChanged`.
    pub tools: bool,
    /// `prompts.listChanged`.
    pub prompts: bool,
    /// `resources.listChanged`.
    pub resources: bool,
}

/// The internal announcement that a session subscribed to a URI on some instance:
/// `{"session": ID, "uri": URI}`.
pub(crate) const SESSION_SUBSCRIBE: &str = "mcpdesc/session/subscribe";
/// The internal announcement that a session unsubscribed from a URI:
/// `{"session": ID, "uri": URI}`.
pub(crate) const SESSION_UNSUBSCRIBE: &str = "mcpdesc/session/unsubscribe";
/// The internal announcement that a session set its log level:
/// `{"session": ID, "level": LEVEL}`.
pub(crate) const SESSION_LEVEL: &str = "mcpdesc/session/level";

const RESOURCE_UPDATED: &str = "notifications/resources/updated";
const TOOLS_LIST_CHANGED: &str = "notifications/tools/list_changed";
const PROMPTS_LIST_CHANGED: &str = "notifications/prompts/list_changed";
const RESOURCES_LIST_CHANGED: &str = "notifications/resources/list_changed";

/// One connected session, as the registry sees it.
pub(crate) struct SessionLink {
    version: ProtocolVersion,
    list_changed: ListChanged,
    notifier: Arc<dyn Notifier>,
    /// The URIs of the session's `resources/subscribe` calls.
    subscribed: Mutex<HashSet<String>>,
    /// The level of the session's last `logging/setLevel`; `None` before the first.
    level: Mutex<Option<LogLevel>>,
    /// The session's id, when it is known (an HTTP session with a shared store):
    /// what the internal session announcements name.
    id: OnceLock<String>,
}

// Sessions are made and registered only by the rmcp transport adapter; without
// the `rmcp` feature the notifier has no session to reach, but keeps its API so
// handlers compile the same.
#[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
impl SessionLink {
    /// A session speaking `version`, reached through `notifier`.
    pub fn new(
        version: ProtocolVersion,
        list_changed: ListChanged,
        notifier: Arc<dyn Notifier>,
    ) -> Self {
        SessionLink {
            version,
            list_changed,
            notifier,
            subscribed: Mutex::default(),
            level: Mutex::default(),
            id: OnceLock::new(),
        }
    }

    /// Names the session (the first id given stays).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub fn identify(&self, id: &str) {
        if self.id.get().is_none() {
            let _ = self.id.set(id.to_owned());
        }
    }

    /// Records a `logging/setLevel`.
    pub fn set_level(&self, level: LogLevel) {
        *self.level.lock().unwrap_or_else(|e| e.into_inner()) = Some(level);
    }

    /// The level of the last `logging/setLevel`; `None` before the first.
    pub fn level(&self) -> Option<LogLevel> {
        *self.level.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a `resources/subscribe` (subscribing twice is one subscription).
    pub fn subscribe(&self, uri: &str) {
        self.uris().insert(uri.to_owned());
    }

    /// Records a `resources/unsubscribe`; unsubscribing from a URI never subscribed
    /// is not an error (the result is the same).
    pub fn unsubscribe(&self, uri: &str) {
        self.uris().remove(uri);
    }

    fn is_subscribed(&self, uri: &str) -> bool {
        self.uris().contains(uri)
    }

    fn uris(&self) -> std::sync::MutexGuard<'_, HashSet<String>> {
        self.subscribed.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for SessionLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SessionLink")
            .field("version", &self.version)
            .field("list_changed", &self.list_changed)
            .field("subscribed", &*self.uris())
            .field("level", &self.level())
            .field("id", &self.id.get())
            .finish()
    }
}

/// Sends change notifications to the server's connected sessions (see the module
/// docs): cheap to clone, every clone reaches the same sessions.
///
/// Each method resolves to the number of sessions the notification was sent to.
///
/// ```
/// # async fn f(router: &mcpdesc::Router) {
/// let changes = router.changes();
/// // ... after the resource changed:
/// let sent = changes.resource_updated("test://watched-resource").await;
/// # let _ = sent; }
/// ```
#[derive(Clone, Default)]
pub struct ChangeNotifier {
    sessions: Arc<Mutex<Vec<Weak<SessionLink>>>>,
    /// Where every announcement also goes: the other instances (see the module
    /// docs); unset on a single instance.
    relay: Arc<OnceLock<Relay>>,
}

/// Takes an announcement (`method`, `params`) to the other instances; it must not
/// wait (the HTTP layer queues it for a task of its own).
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) type Relay = Arc<dyn Fn(&'static str, &Value) + Send + Sync>;

impl fmt::Debug for ChangeNotifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChangeNotifier")
            .field("sessions", &self.live().len())
            .finish()
    }
}

impl ChangeNotifier {
    /// Adds a session; it stays until its last strong reference is dropped.
    #[cfg_attr(not(feature = "rmcp"), allow(dead_code))]
    pub(crate) fn register(&self, session: &Arc<SessionLink>) {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        // Pruned here too, so a long-running server that never notifies does not
        // grow the list with closed sessions.
        sessions.retain(|s| s.strong_count() > 0);
        sessions.push(Arc::downgrade(session));
    }

    /// Sends every later announcement through `relay` too; `false` when a relay
    /// was set already (the first one stays).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn relay_to(&self, relay: Relay) -> bool {
        self.relay.set(relay).is_ok()
    }

    /// Delivers an announcement another instance made (`method`, `params`) to this
    /// instance's sessions, as the method of the same name would, without relaying
    /// it again; an unknown method or a `resources/updated` without its `uri`
    /// reaches nobody.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) async fn deliver(&self, method: &str, params: &Value) -> usize {
        match method {
            RESOURCE_UPDATED => {
                let Some(uri) = params.get("uri").and_then(Value::as_str) else {
                    return 0;
                };
                self.send_local(RESOURCE_UPDATED, params, |s| s.is_subscribed(uri))
                    .await
            }
            TOOLS_LIST_CHANGED => {
                self.send_local(TOOLS_LIST_CHANGED, params, |s| s.list_changed.tools)
                    .await
            }
            PROMPTS_LIST_CHANGED => {
                self.send_local(PROMPTS_LIST_CHANGED, params, |s| s.list_changed.prompts)
                    .await
            }
            RESOURCES_LIST_CHANGED => {
                self.send_local(RESOURCES_LIST_CHANGED, params, |s| s.list_changed.resources)
                    .await
            }
            SESSION_SUBSCRIBE | SESSION_UNSUBSCRIBE | SESSION_LEVEL => {
                self.update_session(method, params)
            }
            _ => 0,
        }
    }

    /// Applies an internal session announcement to this instance's worker of that
    /// session, if it has one; how many were updated.
    fn update_session(&self, method: &str, params: &Value) -> usize {
        let Some(id) = params.get("session").and_then(Value::as_str) else {
            return 0;
        };
        let mut updated = 0;
        for session in self.live() {
            if session.id.get().map(String::as_str) != Some(id) {
                continue;
            }
            match (method, params.get("uri").and_then(Value::as_str)) {
                (SESSION_SUBSCRIBE, Some(uri)) => session.subscribe(uri),
                (SESSION_UNSUBSCRIBE, Some(uri)) => session.unsubscribe(uri),
                (SESSION_LEVEL, _) => {
                    let level = params.get("level").and_then(Value::as_str);
                    match level.and_then(|l| l.parse().ok()) {
                        Some(level) => session.set_level(level),
                        None => continue,
                    }
                }
                _ => continue,
            }
            updated += 1;
        }
        updated
    }

    /// Tells the other instances (when a relay is set) that session `id` changed
    /// its state: `method` is [`SESSION_SUBSCRIBE`], [`SESSION_UNSUBSCRIBE`] (with
    /// `value` the URI) or [`SESSION_LEVEL`] (the level's name).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn session_changed(&self, method: &'static str, id: &str, value: &str) {
        let Some(relay) = self.relay.get() else {
            return;
        };
        let params = match method {
            SESSION_LEVEL => json!({"session": id, "level": value}),
            _ => json!({"session": id, "uri": value}),
        };
        relay(method, &params);
    }

    /// The sessions still open.
    fn live(&self) -> Vec<Arc<SessionLink>> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        sessions.retain(|s| s.strong_count() > 0);
        sessions.iter().filter_map(Weak::upgrade).collect()
    }

    /// Sends `notifications/resources/updated` for `uri` to every session subscribed
    /// to it. With a shared state store, the sessions of the other instances hear
    /// it too; the count is this instance's.
    pub async fn resource_updated(&self, uri: &str) -> usize {
        let params = json!({"uri": uri});
        self.send(RESOURCE_UPDATED, &params, |s| s.is_subscribed(uri))
            .await
    }

    /// Sends `notifications/tools/list_changed` to every session whose version
    /// declares `tools.listChanged`.
    pub async fn tools_list_changed(&self) -> usize {
        self.send(TOOLS_LIST_CHANGED, &json!({}), |s| s.list_changed.tools)
            .await
    }

    /// Sends `notifications/prompts/list_changed` to every session whose version
    /// declares `prompts.listChanged`.
    pub async fn prompts_list_changed(&self) -> usize {
        self.send(PROMPTS_LIST_CHANGED, &json!({}), |s| s.list_changed.prompts)
            .await
    }

    /// Sends `notifications/resources/list_changed` to every session whose version
    /// declares `resources.listChanged`.
    pub async fn resources_list_changed(&self) -> usize {
        self.send(RESOURCES_LIST_CHANGED, &json!({}), |s| {
            s.list_changed.resources
        })
        .await
    }

    /// Sends to this instance's sessions `to` selects, and relays to the other
    /// instances when a relay is set.
    async fn send(
        &self,
        method: &'static str,
        params: &Value,
        to: impl Fn(&SessionLink) -> bool,
    ) -> usize {
        if let Some(relay) = self.relay.get() {
            relay(method, params);
        }
        self.send_local(method, params, to).await
    }

    async fn send_local(
        &self,
        method: &'static str,
        params: &Value,
        to: impl Fn(&SessionLink) -> bool,
    ) -> usize {
        let mut sent = 0;
        for session in self.live().into_iter().filter(|s| to(s)) {
            // A session whose connection closed fails here; the others still get it.
            if session
                .notifier
                .notify(method, params.clone())
                .await
                .is_ok()
            {
                sent += 1;
            }
        }
        sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::error::ClientError;
    use crate::protocol::futures::BoxFuture;

    #[derive(Default)]
    struct Recorder(Mutex<Vec<(&'static str, Value)>>);

    impl Notifier for Recorder {
        fn notify(
            &self,
            method: &'static str,
            params: Value,
        ) -> BoxFuture<'_, Result<(), ClientError>> {
            self.0.lock().unwrap().push((method, params));
            Box::pin(async { Ok(()) })
        }
    }

    fn session(list_changed: ListChanged) -> (Arc<SessionLink>, Arc<Recorder>) {
        let recorder = Arc::new(Recorder::default());
        let link = SessionLink::new(ProtocolVersion::V2025_11_25, list_changed, recorder.clone());
        (Arc::new(link), recorder)
    }

    #[test]
    fn updates_reach_subscribed_sessions_and_list_changes_declared_ones() {
        let changes = ChangeNotifier::default();
        let (a, sent_a) = session(ListChanged {
            tools: true,
            ..ListChanged::default()
        });
        let (b, sent_b) = session(ListChanged::default());
        changes.register(&a);
        changes.register(&b);
        a.subscribe("test://x");
        b.subscribe("test://x");
        b.unsubscribe("test://x");
        use futures::executor::block_on as block;
        assert_eq!(block(changes.resource_updated("test://x")), 1);
        assert_eq!(block(changes.resource_updated("test://y")), 0);
        assert_eq!(block(changes.tools_list_changed()), 1);
        assert_eq!(block(changes.prompts_list_changed()), 0);
        assert_eq!(
            *sent_a.0.lock().unwrap(),
            vec![
                (
                    "notifications/resources/updated",
                    json!({"uri": "test://x"})
                ),
                ("notifications/tools/list_changed", json!({})),
            ]
        );
        assert!(sent_b.0.lock().unwrap().is_empty());
        // What another instance announced reaches the same sessions, and is not
        // relayed again.
        let relayed = Arc::new(Mutex::new(Vec::new()));
        let into = relayed.clone();
        assert!(changes.relay_to(Arc::new(move |method, params: &Value| {
            into.lock().unwrap().push((method, params.clone()));
        })));
        let params = json!({"uri": "test://x"});
        assert_eq!(block(changes.deliver(RESOURCE_UPDATED, &params)), 1);
        assert_eq!(block(changes.deliver(RESOURCE_UPDATED, &json!({}))), 0);
        assert_eq!(
            block(changes.deliver("notifications/unknown", &json!({}))),
            0
        );
        assert!(relayed.lock().unwrap().is_empty());
        assert_eq!(block(changes.tools_list_changed()), 1);
        assert_eq!(
            *relayed.lock().unwrap(),
            vec![(TOOLS_LIST_CHANGED, json!({}))]
        );
        assert_eq!(sent_a.0.lock().unwrap().len(), 4);
        // A dropped session is gone.
        drop(a);
        assert_eq!(block(changes.tools_list_changed()), 0);
        assert_eq!(changes.live().len(), 1);
    }

    #[test]
    fn session_announcements_update_the_named_session_only() {
        use futures::executor::block_on as block;
        let changes = ChangeNotifier::default();
        let (a, sent_a) = session(ListChanged::default());
        let (b, _) = session(ListChanged::default());
        changes.register(&a);
        changes.register(&b);
        a.identify("s-a");
        let subscribe = json!({"session": "s-a", "uri": "test://z"});
        assert_eq!(block(changes.deliver(SESSION_SUBSCRIBE, &subscribe)), 1);
        let level = json!({"session": "s-a", "level": "error"});
        assert_eq!(block(changes.deliver(SESSION_LEVEL, &level)), 1);
        let unknown = json!({"session": "s-a", "level": "loud"});
        assert_eq!(block(changes.deliver(SESSION_LEVEL, &unknown)), 0);
        let other = json!({"session": "s-x", "uri": "test://z"});
        assert_eq!(block(changes.deliver(SESSION_SUBSCRIBE, &other)), 0);
        assert_eq!(a.level(), Some(LogLevel::Error));
        assert_eq!(b.level(), None);
        assert_eq!(block(changes.resource_updated("test://z")), 1);
        assert_eq!(sent_a.0.lock().unwrap().len(), 1);
        let unsubscribe = json!({"session": "s-a", "uri": "test://z"});
        assert_eq!(block(changes.deliver(SESSION_UNSUBSCRIBE, &unsubscribe)), 1);
        assert_eq!(block(changes.resource_updated("test://z")), 0);
    }
}
